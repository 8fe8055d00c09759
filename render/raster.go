package render

import (
	"image/color"
	"sync"

	"github.com/bananaqr/bananaqr/qr"
	"github.com/bananaqr/bananaqr/render/internal/banana"
)

// Palette entries of the 8-bit images.
const (
	paletteBackground = 0
	paletteForeground = 1
	paletteShades     = 2 // 2, 3, 4: foreground over background at 25, 50 and 75%
	paletteMark       = 4 // 5 to 15: the mark's levels 1 to markLevels (package banana)
	shadeLevels       = 4 // coverage in quarters: 0 background … 4 foreground
	markLevels        = banana.LevelYellowOverBg75
)

// rasterizer draws the rows of a PNG image of a symbol, one after the other. Its memory is
// pooled and reused. Square modules in two colours without words come as rows of bits (row);
// otherwise rows come as pieces (pieceRow, raster_pieces.go), the words' among them
// (words_png.go), or, for words the pieces cannot carry, as rows of bytes (overlayRow).
type rasterizer struct {
	g        grid
	l        layout
	depth    int
	paletteA [16]color.RGBA
	palette  []color.RGBA
	runs     []span // scratch: the runs of dark modules of a module row

	prevInQuiet bool // whether the last row was background outside the symbol

	// Depth 8.
	modules *modulePieces // of the modules
	cells   []cell        // the current module row's dark modules with rounded corners
	top     []cell        // those with a rounded top corner
	bottom  []cell        // those with a rounded bottom corner
	sets    []*pieceSet   // the pieces of the image: the modules', then the mark's
	placed  rowPieces     // scratch: a row's pieces

	markPieces *pieceSet // the mark's rows as pieces (see markPiecesOf), or nil for no logo
	markSide   int       // the mark's side in pixels
	markX      int       // its first pixel across
	markY      int       // its first pixel down
	markFirst  int       // the entry of markPieces' first piece, across the sets
	rows       piecedRows

	cross pixelCross // the Swiss cross (swisscross.go), with logo SwissCross only

	// Words (words_png.go).
	words      *wordsRaster // the words drawn, or nil for none
	wordsFirst int          // the entry of the words' first piece, across the sets; 0 when they come by overlayRow
	overlaid   bool         // whether the rows come from overlayRow
	pix        []uint8      // overlayRow's scratch: the symbol's row, a byte a pixel
}

var rasterizers = sync.Pool{New: func() any { return new(rasterizer) }}

func (r *rasterizer) start(s *qr.Symbol, l *layout, o *Options) {
	r.l = *l
	r.g.fill(s, l.pad, false)
	r.prevInQuiet = false
	r.cross = pixelCross{}
	r.words, r.wordsFirst, r.overlaid = nil, 0, false
	if l.words.caption.drawn() || l.words.destination.drawn() {
		r.words = wordsRasterOf(l)
	}
	bg, fg := o.Background, o.Foreground
	r.paletteA[paletteBackground], r.paletteA[paletteForeground] = bg, fg
	if o.Corners == Square && l.pad.side == 0 && r.words == nil {
		r.depth, r.palette = 1, r.paletteA[:2]
		return
	}
	r.depth, r.palette = 8, r.paletteA[:16]
	for i := 1; i < shadeLevels; i++ {
		r.paletteA[paletteShades+i-1] = mixColor(bg, fg, i, shadeLevels)
	}
	for level := uint8(1); level <= markLevels; level++ {
		r.paletteA[paletteMark+int(level)] = banana.LevelColor(level, bg)
	}
	r.modules = modulePiecesOf(l.module, o.Corners == Rounded)
	r.sets = append(r.sets[:0], r.modules.set)
	r.markPieces = nil
	if l.pad.side > 0 {
		k := l.module
		r.markSide = (l.pad.side - 2*logoInset) * k
		r.markX = l.originX + (2*l.pad.first+2*logoInset)*k/2
		r.markY = l.originY + (2*l.pad.first+2*logoInset)*k/2
		r.markPieces = markPiecesOf(r.markSide)
		r.markFirst = len(r.modules.set.list)
		r.sets = append(r.sets, r.markPieces)
	}
	if r.words != nil {
		r.joinWords(o)
	}
	r.rows = piecedRows{sets: r.sets, row: r.pieceRow}
}

// joinWords has the words' rows come as pieces among the symbol's, or, when they cannot (see
// fitsPieces), drawn over the symbol's rows by overlayRow. (A Swiss QR Code has no words:
// Options.validate refuses them.)
func (r *rasterizer) joinWords(o *Options) {
	entries := 0
	for _, s := range r.sets {
		entries += len(s.list)
	}
	if !r.words.fitsPieces(&r.l, entries) {
		r.overlaid = true
		return
	}
	r.wordsFirst = entries
	r.sets = append(r.sets, r.words.set)
}

// row is the pngImage row function of depth 1: it draws pixel row y into dst, or reports that
// it is the same as row y-1.
func (r *rasterizer) row(y int, dst []byte) (same bool) {
	l := &r.l
	k := l.module
	sy := y - l.originY
	if sy < 0 || sy >= l.n*k { // the quiet zone and the remainder: background
		inQuiet := r.prevInQuiet && y > 0
		r.prevInQuiet = true
		if inQuiet {
			return true
		}
		clear(dst)
		return false
	}
	r.prevInQuiet = false
	if sy%k != 0 {
		return true
	}
	r.squareRow(sy/k, dst)
	return false
}

// squareRun is the pngImage run function of depth 1: it draws pixel row y into dst and returns
// how many rows from y on are the same: the rest of the quiet zone above or below the symbol (and
// the pixels left over), or of the module row.
func (r *rasterizer) squareRun(y int, dst []byte) (rows int) {
	l := &r.l
	k := l.module
	switch sy := y - l.originY; {
	case sy < 0:
		clear(dst)
		return -sy
	case sy >= l.n*k:
		clear(dst)
		return l.size - y
	default:
		r.squareRow(sy/k, dst)
		return k - sy%k
	}
}

// squareRow draws module row my at depth 1: a bit per pixel, set for dark.
func (r *rasterizer) squareRow(my int, dst []byte) {
	clear(dst)
	k, x0 := r.l.module, r.l.originX
	r.runs = appendRuns(r.runs[:0], r.g.rowBits(my), my)
	for _, run := range r.runs {
		setBits(dst, x0+run.x0*k, x0+run.x1*k)
	}
}

// cornerTile returns the palette entries of the top left corner of a module of k pixels whose
// corner is rounded with radius cornerRadius modules: side×side pixels, row by row, each the
// shade nearest to the share of the pixel inside the rounded module (4×4 samples a pixel).
// Only newModulePieces calls it, whose results modulePieceCache keeps.
func cornerTile(k int) (tile []uint8, side int) {
	radius := cornerRadius * float64(k)
	side = int(radius + 0.999999)
	tile = make([]uint8, side*side)
	const samples = 4
	for j := range side {
		for i := range side {
			inside := 0
			for sj := range samples {
				for si := range samples {
					x := float64(i) + (float64(si)+0.5)/samples
					y := float64(j) + (float64(sj)+0.5)/samples
					dx, dy := radius-x, radius-y
					if x >= radius || y >= radius || dx*dx+dy*dy <= radius*radius {
						inside++
					}
				}
			}
			tile[j*side+i] = shadeEntry((inside*shadeLevels + samples*samples/2) / (samples * samples))
		}
	}
	return tile, side
}

// shadeEntry returns the palette entry of coverage level q (0 to shadeLevels).
func shadeEntry(q int) uint8 {
	switch q {
	case 0:
		return paletteBackground
	case shadeLevels:
		return paletteForeground
	}
	return uint8(paletteShades + q - 1)
}

// mixColor returns fg over bg at i/n.
func mixColor(bg, fg color.RGBA, i, n int) color.RGBA {
	mix := func(a, b uint8) uint8 { return uint8((int(a)*(n-i) + int(b)*i + n/2) / n) }
	return color.RGBA{mix(bg.R, fg.R), mix(bg.G, fg.G), mix(bg.B, fg.B), 0xff}
}

// setBits sets bits a to b-1 of a 1-bit row, most significant bit first.
func setBits(row []byte, a, b int) {
	first, last := a/8, (b-1)/8
	head, tail := byte(0xff>>(a%8)), byte(0xff<<(7-(b-1)%8))
	if first == last {
		row[first] |= head & tail
		return
	}
	row[first] |= head
	for i := first + 1; i < last; i++ {
		row[i] = 0xff
	}
	row[last] |= tail
}
