package render

import "math/bits"

// This file draws 8-bit images (rounded corners, the logo) as pieces on the row above (see
// piece, png.go): the differences of scanlines of filter type Up (PNG spec 9.2), without
// drawing a pixel. Within a module row, a pixel row differs from the one above only where a
// rounded corner's curve crosses it, and where the mark does; and a dark module's pixel row
// depends only on which of its corners are rounded and the row's place in the module. Between
// module rows, a module's first row differs from the last row of the one above by what the two
// modules are. So the changes for every case are made once per module size (modulePieces), the
// mark's once per size (markPiecesOf), and a row costs a placed piece per module it changes.

// Corners of a dark module, as bits of a corner set: a corner is rounded when both of the
// module's neighbours along its edges are light.
const (
	cornerTL = 1 << iota
	cornerTR
	cornerBL
	cornerBR
	cornerSets = 16
)

// A cell is a dark module with rounded corners in the current module row.
type cell struct {
	anchor  int32 // its first pixel
	corners uint8 // its rounded corners
}

// modulePieces are the pieces of modules of k pixels, a byte a pixel. Within a dark module,
// row dy (1 to k−1) changes from row dy−1 only by its rounded corners' curves: the top ones in
// rows 0 to side−1, the bottom ones in rows k−side to k−1. A module's first row changes from the
// last row of the module above by what each is: light, or dark with its rounded corners on the
// side they share.
type modulePieces struct {
	side   int       // of the corner tile (see cornerTile); 0 for square modules
	set    *pieceSet // the distinct pieces; entry 0 is the empty piece
	within []uint16  // [dy][corners] → entry of set; 0 when the row does not change
	// enter is [above][below] → entry, where above and below are 0 for a light module, else 1 +
	// its rounded corners on the shared side: bottom corners >> 2 above, top corners & 3 below.
	enter []uint16
}

// withinPiece returns the entry of the change to row dy of a dark module with corners c.
func (p *modulePieces) withinPiece(dy int, c uint8) uint16 {
	return p.within[dy*cornerSets+int(c)]
}

// enterPiece returns the entry of the change from the last row of module above to the first row
// of module below (see modulePieces.enter).
func (p *modulePieces) enterPiece(above, below uint64) uint16 {
	return p.enter[above*5+below]
}

// modulePieceCache keeps modulePieces by module size and corners, up to 4 MB.
var modulePieceCache = boundedCache[[2]int, *modulePieces]{max: 4 << 20}

// modulePiecesOf returns the pieces of modules of k pixels, rounded or square.
func modulePiecesOf(k int, rounded bool) *modulePieces {
	key := [2]int{k, 0}
	if rounded {
		key[1] = 1
	}
	return modulePieceCache.get(key, newModulePieces)
}

// newModulePieces makes the modulePieces of key (module size k, rounded 1 or square 0) for
// modulePieceCache, with their cost in bytes (the compressor's form of the pieces included):
// the changes within a dark module for every corner set, then the changes between modules one
// above the other.
func newModulePieces(key [2]int) (*modulePieces, int) {
	k, rounded := key[0], key[1] == 1
	b := &pieceBuilder{k: k}
	if rounded {
		b.tile, b.side = cornerTile(k)
	}
	p := &modulePieces{side: b.side, set: &pieceSet{list: []piece{{}}},
		within: make([]uint16, k*cornerSets), enter: make([]uint16, 5*5)}
	b.p, b.seen = p, make(map[string]uint16)
	b.cost = 2 * (len(p.within) + len(p.enter))
	b.prev, b.cur = make([]uint8, k), make([]uint8, k)
	sets := 1 // square modules have no rounded corners
	if rounded {
		sets = cornerSets
	}
	b.fillWithin(sets)
	b.fillEnter()
	return p, b.cost
}

// pieceBuilder fills a modulePieces, keeping each distinct piece once.
type pieceBuilder struct {
	p         *modulePieces
	k         int               // the module size in pixels
	tile      []uint8           // the corner tile, side×side pixels; nil for square modules
	side      int               // of the corner tile; 0 for square modules
	seen      map[string]uint16 // first pixel and changes of each piece in p.set → its entry
	diff      []byte            // scratch: the changes of the current row
	prev, cur []uint8           // scratch: the two rows compared, k pixels each
	cost      int               // bytes held so far, for modulePieceCache
}

// entry returns the entry of p.set that turns pixels prev into cur, adding it when it is new;
// 0 when the two are the same.
func (b *pieceBuilder) entry(prev, cur []uint8) uint16 {
	b.diff = appendDiff(b.diff[:0], prev, cur)
	diff := b.diff
	first, last := 0, len(diff)
	for first < last && diff[first] == 0 {
		first++
	}
	for last > first && diff[last-1] == 0 {
		last--
	}
	if first == last {
		return 0
	}
	key := string(rune(first)) + string(diff[first:last])
	e, ok := b.seen[key]
	if !ok {
		list := &b.p.set.list
		e = uint16(len(*list))
		b.seen[key] = e
		*list = append(*list, piece{offset: first, diff: append([]byte(nil), diff[first:last]...)})
		b.cost += 64 + 5*(last-first)
	}
	return e
}

// fillWithin sets p.within for the first sets corner sets: the change to each row dy (1 to k−1)
// of a dark module from row dy−1.
func (b *pieceBuilder) fillWithin(sets int) {
	prev, cur := b.prev, b.cur
	for c := range sets {
		for dy := 1; dy < b.k; dy++ {
			cellPixels(prev, b.tile, b.side, c, dy-1)
			cellPixels(cur, b.tile, b.side, c, dy)
			b.p.within[dy*cornerSets+c] = b.entry(prev, cur)
		}
	}
}

// fillEnter sets p.enter: the change from the last row of the module above to the first row of
// the module below, each light or dark with its rounded corners on the side they share.
func (b *pieceBuilder) fillEnter() {
	prev, cur := b.prev, b.cur
	for above := range 5 {
		for below := range 5 {
			clear(prev)
			clear(cur)
			if above > 0 {
				cellPixels(prev, b.tile, b.side, (above-1)<<2, b.k-1)
			}
			if below > 0 {
				cellPixels(cur, b.tile, b.side, below-1, 0)
			}
			b.p.enter[above*5+below] = b.entry(prev, cur)
		}
	}
}

// cellPixels sets px (k entries) to the palette entries of row dy of a dark module of k pixels
// whose corners c are rounded, with the corner tile of side×side pixels.
func cellPixels(px []uint8, tile []uint8, side, c, dy int) {
	k := len(px)
	for i := range px {
		px[i] = paletteForeground
	}
	put := func(j int, right bool) {
		for i, v := range tile[j*side : (j+1)*side] {
			if right {
				px[k-1-i] = v
			} else {
				px[i] = v
			}
		}
	}
	if dy < side {
		if c&cornerTL != 0 {
			put(dy, false)
		}
		if c&cornerTR != 0 {
			put(dy, true)
		}
	}
	if j := k - 1 - dy; j < side {
		if c&cornerBL != 0 {
			put(j, false)
		}
		if c&cornerBR != 0 {
			put(j, true)
		}
	}
}

// appendDiff appends to dst the differences, modulo 256, of the pixels cur and prev.
func appendDiff(dst []byte, prev, cur []uint8) []byte {
	for i := range cur {
		dst = append(dst, cur[i]-prev[i])
	}
	return dst
}

// markPieceCache keeps the mark's pieces by size, up to 8 MB.
var markPieceCache = boundedCache[int, *pieceSet]{max: 8 << 20}

// markPiecesOf returns the mark of px pixels as pieces: entry i (0 to px) turns row i−1 of the
// mark into row i, where rows −1 and px are the background; the empty piece when the two are the
// same. A piece's anchor is the mark's first pixel.
func markPiecesOf(px int) *pieceSet {
	return markPieceCache.get(px, func(px int) (*pieceSet, int) {
		raster := markRaster(px)
		set := &pieceSet{list: make([]piece, px+1)}
		prev, cur := make([]uint8, px), make([]uint8, px)
		cost := 0
		var diff []byte
		for i := range px + 1 {
			clear(cur)
			if i < px {
				for x, level := range raster[i*px : (i+1)*px] {
					if level != 0 {
						cur[x] = paletteMark + level
					}
				}
			}
			diff = appendDiff(diff[:0], prev, cur)
			prev, cur = cur, prev
			first, last := 0, len(diff)
			for first < last && diff[first] == 0 {
				first++
			}
			for last > first && diff[last-1] == 0 {
				last--
			}
			if first < last {
				set.list[i] = piece{offset: first, diff: append([]byte(nil), diff[first:last]...)}
				cost += 64 + 5*(last-first) // the compressor's form of the piece included
			}
		}
		return set, cost
	})
}

// pieceRow is the piecedRows row function of depth 8 (see piecedRows).
func (r *rasterizer) pieceRow(y int) (anchors []int32, pieces []uint16) {
	l := &r.l
	k := l.module
	sy := y - l.originY
	row := &r.placed
	row.anchors, row.pieces = row.anchors[:0], row.pieces[:0]
	row.markAt, row.mark = int32(r.markX), 0
	if i := y - r.markY; r.markPieces != nil && i >= 0 && i <= r.markSide && len(r.markPieces.list[i].diff) > 0 {
		row.mark = uint16(r.markFirst + i)
	}
	switch my, dy := sy/k, sy%k; {
	case sy < 0 || sy > l.n*k: // the quiet zone, the remainder and the words
		if r.wordsFirst > 0 {
			r.words.placeWords(y, r.wordsFirst, row)
		}
	case dy == 0: // the first row of a module row, or the first below the symbol
		r.enterRow(my, row)
	case dy > r.modules.side && dy < k-r.modules.side:
		// Below the last row that a top corner's curve changes (side) and above the first a
		// bottom one does (k − side): no module changes (withinPiece is 0 there).
	default:
		p := r.modules
		cells := r.cells
		switch {
		case dy < k-p.side:
			cells = r.top
		case dy > p.side:
			cells = r.bottom
		}
		for _, m := range cells {
			if e := p.withinPiece(dy, m.corners); e != 0 {
				row.place(m.anchor, e)
			}
		}
	}
	if row.mark != 0 { // the mark's piece comes last
		row.anchors, row.pieces = append(row.anchors, row.markAt), append(row.pieces, row.mark)
	}
	return row.anchors, row.pieces
}

// rowPieces collects the pieces of a row in order, the mark's in its place among the modules'.
type rowPieces struct {
	anchors []int32
	pieces  []uint16
	markAt  int32  // the mark's anchor
	mark    uint16 // the mark's piece, not yet placed; 0 for none
}

// place adds piece e at anchor, after the mark's piece if that comes first.
func (row *rowPieces) place(anchor int32, e uint16) {
	if row.mark != 0 && anchor > row.markAt {
		row.anchors, row.pieces = append(row.anchors, row.markAt), append(row.pieces, row.mark)
		row.mark = 0
	}
	row.anchors, row.pieces = append(row.anchors, anchor), append(row.pieces, e)
}

// enterRow places the changes from the last pixel row of module row my−1 to the first of module
// row my (either may be outside the symbol: light), and lists the cells of module row my.
func (r *rasterizer) enterRow(my int, pieces *rowPieces) {
	k, x0 := r.l.module, r.l.originX
	g := &r.g
	row := func(y int) []uint64 {
		if y < 0 || y >= g.n {
			return nil
		}
		return g.rowBits(y)
	}
	word := func(row []uint64, w int) uint64 {
		if w < 0 || w >= len(row) {
			return 0
		}
		return row[w]
	}
	up, cur, down := row(my-1), row(my), row(my+1)
	rounded := r.modules.side > 0
	r.cells, r.top, r.bottom = r.cells[:0], r.top[:0], r.bottom[:0]
	for w := range g.words {
		c, u, d := word(cur, w), word(up, w), word(down, w)
		var tl, tr, bl, br, ubl, ubr uint64 // rounded corners: of module row my, and bottom ones of my−1
		if rounded {
			left := c<<1 | word(cur, w-1)>>63  // bit x: module x−1
			right := c>>1 | word(cur, w+1)<<63 // bit x: module x+1
			tl, tr, bl, br = c&^left&^u, c&^right&^u, c&^left&^d, c&^right&^d
			uleft := u<<1 | word(up, w-1)>>63
			uright := u>>1 | word(up, w+1)<<63
			ubl, ubr = u&^uleft&^c, u&^uright&^c
		}
		for change := c ^ u | tl | tr | ubl | ubr; change != 0; change &= change - 1 {
			b := uint(bits.TrailingZeros64(change))
			above, below := u>>b&1*(1+ubl>>b&1+ubr>>b&1<<1), c>>b&1*(1+tl>>b&1+tr>>b&1<<1)
			x := x0 + (64*w+int(b))*k
			if e := r.modules.enterPiece(above, below); e != 0 {
				pieces.place(int32(x), e)
			}
		}
		for corners := tl | tr | bl | br; corners != 0; corners &= corners - 1 {
			b := bits.TrailingZeros64(corners)
			set := uint8(tl>>b&1 | tr>>b&1<<1 | bl>>b&1<<2 | br>>b&1<<3)
			x := x0 + (64*w+b)*k
			m := cell{anchor: int32(x), corners: set}
			r.cells = append(r.cells, m)
			if set&(cornerTL|cornerTR) != 0 {
				r.top = append(r.top, m)
			}
			if set&(cornerBL|cornerBR) != 0 {
				r.bottom = append(r.bottom, m)
			}
		}
	}
}
