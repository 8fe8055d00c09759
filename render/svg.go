package render

import (
	"image/color"
	"slices"
	"strconv"
	"sync"
	"unicode/utf8"

	"github.com/bananaqr/bananaqr/qr"
)

// SVG returns s drawn as an SVG document, as o says.
func SVG(s *qr.Symbol, o Options) ([]byte, error) { return AppendSVG(nil, s, &o) }

// AppendSVG appends s drawn as an SVG document to dst, as o says. The document is valid XML,
// deterministic, and as large as o.Size in pixels. Its viewBox counts in modules, the symbol's
// top left module at (0, 0): the background is one rectangle and the dark modules are one
// path, filled without strokes. Square modules come as the vertical edges between dark and
// light joined into loops, filled with the even-odd rule (edges.go), with
// shape-rendering="crispEdges"; rounded ones are traced along their outlines.
func AppendSVG(dst []byte, s *qr.Symbol, o *Options) ([]byte, error) {
	l, err := prepare(s, o)
	if err != nil {
		return dst, err
	}
	w := svgWriters.Get().(*svgWriter)
	defer svgWriters.Put(w)
	dst = slices.Grow(dst, 1024+3*l.n*l.n) // about what a path takes: one allocation

	// The view in modules: the image's pixels divided by the module's, from the image's edge.
	k := float64(l.module)
	var fromBuf, fromYBuf, sideBuf [24]byte
	from := appendNumber(fromBuf[:0], -float64(l.originX)/k)
	fromY := appendNumber(fromYBuf[:0], -float64(l.originY)/k)
	side := appendNumber(sideBuf[:0], float64(l.size)/k)
	dst = append(dst, `<svg xmlns="http://www.w3.org/2000/svg" width="`...)
	if o.Logo == SwissCross { // 46 mm for the symbol, whatever Size (swisscross.go)
		from, side = appendNumber(fromBuf[:0], float64(-o.Margin)), appendNumber(sideBuf[:0], float64(l.n+2*o.Margin))
		fromY = from
		dst = appendSwissSVGSize(dst, l.n, o.Margin)
	} else {
		dst = strconv.AppendInt(dst, int64(l.size), 10)
		dst = append(dst, `" height="`...)
		dst = strconv.AppendInt(dst, int64(l.size), 10)
	}
	dst = append(dst, `" viewBox="`...)
	dst = append(append(append(append(append(append(append(dst, from...), ' '), fromY...), ' '), side...), ' '), side...)
	dst = append(dst, `" role="img"`...)
	var id [10]byte
	if o.Title != "" || o.Desc != "" {
		dst = appendLabelledBy(dst, svgID(id[:0], o), o)
	}
	if o.Corners == Square {
		dst = append(dst, ` shape-rendering="crispEdges"`...)
	}
	dst = append(dst, '>')
	if o.Title != "" {
		dst = append(append(append(dst, `<title id="`...), id[:]...), `-t">`...)
		dst = appendEscaped(dst, o.Title)
		dst = append(dst, "</title>"...)
	}
	if o.Desc != "" {
		dst = append(append(append(dst, `<desc id="`...), id[:]...), `-d">`...)
		dst = appendEscaped(dst, o.Desc)
		dst = append(dst, "</desc>"...)
	}
	// The background: the whole view, as a path (shorter than a rect's four attributes).
	dst = append(dst, `<path fill="`...)
	dst = appendColor(dst, o.Background)
	dst = append(append(dst, `" d="M`...), from...)
	if fromY[0] != '-' {
		dst = append(dst, ' ')
	}
	dst = append(append(dst, fromY...), 'h')
	dst = append(append(dst, side...), 'v')
	dst = append(append(dst, side...), 'H')
	dst = append(append(dst, from...), `"/><path fill="`...)
	dst = appendColor(dst, o.Foreground)
	if o.Corners == Square {
		dst = append(dst, `" fill-rule="evenodd`...) // the edges' loops (edges.go)
	}
	dst = append(dst, `" d="`...)
	w.path.begin(dst)
	if o.Corners == Square {
		w.g.fill(s, l.pad, false)
		w.edges.trace(&w.g, &w.path)
	} else {
		w.drawModules(s, l.pad, o.Corners, &w.path)
	}
	dst = w.path.b
	w.path.b = nil // the pool keeps no caller's memory
	dst = append(dst, `"/>`...)
	dst = appendLogoSVG(dst, &l)
	if o.Logo == SwissCross {
		dst = appendCrossSVG(dst, l.n, o)
	}
	dst = appendWordsSVG(dst, &l, o)
	return append(dst, "</svg>"...), nil
}

// svgID appends the ids' stem of an SVG's title and description to dst: "qr" and 8 hexadecimal
// digits of the FNV-1a hash of the two texts, so that SVGs inlined in one page do not share ids
// unless they say the same (and then either's text is right), and the same code has the same
// bytes every time.
func svgID(dst []byte, o *Options) []byte {
	h := uint32(2166136261)
	for _, s := range [2]string{o.Title, o.Desc} {
		for i := 0; i < len(s); i++ {
			h = (h ^ uint32(s[i])) * 16777619
		}
		h = (h ^ 0xff) * 16777619 // between the texts: "ab"+"" is not "a"+"b"
	}
	const hex = "0123456789abcdef"
	dst = append(dst, 'q', 'r')
	for shift := 28; shift >= 0; shift -= 4 {
		dst = append(dst, hex[h>>shift&15])
	}
	return dst
}

// appendLabelledBy appends the aria-labelledby attribute that names the SVG's title and
// description (WAI-ARIA 1.2; SVG Accessibility API Mappings: role img with its name from the
// title and its description from desc), whose ids stem from id.
func appendLabelledBy(dst, id []byte, o *Options) []byte {
	dst = append(dst, ` aria-labelledby="`...)
	if o.Title != "" {
		dst = append(append(dst, id...), "-t"...)
		if o.Desc != "" {
			dst = append(dst, ' ')
		}
	}
	if o.Desc != "" {
		dst = append(append(dst, id...), "-d"...)
	}
	return append(dst, '"')
}

// svgWriter is the scratch memory of AppendSVG.
type svgWriter struct {
	pathScratch
	edges edgeTracer
	path  svgPath
}

var svgWriters = sync.Pool{New: func() any { return new(svgWriter) }}

// svgPath spells the dark modules' path as SVG path data (pathSink; SVG 2, 9.3): as short as
// the grammar allows, since a code's SVG is mostly this path. Commands are relative (m, h, v,
// a) but for the first moveto: absolute ones would at times be a character shorter, but their
// numbers repeat less, and the compressed path (gzip) grows by more than that. Numbers are in
// quarter modules as short as they go (".5", "-.25"), with no separator before a minus sign,
// nor before a point after a number that has one (".25.25"); an arc after an arc repeats
// without its letter (9.3.2). No
// subpath is closed with z: a filled subpath is closed anyway (9.3.1), and every outline ends
// where it starts, so the current point is where z would leave it; edges are left open on a
// line the close draws (edges.go).
type svgPath struct {
	b      []byte
	x, y   int  // the current point, in quarter modules
	drawn  bool // whether the path has begun
	arc    bool // whether the last command was an arc
	number bool // whether the path ends with a number
	point  bool // whether that number has a decimal point
}

// begin readies p to append to b, at the start of a path.
func (p *svgPath) begin(b []byte) { *p = svgPath{b: b} }

// rect draws a rectangle as a loop of lines. (AppendSVG draws square modules as edges instead,
// edges.go; rect keeps svgPath a whole pathSink.)
func (p *svgPath) rect(x, y, w, h int) {
	p.moveTo(4*x, 4*y)
	p.lineBy(4*w, 0)
	p.lineBy(0, 4*h)
	p.lineBy(-4*w, 0)
}

func (p *svgPath) moveTo(x, y int) {
	if p.drawn {
		p.command('m')
		p.num(x - p.x)
		p.num(y - p.y)
	} else {
		p.command('M')
		p.num(x)
		p.num(y)
		p.drawn = true
	}
	p.x, p.y = x, y
}

func (p *svgPath) lineBy(dx, dy int) {
	if dx != 0 {
		p.command('h')
		p.num(dx)
	} else {
		p.command('v')
		p.num(dy)
	}
	p.x, p.y = p.x+dx, p.y+dy
}

func (p *svgPath) arcBy(in, out [2]int) {
	// The quarter circle ends a quarter module away on each axis: ±.25 ±.25. Its radii, rotation
	// and flags (large arc 0, sweep 1: clockwise, y down) are the same for every corner; the
	// sweep flag stays apart from the next number, since a parser older than SVG 2's grammar,
	// which reads flags as single characters, could read "1.25" as one number.
	dx, dy := quarterRadius*(in[0]+out[0]), quarterRadius*(in[1]+out[1])
	end := arcEnds[b2i(dx < 0)<<1|b2i(dy < 0)]
	if p.arc { // the command repeats (SVG 2, 9.3.2)
		p.b = append(p.b, end[1:]...)
	} else {
		p.b = append(p.b, end...)
	}
	p.x, p.y = p.x+dx, p.y+dy
	p.number, p.point, p.arc = true, true, true
}

// arcEnds are the arcs of rounded corners, by the signs of their ends' x and y (1 for
// negative, x the high bit), each with its command letter first.
var arcEnds = [4]string{
	"a.25.25 0 0 1 .25.25", "a.25.25 0 0 1 .25-.25", "a.25.25 0 0 1-.25.25", "a.25.25 0 0 1-.25-.25",
}

func (p *svgPath) closePath() {}

// moveBy starts a subpath dx, dy whole modules from the current point (edges.go).
func (p *svgPath) moveBy(dx, dy int) {
	b := appendInt(append(p.b, 'm'), dx)
	if dy >= 0 {
		b = append(b, ' ')
	}
	p.b = appendInt(b, dy)
}

// line adds a line of d whole modules, c being 'h' or 'v' (edges.go).
func (p *svgPath) line(c byte, d int) { p.b = appendInt(append(p.b, c), d) }

// appendInt appends v in decimal.
func appendInt(dst []byte, v int) []byte {
	if v < 0 {
		return appendUint(append(dst, '-'), -v)
	}
	return appendUint(dst, v)
}

// command appends a command's letter.
func (p *svgPath) command(c byte) {
	p.b = append(p.b, c)
	p.number, p.arc = false, false
}

// num appends the number of q quarter modules, after a separator when the grammar needs one.
func (p *svgPath) num(q int) {
	if q&3 == 0 { // a whole number of modules
		if q >= 0 {
			if p.number {
				p.b = append(p.b, ' ')
			}
			p.b = appendUint(p.b, q>>2)
		} else {
			p.b = appendUint(append(p.b, '-'), -q>>2)
		}
		p.number, p.point = true, false
		return
	}
	if p.number && q >= 0 && !(p.point && q < 4) {
		p.b = append(p.b, ' ')
	}
	p.b = appendQuarters(p.b, q)
	p.number, p.point = true, true
}

// quarterDecimals are the decimals of a number of quarters, by its remainder.
var quarterDecimals = [4]string{"", ".25", ".5", ".75"}

// appendQuarters appends q/4 with no zero before the point: 6 → "1.5", -1 → "-.25".
func appendQuarters(dst []byte, q int) []byte {
	if q < 0 {
		dst = append(dst, '-')
		q = -q
	}
	if whole := q >> 2; whole > 0 || q == 0 {
		dst = appendUint(dst, whole)
	}
	return append(dst, quarterDecimals[q&3]...)
}

// appendNumber appends v with at most four decimals and no zero before the point.
func appendNumber(dst []byte, v float64) []byte {
	start := len(dst)
	dst = strconv.AppendFloat(dst, v, 'f', -1, 64)
	if v != float64(int64(v)) {
		dst = strconv.AppendFloat(dst[:start], v, 'f', 4, 64)
		for dst[len(dst)-1] == '0' {
			dst = dst[:len(dst)-1]
		}
	}
	switch {
	case len(dst)-start >= 2 && dst[start] == '0' && dst[start+1] == '.':
		dst = append(dst[:start], dst[start+1:]...)
	case len(dst)-start >= 3 && dst[start] == '-' && dst[start+1] == '0' && dst[start+2] == '.':
		dst = append(dst[:start+1], dst[start+2:]...)
	}
	return dst
}

// appendColor appends c as #RRGGBB, or as #RGB when that says the same (CSS Color 4, 5.2).
func appendColor(dst []byte, c color.RGBA) []byte {
	const hex = "0123456789ABCDEF"
	if c.R>>4 == c.R&15 && c.G>>4 == c.G&15 && c.B>>4 == c.B&15 {
		return append(dst, '#', hex[c.R&15], hex[c.G&15], hex[c.B&15])
	}
	return append(dst, '#', hex[c.R>>4], hex[c.R&15], hex[c.G>>4], hex[c.G&15], hex[c.B>>4], hex[c.B&15])
}

// appendEscaped appends s escaped as XML character data, exactly as encoding/xml's EscapeText
// escapes it (FuzzAppendEscaped holds it to that), without its copies.
func appendEscaped(dst []byte, s string) []byte {
	last := 0
	for i := 0; i < len(s); {
		r, width := utf8.DecodeRuneInString(s[i:])
		var esc string
		switch r {
		case '"':
			esc = "&#34;"
		case '\'':
			esc = "&#39;"
		case '&':
			esc = "&amp;"
		case '<':
			esc = "&lt;"
		case '>':
			esc = "&gt;"
		case '\t':
			esc = "&#x9;"
		case '\n':
			esc = "&#xA;"
		case '\r':
			esc = "&#xD;"
		default:
			if !xmlChar(r) || r == utf8.RuneError && width == 1 {
				esc = "\uFFFD"
			}
		}
		if esc != "" {
			dst = append(append(dst, s[last:i]...), esc...)
			last = i + width
		}
		i += width
	}
	return append(dst, s[last:]...)
}

// xmlChar reports whether r is a character XML 1.0 allows (2.2, Char), as encoding/xml's
// EscapeText tests it.
func xmlChar(r rune) bool {
	return r == 0x09 || r == 0x0A || r == 0x0D || r >= 0x20 && r <= 0xD7FF || r >= 0xE000 && r <= 0xFFFD ||
		r >= 0x10000 && r <= 0x10FFFF
}
