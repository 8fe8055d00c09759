package render

import (
	"math"
	"strconv"
	"sync"

	"github.com/bananaqr/bananaqr/render/internal/glyph"
)

// Words around the code (issue 32): a caption above or below it, and a link's destination
// printed small beneath it, drawn as outlines of the embedded Noto Sans (package glyph), so that
// no format needs an installed font and every format draws the same shapes.
//
// Decisions. The image keeps its Size: the code shrinks to make room, so that a page or a layout
// made for a size-pixel square still holds it. The caption's em is captionEm modules, the
// destination's destinationEm, so that both follow the module, which print needs at 0.5 mm at
// least: the caption's em is then 2.5 mm (7 pt, its capitals 1.8 mm) and the destination's 1.5 mm.
// A caption too wide for the image at that size is set smaller, down to minCaptionEm, and below
// that the code shrinks further, so that the caption keeps its em; a destination is set smaller
// down to minDestinationEm, then shortened in the middle of its path, then of its host, whose end
// (the registrable domain) is kept. Each line has wordsSide modules of room left and
// right, and a band of its face's line height (ascent and descent); the bands lie outside the
// quiet zone, which stays whole.
const (
	captionEm        = 5.0 // the caption's em, in modules
	minCaptionEm     = 3.0 // the caption's smallest em: below it, the code shrinks instead
	destinationEm    = 3.0 // the destination's em, in modules
	minDestinationEm = 2.0 // the destination's smallest em before it is shortened
	wordsSide        = 1.0 // modules left and right of a line
)

// ellipsis is what a shortened destination shows in place of what it leaves out.
const ellipsis = "…"

// wordsLine is one line of words laid out on the image: its run, and where and how large it is
// drawn, in pixels.
type wordsLine struct {
	face     *glyph.Face
	run      glyph.Run
	scale    float64 // pixels a font unit
	x        float64 // the run's origin, from the image's left edge
	baseline float64 // from the image's top edge
}

// drawn reports whether the line is there.
func (w *wordsLine) drawn() bool { return w.face != nil }

// words is the words of a layout: the caption and the destination, either possibly absent.
type words struct {
	caption, destination wordsLine
	codeTop              float64 // the top of the symbol's quiet zone, in whole pixels
}

// hasWords reports whether o asks for words around the code.
func (o *Options) hasWords() bool { return o.Caption != "" || o.DestinationHost != "" }

// CaptionMissing returns the characters of caption that the caption's font cannot draw, each
// once, in order; nil when it draws them all. The API refuses such a caption (INVALID_CAPTION).
func CaptionMissing(caption string) []rune { return glyph.Bold.Missing(caption) }

// DestinationDrawable reports whether the destination's font draws every character of s (a host
// in Unicode, say; its ASCII form is always drawable).
func DestinationDrawable(s string) bool { return len(glyph.Regular.Missing(s)) == 0 }

// wordsFit finds the largest module, in pixels, at which a symbol of total modules a side (its
// quiet zone included) and the words of o fit an image of o.Size pixels, and lays them out.
// module is 0 when none of minModulePixels or more does; need is then the image's side, in
// modules, that the words need at that module.
func wordsFit(total int, o *Options) (module int, w words, need float64) {
	var caption, destination glyph.Run
	if o.Caption != "" {
		caption = glyph.Bold.Shape(o.Caption)
	}
	if o.DestinationHost != "" {
		destination = joinRuns(glyph.Regular.Shape(o.DestinationHost), glyph.Regular.Shape(o.DestinationPath))
	}
	fits := func(module int) (words, float64, bool) {
		w, need := layWords(total, module, o, caption, destination)
		return w, need, need*float64(module) <= float64(o.Size)
	}
	w, need, ok := fits(minModulePixels)
	if !ok {
		return 0, w, need
	}
	// The largest module that fits, by bisection: the words' bands grow with the module, so
	// whether a module fits changes once, from yes to no; a long destination is shortened
	// (shortenDestination) a dozen times at most, not at every module.
	lo, hi := minModulePixels, max(minModulePixels, o.Size/total) // lo fits
	for lo < hi {
		mid := (lo + hi + 1) / 2
		if _, _, ok := fits(mid); ok {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	w, need, _ = fits(lo)
	return lo, w, need
}

// layWords lays out the words of o around a symbol of total modules a side at module pixels a
// module, on an image of o.Size pixels, and returns the image's side that the symbol and the
// words need, in modules. The lines' bands are whole pixels.
func layWords(total, module int, o *Options, caption, destination glyph.Run) (w words, need float64) {
	k := float64(module)
	room := float64(o.Size)/k - 2*wordsSide // the lines' width, in modules
	bands := 0.0                            // pixels
	if o.Caption != "" {
		w.caption = fitLine(glyph.Bold, caption, captionEm, minCaptionEm, room, k)
		if float64(caption.Advance)*w.caption.scale > room*k+1e-9 { // too wide even at minCaptionEm
			return w, math.Inf(1)
		}
		bands += lineBand(&w.caption)
	}
	if o.DestinationHost != "" {
		run := destination
		em := min(destinationEm, max(minDestinationEm, emToFit(glyph.Regular, run, room)))
		if width(glyph.Regular, run, em) > room {
			run = shortenDestination(o.DestinationHost, o.DestinationPath, em, room)
		}
		w.destination = fitLine(glyph.Regular, run, em, em, room, k)
		bands += lineBand(&w.destination)
	}
	need = float64(total) + bands/k
	if need*k > float64(o.Size) {
		return w, need
	}
	// Place the lines: the symbol and the bands centred down the image, the caption above or
	// below the symbol, the destination below both or below the symbol.
	top := (float64(o.Size) - float64(total)*k - bands) / 2
	top = math.Floor(top)
	codeTop := top
	if w.caption.drawn() && o.CaptionAbove {
		placeLine(&w.caption, top, o.Size)
		codeTop = top + lineBand(&w.caption)
	}
	w.codeTop = codeTop
	next := codeTop + float64(total)*k
	if w.caption.drawn() && !o.CaptionAbove {
		placeLine(&w.caption, next, o.Size)
		next += lineBand(&w.caption)
	}
	if w.destination.drawn() {
		placeLine(&w.destination, next, o.Size)
	}
	return w, need
}

// fitLine returns run of face as a line of em modules, or smaller, down to minEm, so that it is
// no wider than room modules, at k pixels a module.
func fitLine(face *glyph.Face, run glyph.Run, em, minEm, room, k float64) wordsLine {
	em = min(em, max(minEm, emToFit(face, run, room)))
	units := float64(face.Metrics().UnitsPerEm)
	return wordsLine{face: face, run: run, scale: em * k / units}
}

// emToFit returns the em, in modules, at which run of face is room modules wide (infinite for a
// run without advance).
func emToFit(face *glyph.Face, run glyph.Run, room float64) float64 {
	if run.Advance <= 0 {
		return math.Inf(1)
	}
	return room * float64(face.Metrics().UnitsPerEm) / float64(run.Advance)
}

// width returns how wide run of face is at em modules, in modules.
func width(face *glyph.Face, run glyph.Run, em float64) float64 {
	return float64(run.Advance) * em / float64(face.Metrics().UnitsPerEm)
}

// lineBand returns the height of a line's band, in whole pixels: its face's ascent and descent.
func lineBand(w *wordsLine) float64 {
	m := w.face.Metrics()
	return math.Ceil(float64(m.Ascent+m.Descent) * w.scale)
}

// placeLine places w in the band whose top is top pixels from the image's top, centred across an
// image of size pixels.
func placeLine(w *wordsLine, top float64, size int) {
	w.baseline = top + float64(w.face.Metrics().Ascent)*w.scale
	w.x = (float64(size) - float64(w.run.Advance)*w.scale) / 2
}

// joinRuns returns the run of a followed by b, as one line of one face (b's glyphs moved by a's
// advance; no kerning across the join, where a host meets its path's slash).
func joinRuns(a, b glyph.Run) glyph.Run {
	out := glyph.Run{Glyphs: make([]glyph.Placed, 0, len(a.Glyphs)+len(b.Glyphs)), Advance: a.Advance + b.Advance}
	out.Glyphs = append(out.Glyphs, a.Glyphs...)
	for _, g := range b.Glyphs {
		out.Glyphs = append(out.Glyphs, glyph.Placed{ID: g.ID, X: g.X + a.Advance})
	}
	return out
}

// shortenDestination returns the destination host+path shortened to fit room modules at em
// modules: the path's middle replaced by an ellipsis, keeping as much of its start and end as
// fits (the whole host kept); when the host alone with an ellipsis does not fit, the host's
// start replaced by an ellipsis, keeping its end, where the registrable domain is. The longest
// fit is found by bisection: a text of 2,048 characters takes a dozen shapings, not thousands.
func shortenDestination(host, path string, em, room float64) glyph.Run {
	face := glyph.Regular
	fits := func(s string) (glyph.Run, bool) {
		run := face.Shape(s)
		return run, width(face, run, em) <= room
	}
	p, h := []rune(path), []rune(host)
	middle := func(keep int) string { // keep of the path's characters, half from each end
		head := (keep + 1) / 2
		return host + string(p[:head]) + ellipsis + string(p[len(p)-(keep-head):])
	}
	tail := func(keep int) string { return ellipsis + string(h[len(h)-keep:]) }
	for _, try := range []struct {
		most int
		text func(int) string
	}{{len(p) - 1, middle}, {len(h) - 1, tail}} {
		if _, ok := fits(try.text(0)); !ok || try.most < 0 {
			continue
		}
		lo, hi := 0, try.most // lo fits; find the most that fits
		for lo < hi {
			mid := (lo + hi + 1) / 2
			if _, ok := fits(try.text(mid)); ok {
				lo = mid
			} else {
				hi = mid - 1
			}
		}
		run, _ := fits(try.text(lo))
		return run
	}
	run, _ := fits(ellipsis)
	return run
}

// wordsTransform returns where line w's run goes in the coordinates of the SVG and the print
// formats' drawing: modules, y down, the symbol's top left module at (0, 0).
func wordsTransform(w *wordsLine, l *layout) glyph.Transform {
	k := float64(l.module)
	return glyph.Transform{X: (w.x - float64(l.originX)) / k, Y: (w.baseline - float64(l.originY)) / k, Scale: w.scale / k}
}

// appendWordsSVG appends the words of layout l as SVG paths in the foreground colour, hidden from
// screen readers: the SVG's title and description say them (AppendSVG).
func appendWordsSVG(dst []byte, l *layout, o *Options) []byte {
	for _, w := range [2]*wordsLine{&l.words.caption, &l.words.destination} {
		if !w.drawn() {
			continue
		}
		// The outlines in font units, y up, placed by a matrix: each glyph's path data is
		// formatted once and copied (glyph.AppendSVGPathFontUnits), several times faster than
		// writing every point in modules.
		t := wordsTransform(w, l)
		// geometricPrecision: the SVG's crispEdges, right for square modules, would draw the
		// letters without anti-aliasing.
		dst = append(dst, `<path aria-hidden="true" shape-rendering="geometricPrecision" fill="`...)
		dst = appendColor(dst, o.Foreground)
		dst = append(dst, `" transform="matrix(`...)
		dst = appendScale(dst, t.Scale)
		dst = append(dst, " 0 0 -"...)
		dst = appendScale(dst, t.Scale)
		dst = append(dst, ' ')
		dst = appendNumber(dst, t.X)
		dst = append(dst, ' ')
		dst = appendNumber(dst, t.Y)
		dst = append(dst, `)" d="`...)
		dst = w.face.AppendSVGPathFontUnits(dst, w.run)
		dst = append(dst, `"/>`...)
	}
	return dst
}

// appendScale appends a transform's scale, modules a font unit, with 8 decimals (trailing zeros
// dropped): the 4 of appendNumber would be off by a few per cent at the smallest captions, and
// the error grows with the font units of the line, up to tens of thousands.
func appendScale(dst []byte, v float64) []byte {
	start := len(dst)
	dst = strconv.AppendFloat(dst, v, 'f', 8, 64)
	for dst[len(dst)-1] == '0' {
		dst = dst[:len(dst)-1]
	}
	if dst[len(dst)-1] == '.' {
		dst = dst[:len(dst)-1]
	}
	if len(dst)-start >= 2 && dst[start] == '0' && dst[start+1] == '.' {
		dst = append(dst[:start], dst[start+1:]...)
	}
	return dst
}

// appendWordsPrint appends the words of layout l with PDF's operators, in the coordinates
// appendPrintContent has set (modules, y down) and its foreground colour: each line in a q … Q
// pair whose cm maps a third of a font unit, y up, to its place, then each glyph at its offset
// (printGlyph's path, formatted once) filled with the non-zero winding rule.
func appendWordsPrint(dst []byte, l *layout, o *Options) []byte {
	for _, w := range [2]*wordsLine{&l.words.caption, &l.words.destination} {
		if !w.drawn() {
			continue
		}
		t := wordsTransform(w, l)
		third := t.Scale / 3
		dst = append(dst, "q "...)
		dst = appendScale(dst, third)
		dst = append(dst, " 0 0 -"...)
		dst = appendScale(dst, third)
		dst = append(dst, ' ')
		dst = appendPrintNumber(dst, t.X)
		dst = append(dst, ' ')
		dst = appendPrintNumber(dst, t.Y)
		dst = append(dst, " cm\n"...)
		for _, g := range w.run.Glyphs {
			path := printGlyph(w.face, g.ID)
			if len(path) == 0 {
				continue
			}
			dst = append(dst, "q 1 0 0 1 "...)
			dst = strconv.AppendInt(dst, int64(3*g.X), 10)
			dst = append(dst, " 0 cm\n"...)
			dst = append(append(dst, path...), "f Q\n"...)
		}
		dst = append(dst, "Q\n"...)
	}
	return dst
}

// printGlyphKey names a glyph of a face.
type printGlyphKey struct {
	face *glyph.Face
	id   glyph.ID
}

// printGlyphs holds each glyph's path as printGlyph writes it, made once: a face has a few
// hundred glyphs, so the map stays small.
var printGlyphs sync.Map // printGlyphKey → []byte

// printGlyph returns the outline of glyph id of face with PDF's path operators (m, l, c, h) in
// thirds of a font unit, y up, from the glyph's origin: whole numbers, since each quadratic
// (p0, c, p1) is drawn as the cubic with control points p0 + 2/3·(c − p0) and p1 + 2/3·(c − p1),
// in thirds (p0 + 2c) and (p1 + 2c).
func printGlyph(face *glyph.Face, id glyph.ID) []byte {
	key := printGlyphKey{face, id}
	if p, ok := printGlyphs.Load(key); ok {
		return p.([]byte)
	}
	var b []byte
	var x0, y0 int // the current point, in font units
	point := func(x, y int) {
		b = strconv.AppendInt(b, int64(x), 10)
		b = strconv.AppendInt(append(b, ' '), int64(y), 10)
	}
	for i, s := range face.Outline(id) {
		p := s.P[0]
		switch s.Op {
		case glyph.MoveTo:
			if i > 0 {
				b = append(b, "h\n"...)
			}
			point(3*int(p.X), 3*int(p.Y))
			b = append(b, " m\n"...)
			x0, y0 = int(p.X), int(p.Y)
		case glyph.LineTo:
			point(3*int(p.X), 3*int(p.Y))
			b = append(b, " l\n"...)
			x0, y0 = int(p.X), int(p.Y)
		case glyph.QuadTo:
			c, end := p, s.P[1]
			point(x0+2*int(c.X), y0+2*int(c.Y))
			b = append(b, ' ')
			point(int(end.X)+2*int(c.X), int(end.Y)+2*int(c.Y))
			b = append(b, ' ')
			point(3*int(end.X), 3*int(end.Y))
			b = append(b, " c\n"...)
			x0, y0 = int(end.X), int(end.Y)
		}
	}
	if len(b) > 0 {
		b = append(b, "h\n"...)
	}
	p, _ := printGlyphs.LoadOrStore(key, b)
	return p.([]byte)
}

// appendPrintNumber appends v with at most four decimals, as PDF's real numbers are written
// (ISO 32000-1 7.3.3: no exponent).
func appendPrintNumber(dst []byte, v float64) []byte {
	return appendNumber(dst, math.Round(v*10000)/10000)
}
