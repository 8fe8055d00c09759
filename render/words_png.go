package render

import (
	"encoding/binary"
	"image"

	"github.com/bananaqr/bananaqr/render/internal/glyph"
)

// This file draws the words around the code (words.go) into the PNG: each line's run is
// rasterised by glyph.Face.Mask where the SVG draws it, its coverage rounded to the nearest
// quarter, the palette's background, three shades and foreground (shadeEntry). The words lie
// outside the symbol and its quiet zone (layWords), so their rows hold words and background only,
// and they come to the compressor as pieces (png.go) like the modules': each row's change from the
// row above, made once per layout of the words and kept in wordsRasterCache.

// wordsRaster is the words of a layout drawn as palette entries, with their rows as pieces.
type wordsRaster struct {
	rect    image.Rectangle // the pixels the words cover, within the image
	entries []uint8         // rect's pixels, row by row: palette entries
	set     *pieceSet       // entry i (0 to rect.Dy()) turns row rect.Min.Y+i−1 into row rect.Min.Y+i
}

// wordsKey names the words of a layout: what both lines draw and where, and the image's side.
type wordsKey struct {
	caption, destination wordsLineKey
	size                 int
}

// wordsLineKey names one line of words: its face, its glyphs and their places (see glyphsKey),
// its scale and its place.
type wordsLineKey struct {
	face               *glyph.Face
	glyphs             string
	scale, x, baseline float64
}

// wordsRasterCache keeps wordsRaster values by the words they draw, up to 8 MB: the masks, their
// quantisation and the pieces cost far more than drawing a code with them.
var wordsRasterCache = boundedCache[wordsKey, *wordsRaster]{max: 8 << 20}

// wordsRasterOf returns the words of layout l drawn and cut into pieces, or nil when they have no
// ink.
func wordsRasterOf(l *layout) *wordsRaster {
	key := wordsKey{caption: lineKey(&l.words.caption), destination: lineKey(&l.words.destination), size: l.size}
	w := wordsRasterCache.get(key, func(wordsKey) (*wordsRaster, int) { return newWordsRaster(l) })
	if w.rect.Empty() {
		return nil
	}
	return w
}

// lineKey returns the key of line w; the zero key when it is not drawn.
func lineKey(w *wordsLine) wordsLineKey {
	if !w.drawn() {
		return wordsLineKey{}
	}
	return wordsLineKey{face: w.face, glyphs: glyphsKey(w.run), scale: w.scale, x: w.x, baseline: w.baseline}
}

// glyphsKey returns run's glyphs and their places as a string: 6 bytes a glyph, its ID and X.
func glyphsKey(run glyph.Run) string {
	b := make([]byte, 0, 6*len(run.Glyphs))
	for _, g := range run.Glyphs {
		b = binary.LittleEndian.AppendUint16(b, uint16(g.ID))
		b = binary.LittleEndian.AppendUint32(b, uint32(int32(g.X)))
	}
	return string(b)
}

// wordsMasks returns the masks of the lines of layout l that are drawn, each as Face.Mask draws
// it where the SVG places it (wordsLine: x and baseline in pixels, scale in pixels a font unit).
func wordsMasks(l *layout) []*image.Alpha {
	var masks []*image.Alpha
	for _, w := range [2]*wordsLine{&l.words.caption, &l.words.destination} {
		if w.drawn() {
			masks = append(masks, w.face.Mask(w.run, glyph.Transform{X: w.x, Y: w.baseline, Scale: w.scale}))
		}
	}
	return masks
}

// coverageEntry returns the palette entry of coverage a (0 to 255): the nearest quarter.
func coverageEntry(a uint8) uint8 {
	return shadeEntry((int(a)*shadeLevels + 127) / 255)
}

// newWordsRaster draws the words of layout l for wordsRasterCache, with its cost in bytes: the
// lines' masks, clipped to the image, as palette entries (where two lines' ink meets, the darker),
// then the change of each row from the one above as one piece, trimmed.
func newWordsRaster(l *layout) (*wordsRaster, int) {
	masks := wordsMasks(l)
	w := &wordsRaster{}
	for _, m := range masks {
		w.rect = w.rect.Union(m.Rect)
	}
	w.rect = w.rect.Intersect(image.Rect(0, 0, l.size, l.size))
	width, height := w.rect.Dx(), w.rect.Dy()
	w.entries = make([]uint8, width*height)
	for _, m := range masks {
		r := m.Rect.Intersect(w.rect)
		for y := r.Min.Y; y < r.Max.Y; y++ {
			src := m.Pix[m.PixOffset(r.Min.X, y):][:r.Dx()]
			dst := w.entries[(y-w.rect.Min.Y)*width+r.Min.X-w.rect.Min.X:][:r.Dx()]
			for i, a := range src {
				if e := coverageEntry(a); shadeOf(e) > shadeOf(dst[i]) {
					dst[i] = e
				}
			}
		}
	}
	w.set = &pieceSet{list: make([]piece, height+1)}
	cost := len(w.entries) + 64*(height+1)
	var diffs []byte // all the pieces' changes, one after the other
	spans := make([][2]int, height+1)
	background := make([]uint8, width)
	for i := range height + 1 {
		prev, cur := background, background
		if i > 0 {
			prev = w.entries[(i-1)*width : i*width]
		}
		if i < height {
			cur = w.entries[i*width : (i+1)*width]
		}
		start := len(diffs)
		diffs = appendDiff(diffs, prev, cur)
		first, last := start, len(diffs)
		for first < last && diffs[first] == 0 {
			first++
		}
		for last > first && diffs[last-1] == 0 {
			last--
		}
		diffs = append(diffs[:start], diffs[first:last]...)
		spans[i] = [2]int{first - start, last - first}
	}
	at := 0
	for i, s := range spans {
		if s[1] > 0 {
			w.set.list[i] = piece{offset: s[0], diff: diffs[at : at+s[1] : at+s[1]]}
			at += s[1]
		}
	}
	return w, cost + 5*len(diffs) // the compressor's form of the pieces included
}

// shadeOf returns the coverage level (0 to shadeLevels) of palette entry e of the words: its
// inverse of shadeEntry.
func shadeOf(e uint8) int {
	switch e {
	case paletteBackground:
		return 0
	case paletteForeground:
		return shadeLevels
	}
	return int(e-paletteShades) + 1
}

// wordsRows returns the rows of the image that the words' pieces change: from the words' first
// row to the first row after them.
func (w *wordsRaster) wordsRows() (first, last int) { return w.rect.Min.Y, w.rect.Max.Y }

// fitsPieces reports whether the words' pieces can join the rows of the symbol's (pieceRow),
// whose entries number entries so far: their rows must be rows where the symbol does not change,
// above it or below the row after it (they are, but for a quiet zone of no modules), and all the
// pieces must fit the compressor's table (see piecedRows).
func (w *wordsRaster) fitsPieces(l *layout, entries int) bool {
	first, last := w.wordsRows()
	symbolFirst, symbolLast := l.originY, l.originY+l.n*l.module
	if last >= symbolFirst && first <= symbolLast {
		return false
	}
	return entries+len(w.set.list) <= maxPieceEntries
}

// maxPieceEntries is how many pieces an image's sets may hold in all (see piecedRows).
const maxPieceEntries = 4095

// wordsPiece returns the change by the words of row y, its anchor and its entry (0 for none), in
// the numbering of the image's sets where the words' set starts at first.
func (w *wordsRaster) wordsPiece(y, first int) (anchor int32, e uint16) {
	i := y - w.rect.Min.Y
	if i < 0 || i > w.rect.Dy() || len(w.set.list[i].diff) == 0 {
		return 0, 0
	}
	return int32(w.rect.Min.X), uint16(first + i)
}

// overlay draws row y of the words over the 8-bit row dst, where they have ink.
func (w *wordsRaster) overlay(y int, dst []byte) {
	if y < w.rect.Min.Y || y >= w.rect.Max.Y {
		return
	}
	width := w.rect.Dx()
	src := w.entries[(y-w.rect.Min.Y)*width:][:width]
	dst = dst[w.rect.Min.X:][:width]
	for i, e := range src {
		if e != paletteBackground {
			dst[i] = e
		}
	}
}

// overlayRow is the pngImage row function of 8-bit images with words that the symbol's pieces
// cannot carry (see fitsPieces), and of the Swiss cross with words: the symbol's row, drawn in
// full (its pieces replayed on the row above, or the cross's 1-bit row spread to a byte a pixel),
// with the words drawn over it.
func (r *rasterizer) overlayRow(y int, dst []byte) (same bool) {
	if r.cross.bottom > 0 {
		n := (r.l.size + 7) / 8
		if cap(r.bits) < n {
			r.bits = make([]byte, n)
		}
		bits := r.bits[:n]
		if y == 0 {
			clear(bits)
		}
		r.crossRow(y, bits)
		for x := range dst {
			dst[x] = bits[x/8] >> (7 - x%8) & 1 // paletteForeground for a set bit
		}
	} else {
		if cap(r.pix) < len(dst) {
			r.pix = make([]uint8, len(dst))
		}
		pix := r.pix[:len(dst)]
		if y == 0 {
			clear(pix)
		}
		anchors, pieces := r.pieceRow(y)
		for i, e := range pieces {
			p := r.pieceOf(e)
			at := int(anchors[i]) + p.offset
			for j, d := range p.diff {
				pix[at+j] += d
			}
		}
		copy(dst, pix)
	}
	r.words.overlay(y, dst)
	return false
}

// pieceOf returns entry e of the image's sets (see piecedRows).
func (r *rasterizer) pieceOf(e uint16) *piece {
	i := int(e)
	for _, s := range r.sets {
		if i < len(s.list) {
			return &s.list[i]
		}
		i -= len(s.list)
	}
	panic("render: piece entry out of range")
}
