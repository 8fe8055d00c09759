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
// row above, made once per layout of the words and kept in wordsRasterCache. Their bands of rows
// come as pieceBands too, which the compressor compresses once and keeps (png_deflate.go).

// wordsRaster is the words of a layout drawn as palette entries, with their rows as pieces, in
// bands of rows: one for each line, or one for both lines when the rows of one meet the other's.
type wordsRaster struct {
	set        *pieceSet // the distinct pieces of all the bands; entry 0 is the empty piece
	bands      []wordsBand
	pieceBands []*pieceBand // the bands' rows as the compressor may take them (see piecedRows)
}

// wordsBand is a band of rows of the words: the pixels they cover, and their rows as pieces: row
// y's changes from row y−1 (y from rect.Min.Y to rect.Max.Y, the first row after the words) are
// the pieces set.list[entries[j]] at anchors[j], for j from rows[i] to rows[i+1]−1, where i is
// y−rect.Min.Y.
type wordsBand struct {
	rect    image.Rectangle // the pixels the words cover, within the image
	pix     []uint8         // rect's pixels, row by row: palette entries
	rows    []int32         // rect.Dy()+2 starts in anchors and entries
	anchors []int32         // where each piece goes
	entries []uint16        // which piece of the set
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
	if len(w.bands) == 0 {
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

// coverageEntries maps a pixel's coverage (0 to 255) to its palette entry: the nearest quarter
// (there is no tie: 255 is odd).
var coverageEntries = func() (t [256]uint8) {
	for a := range t {
		t[a] = shadeEntry((a*shadeLevels + 127) / 255)
	}
	return t
}()

// wordsGap is the fewest zeros that end a piece of the words: a row's changes come as pieces
// between runs of at least wordsGap unchanged pixels, so that the same stroke's edge, in every
// glyph and row where it recurs, is one piece, kept once by the compressor.
const wordsGap = 4

// newWordsRaster draws the words of layout l for wordsRasterCache, with its cost in bytes: the
// lines' masks, clipped to the image, in bands (the lines in order down the image, a line joining
// the band above when its rows meet the band's or the row after it), each band's pixels as
// palette entries (where two lines' ink meets, the more covered pixel), then each row's changes
// from the row above as pieces.
func newWordsRaster(l *layout) (*wordsRaster, int) {
	picture := image.Rect(0, 0, l.size, l.size)
	var masks []*image.Alpha
	var rects []image.Rectangle // the bands
	for _, m := range wordsMasks(l) {
		r := m.Rect.Intersect(picture)
		if r.Empty() {
			continue
		}
		masks = append(masks, m)
		if n := len(rects); n > 0 && r.Min.Y <= rects[n-1].Max.Y {
			rects[n-1] = rects[n-1].Union(r)
		} else {
			rects = append(rects, r)
		}
	}
	w := &wordsRaster{set: &pieceSet{list: []piece{{}}}, bands: make([]wordsBand, len(rects))}
	seen := make(map[string]uint16) // the pieces of w.set by their changes
	cost := 0
	for i, r := range rects {
		b := &w.bands[i]
		b.rect = r
		b.draw(masks)
		cost += b.cut(w.set, seen)
	}
	for i := range w.bands {
		b := &w.bands[i]
		rows := min(b.rect.Dy()+1, l.size-b.rect.Min.Y) // the row after the words, if in the image
		w.pieceBands = append(w.pieceBands, &pieceBand{first: b.rect.Min.Y, rows: rows, set: w.set, row: b.pieceRow})
		cost += 64 + 2*len(b.entries) // the band's rows as the compressor keeps them, about
	}
	return w, cost
}

// pieceRow returns the pieces of the band's row i, rect.Min.Y+i (see pieceBand).
func (b *wordsBand) pieceRow(i int) (anchors []int32, pieces []uint16) {
	from, to := b.rows[i], b.rows[i+1]
	return b.anchors[from:to], b.entries[from:to]
}

// draw sets b.pix from the masks that meet b.rect. Most of a band is background: 8 pixels of no
// coverage are passed over at once.
func (b *wordsBand) draw(masks []*image.Alpha) {
	width := b.rect.Dx()
	b.pix = make([]uint8, width*b.rect.Dy())
	for _, m := range masks { // coverage first, the more covered where lines meet
		r := m.Rect.Intersect(b.rect)
		for y := r.Min.Y; y < r.Max.Y; y++ {
			src := m.Pix[m.PixOffset(r.Min.X, y):][:r.Dx()]
			dst := b.pix[(y-b.rect.Min.Y)*width+r.Min.X-b.rect.Min.X:][:r.Dx()]
			for i := 0; i < len(src); i += 8 {
				chunk := src[i:min(i+8, len(src))]
				if len(chunk) == 8 && binary.LittleEndian.Uint64(chunk) == 0 {
					continue
				}
				for j, a := range chunk {
					dst[i+j] = max(dst[i+j], a)
				}
			}
		}
	}
	for i := 0; i < len(b.pix); i += 8 {
		chunk := b.pix[i:min(i+8, len(b.pix))]
		if len(chunk) == 8 && binary.LittleEndian.Uint64(chunk) == 0 {
			continue
		}
		for j, a := range chunk {
			chunk[j] = coverageEntries[a]
		}
	}
}

// cut sets b's rows as pieces of set, adding those not seen yet (seen holds the changes of each
// piece of set), and returns the bytes it holds (the compressor's form of the new pieces
// included).
func (b *wordsBand) cut(set *pieceSet, seen map[string]uint16) (cost int) {
	width, height := b.rect.Dx(), b.rect.Dy()
	background := make([]uint8, width)
	diff := make([]byte, width)
	b.rows = make([]int32, 1, height+2)
	for i := range height + 1 {
		prev, cur := background, background
		if i > 0 {
			prev = b.pix[(i-1)*width : i*width]
		}
		if i < height {
			cur = b.pix[i*width : (i+1)*width]
		}
		diffBytes(diff, cur, prev)
		for at, end := range changes(diff) {
			e, ok := seen[string(diff[at:end])]
			if !ok {
				key := string(diff[at:end])
				e = uint16(len(set.list))
				seen[key] = e
				set.list = append(set.list, piece{diff: []byte(key)})
				cost += 64 + 5*len(key)
			}
			b.anchors = append(b.anchors, int32(b.rect.Min.X+at))
			b.entries = append(b.entries, e)
		}
		b.rows = append(b.rows, int32(len(b.entries)))
	}
	return cost + len(b.pix) + 6*len(b.entries) + 4*len(b.rows)
}

// changes yields the stretches [at, end) of diff that are pieces: not zero at either end, and
// apart by wordsGap zeros at least.
func changes(diff []byte) func(yield func(at, end int) bool) {
	return func(yield func(at, end int) bool) {
		for i := 0; i < len(diff); {
			for i+8 <= len(diff) && binary.LittleEndian.Uint64(diff[i:]) == 0 {
				i += 8
			}
			for i < len(diff) && diff[i] == 0 {
				i++
			}
			if i == len(diff) {
				return
			}
			at, end := i, i+1 // end: after the last change seen
			for i = end; i < len(diff) && i-end < wordsGap; i++ {
				if diff[i] != 0 {
					end = i + 1
				}
			}
			if !yield(at, end) {
				return
			}
			i = end
		}
	}
}

// fitsPieces reports whether the words' pieces can join the rows of the symbol's (pieceRow),
// whose entries number entries so far: their rows must be rows where the symbol does not change,
// above it or below the row after it (they are, but for a quiet zone of no modules), and all the
// pieces must fit the compressor's table (see piecedRows).
func (w *wordsRaster) fitsPieces(l *layout, entries int) bool {
	symbolFirst, symbolLast := l.originY, l.originY+l.n*l.module
	for _, b := range w.bands {
		if b.rect.Max.Y >= symbolFirst && b.rect.Min.Y <= symbolLast {
			return false
		}
	}
	return entries+len(w.set.list) <= maxPieceEntries
}

// maxPieceEntries is how many pieces an image's sets may hold in all (see piecedRows).
const maxPieceEntries = 4095

// placeWords adds the words' changes to row y to row, in the numbering of the image's sets where
// the words' set starts at first.
func (w *wordsRaster) placeWords(y, first int, row *rowPieces) {
	for _, b := range w.bands {
		i := y - b.rect.Min.Y
		if i < 0 || i > b.rect.Dy() {
			continue
		}
		anchors, entries := b.pieceRow(i)
		for j, e := range entries {
			row.place(anchors[j], uint16(first)+e)
		}
	}
}

// overlay draws row y of the words over the 8-bit row dst, where they have ink.
func (w *wordsRaster) overlay(y int, dst []byte) {
	for _, b := range w.bands {
		if y < b.rect.Min.Y || y >= b.rect.Max.Y {
			continue
		}
		width := b.rect.Dx()
		src := b.pix[(y-b.rect.Min.Y)*width:][:width]
		row := dst[b.rect.Min.X:][:width]
		for i, e := range src {
			if e != paletteBackground {
				row[i] = e
			}
		}
	}
}

// overlayRow is the pngImage row function of 8-bit images with words that the symbol's pieces
// cannot carry (see fitsPieces): the symbol's row, drawn in full (its pieces replayed on the row
// above), with the words drawn over it.
func (r *rasterizer) overlayRow(y int, dst []byte) (same bool) {
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
