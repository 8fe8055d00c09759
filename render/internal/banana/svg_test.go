package banana

import (
	"bytes"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/bananaqr/bananaqr/internal/qrtest"
	"github.com/bananaqr/bananaqr/internal/testenv"
)

// These tests read SVG's path data back with a parser of their own (svgParsePaths, after the
// grammar of SVG 2 §9.3.9) and hold it against svgOldSVG, the plain absolute writer that SVG
// replaced: the same points, to the thousandth, and the same pixels.

// svgPlacements are placements of the mark to check: the logo pads of versions 1 to 40 (as
// render places the mark: see svgLogoPlacement), a large square, and awkward ones (negative,
// with coordinates near halves of a thousandth).
func svgPlacements() [][3]float64 {
	var out [][3]float64
	for v := 1; v <= 40; v++ {
		out = append(out, svgLogoPlacement(17+4*v))
	}
	return append(out, [3]float64{0, 0, 100}, [3]float64{0, 0, 1}, [3]float64{-3.3, -0.0004, 7},
		[3]float64{12.3455, 0.0005, 2.0005}, [3]float64{1000.25, 999.75, 333.333})
}

// svgLogoPlacement returns where render puts the mark on a symbol of n modules: x = y =
// pad.first + logoInset and side = pad.side − 2·logoInset, with logoInset 0.5 and the pad of
// render's logoPad (the largest odd number of modules within 20 % of the width, centred). A copy,
// as this package cannot import render; it only chooses the sizes to test.
func svgLogoPlacement(n int) [3]float64 {
	side := n / 5
	if side%2 == 0 {
		side--
	}
	at := float64((n-side)/2) + 0.5
	return [3]float64{at, at, float64(side) - 1}
}

// svgOldSVG is what SVG wrote before its paths became relative and compact: absolute "M" and
// "C" commands with every number rounded by svgOldNum, separated by spaces, each contour ended
// by " Z". It is the reference the compact form must match.
func svgOldSVG(x, y, side float64) string {
	var p svgOldPaths
	Draw(&p, x, y, side)
	return p.b.String()
}

// svgOldPaths is the old writer (Drawer).
type svgOldPaths struct {
	b       strings.Builder
	started bool
}

func (p *svgOldPaths) Layer(fill color.RGBA) {
	p.b.WriteString(`<path fill="` + fmt.Sprintf("#%02X%02X%02X", fill.R, fill.G, fill.B) + `" d="`)
	p.started = false
}

func (p *svgOldPaths) MoveTo(x, y float64) {
	if p.started {
		p.b.WriteByte(' ')
	}
	p.started = true
	p.b.WriteString("M " + svgOldNum(x) + " " + svgOldNum(y))
}

func (p *svgOldPaths) CurveTo(x1, y1, x2, y2, x, y float64) {
	p.b.WriteString(" C " + svgOldNum(x1) + " " + svgOldNum(y1) + " " + svgOldNum(x2) + " " +
		svgOldNum(y2) + " " + svgOldNum(x) + " " + svgOldNum(y))
}

func (p *svgOldPaths) ClosePath() { p.b.WriteString(" Z") }

func (p *svgOldPaths) Fill() { p.b.WriteString(`"/>`) }

// svgOldNum is the old formatNum: v with at most three decimals and no trailing zeros.
func svgOldNum(v float64) string {
	s := strconv.FormatFloat(v, 'f', 3, 64)
	s = strings.TrimRight(s, "0")
	s = strings.TrimSuffix(s, ".")
	if s == "-0" || s == "" {
		return "0"
	}
	return s
}

// svgPath is a path element read back: its fill, its contours in absolute thousandths, and its
// commands as written.
type svgPath struct {
	fill     string
	data     string
	contours []svgContour
	cmds     []svgCmd
	numbers  []svgNumber
}

// svgContour is a subpath: its start, its segments, and whether a closepath ended it.
type svgContour struct {
	start  vec
	segs   []svgSeg
	closed bool
}

// svgSeg is a segment in absolute thousandths: a cubic Bézier, or a straight line to `to`.
type svgSeg struct {
	line       bool
	c1, c2, to vec
}

// end returns where the contour ends: its last segment's end point, or its start.
func (c svgContour) end() vec {
	if len(c.segs) == 0 {
		return c.start
	}
	return c.segs[len(c.segs)-1].to
}

// svgCmd is one command of the path data: its letter, whether the letter was written or implied
// (by repetition), and its numbers in thousandths.
type svgCmd struct {
	letter   byte
	explicit bool
	args     []int64
}

// svgNumber is a number as written, whether a separator came before it, and whether it came
// right after a command letter.
type svgNumber struct {
	text        string
	sep         bool
	afterLetter bool
}

// svgParsePaths reads the path elements that make up s, failing the test if s holds anything
// else or their data does not parse.
func svgParsePaths(t *testing.T, s string) []svgPath {
	t.Helper()
	elem := regexp.MustCompile(`^<path fill="(#[0-9A-Fa-f]{3}|#[0-9A-Fa-f]{6})" d="([^"]*)"/>`)
	var out []svgPath
	for rest := s; rest != ""; {
		m := elem.FindStringSubmatch(rest)
		if m == nil {
			t.Fatalf("not a path element: %.80s", rest)
		}
		p, err := svgParsePathData(m[2])
		if err != nil {
			t.Fatalf("path data %.80s…: %v", m[2], err)
		}
		p.fill, p.data = m[1], m[2]
		out = append(out, p)
		rest = rest[len(m[0]):]
	}
	return out
}

// svgParsePathData parses path data after SVG 2 §9.3.9: absolute and relative moveto, lineto
// (also horizontal and vertical), curveto, smooth curveto, quadratic curveto and closepath,
// implicit repetition (a moveto's further pairs being linetos, §9.3.3), and numbers taken as
// long as the grammar allows ("1.5.5" is 1.5 then .5). Numbers must be exact thousandths (at
// most three decimals, no exponent), which SVG writes; quadratics come back as cubics.
func svgParsePathData(d string) (svgPath, error) {
	var p svgPath
	i := 0
	wsp := func() bool {
		sep := false
		for i < len(d) && strings.IndexByte(" \t\n\r\f,", d[i]) >= 0 {
			i++
			sep = true
		}
		return sep
	}
	isNum := func() bool {
		return i < len(d) && (d[i] == '-' || d[i] == '+' || d[i] == '.' || d[i] >= '0' && d[i] <= '9')
	}
	number := func(sep, afterLetter bool) (int64, error) {
		from := i
		neg := d[i] == '-'
		if d[i] == '-' || d[i] == '+' {
			i++
		}
		digits := func() string {
			f := i
			for i < len(d) && d[i] >= '0' && d[i] <= '9' {
				i++
			}
			return d[f:i]
		}
		whole, frac := digits(), ""
		if i < len(d) && d[i] == '.' {
			i++
			if frac = digits(); frac == "" {
				return 0, fmt.Errorf("number %q without digits after its point", d[from:i])
			}
		} else if whole == "" {
			return 0, fmt.Errorf("no number at %d: %.10q", from, d[from:])
		}
		if i < len(d) && (d[i] == 'e' || d[i] == 'E') {
			return 0, fmt.Errorf("exponent in %q", d[from:])
		}
		if len(frac) > 3 {
			return 0, fmt.Errorf("%q has more than three decimals", d[from:i])
		}
		p.numbers = append(p.numbers, svgNumber{d[from:i], sep, afterLetter})
		w, _ := strconv.ParseInt("0"+whole, 10, 64)
		f, _ := strconv.ParseInt((frac + "000")[:3], 10, 64)
		if neg {
			return -(w*1000 + f), nil
		}
		return w*1000 + f, nil
	}
	arity := map[byte]int{'M': 2, 'L': 2, 'H': 1, 'V': 1, 'C': 6, 'S': 4, 'Q': 4, 'Z': 0}
	var cur, ctrl vec
	var letter byte
	sep := wsp()
	for i < len(d) {
		cmd := svgCmd{letter: letter}
		if !isNum() {
			cmd.letter, cmd.explicit = d[i], true
			i++
			sep = wsp()
		} else if letter == 0 || letter|0x20 == 'z' {
			return p, fmt.Errorf("numbers without a command at %d", i)
		}
		n, ok := arity[cmd.letter&^0x20]
		if !ok {
			return p, fmt.Errorf("unexpected command %q at %d", cmd.letter, i)
		}
		for k := range n {
			if !isNum() {
				return p, fmt.Errorf("command %c: %d numbers wanted at %d", cmd.letter, n, i)
			}
			v, err := number(sep, k == 0 && cmd.explicit)
			if err != nil {
				return p, err
			}
			cmd.args = append(cmd.args, v)
			sep = wsp()
		}
		p.cmds = append(p.cmds, cmd)
		rel := cmd.letter >= 'a'
		at := func(k int) vec {
			v := vec{cmd.args[2*k], cmd.args[2*k+1]}
			if rel {
				v = vec{cur.x + v.x, cur.y + v.y}
			}
			return v
		}
		prev := byte(0)
		if len(p.cmds) > 1 {
			prev = p.cmds[len(p.cmds)-2].letter | 0x20
		}
		if cmd.letter|0x20 != 'm' && cmd.letter|0x20 != 'z' &&
			(len(p.contours) == 0 || p.contours[len(p.contours)-1].closed) {
			if len(p.contours) == 0 {
				return p, fmt.Errorf("path data does not start with a moveto")
			}
			p.contours = append(p.contours, svgContour{start: cur}) // a drawto after a closepath
		}
		last := func() *svgContour { return &p.contours[len(p.contours)-1] }
		switch cmd.letter | 0x20 {
		case 'm':
			if len(p.cmds) == 1 {
				rel = false // a leading "m" is absolute (§9.3.3)
			}
			cur = at(0)
			p.contours = append(p.contours, svgContour{start: cur})
			letter = 'L' | cmd.letter&0x20 // its further pairs are linetos, "L" or "l"
			continue
		case 'l':
			cur = at(0)
			last().segs = append(last().segs, svgSeg{line: true, to: cur})
		case 'h', 'v':
			v := cmd.args[0]
			if cmd.letter == 'h' {
				cur.x = v + cur.x
			} else if cmd.letter == 'v' {
				cur.y = v + cur.y
			} else if cmd.letter == 'H' {
				cur.x = v
			} else {
				cur.y = v
			}
			last().segs = append(last().segs, svgSeg{line: true, to: cur})
		case 'c':
			c1, c2, to := at(0), at(1), at(2)
			last().segs = append(last().segs, svgSeg{c1: c1, c2: c2, to: to})
			cur, ctrl = to, c2
		case 's':
			c1 := cur // §9.3.6: the current point, unless the previous command was a curve
			if prev == 'c' || prev == 's' {
				c1 = vec{2*cur.x - ctrl.x, 2*cur.y - ctrl.y}
			}
			c2, to := at(0), at(1)
			last().segs = append(last().segs, svgSeg{c1: c1, c2: c2, to: to})
			cur, ctrl = to, c2
		case 'q':
			// §9.3.7; as a cubic (the mark's curves are cubics): c1 = (cur + 2·q)/3 and
			// c2 = (to + 2·q)/3, which must be whole thousandths too.
			q, to := at(0), at(1)
			a, b := vec{cur.x + 2*q.x, cur.y + 2*q.y}, vec{to.x + 2*q.x, to.y + 2*q.y}
			if a.x%3 != 0 || a.y%3 != 0 || b.x%3 != 0 || b.y%3 != 0 {
				return p, fmt.Errorf("quadratic %v %v %v: its cubic is not in thousandths", cur, q, to)
			}
			last().segs = append(last().segs, svgSeg{c1: vec{a.x / 3, a.y / 3}, c2: vec{b.x / 3, b.y / 3}, to: to})
			cur = to
		case 'z':
			last().closed = true
			cur = last().start
		}
		letter = cmd.letter
	}
	return p, nil
}

// svgStraight reports whether the cubic s from `from` lies on the segment between its ends:
// its control points on the line through them (a zero cross product) and within their box.
func svgStraight(from vec, s svgSeg) bool {
	if s.line {
		return true
	}
	to := s.to
	for _, c := range []vec{s.c1, s.c2} {
		if (to.x-from.x)*(c.y-from.y) != (to.y-from.y)*(c.x-from.x) ||
			c.x < min(from.x, to.x) || c.x > max(from.x, to.x) || c.y < min(from.y, to.y) || c.y > max(from.y, to.y) {
			return false
		}
	}
	return from != to
}

// svgThousandths returns the number s (as svgOldNum writes) in thousandths, parsed independently.
func svgThousandths(t *testing.T, s string) int64 {
	t.Helper()
	p, err := svgParsePathData("M" + s + " 0")
	if err != nil {
		t.Fatalf("%q: %v", s, err)
	}
	return p.contours[0].start.x
}

// TestSVGPathsSamePoints reads the compact path data back and checks that it draws exactly the
// contours of the old absolute writer: the same fills, the same starts, control points and end
// points, to the thousandth, for every logo pad and a few awkward placements. A lineto may stand
// for a curve only if the curve is straight (svgStraight). Where the compact form leaves out a
// closepath, the contour must end at its start, so that the fill, which closes it anyway,
// paints the same.
func TestSVGPathsSamePoints(t *testing.T) {
	for _, c := range svgPlacements() {
		s, old := SVG(c[0], c[1], c[2]), svgOldSVG(c[0], c[1], c[2])
		if s != SVG(c[0], c[1], c[2]) {
			t.Fatalf("%v: SVG is not deterministic", c)
		}
		got, want := svgParsePaths(t, s), svgParsePaths(t, old)
		if len(got) != len(want) {
			t.Fatalf("%v: %d paths, want %d", c, len(got), len(want))
		}
		for i := range want {
			g, w := got[i], want[i]
			if g.fill != w.fill {
				t.Errorf("%v: path %d fill %s, want %s", c, i, g.fill, w.fill)
			}
			if len(g.contours) != len(w.contours) {
				t.Fatalf("%v: path %d has %d contours, want %d", c, i, len(g.contours), len(w.contours))
			}
			for k, wc := range w.contours {
				gc := g.contours[k]
				if gc.start != wc.start || len(gc.segs) != len(wc.segs) {
					t.Fatalf("%v: path %d contour %d starts at %v with %d segments, want %v and %d",
						c, i, k, gc.start, len(gc.segs), wc.start, len(wc.segs))
				}
				from := wc.start
				for j, ws := range wc.segs {
					if gs := gc.segs[j]; gs != ws && !(gs.line && gs.to == ws.to && svgStraight(from, ws)) {
						t.Fatalf("%v: path %d contour %d segment %d: %+v, want %+v", c, i, k, j, gs, ws)
					}
					from = ws.to
				}
				if !gc.closed && gc.end() != gc.start {
					t.Errorf("%v: path %d contour %d is left open at %v, away from its start %v",
						c, i, k, gc.end(), gc.start)
				}
			}
		}
	}
}

// TestSVGPathsCompact checks that the path data takes the short forms: numbers without leading
// or trailing zeros and separators only where two numbers would run together, no repeated
// command letter nor a lineto's right after a moveto, "s" wherever the first control point is
// the reflection of the previous one, linetos for straight curves, "q" for quadratic ones, no
// closepath on the mark's contours (they all end where they start), and the first command of
// each path an absolute moveto.
func TestSVGPathsCompact(t *testing.T) {
	num := regexp.MustCompile(`^-?([1-9][0-9]*(\.[0-9]{0,2}[1-9])?|\.[0-9]{0,2}[1-9]|0)$`)
	for _, c := range svgPlacements() {
		for i, p := range svgParsePaths(t, SVG(c[0], c[1], c[2])) {
			where := fmt.Sprintf("%v: path %d", c, i)
			prevPoint := false
			for k, n := range p.numbers {
				if !num.MatchString(n.text) || n.text == "-0" {
					t.Fatalf("%s: number %q not in its shortest form", where, n.text)
				}
				need := !n.afterLetter && n.text[0] != '-' && (n.text[0] != '.' || !prevPoint)
				if n.sep && !need {
					t.Fatalf("%s: needless separator before number %d %q", where, k, n.text)
				}
				prevPoint = strings.Contains(n.text, ".")
			}
			if regexp.MustCompile(`[\s,]`).MatchString(strings.ReplaceAll(p.data, " ", "")) ||
				regexp.MustCompile(`^ | $|[A-Za-z] | [A-Za-z]|  `).MatchString(p.data) {
				t.Fatalf("%s: separators other than single spaces between numbers", where)
			}
			if p.cmds[0].letter != 'M' {
				t.Errorf("%s starts with %c, want M", where, p.cmds[0].letter)
			}
			var ctrl, cur vec
			for k, cmd := range p.cmds {
				var prev byte
				if k > 0 {
					prev = p.cmds[k-1].letter
				}
				switch {
				case cmd.letter|0x20 == 'z':
					t.Errorf("%s: a closepath, but the mark's contours end at their starts", where)
				case cmd.explicit && cmd.letter == prev && cmd.letter|0x20 != 'm':
					t.Errorf("%s: command %d repeats the letter %c", where, k, cmd.letter)
				case cmd.explicit && (cmd.letter == 'l' && prev == 'm' || cmd.letter == 'L' && prev == 'M'):
					t.Errorf("%s: command %d, a lineto after a moveto, has its letter %c", where, k, cmd.letter)
				}
				abs := func(j int) vec {
					v := vec{cmd.args[2*j], cmd.args[2*j+1]}
					if cmd.letter >= 'a' && k > 0 {
						v = vec{cur.x + v.x, cur.y + v.y}
					}
					return v
				}
				switch cmd.letter | 0x20 {
				case 'm':
					cur = abs(0)
				case 'l':
					if to := abs(0); to.x == cur.x || to.y == cur.y {
						t.Errorf("%s: command %d is a lineto that could be horizontal or vertical", where, k)
					}
					cur = abs(0)
				case 'q':
					ctrl, cur = vec{}, abs(1)
				case 'h':
					cur.x = cmd.args[0] + cur.x*int64(cmd.letter>>5&1) // h relative, H absolute
				case 'v':
					cur.y = cmd.args[0] + cur.y*int64(cmd.letter>>5&1)
				case 'c', 's':
					c1 := cur
					if prev|0x20 == 'c' || prev|0x20 == 's' {
						c1 = vec{2*cur.x - ctrl.x, 2*cur.y - ctrl.y}
					}
					if cmd.letter|0x20 == 'c' {
						if c1 == abs(0) && (prev|0x20 == 'c' || prev|0x20 == 's') {
							t.Errorf("%s: command %d is a curveto that could be a smooth one", where, k)
						}
						c1, cmd.args = abs(0), cmd.args[2:]
						a, b := vec{3*c1.x - cur.x, 3*c1.y - cur.y}, vec{3*abs(0).x - abs(1).x, 3*abs(0).y - abs(1).y}
						if a == b && a.x%2 == 0 && a.y%2 == 0 {
							t.Errorf("%s: command %d is a curveto that could be a quadratic one", where, k)
						}
					}
					if seg := (svgSeg{c1: c1, c2: abs(0), to: abs(1)}); svgStraight(cur, seg) {
						t.Errorf("%s: command %d is a straight curve, a lineto", where, k)
					}
					ctrl, cur = abs(0), abs(1)
				}
			}
		}
	}
}

// TestSVGPathsWriter drives the writer by hand through the cases the mark does not reach: a
// contour that does not end at its start (it keeps its "z", and the next moveto counts from the
// start), absolute commands where they are shorter (relative ones where both are as long),
// movetos in a row, and later layers starting afresh.
func TestSVGPathsWriter(t *testing.T) {
	var p svgPaths
	p.Layer(color.RGBA{255, 255, 255, 255})
	p.MoveTo(10, 20)
	p.CurveTo(10.5, 20, 11, 20.25, 12, 20)        // c
	p.CurveTo(13, 19.75, 13.5, 20.5, 14, 20)      // s: (13, 19.75) reflects (11, 20.25) about (12, 20)
	p.CurveTo(14.5, 20, 15, -1, 16, 20.001)       // c, as (14.5, 20) does not reflect (13.5, 20.5)
	p.ClosePath()                                 // z: (16, 20) is not the start
	p.MoveTo(10, 25)                              // m, from the start (10, 20)
	p.CurveTo(11, 26, 12, 27, 13, 28)             // straight: a lineto, its letter implied by the m
	p.CurveTo(14, 28, 15, 29, 16, 30)             // c
	p.CurveTo(17, 31, 18, 31, 19, 31)             // s
	p.CurveTo(20, 31, 21, 31, 22, 31)             // h
	p.CurveTo(22, 32, 22, 33.5, 22, 33)           // c: (22, 33.5) lies beyond the end
	p.CurveTo(22, 34, 22, 34.5, 22, 35)           // v
	p.CurveTo(22, 36, 22, 36, 22, 37)             // v again, implied
	p.ClosePath()                                 // z
	p.MoveTo(0.125, 0.5)                          // M: shorter than m-9.875-24.5
	p.CurveTo(1, 1, 2, 2.5, 3, 3)                 // C: shorter than c.875.5 1.875 2 2.875 2.5
	p.CurveTo(2, 2, 1, 1, 0.12500001, 0.49999999) // C again, implied; back at the start
	p.ClosePath()                                 // nothing
	p.Fill()
	p.Layer(color.RGBA{0x3B, 0x2A, 0x14, 255})
	p.MoveTo(0.126, 0.5)                            // M, first of its path (though m.001 0 is as long)
	p.ClosePath()                                   // nothing
	p.MoveTo(1.126, 1.5)                            // m
	p.ClosePath()                                   // nothing
	p.MoveTo(2.126, 2.5)                            // m again, which must be written
	p.ClosePath()                                   // nothing
	p.MoveTo(5.126, 5.5)                            // m
	p.CurveTo(5.1259999, 5.75, 5.5, 5.75, 5.5, 5.5) // c, with ".25.374.25.374"
	p.ClosePath()                                   // z
	p.Fill()
	p.Layer(color.RGBA{0, 0, 0, 255})
	p.MoveTo(0, 0)
	p.CurveTo(1, 2, 2, 2, 3, 3) // c: as long as C1 2 2 2 3 3
	p.CurveTo(3, 3, 0, 1, 0, 0) // c again, implied: as long as C3 3 0 1 0 0
	p.ClosePath()               // nothing
	p.MoveTo(1, 1)
	p.CurveTo(2, 1, 3, 3, 1, 1) // c, not s: (2, 1) reflects (0, 1), but a moveto came between
	p.Fill()
	p.Layer(color.RGBA{0xFF, 0xD2, 0x3F, 255})
	p.MoveTo(0, 0)
	p.CurveTo(-1, -0.5, -2, -1, -4, -2) // straight: L, implied by the M, shorter than l-4-2
	p.CurveTo(-4, -1, -3, 0, 0, 0)      // c, not s after a lineto
	p.ClosePath()
	p.MoveTo(10, 0)
	p.CurveTo(9, 0, 12, 0, 14, 0) // c, not h: (9, 0) lies before the start
	p.ClosePath()                 // z
	p.Fill()
	p.Layer(color.RGBA{0x11, 0x22, 0x33, 255})
	p.MoveTo(1, 1)
	p.CurveTo(1.25, 1.75, 1.375, 2.125, 1.5, 2.5) // straight: l, whose letter an M does not imply
	p.CurveTo(1.5, 2, 1, 1.5, 1, 1)
	p.CurveTo(3, 1, 4, 2, 4, 4)                         // q, through (4, 1)
	p.CurveTo(4, 6, 1, 2, 1, 1)                         // c, not s after a q, though (4, 6) reflects (4, 2)
	p.CurveTo(1.001, 1, 1.002, 1.001, 1.003, 1.003)     // c: a quadratic through (1.0015, 1)
	p.CurveTo(1.003, 1.004, 1.004, 1.005, 1.006, 1.006) // c: a quadratic through (1.003, 1.0045)
	p.ClosePath()
	p.Fill()
	want := `<path fill="#FFF" d="M10 20c.5 0 1 .25 2 0s1.5.5 2 0c.5 0 1-21 2 .001zm0 5 3 3c1 0 2 1 3 2s2 1 3 1h3c0 1 0 2.5 0 2v2 2z` +
		`M.125.5C1 1 2 2.5 3 3 2 2 1 1 .125.5"/><path fill="#3B2A14" d="M.126.5m1 1m1 1m3 3c0 .25.374.25.374 0z"/>` +
		`<path fill="#000" d="M0 0c1 2 2 2 3 3 0 0-3-2-3-3m1 1c1 0 2 2 0 0"/><path fill="#FFD23F" d="M0 0-4-2c0 1 1 2 4 2m10 0c-1 0 2 0 4 0z"/>` +
		`<path fill="#123" d="M1 1l.5 1.5C1.5 2 1 1.5 1 1q3 0 3 3c0 2-3-2-3-3 .001 0 .002.001.003.003 0 .001.001.002.003.003z"/>`
	if got := p.b.String(); got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}

// TestSVGNumbers checks the rounding to thousandths against the old writer's numbers (parsed
// independently), over random values, halves of a thousandth and signed zeros, and the
// spelling of thousandths.
func TestSVGNumbers(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 33))
	vals := []float64{0, math.Copysign(0, -1), -0.0004, 0.0005, -0.0005, 0.0015, 2.0005, 1.0005,
		12.3455, -12.3455, 1e6 + 0.0005, 0.4999999}
	for range 20000 {
		vals = append(vals, (r.Float64()-0.5)*2*math.Pow(10, float64(r.IntN(7)-2)),
			float64(r.IntN(2000000)-1000000)/2000) // exact halves of a thousandth, when representable
	}
	for _, v := range vals {
		if got, want := thousandths(v), svgThousandths(t, svgOldNum(v)); got != want {
			t.Fatalf("thousandths(%v) = %d, the old writer wrote %s", v, got, svgOldNum(v))
		}
	}
	for _, c := range []struct {
		n    int64
		want string
	}{{0, "0"}, {1, ".001"}, {-13, "-.013"}, {500, ".5"}, {-500, "-.5"}, {1010, "1.01"},
		{12500, "12.5"}, {-3000, "-3"}, {100000, "100"}, {-100001, "-100.001"}, {990, ".99"}} {
		if got := string(appendThousandths(nil, c.n)); got != c.want {
			t.Errorf("appendThousandths(%d) = %q, want %q", c.n, got, c.want)
		}
	}
	for _, c := range []struct {
		n          int64
		sep, point bool
		want       string
	}{
		{500, false, false, ".5"}, {500, true, false, " .5"}, {500, true, true, ".5"},
		{-500, true, false, "-.5"}, {2000, true, true, " 2"}, {2000, false, true, "2"},
	} {
		got, point := appendNumber(nil, c.n, c.sep, c.point)
		if string(got) != c.want || point != (c.n%1000 != 0) {
			t.Errorf("appendNumber(%d, %v, %v) = %q, %v; want %q", c.n, c.sep, c.point, got, point, c.want)
		}
	}
}

// TestSVGColors checks the fills: #RRGGBB, or #RGB when that is the same colour.
func TestSVGColors(t *testing.T) {
	for _, c := range []struct {
		c    color.RGBA
		want string
	}{
		{color.RGBA{0xFF, 0xD2, 0x3F, 255}, "#FFD23F"}, {color.RGBA{0x3B, 0x2A, 0x14, 255}, "#3B2A14"},
		{color.RGBA{0xFF, 0xFF, 0xFF, 255}, "#FFF"}, {color.RGBA{0, 0, 0, 255}, "#000"},
		{color.RGBA{0x11, 0xAA, 0x33, 255}, "#1A3"}, {color.RGBA{0x11, 0xAA, 0x34, 255}, "#11AA34"},
		{color.RGBA{0x12, 0xAA, 0x33, 255}, "#12AA33"}, {color.RGBA{0x11, 0xAB, 0x33, 255}, "#11AB33"},
	} {
		if got := hexColor(c.c); got != c.want {
			t.Errorf("hexColor(%v) = %s, want %s", c.c, got, c.want)
		}
	}
}

// svgDocument wraps paths in an SVG document of px pixels showing the square (x, y, side) on
// a white ground.
func svgDocument(paths string, x, y, side float64, px int) string {
	return fmt.Sprintf(`<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="%g %g %g %g">`+
		`<rect x="%g" y="%g" width="%g" height="%g" fill="#FFFFFF"/>%s</svg>`,
		px, px, x, y, side, side, x, y, side, side, paths)
}

// svgRsvg renders an SVG document with rsvg-convert.
func svgRsvg(t *testing.T, doc string, px int) image.Image {
	t.Helper()
	cmd := exec.Command("rsvg-convert", "-w", strconv.Itoa(px), "-h", strconv.Itoa(px))
	cmd.Stdin = strings.NewReader(doc)
	var out, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("rsvg-convert: %v\n%s", err, stderr.String())
	}
	img, err := png.Decode(&out)
	if err != nil {
		t.Fatal(err)
	}
	return img
}

// TestSVGPathsRsvg renders the compact and the old path data with rsvg-convert, for a few
// placements at a few sizes, and wants the very same pixels.
func TestSVGPathsRsvg(t *testing.T) {
	qrtest.NeedTools(t, "rsvg-convert")
	// Versions 1 and 37 have a straight stem edge, written as a lineto.
	for _, c := range [][3]float64{svgLogoPlacement(21), svgLogoPlacement(57), svgLogoPlacement(165),
		svgLogoPlacement(177), {0, 0, 100}, {-3.3, -0.0004, 7}} {
		for _, px := range []int{16, 64, 256, 1000} {
			a := svgRsvg(t, svgDocument(SVG(c[0], c[1], c[2]), c[0], c[1], c[2], px), px)
			b := svgRsvg(t, svgDocument(svgOldSVG(c[0], c[1], c[2]), c[0], c[1], c[2], px), px)
			differ, worst := 0, 0
			for y := range px {
				for x := range px {
					ca, cb := color.NRGBAModel.Convert(a.At(x, y)).(color.NRGBA), color.NRGBAModel.Convert(b.At(x, y)).(color.NRGBA)
					if ca != cb {
						differ++
						worst = max(worst, absInt(int(ca.R)-int(cb.R)), absInt(int(ca.G)-int(cb.G)),
							absInt(int(ca.B)-int(cb.B)), absInt(int(ca.A)-int(cb.A)))
					}
				}
			}
			if differ > 0 {
				t.Errorf("%v at %d px: %d pixels differ from the old path data, by up to %d", c, px, differ, worst)
			}
		}
	}
}

func absInt(v int) int {
	if v < 0 {
		return -v
	}
	return v
}

// svgDataBytes returns the bytes of the path data in s, the part that the writer shapes.
func svgDataBytes(t *testing.T, s string) int {
	t.Helper()
	n := 0
	for _, m := range regexp.MustCompile(` d="([^"]*)"`).FindAllStringSubmatch(s, -1) {
		n += len(m[1])
	}
	if n == 0 {
		t.Fatalf("no path data in %.80s", s)
	}
	return n
}

// TestSVGPathsSize checks what the compact form saves over the old one for every logo pad (at
// least 30 %: about 42 % on the smaller pads, 35 % on the larger ones) and that it is within 5 %
// of what `svgo -p 5` makes of the old form (issue 33). It comes
// out the same size, give or take the byte that svgo gains on a few pads by turning curves
// into arcs, which changes the drawing.
func TestSVGPathsSize(t *testing.T) {
	for _, c := range svgPlacements()[:40] {
		n, old := len(SVG(c[0], c[1], c[2])), len(svgOldSVG(c[0], c[1], c[2]))
		if n*100 > old*70 {
			t.Errorf("%v: %d bytes, the old form %d: saved only %.1f %%", c, n, old, 100-100*float64(n)/float64(old))
		}
	}
	// svgo 4.1.0, pinned in the repository's package.json (npm ci), or one on PATH.
	svgo, err := filepath.Abs(filepath.Join("..", "..", "..", "node_modules", ".bin", "svgo"))
	if _, serr := os.Stat(svgo); err != nil || serr != nil {
		if svgo, err = exec.LookPath("svgo"); err != nil {
			testenv.Missing(t, "svgo is not installed", "npm ci installs it into node_modules")
		}
	}
	dir := t.TempDir()
	for _, c := range [][3]float64{svgLogoPlacement(21), svgLogoPlacement(57), svgLogoPlacement(165),
		svgLogoPlacement(177), {0, 0, 100}} {
		in, out := filepath.Join(dir, "in.svg"), filepath.Join(dir, "out.svg")
		doc := fmt.Sprintf(`<svg xmlns="http://www.w3.org/2000/svg" viewBox="%g %g %g %g">%s</svg>`,
			c[0], c[1], c[2], c[2], svgOldSVG(c[0], c[1], c[2]))
		if err := os.WriteFile(in, []byte(doc), 0o644); err != nil {
			t.Fatal(err)
		}
		if msg, err := exec.Command(svgo, "-p", "5", "-i", in, "-o", out).CombinedOutput(); err != nil {
			t.Fatalf("svgo: %v\n%s", err, msg)
		}
		min, err := os.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		ours, theirs := svgDataBytes(t, SVG(c[0], c[1], c[2])), svgDataBytes(t, string(min))
		t.Logf("%v: path data %d bytes, svgo -p 5 %d (%.3f×), old %d", c, ours, theirs,
			float64(ours)/float64(theirs), svgDataBytes(t, svgOldSVG(c[0], c[1], c[2])))
		if ours*100 > theirs*105 {
			t.Errorf("%v: path data %d bytes, more than 1.05 × svgo's %d", c, ours, theirs)
		}
	}
}
