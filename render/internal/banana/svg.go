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
// once to three decimals (thousandths) and the path data is written relative to those rounded
// points (absolute where that is shorter), so adding up the relative numbers gives back exactly
// the rounded coordinates: the shapes are those of Draw's curves with each point rounded, in
// path data as short as svgPaths can make it. The output depends only on the arguments. Codes
// place the mark by their logo pad only, so render keeps the few placements it needs.
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
//     point about the current point (§9.3.6, §9.5.2), "l", "h" or "v" (§9.3.5) for a cubic
//     that rounding leaves exactly straight (the stem's cut and base, at some sizes), and "q"
//     (§9.3.7) for one that is exactly a quadratic Bézier (rare). Either way the numbers are
//     exact thousandths, so no error builds up along a contour;
//   - a command letter that repeats is left out, except a moveto's, whose further coordinate
//     pairs are linetos (§9.3.3): so a lineto right after a moveto needs no letter either;
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
	ctrl      vec  // second control point of the previous curve, if prev is "c" or "s" (any case)
	prev      byte // previous command written (or implied) in this path element, 0 if none
	sep       bool // a number came last: the next needs a space unless it starts with '-' or '.'
	prevPoint bool // the last number written has a decimal point
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
	if p.started {
		p.command('m', offsets(p.cur, to), offsets(vec{}, to))
	} else {
		p.command('m', nil, offsets(vec{}, to))
	}
	p.started = true
	p.cur, p.start = to, to
}

// CurveTo adds a cubic Bézier to (x, y) with control points (x1, y1) and (x2, y2) (Drawer):
// a lineto when the rounded curve is straight (see straight), "s" when the first control point
// is the reflection of the previous curve's second one about the current point (SVG 2 §9.3.6,
// §9.5.2), "q" when the curve is a quadratic Bézier (see quadratic), "c" otherwise.
func (p *svgPaths) CurveTo(x1, y1, x2, y2, x, y float64) {
	c1 := vec{thousandths(x1), thousandths(y1)}
	c2 := vec{thousandths(x2), thousandths(y2)}
	to := vec{thousandths(x), thousandths(y)}
	o := p.cur
	switch {
	case straight(o, c1, c2, to) && to.y == o.y:
		p.command('h', []int64{to.x - o.x}, []int64{to.x})
	case straight(o, c1, c2, to) && to.x == o.x:
		p.command('v', []int64{to.y - o.y}, []int64{to.y})
	case straight(o, c1, c2, to):
		p.command('l', offsets(o, to), offsets(vec{}, to))
	case (p.prev|0x20 == 'c' || p.prev|0x20 == 's') && c1 == (vec{2*o.x - p.ctrl.x, 2*o.y - p.ctrl.y}):
		p.command('s', offsets(o, c2, to), offsets(vec{}, c2, to))
	case quadratic(o, c1, c2, to):
		q := vec{(3*c1.x - o.x) / 2, (3*c1.y - o.y) / 2}
		p.command('q', offsets(o, q, to), offsets(vec{}, q, to))
	default:
		p.command('c', offsets(o, c1, c2, to), offsets(vec{}, c1, c2, to))
	}
	p.cur, p.ctrl = to, c2
}

// straight reports whether the cubic from o with control points c1 and c2 to `to` runs along
// the segment from o to `to` and covers nothing else: both control points on that segment
// (exactly, in thousandths), so that every point of the curve is too. Filled, such a curve
// bounds the same area as the lineto (SVG 2 §9.3.5) that replaces it: winding numbers only
// change on the segment itself. Far out coordinates, whose products could overflow, are left
// as curves.
func straight(o, c1, c2, to vec) bool {
	const far = 1 << 29 // differences up to 2³⁰, products up to 2⁶⁰
	d := vec{to.x - o.x, to.y - o.y}
	if d == (vec{}) {
		return false
	}
	for _, c := range []vec{o, c1, c2, to} {
		if c.x > far || c.x < -far || c.y > far || c.y < -far {
			return false
		}
	}
	for _, c := range []vec{c1, c2} {
		e := vec{c.x - o.x, c.y - o.y}
		dot := d.x*e.x + d.y*e.y
		if d.x*e.y-d.y*e.x != 0 || dot < 0 || dot > d.x*d.x+d.y*d.y {
			return false
		}
	}
	return true
}

// quadratic reports whether the cubic from o with control points c1 and c2 to `to` is the
// quadratic Bézier with control point q, raised to a cubic (the same curve as SVG 2 §9.3.7's
// "q" draws), for a q in whole thousandths: c1 = o + 2/3·(q − o) and c2 = to + 2/3·(q − to),
// that is 3·c1 − o = 3·c2 − to = 2·q, an even vector.
func quadratic(o, c1, c2, to vec) bool {
	a := vec{3*c1.x - o.x, 3*c1.y - o.y}
	return a == vec{3*c2.x - to.x, 3*c2.y - to.y} && a.x%2 == 0 && a.y%2 == 0
}

// offsets returns the coordinates of pts, in order, less those of origin.
func offsets(origin vec, pts ...vec) []int64 {
	out := make([]int64, 0, 2*len(pts))
	for _, v := range pts {
		out = append(out, v.x-origin.x, v.y-origin.y)
	}
	return out
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

// command writes the command rel ('m', 'l', 'h', 'v', 'c', 's' or 'q') with the numbers relNums,
// relative to the current point, or its upper case with absNums when that is shorter or relNums
// is nil. The letter is left out where SVG 2 §9.3.1 allows: when it repeats the previous one,
// except for a moveto, whose further coordinate pairs are linetos, which in turn need no letter
// after a moveto of the same case (§9.3.3).
func (p *svgPaths) command(rel byte, relNums, absNums []int64) {
	var buf [2][128]byte
	out, letter, point := p.spell(buf[0][:0], rel&^0x20, absNums)
	if relNums != nil {
		if r, _, rp := p.spell(buf[1][:0], rel, relNums); len(r) <= len(out) {
			out, letter, point = r, rel, rp
		}
	}
	p.b.Write(out)
	p.prev, p.sep, p.prevPoint = letter, true, point
}

// spell appends to dst the command letter, unless it may be left out, and the numbers, and
// returns the letter and whether the last number has a decimal point.
func (p *svgPaths) spell(dst []byte, letter byte, nums []int64) ([]byte, byte, bool) {
	sep, point := p.sep, p.prevPoint
	implied := letter == p.prev && letter|0x20 != 'm' ||
		letter|0x20 == 'l' && p.prev == letter+('m'-'l')
	if !implied {
		dst = append(dst, letter)
		sep = false
	}
	for _, n := range nums {
		dst, point = appendNumber(dst, n, sep, point)
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

// appendThousandths appends n thousandths to dst in the form appendNumber describes.
func appendThousandths(dst []byte, n int64) []byte {
	if n < 0 {
		dst = append(dst, '-')
		n = -n
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
// even), with −0 as 0. |v| must stay below 10¹² (the mark's coordinates count modules or
// pixels), so that sums and products of thousandths fit an int64.
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

// hexColor returns c as #RRGGBB, upper case, or as #RGB when that says the same colour (each
// channel's two digits equal; CSS Color 4 §5.2, hex colours), as render writes its own SVG
// colours (appendColor, which this package cannot import).
func hexColor(c color.RGBA) string {
	const digits = "0123456789ABCDEF"
	if c.R>>4 == c.R&15 && c.G>>4 == c.G&15 && c.B>>4 == c.B&15 {
		return string([]byte{'#', digits[c.R&15], digits[c.G&15], digits[c.B&15]})
	}
	return string([]byte{'#', digits[c.R>>4], digits[c.R&15], digits[c.G>>4], digits[c.G&15], digits[c.B>>4], digits[c.B&15]})
}
