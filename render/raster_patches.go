package render

import "math/bits"

// This file draws 4-bit images (rounded corners, the logo) as patches on the row above (see
// deflate_patch.go). Within a module row, a pixel row differs from the one above only where a
// rounded corner's curve crosses it and in the mark; and a dark module's pixel row is fixed by
// which of its corners are rounded and the row's place in the module. So the differences of
// every such module row, for each corner combination and row, are made once per module size
// (cornerPatches) and the mark's once per size (markPatchesOf); a row then costs a placement
// per rounded module it crosses. The first row of each module row is drawn in full.

// Corners of a dark module, as bits of a cell's corner set: a corner is rounded when both of
// the module's neighbours along its edges are light.
const (
	cornerTL = 1 << iota
	cornerTR
	cornerBL
	cornerBR
	cornerSets = 16
)

// A cell is a dark module with rounded corners in the current module row.
type cell struct {
	anchor  int32 // the byte of its first pixel in a packed row
	odd     uint8 // whether its first pixel is the second of its byte
	corners uint8 // its rounded corners
}

// cornerPatches are the patches of dark modules of k pixels with rounded corners: for each
// parity of the first pixel, row dy of the module (0 to k−1) and set of rounded corners, the
// patch that turns row dy−1 into row dy, where row −1 is a square module's row (so that row 0's
// patch draws it on a square module). Rows of a module differ only from the top corners'
// curves (rows 0 to side−1) and the bottom ones' (k−side to k−1).
type cornerPatches struct {
	k, side int
	list    []*patch // the distinct patches; list[0] is emptyPatch
	index   []uint16 // [odd][dy][corners] → entry of list; 0 when the row does not change
}

// patch returns the entry of the patch of row dy of a module with corner set c.
func (p *cornerPatches) patch(odd uint8, dy int, c uint8) uint16 {
	return p.index[(int(odd)*p.k+dy)*cornerSets+int(c)]
}

// cornerPatchCache keeps cornerPatches by module size, up to 4 MB.
var cornerPatchCache = boundedCache[int, *cornerPatches]{max: 4 << 20}

// cornerPatchesOf returns the corner patches of modules of k pixels.
func cornerPatchesOf(k int) *cornerPatches {
	return cornerPatchCache.get(k, newCornerPatches)
}

func newCornerPatches(k int) (*cornerPatches, int) {
	tile, side := cornerTile(k)
	p := &cornerPatches{k: k, side: side, list: []*patch{emptyPatch}, index: make([]uint16, 2*k*cornerSets)}
	seen := make(map[string]uint16)
	cost := len(p.index) * 2
	prev, cur := make([]uint8, k), make([]uint8, k)
	var diff []byte
	for odd := range 2 {
		for c := 1; c < cornerSets; c++ {
			cellPixels(prev, tile, side, c, -1)
			for dy := range k {
				cellPixels(cur, tile, side, c, dy)
				diff = packedDiff(diff[:0], prev, cur, odd)
				prev, cur = cur, prev
				first, last := 0, len(diff)
				for first < last && diff[first] == 0 {
					first++
				}
				for last > first && diff[last-1] == 0 {
					last--
				}
				if first == last {
					continue
				}
				key := string(rune(first)) + string(diff[first:last])
				e, ok := seen[key]
				if !ok {
					e = uint16(len(p.list))
					seen[key] = e
					p.list = append(p.list, newPatch(first, append([]byte(nil), diff[first:last]...)))
					cost += 64 + 5*(last-first)
				}
				p.index[(odd*k+dy)*cornerSets+c] = e
			}
		}
	}
	return p, cost
}

// cellPixels sets px (k entries) to the palette entries of row dy of a dark module of k pixels
// whose corners c are rounded, with the corner tile of side×side pixels; row −1 is square.
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
	if dy >= 0 && dy < side {
		if c&cornerTL != 0 {
			put(dy, false)
		}
		if c&cornerTR != 0 {
			put(dy, true)
		}
	}
	if j := k - 1 - dy; dy >= 0 && j < side {
		if c&cornerBL != 0 {
			put(j, false)
		}
		if c&cornerBR != 0 {
			put(j, true)
		}
	}
}

// packedDiff appends to dst the bytewise differences, modulo 256, of the pixels cur and prev
// packed 4 bits a pixel, the first pixel in the low half of a byte when odd (the other half
// of that byte, and of the last, belongs to a neighbour that does not change).
func packedDiff(dst []byte, prev, cur []uint8, odd int) []byte {
	n := (odd + len(cur) + 1) / 2
	for range n {
		dst = append(dst, 0)
	}
	for i := range cur {
		x := odd + i
		sh := 4 * uint(1-x%2)
		dst[x/2] += cur[i]<<sh - prev[i]<<sh
	}
	return dst
}

// markPatchCache keeps the mark's patches by size and parity, up to 8 MB.
var markPatchCache = boundedCache[[2]int, []*patch]{max: 8 << 20}

// markPatchesOf returns the mark of px pixels as patches, its first pixel the second of its
// byte when odd: entry i (0 to px) turns row i−1 of the mark into row i, where rows −1 and px
// are the background; emptyPatch when the two are the same. A patch's anchor is the byte of the mark's
// first pixel.
func markPatchesOf(px, odd int) []*patch {
	return markPatchCache.get([2]int{px, odd}, func(key [2]int) ([]*patch, int) {
		raster := bananaRaster(px)
		patches := make([]*patch, px+1)
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
			diff = packedDiff(diff[:0], prev, cur, odd)
			prev, cur = cur, prev
			first, last := 0, len(diff)
			for first < last && diff[first] == 0 {
				first++
			}
			for last > first && diff[last-1] == 0 {
				last--
			}
			patches[i] = emptyPatch
			if first < last {
				patches[i] = newPatch(first, append([]byte(nil), diff[first:last]...))
				cost += 64 + 5*(last-first)
			}
		}
		return patches, cost
	})
}

// patchRow is the patchedRows row function of depth 4 (see patchedRows).
func (r *rasterizer) patchRow(y int, dst []byte) (places []placement, drawn bool) {
	l := &r.l
	k := l.module
	sy := y - l.origin
	if sy < 0 || sy >= l.n*k { // the quiet zone and the remainder: background
		if y > 0 && sy != l.n*k {
			return nil, false
		}
		clear(dst)
		return nil, true
	}
	my, dy := sy/k, sy%k
	if dy == 0 {
		r.moduleRow(my)
		r.drawRow(y, dst)
		return nil, true
	}
	places = r.places[:0]
	markRow := r.mark != nil && y >= r.markAt && y <= r.markAt+r.markSide
	var markPlace placement
	if markRow {
		i := y - r.markAt
		if r.markPatches[i] == emptyPatch {
			markRow = false
		}
		markPlace = placement{anchor: int32(r.markAt / 2), patch: uint16(r.markFirst + i)}
	}
	if c := r.corners; c != nil {
		cells := r.cells
		switch {
		case dy < k-c.side:
			cells = r.top
		case dy > c.side:
			cells = r.bottom
		}
		for _, m := range cells {
			e := c.patch(m.odd, dy, m.corners)
			if e == 0 {
				continue
			}
			if markRow && m.anchor > markPlace.anchor {
				places, markRow = append(places, markPlace), false
			}
			places = append(places, placement{anchor: m.anchor, patch: e})
		}
	}
	if markRow {
		places = append(places, markPlace)
	}
	r.places = places
	return places, false
}

// moduleRow draws module row my with square corners into r.base, and lists its cells with
// rounded corners.
func (r *rasterizer) moduleRow(my int) {
	clear(r.base)
	k, x0 := r.l.module, r.l.origin
	g := &r.g
	r.runs = appendRuns(r.runs[:0], g.rowBits(my), my)
	for _, run := range r.runs {
		setNibbles(r.base, x0+run.x0*k, x0+run.x1*k, paletteForeground)
	}
	r.cells, r.top, r.bottom = r.cells[:0], r.top[:0], r.bottom[:0]
	if r.corners == nil {
		return
	}
	cur := g.rowBits(my)
	var up, down []uint64
	if my > 0 {
		up = g.rowBits(my - 1)
	}
	if my+1 < g.n {
		down = g.rowBits(my + 1)
	}
	word := func(row []uint64, w int) uint64 {
		if w < 0 || w >= len(row) {
			return 0
		}
		return row[w]
	}
	for w := range cur {
		c := cur[w]
		left := c<<1 | word(cur, w-1)>>63  // bit x: module x−1
		right := c>>1 | word(cur, w+1)<<63 // bit x: module x+1
		u, d := word(up, w), word(down, w)
		tl, tr, bl, br := c&^left&^u, c&^right&^u, c&^left&^d, c&^right&^d
		for rounded := tl | tr | bl | br; rounded != 0; rounded &= rounded - 1 {
			b := bits.TrailingZeros64(rounded)
			set := uint8(tl>>b&1 | tr>>b&1<<1 | bl>>b&1<<2 | br>>b&1<<3)
			x := x0 + (64*w+b)*k
			m := cell{anchor: int32(x / 2), odd: uint8(x % 2), corners: set}
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

// drawRow draws pixel row y, the first of the current module row, into dst: the square modules,
// their rounded top corners and the mark.
func (r *rasterizer) drawRow(y int, dst []byte) {
	copy(dst, r.base)
	if c := r.corners; c != nil {
		for _, m := range r.top {
			if e := c.patch(m.odd, 0, m.corners); e != 0 {
				c.list[e].addTo(dst, int(m.anchor))
			}
		}
	}
	if r.mark != nil && y >= r.markAt && y < r.markAt+r.markSide {
		row := r.mark[(y-r.markAt)*r.markSide : (y-r.markAt+1)*r.markSide]
		for i, level := range row {
			if level != 0 {
				setNibble(dst, r.markAt+i, paletteMark+level)
			}
		}
	}
}

// addTo adds p, placed at anchor, to the packed row dst.
func (p *patch) addTo(dst []byte, anchor int) {
	at := dst[anchor+p.offset:]
	for i, d := range p.data {
		at[i] += d
	}
}
