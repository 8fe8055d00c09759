package render

import (
	"bytes"
	"image/color"
	"strconv"
	"sync"

	"github.com/bananaqr/bananaqr/qr"
	"github.com/bananaqr/bananaqr/render/internal/banana"
)

// This file is what the print formats share: the page's size and the drawing on it, written
// with PDF's content operators (ISO 32000-1 8.5 and 8.6: m, l, c, h, re, f, rg, cm). PDF writes
// them as its page's content stream; the EPS defines the same operators in PostScript in its
// prolog and runs the very same bytes.

// PrintDPI is the resolution at which a print format's page has Options.Size pixels: a PDF or
// EPS of Size pixels is the PNG of Size pixels printed at 300 dots an inch, the resolution print
// shops ask for, as a vector drawing. Its page is Size·72/300 points (Size/300 inches) square:
// the default 1024 pixels make 86.7 mm, 128 pixels 10.8 mm and 2048 pixels 173.4 mm.
const PrintDPI = 300

// hundredthsPerPixel is the size of a pixel in hundredths of a point: 72/300 points, 0.24 of a
// point exactly, so that every length of the page is a whole number of hundredths.
const hundredthsPerPixel = 100 * 72 / PrintDPI

// PageSide returns the side of a print format's page for o.Size pixels, in points
// (1/72 inch): o.Size·72/PrintDPI.
func PageSide(o *Options) float64 { return float64(o.Size*hundredthsPerPixel) / 100 }

// kappa is the distance of a cubic Bézier's control points from the ends of a quarter circle
// of radius 1 that it approximates, 4/3·(√2 − 1): off the circle by at most 0.027 % of the radius.
const kappa = 0.5522847498307936

// printFrame places a symbol on a print format's page, in 1/10000 of a point: the page's side,
// a module's side, and the quiet zone (with half the remainder) before the symbol's first
// module, from the page's left and top edges.
type printFrame struct{ side, module, originX, originY int64 }

// printFrameOf returns the page of layout l: o.Size pixels at PrintDPI, or with the Swiss cross
// the Swiss QR Code's 46 mm for the symbol (swissPrintFrame).
func printFrameOf(l *layout, o *Options) printFrame {
	if o.Logo == SwissCross {
		return swissPrintFrame(l.n, o.Margin)
	}
	const unit = 100 * hundredthsPerPixel // 1/10000 of a point a pixel
	return printFrame{side: int64(l.size * unit), module: int64(l.module * unit), originX: int64(l.originX * unit), originY: int64(l.originY * unit)}
}

// appendPrintContent appends the drawing of s on layout l, on page f, with PDF's content
// operators: the background over the whole page, then a change of coordinates to the SVG's
// (modules, y down, the symbol's top left module at (0, 0)), the dark modules as one path filled
// with the non-zero winding rule (pathSink), and the logo.
func appendPrintContent(dst []byte, s *qr.Symbol, o *Options, l *layout, f printFrame) []byte {
	dst = append(appendRGB(dst, o.Background), " rg\n0 0 "...)
	dst = appendFixed(dst, f.side, 4)
	dst = append(dst, ' ')
	dst = appendFixed(dst, f.side, 4)
	dst = append(dst, ' ')
	dst = append(dst, "re f\n"...)
	// The page's y axis points up: a module is f.module wide, and y is turned over.
	dst = appendFixed(dst, f.module, 4)
	dst = append(dst, " 0 0 -"...)
	dst = appendFixed(dst, f.module, 4)
	dst = append(dst, ' ')
	dst = appendFixed(dst, f.originX, 4)
	dst = append(dst, ' ')
	dst = appendFixed(dst, f.side-f.originY, 4)
	dst = append(dst, " cm\n"...)
	dst = append(appendRGB(dst, o.Foreground), " rg\n"...)

	w := printWriters.Get().(*printWriter)
	defer printWriters.Put(w)
	w.path.b = dst
	w.drawModules(s, l.pad, o.Corners, &w.path)
	dst = append(w.path.b, "f\n"...)
	w.path.b = nil // the pool keeps no caller's memory

	if o.Logo == SwissCross {
		return appendCrossPrint(dst, l.n, o)
	}
	if l.pad.side > 0 {
		dst = append(dst, printLogos.get(l.pad, newPrintLogo)...)
	}
	return appendWordsPrint(dst, l, o)
}

// printWriter is the scratch memory of appendPrintContent.
type printWriter struct {
	pathScratch
	path printPath
}

var printWriters = sync.Pool{New: func() any { return new(printWriter) }}

// printPath spells the dark modules' path with PDF's path operators (pathSink), one operator a
// line, in absolute coordinates: x y w h re, x y m, x y l, x1 y1 x2 y2 x3 y3 c, h.
type printPath struct {
	b    []byte
	x, y int // the current point, in quarter modules
}

func (p *printPath) rect(x, y, w, h int) {
	b := appendUint(p.b, x)
	b = appendUint(append(b, ' '), y)
	b = appendUint(append(b, ' '), w)
	b = appendUint(append(b, ' '), h)
	p.b = append(b, " re\n"...)
}

func (p *printPath) moveTo(x, y int) {
	p.x, p.y = x, y
	p.b = append(p.point(p.b, quarterUnits*x, quarterUnits*y), " m\n"...)
}

func (p *printPath) lineBy(dx, dy int) {
	p.x, p.y = p.x+dx, p.y+dy
	p.b = append(p.point(p.b, quarterUnits*p.x, quarterUnits*p.y), " l\n"...)
}

// arcBy draws the quarter circle as one cubic Bézier segment: its control points on the
// tangents at its ends, kappa·radius from them.
func (p *printPath) arcBy(in, out [2]int) {
	x0, y0 := quarterUnits*p.x, quarterUnits*p.y
	p.x += quarterRadius * (in[0] + out[0])
	p.y += quarterRadius * (in[1] + out[1])
	x3, y3 := quarterUnits*p.x, quarterUnits*p.y
	b := p.point(p.b, x0+controlUnits*in[0], y0+controlUnits*in[1])
	b = p.point(append(b, ' '), x3-controlUnits*out[0], y3-controlUnits*out[1])
	b = p.point(append(b, ' '), x3, y3)
	p.b = append(b, " c\n"...)
}

func (p *printPath) closePath() { p.b = append(p.b, "h\n"...) }

// The outlines' numbers are written in units of 1/10000 of a module, as integers: a quarter
// module is 2500 of them, and a control point of a corner's arc lies kappa·cornerRadius, 1381 of
// them, from the arc's end (an error of 0.00003 modules).
const (
	quarterUnits = 2500
	controlUnits = 1381 // math.Round(kappa * cornerRadius * 10000)
)

// point appends the point (x, y) given in units of 1/10000 module, in modules.
func (p *printPath) point(dst []byte, x, y int) []byte {
	return appendFixed(append(appendFixed(dst, int64(x), 4), ' '), int64(y), 4)
}

// printLogos keeps the logo's drawing by logo pad, as printed by appendPrintContent; at most one
// pad per version, some 5 KB each.
var printLogos = boundedCache[padding, string]{max: 1 << 20}

// newPrintLogo returns the mark's drawing inside pad, with PDF's content operators, and its
// size in bytes.
func newPrintLogo(pad padding) (string, int) {
	at := float64(pad.first) + logoInset
	var d printLogo
	banana.Draw(&d, at, at, float64(pad.side)-2*logoInset)
	return string(d.b), len(d.b)
}

// printLogo spells the mark with PDF's content operators (banana.Drawer), its coordinates with
// three decimals as the SVG's.
type printLogo struct{ b []byte }

// Layer sets the fill colour (banana.Drawer).
func (d *printLogo) Layer(fill color.RGBA) { d.b = append(appendRGB(d.b, fill), " rg\n"...) }

// MoveTo starts a subpath at (x, y) (banana.Drawer).
func (d *printLogo) MoveTo(x, y float64) {
	d.b = append(appendMilli(append(appendMilli(d.b, x), ' '), y), " m\n"...)
}

// CurveTo appends a cubic Bézier to (x, y) with control points (x1, y1) and (x2, y2)
// (banana.Drawer).
func (d *printLogo) CurveTo(x1, y1, x2, y2, x, y float64) {
	for i, v := range [6]float64{x1, y1, x2, y2, x, y} {
		if i > 0 {
			d.b = append(d.b, ' ')
		}
		d.b = appendMilli(d.b, v)
	}
	d.b = append(d.b, " c\n"...)
}

// ClosePath closes the subpath (banana.Drawer).
func (d *printLogo) ClosePath() { d.b = append(d.b, "h\n"...) }

// Fill fills the layer's subpaths (banana.Drawer).
func (d *printLogo) Fill() { d.b = append(d.b, "f\n"...) }

// appendMilli appends v with three decimals, as the SVG's logo has them, less trailing zeros.
func appendMilli(dst []byte, v float64) []byte {
	start := len(dst)
	dst = strconv.AppendFloat(dst, v, 'f', 3, 64)
	for dst[len(dst)-1] == '0' {
		dst = dst[:len(dst)-1]
	}
	dst = bytes.TrimSuffix(dst, []byte("."))
	if string(dst[start:]) == "-0" {
		dst = append(dst[:start], '0')
	}
	return dst
}

// appendHundredths appends n/100 with no trailing zeros: 24576 → "245.76".
func appendHundredths(dst []byte, n int) []byte { return appendFixed(dst, int64(n), 2) }

// appendFixed appends n/10^decimals (decimals 0 to 4) in decimal, with no trailing zeros after
// the point and no zero before it: (24576, 2) → "245.76", (-250, 3) → "-.25", (0, 3) → "0".
func appendFixed(dst []byte, n int64, decimals int) []byte {
	if n < 0 {
		dst = append(dst, '-')
		n = -n
	}
	var whole, frac int64
	switch decimals { // constant divisors, which compile to multiplications
	case 0:
		whole = n
	case 1:
		whole, frac = n/10, n%10
	case 2:
		whole, frac = n/100, n%100
	case 3:
		whole, frac = n/1000, n%1000
	default:
		whole, frac = n/10000, n%10000
	}
	if whole > 0 || frac == 0 {
		dst = appendUint(dst, int(whole))
	}
	if frac == 0 {
		return dst
	}
	var digits [4]byte
	for i := decimals - 1; i >= 0; i-- {
		digits[i] = byte('0' + frac%10)
		frac /= 10
	}
	k := decimals
	for digits[k-1] == '0' {
		k--
	}
	return append(append(dst, '.'), digits[:k]...)
}

// appendRGB appends c as the three operands of rg (DeviceRGB, 0 to 1), each with four
// decimals rounded up: n/255 becomes the least four-decimal number not below it, which any
// reader turns back into n, whether it rounds or truncates to eight bits (TestPrintColours).
func appendRGB(dst []byte, c color.RGBA) []byte {
	for i, v := range [3]uint8{c.R, c.G, c.B} {
		if i > 0 {
			dst = append(dst, ' ')
		}
		dst = appendFixed(dst, (int64(v)*10000+254)/255, 4)
	}
	return dst
}
