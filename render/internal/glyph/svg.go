package glyph

import (
	"math"
	"strconv"
)

// AppendSVGPath appends the outlines of run, placed by t, to dst as SVG path data (SVG 1.1,
// 8.3 "Path data"): absolute M, L, Q and Z commands, numbers with at most two decimals and no
// zero before the point, a command letter left out where it repeats. Fill it with the non-zero
// rule (SVG's default). t should have YUp false, SVG's y growing downwards.
func (f *Face) AppendSVGPath(dst []byte, run Run, t Transform) []byte {
	w := svgPen{b: dst}
	f.Walk(run, t, &w)
	return w.b
}

// svgPen writes path data; last is the command written last, to leave out its repeats.
type svgPen struct {
	b    []byte
	last byte
}

func (w *svgPen) MoveTo(x, y float64) { w.command('M', x, y) }
func (w *svgPen) LineTo(x, y float64) { w.command('L', x, y) }

func (w *svgPen) QuadTo(cx, cy, x, y float64) {
	w.command('Q', cx, cy)
	w.b = appendCoordinate(w.b, x)
	w.b = appendCoordinate(w.b, y)
}

func (w *svgPen) Close() {
	w.b = append(w.b, 'Z')
	w.last = 'Z'
}

// command appends command c and its first point; after a command of the same letter (M's
// implicit repeat is L, so M is always written) only the point.
func (w *svgPen) command(c byte, x, y float64) {
	if c != w.last || c == 'M' {
		w.b = append(w.b, c)
		w.last = c
	}
	w.b = appendCoordinate(w.b, x)
	w.b = appendCoordinate(w.b, y)
}

// appendCoordinate appends v as appendNumber does, after a space if it follows a number and
// does not start with a minus sign (which separates it already).
func appendCoordinate(dst []byte, v float64) []byte {
	n := len(dst)
	if n == 0 || isCommand(dst[n-1]) {
		return appendNumber(dst, v)
	}
	dst = appendNumber(append(dst, ' '), v)
	if dst[n+1] == '-' {
		dst = append(dst[:n], dst[n+1:]...)
	}
	return dst
}

func isCommand(c byte) bool { return c >= 'A' && c <= 'Z' }

// appendNumber appends v rounded to two decimals, as short as possible: no trailing zeros, no
// zero before the point, no sign on zero ("1.5", ".25", "-.5", "0"). It works on the integer
// number of hundredths, several times faster than strconv.AppendFloat.
func appendNumber(dst []byte, v float64) []byte {
	c := int64(math.Round(v * 100))
	if c < 0 {
		dst = append(dst, '-')
		c = -c
	}
	whole, hundredths := c/100, c%100
	if whole != 0 || hundredths == 0 {
		dst = strconv.AppendInt(dst, whole, 10)
	}
	if hundredths != 0 {
		dst = append(dst, '.', byte('0'+hundredths/10))
		if hundredths%10 != 0 {
			dst = append(dst, byte('0'+hundredths%10))
		}
	}
	return dst
}
