package banana

import (
	"image/color"
	"strconv"
	"strings"
)

// This file prints the mark as SVG paths (see geometry.go), in the path data of SVG 2 §9.3
// ("Path data"; SVG 1.1 §8.3), written as compactly as its grammar (§9.3.9) allows.

// SVG returns the mark as SVG elements for a square of side `side` user units with its
// top left corner at (x, y): a path for the yellow body, then one for the ink (outline ring,
// stem, tip and ridge), both filled with the default non-zero rule. Every coordinate is rounded
// once to three decimals (thousandths), and the path data is written relative to those rounded
// points (absolute where that is shorter), so adding the relative numbers up gives back exactly
// the rounded coordinates; the output depends only on the arguments. Codes place the mark by their logo pad only, so render
// keeps the few placements it needs.
func SVG(x, y, side float64) string {
	var p svgPaths
	Draw(&p, x, y, side)
	return p.b.String()
}

// svgPaths spells the mark as SVG paths (Drawer), using the compact forms that SVG 2 §9.3.1
// lists ("General information about path data"):
//   - all coordinates are whole thousandths (vec), rounded once from what Draw hands over;
//   - each path element starts with an absolute "M"; every later command is relative to the
//     current point, or absolute (upper case) in the rare case where that is shorter: "m" for
//     the next contour (§9.3.3), "c" for a cubic Bézier and "s", the smooth curveto, when the
//     first control point is exactly the reflection of the previous curve's second control
//     point about the current point (§9.3.6, §9.5.2). Either way the numbers are exact
//     thousandths, so no error builds up along a contour;
//   - a command letter that repeats is left out, except after a moveto, whose further
//     coordinate pairs would be linetos (§9.3.3);
//   - numbers lose leading and trailing zeros (".5", "-.25") and the separator before a minus
//     sign, or before a "." when the previous number already has a decimal point: parsing
//     takes the longest number it can (§9.3.9), and a number holds one point, so ".5.25" reads
//     .5 then .25;
//   - a contour that ends where it started loses its "z": a fill closes every open subpath
//     with a straight line to its start (SVG 2 §13.4, "Fill properties"; SVG 1.1 §11.3), which
//     is then empty, so the filled area is the same, and there is no stroke or marker that the
//     "z" would change. A contour that does not end at its start keeps its "z" (§9.3.4; the
//     mark has none), which also brings the current point back to the contour's start.
type svgPaths struct {
	b         strings.Builder
	started   bool // the current path element has a contour
	cur       vec  // current point
	start     vec  // start of the current contour
	ctrl      vec  // second control point of the previous curve, if prev is 'c' or 's'
	prev      byte // previous command written in this path element, 0 if none
	sep       bool // the next number needs a separator unless it starts with '-' or '.'
	prevPoint bool // the previous number written has a decimal point
}

// vec is a point of the path data in thousandths of a user unit.
type vec struct{ x, y int64 }

// Layer opens a path element of the colour fill (Drawer).
func (p *svgPaths) Layer(fill color.RGBA) {
	p.b.WriteString(`<path fill="`)
	p.b.WriteString(hexColor(fill))
	p.b.WriteString(`" d="`)
	p.started, p.prev, p.cur = false, 0, vec{}
}

// MoveTo starts a contour at (x, y) (Drawer): "M" for a path element's first contour,
// "m" relative to the current point for later ones (SVG 2 §9.3.3).
func (p *svgPaths) MoveTo(x, y float64) {
	to := vec{thousandths(x), thousandths(y)}
	p.command('m', p.started, to)
	p.started = true
	p.cur, p.start = to, to
}

// CurveTo adds a cubic Bézier to (x, y) with control points (x1, y1) and (x2, y2) (Drawer):
// "s" when the first control point is the reflection of the previous curve's second one about
// the current point, "c" otherwise (SVG 2 §9.3.6, §9.5.2).
func (p *svgPaths) CurveTo(x1, y1, x2, y2, x, y float64) {
	c1 := vec{thousandths(x1), thousandths(y1)}
	c2 := vec{thousandths(x2), thousandths(y2)}
	to := vec{thousandths(x), thousandths(y)}
	o := p.cur
	if (p.prev|0x20 == 'c' || p.prev|0x20 == 's') && c1 == (vec{2*o.x - p.ctrl.x, 2*o.y - p.ctrl.y}) {
		p.command('s', true, c2, to)
	} else {
		p.command('c', true, c1, c2, to)
	}
	p.cur, p.ctrl = to, c2
}

// ClosePath closes the contour (Drawer): nothing to write when it ends at its start, as the
// fill closes it (see svgPaths); "z" otherwise, which takes no numbers (SVG 2 §9.3.4).
func (p *svgPaths) ClosePath() {
	if p.cur == p.start {
		return
	}
	p.b.WriteByte('z')
	p.prev, p.sep = 'z', false
	p.cur = p.start
}

// Fill ends the layer's path element (Drawer).
func (p *svgPaths) Fill() { p.b.WriteString(`"/>`) }

// command writes the command rel ('m', 'c' or 's') with the points pts, given in absolute
// thousandths: relative to the current point (rel), or absolute (its upper case) when that is
// shorter or when relative is false. The letter is left out when it repeats the previous one
// (SVG 2 §9.3.1), except for a moveto, whose further coordinate pairs would be linetos (§9.3.3).
func (p *svgPaths) command(rel byte, relative bool, pts ...vec) {
	var buf [2][128]byte
	abs := rel &^ 0x20
	out, letter, point := p.spell(buf[0][:0], abs, vec{}, pts)
	if relative {
		if r, _, rp := p.spell(buf[1][:0], rel, p.cur, pts); len(r) <= len(out) {
			out, letter, point = r, rel, rp
		}
	}
	p.b.Write(out)
	p.prev, p.sep, p.prevPoint = letter, true, point
}

// spell appends to dst the command letter, unless it may be left out, and the points pts as
// offsets from origin, and returns the letter and whether the last number has a decimal point.
func (p *svgPaths) spell(dst []byte, letter byte, origin vec, pts []vec) ([]byte, byte, bool) {
	sep, point := p.sep, p.prevPoint
	if letter != p.prev || letter|0x20 == 'm' {
		dst = append(dst, letter)
		sep = false
	}
	for _, v := range pts {
		dst, point = appendNumber(dst, v.x-origin.x, sep, point)
		dst, point = appendNumber(dst, v.y-origin.y, true, point)
		sep = true
	}
	return dst, letter, point
}

// appendNumber appends n thousandths as the shortest decimal number of the grammar: no leading
// zero before the point, no trailing zeros after it, no point for whole numbers ("12.5", ".014",
// "-.013", "3"), preceded by a space only where the previous number would otherwise run on into
// it: sep says whether a number precedes, point whether it has a decimal point. It returns
// whether n's spelling has a decimal point.
func appendNumber(dst []byte, n int64, sep, point bool) ([]byte, bool) {
	var buf [24]byte
	s := appendThousandths(buf[:0], n)
	if sep && s[0] != '-' && (s[0] != '.' || !point) {
		dst = append(dst, ' ')
	}
	return append(dst, s...), n%1000 != 0
}

// appendThousandths appends n thousandths to dst in the form number describes.
func appendThousandths(dst []byte, n int64) []byte {
	if n < 0 {
		dst = append(dst, '-')
		n = -n // |n| stays far from the int64 limit: thousandths comes from a float64's 'f' form
	}
	whole, frac := n/1000, n%1000
	if whole != 0 || frac == 0 {
		dst = strconv.AppendInt(dst, whole, 10)
	}
	if frac != 0 {
		digits := []byte{'.', byte('0' + frac/100), byte('0' + frac/10%10), byte('0' + frac%10)}
		for digits[len(digits)-1] == '0' {
			digits = digits[:len(digits)-1]
		}
		dst = append(dst, digits...)
	}
	return dst
}

// thousandths returns v rounded to thousandths, as an integer: exactly the rounding of
// strconv's 'f' form with three decimals (correct rounding of the float's exact value, half to
// even), with −0 as 0.
func thousandths(v float64) int64 {
	var buf [32]byte
	var n int64
	neg := false
	for _, c := range strconv.AppendFloat(buf[:0], v, 'f', 3, 64) {
		switch {
		case c == '-':
			neg = true
		case c >= '0' && c <= '9':
			n = 10*n + int64(c-'0')
		}
	}
	if neg {
		return -n
	}
	return n
}

// hexColor returns c as #RRGGBB, upper case (as render.FormatColor, which this package cannot
// import), or as #RGB when that says the same colour (each channel's two digits equal; CSS
// Color 4 §5.2, hex colours).
func hexColor(c color.RGBA) string {
	const digits = "0123456789ABCDEF"
	if c.R>>4 == c.R&15 && c.G>>4 == c.G&15 && c.B>>4 == c.B&15 {
		return string([]byte{'#', digits[c.R&15], digits[c.G&15], digits[c.B&15]})
	}
	return string([]byte{'#', digits[c.R>>4], digits[c.R&15], digits[c.G>>4], digits[c.G&15], digits[c.B>>4], digits[c.B&15]})
}
