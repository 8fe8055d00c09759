package render

import (
	"errors"
	"math"

	"github.com/bananaqr/bananaqr/qr"
)

// This file draws the Swiss QR Code of the QR-bill (SIX, "Swiss Implementation Guidelines for the
// QR-bill", version 2.3, and its style guide): the symbol printed 46 × 46 mm without its quiet
// zone, whatever its version, with the Swiss cross, 7 × 7 mm, over its centre. The cross is the
// logo SwissCross; unlike the banana it clears no modules: it is drawn over them, as the
// guideline shows it, and the modules it touches are those that the encoder spares
// (SwissCrossCover).
//
// The cross's proportions are those of the graphic that SIX publishes with the guideline
// (CH-Kreuz_7mm: a square of 19.8 units for 7 mm). A black square lies inside a white border of
// 1.418 units (0.5 mm: the border's line of 1.4357 units is centred 0.7 units inside the edge),
// so the black square is 6 mm; on it a white cross of two bars 3.3 × 11 units, 7/6 × 35/9 mm:
// the Swiss federal cross, whose arms are a sixth longer than wide. The graphic places the
// cross 0.4 units (0.14 mm) above the centre; it is drawn centred here, as the coat of arms has
// it. In units of 1/36 mm, all of these are whole numbers (crossUnits and what follows).

// The Swiss QR Code's sizes (SIX IG QR-bill 2.3).
const (
	SwissSymbolMM = 46 // the symbol's side, quiet zone excluded, in millimetres
	SwissCrossMM  = 7  // the Swiss cross's side, in millimetres
	// SwissMaxVersion is the largest version the guideline allows.
	SwissMaxVersion = 25
)

// The cross in units of 1/36 mm: each band is centred on the symbol's centre.
const (
	crossUnits       = 36 * SwissCrossMM // the whole logo, its white border included: 7 mm
	crossBlackUnits  = 36 * 6            // the black square inside the white border of 0.5 mm
	crossBarUnits    = 42                // a bar's width: 7/6 mm
	crossSpreadUnits = 140               // a bar's length, the cross's span: 35/9 mm
)

// ErrCrossNotCovered is the error of the Swiss cross on a symbol not encoded for it: the cross
// hides the modules of SwissCrossCover, which the symbol's error correction must spare, so the
// symbol must come from qr.Encode with qr.Options{Cover: SwissCrossCover, CoverPaint:
// SwissCrossPaint}.
var ErrCrossNotCovered = errors.New("render: the Swiss cross needs a symbol encoded with qr.Options{Cover: render.SwissCrossCover}")

// ErrCrossCorners is the error of the Swiss cross with rounded corners: the guideline's Swiss
// QR Code has square modules.
var ErrCrossCorners = errors.New("render: the Swiss cross is drawn on square modules only")

// SwissCrossCover returns the square of modules that the Swiss cross touches on a symbol of n
// modules a side, the symbol being 46 mm and the cross 7 mm: its first module in both directions
// and its side, the modules within 7/46 of the symbol's side around its centre, rounded out to
// whole modules. It is what qr.Options.Cover takes, so that the encoder keeps error correction
// to spare for them. (n is odd: the cross's half side, 7n/92 modules, reaches ⌈7n/92 − ½⌉
// modules beyond the centre module.)
func SwissCrossCover(n int) (first, side int) {
	beyond := (7*n - 46 + 91) / 92 // ⌈(7n − 46)/92⌉
	side = 2*beyond + 1
	return (n - side) / 2, side
}

// SwissCrossPaint says what the Swiss cross draws over the module (x, y) of a symbol of n
// modules a side (a qr.CoverPaint), judged on the module's central half, where a reader samples
// it (a sliver of the cross along a module's edge is not read): light where some of it is under
// the white border or the white cross, dark where some is under the black square outside the
// cross, neither outside the cross. A module under both counts as wrong whatever it holds, so
// the encoder, given it with SwissCrossCover, keeps error correction to spare for every codeword
// a reader may misread.
func SwissCrossPaint(n, x, y int) (light, dark bool) {
	r := crossRects(n)
	cell := crossRect{float64(x) + .25, float64(y) + .25, .5, .5}
	outer, black, bars := r[0], r[1], r[2:]
	if in, ok := cell.meet(outer); ok {
		light = !in.within(black)
	}
	for _, bar := range bars {
		if _, ok := cell.meet(bar); ok {
			light = true
		}
	}
	if in, ok := cell.meet(black); ok {
		dark = !in.within(bars[0]) && !in.within(bars[1])
	}
	return light, dark
}

// sliver is the width, in modules, below which a strip of the cross over a module's sampled
// half is not read: a 16th of a module.
const sliver = 1.0 / 16

// meet returns the part of a that b covers, and whether it is more than a sliver both across
// and down.
func (a crossRect) meet(b crossRect) (crossRect, bool) {
	x0, y0 := max(a.x, b.x), max(a.y, b.y)
	x1, y1 := min(a.x+a.w, b.x+b.w), min(a.y+a.h, b.y+b.h)
	return crossRect{x0, y0, x1 - x0, y1 - y0}, x1-x0 > sliver && y1-y0 > sliver
}

// within reports whether a lies inside b, but for a sliver along its sides. A rectangle lies
// inside the white cross, two bars, only when it lies inside one of them: one that reaches
// beyond the bars' common square both across and down holds a corner outside both.
func (a crossRect) within(b crossRect) bool {
	return a.x >= b.x-sliver && a.y >= b.y-sliver && a.x+a.w <= b.x+b.w+sliver && a.y+a.h <= b.y+b.h+sliver
}

// SwissPageSide returns the side, in points, of the page of a Swiss QR Code of n modules a side
// with a quiet zone of margin modules: 46 mm for the symbol, and the quiet zone at the same
// scale (1 mm = 72/25.4 points).
func SwissPageSide(n, margin int) float64 {
	return SwissSymbolMM * 72 / 25.4 * float64(n+2*margin) / float64(n)
}

// checkCross checks that s was encoded for the Swiss cross and that o draws square modules.
func checkCross(s *qr.Symbol, o *Options) error {
	if o.Corners != Square {
		return ErrCrossCorners
	}
	first, side := s.Cover()
	if wantFirst, wantSide := SwissCrossCover(s.Size()); first != wantFirst || side != wantSide {
		return ErrCrossNotCovered
	}
	return nil
}

// swissPrintFrame returns the page of a Swiss QR Code of n modules with a quiet zone of margin
// modules, in 1/10000 of a point: 46 mm for the symbol (SwissPageSide).
func swissPrintFrame(n, margin int) printFrame {
	module := SwissSymbolMM * 72 / 25.4 * 10000 / float64(n)
	return printFrame{
		side:    int64(math.Round(module * float64(n+2*margin))),
		module:  int64(math.Round(module)),
		originX: int64(math.Round(module * float64(margin))),
		originY: int64(math.Round(module * float64(margin))),
	}
}

// crossRect is a rectangle of the cross, in modules from the symbol's top left corner.
type crossRect struct{ x, y, w, h float64 }

// crossRects returns the cross on a symbol of n modules, in modules: the white square, the
// black square on it, and the white cross's two bars on that.
func crossRects(n int) [4]crossRect {
	unit := float64(n) * SwissCrossMM / SwissSymbolMM / crossUnits // modules a unit
	centre := float64(n) / 2
	band := func(units int) (from, length float64) {
		return centre - float64(units)*unit/2, float64(units) * unit
	}
	x0, side := band(crossUnits)
	b0, black := band(crossBlackUnits)
	bar0, bar := band(crossBarUnits)
	span0, span := band(crossSpreadUnits)
	return [4]crossRect{{x0, x0, side, side}, {b0, b0, black, black}, {bar0, span0, bar, span}, {span0, bar0, span, bar}}
}

// appendCrossSVG appends the Swiss cross on a symbol of n modules as SVG elements, in module
// units: the white square, the black one, the white cross, in o's colours (the light modules'
// and the dark ones').
func appendCrossSVG(dst []byte, n int, o *Options) []byte {
	r := crossRects(n)
	for i, c := range r {
		if i != 3 {
			dst = append(dst, `<path fill="`...)
			fill := o.Background
			if i == 1 {
				fill = o.Foreground
			}
			dst = append(appendColor(dst, fill), `" d="`...)
		}
		dst = appendNumber(append(dst, 'M'), c.x)
		dst = appendNumber(append(dst, ' '), c.y)
		dst = appendNumber(append(dst, 'h'), c.w)
		dst = appendNumber(append(dst, 'v'), c.h)
		dst = appendNumber(append(dst, 'h', '-'), c.w)
		dst = append(dst, 'z')
		if i != 2 {
			dst = append(dst, `"/>`...)
		}
	}
	return dst
}

// appendCrossPrint appends the Swiss cross on a symbol of n modules with PDF's content
// operators, in module units (after appendPrintContent's change of coordinates): as
// appendCrossSVG.
func appendCrossPrint(dst []byte, n int, o *Options) []byte {
	r := crossRects(n)
	for i, c := range r {
		if i != 3 {
			fill := o.Background
			if i == 1 {
				fill = o.Foreground
			}
			dst = append(appendRGB(dst, fill), " rg\n"...)
		}
		for j, v := range [4]float64{c.x, c.y, c.w, c.h} {
			if j > 0 {
				dst = append(dst, ' ')
			}
			dst = appendFixed(dst, int64(math.Round(v*10000)), 4)
		}
		dst = append(dst, " re\n"...)
		if i != 2 {
			dst = append(dst, "f\n"...)
		}
	}
	return dst
}

// A pixelCross is the Swiss cross of a PNG in pixels: every band is a whole number of pixels,
// centred exactly on the symbol's centre (a band's width has the parity of the symbol's side in
// pixels, so that the margins either side are equal), and within a pixel of its exact width.
type pixelCross struct {
	top    int    // the cross's first pixel row and column in the image
	bottom int    // the first row after it
	bands  [4]int // the starts of the black square, the bar, the span, from top, in pixels
	ends   [4]int // their ends
}

// newPixelCross returns the cross of layout l's symbol.
func newPixelCross(l *layout) pixelCross {
	symbol := l.n * l.module
	exact := float64(symbol) * SwissCrossMM / SwissSymbolMM // the cross's side in pixels
	whole := centredWidth(symbol, exact)
	// A Swiss QR Code has no words (the API refuses a caption), so the symbol is as far from the
	// top as from the left: the cross's rows and columns share their bounds.
	c := pixelCross{top: l.originY + (symbol-whole)/2}
	c.bottom = c.top + whole
	for i, units := range [3]int{crossBlackUnits, crossBarUnits, crossSpreadUnits} {
		w := centredWidth(whole, exact*float64(units)/crossUnits)
		c.bands[i] = c.top + (whole-w)/2
		c.ends[i] = c.bands[i] + w
	}
	return c
}

// centredWidth returns the whole number of pixels nearest to exact that has the parity of
// total, so that it can be centred in total pixels.
func centredWidth(total int, exact float64) int {
	w := int(math.Round(exact))
	if (total-w)%2 != 0 {
		if float64(w) > exact {
			w--
		} else {
			w++
		}
	}
	return max(w, 0)
}

// The bands of a pixelCross.
const (
	bandBlack = iota
	bandBar
	bandSpan
)

// overlay draws row y of the cross (top ≤ y < bottom) over the 1-bit row dst: white, then the
// black square, then the white cross.
func (c *pixelCross) overlay(y int, dst []byte) {
	clearPixels(dst, c.top, c.bottom)
	in := func(b int) bool { return y >= c.bands[b] && y < c.ends[b] }
	if !in(bandBlack) {
		return
	}
	setBits(dst, c.bands[bandBlack], c.ends[bandBlack])
	if in(bandSpan) {
		clearPixels(dst, c.bands[bandBar], c.ends[bandBar])
	}
	if in(bandBar) {
		clearPixels(dst, c.bands[bandSpan], c.ends[bandSpan])
	}
}

// clearPixels clears bits a to b-1 of a 1-bit row, most significant bit first.
func clearPixels(row []byte, a, b int) {
	if a >= b {
		return
	}
	first, last := a/8, (b-1)/8
	head, tail := byte(0xff>>(a%8)), byte(0xff<<(7-(b-1)%8))
	if first == last {
		row[first] &^= head & tail
		return
	}
	row[first] &^= head
	for i := first + 1; i < last; i++ {
		row[i] = 0
	}
	row[last] &^= tail
}

// crossRow is the pngImage row function of a Swiss QR Code (depth 1): row's, with the cross
// drawn over the rows it crosses, and the row after it drawn afresh.
func (r *rasterizer) crossRow(y int, dst []byte) (same bool) {
	c := &r.cross
	if y < c.top || y > c.bottom {
		return r.row(y, dst)
	}
	r.prevInQuiet = false
	r.squareRow((y-r.l.originY)/r.l.module, dst)
	if y < c.bottom {
		c.overlay(y, dst)
	}
	return false
}

// appendSwissSVGSize appends the width and height attributes' values of a Swiss QR Code's SVG
// of n modules with a quiet zone of margin modules, in millimetres: `W" height="W`, W the
// symbol's 46 mm and the quiet zone at the same scale.
func appendSwissSVGSize(dst []byte, n, margin int) []byte {
	var buf [24]byte
	side := appendNumber(buf[:0], SwissSymbolMM*float64(n+2*margin)/float64(n))
	return append(append(append(append(dst, side...), `mm" height="`...), side...), "mm"...)
}
