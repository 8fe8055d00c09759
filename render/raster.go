package render

import (
	"image/color"
	"sync"

	"github.com/bananaqr/bananaqr/qr"
)

// PNG returns s drawn as a PNG image, as o says.
func PNG(s *qr.Symbol, o Options) ([]byte, error) { return AppendPNG(nil, s, &o) }

// AppendPNG appends s drawn as a PNG image to dst, as o says: exactly o.Size pixels square,
// every module the same whole number of pixels, deterministic bytes. Square modules in two
// colours make a 1-bit palette image; rounded corners and the logo a 4-bit palette with
// anti-aliased shades.
func AppendPNG(dst []byte, s *qr.Symbol, o *Options) ([]byte, error) {
	l, err := prepare(s, o)
	if err != nil {
		return dst, err
	}
	r := rasterizers.Get().(*rasterizer)
	defer rasterizers.Put(r)
	r.start(s, &l, o)
	img := pngImage{width: l.size, height: l.size, depth: r.depth, palette: r.palette, row: r.row}
	return appendPNG(dst, &img), nil
}

// Palette entries of the 4-bit images.
const (
	paletteBackground = 0
	paletteForeground = 1
	paletteShades     = 2 // 2, 3, 4: foreground over background at 25, 50 and 75%
	paletteMark       = 4 // 5 to 15: the mark's levels 1 to markLevels (banana.go)
	shadeLevels       = 4 // coverage in quarters: 0 background … 4 foreground
	markLevels        = markYellowOverBg75
)

// rasterizer draws the rows of a PNG image of a symbol, one after the other. Its memory is
// pooled and reused.
type rasterizer struct {
	g        grid
	l        layout
	depth    int
	paletteA [16]color.RGBA
	palette  []color.RGBA
	rounded  bool

	base []byte  // the current module row, corners square, packed at depth 4
	arcs []arc   // its rounded corners
	runs []span  // scratch: the runs of dark modules of a module row
	tile []uint8 // palette entries of a rounded top left corner, tileSide×tileSide
	side int     // tileSide

	mark        []uint8 // the logo's levels, markSide×markSide, or nil
	markSide    int
	markAt      int // the logo's first pixel, down and across
	prevMiddle  bool
	prevInQuiet bool
}

var rasterizers = sync.Pool{New: func() any { return new(rasterizer) }}

func (r *rasterizer) start(s *qr.Symbol, l *layout, o *Options) {
	r.l = *l
	r.g.fill(s, l.pad)
	r.rounded = o.Corners == Rounded
	r.mark = nil
	r.prevMiddle, r.prevInQuiet = false, false
	bg, fg := o.Background, o.Foreground
	r.paletteA[paletteBackground], r.paletteA[paletteForeground] = bg, fg
	if !r.rounded && l.pad.side == 0 {
		r.depth, r.palette = 1, r.paletteA[:2]
		return
	}
	r.depth, r.palette = 4, r.paletteA[:16]
	for i := 1; i < shadeLevels; i++ {
		r.paletteA[paletteShades+i-1] = mixColor(bg, fg, i, shadeLevels)
	}
	for level := uint8(1); level <= markLevels; level++ {
		r.paletteA[paletteMark+int(level)] = bananaLevelColor(level, bg)
	}
	if r.rounded {
		r.tile, r.side = cornerTile(l.module)
	}
	if l.pad.side > 0 {
		k := l.module
		r.markSide = (l.pad.side - 2*logoInset) * k
		r.markAt = l.origin + (2*l.pad.first+2*logoInset)*k/2
		r.mark = bananaRaster(r.markSide)
	}
	if n := (l.size + 1) / 2; cap(r.base) < n {
		r.base = make([]byte, n)
	}
	r.base = r.base[:(l.size+1)/2]
}

// row is the pngImage row function: it draws pixel row y into dst, or reports that it is the
// same as row y-1.
func (r *rasterizer) row(y int, dst []byte) (same bool) {
	l := &r.l
	k := l.module
	sy := y - l.origin
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
	my, dy := sy/k, sy%k
	if r.depth == 1 {
		if dy != 0 {
			return true
		}
		r.squareRow(my, dst)
		return false
	}
	if dy == 0 {
		r.moduleRow(my)
	}
	middle := !r.rounded || dy >= r.side && dy < k-r.side
	markRow := r.mark != nil && y >= r.markAt && y < r.markAt+r.markSide
	if dy > 0 && middle && r.prevMiddle && !markRow {
		return true
	}
	r.prevMiddle = middle && !markRow
	copy(dst, r.base)
	if r.rounded {
		r.shapeCorners(dy, dst)
	}
	if markRow {
		row := r.mark[(y-r.markAt)*r.markSide : (y-r.markAt+1)*r.markSide]
		for i, level := range row {
			if level != 0 {
				setNibble(dst, r.markAt+i, paletteMark+level)
			}
		}
	}
	return false
}

// squareRow draws module row my at depth 1: a bit per pixel, set for dark.
func (r *rasterizer) squareRow(my int, dst []byte) {
	clear(dst)
	k, x0 := r.l.module, r.l.origin
	r.runs = appendRuns(r.runs[:0], r.g.rowBits(my), my)
	for _, run := range r.runs {
		setBits(dst, x0+run.x0*k, x0+run.x1*k)
	}
}

// moduleRow draws module row my at depth 4 with square corners into r.base, and lists the
// convex corners that rounding shapes.
func (r *rasterizer) moduleRow(my int) {
	clear(r.base)
	r.arcs = r.arcs[:0]
	k, x0 := r.l.module, r.l.origin
	r.runs = appendRuns(r.runs[:0], r.g.rowBits(my), my)
	for _, run := range r.runs {
		setNibbles(r.base, x0+run.x0*k, x0+run.x1*k, paletteForeground)
	}
	if !r.rounded {
		return
	}
	g := &r.g
	for mx := range r.l.n {
		if !g.dark(mx, my) {
			continue
		}
		left, right, up, down := !g.dark(mx-1, my), !g.dark(mx+1, my), !g.dark(mx, my-1), !g.dark(mx, my+1)
		x := x0 + mx*k
		if left && up {
			r.arcs = append(r.arcs, arc{x: x})
		}
		if right && up {
			r.arcs = append(r.arcs, arc{x: x + k - 1, right: true})
		}
		if left && down {
			r.arcs = append(r.arcs, arc{x: x, bottom: true})
		}
		if right && down {
			r.arcs = append(r.arcs, arc{x: x + k - 1, right: true, bottom: true})
		}
	}
}

// An arc is a rounded corner of a dark module: x is the pixel column of the module's edge at
// that corner (its first or last column), right and bottom say which corner it is.
type arc struct {
	x             int
	right, bottom bool
}

// shapeCorners draws the rounded corners that cross row dy of the current module row.
func (r *rasterizer) shapeCorners(dy int, dst []byte) {
	k, t := r.l.module, r.side
	for _, c := range r.arcs {
		j := dy // tile row: distance from the module's top or bottom edge
		if c.bottom {
			j = k - 1 - dy
		}
		if j >= t {
			continue
		}
		row := r.tile[j*t : (j+1)*t]
		if !c.right {
			for i, v := range row {
				setNibble(dst, c.x+i, v)
			}
		} else {
			for i, v := range row {
				setNibble(dst, c.x-i, v)
			}
		}
	}
}

// cornerTiles caches cornerTile's results by module size.
var cornerTiles sync.Map

// cornerTile returns the palette entries of the top left corner of a module of k pixels whose
// corner is rounded with radius cornerRadius modules: side×side pixels, row by row, each the
// shade nearest to the share of the pixel inside the rounded module (4×4 samples a pixel).
func cornerTile(k int) (tile []uint8, side int) {
	if t, ok := cornerTiles.Load(k); ok {
		tile := t.([]uint8)
		return tile, isqrt(len(tile))
	}
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
	cornerTiles.Store(k, tile)
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

func isqrt(n int) int {
	s := 0
	for (s+1)*(s+1) <= n {
		s++
	}
	return s
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

// setNibble sets pixel x of a 4-bit row to v.
func setNibble(row []byte, x int, v uint8) {
	if x%2 == 0 {
		row[x/2] = row[x/2]&0x0f | v<<4
	} else {
		row[x/2] = row[x/2]&0xf0 | v
	}
}

// setNibbles sets pixels a to b-1 of a 4-bit row to v.
func setNibbles(row []byte, a, b int, v uint8) {
	if a < b && a%2 != 0 {
		setNibble(row, a, v)
		a++
	}
	for ; a+2 <= b; a += 2 {
		row[a/2] = v<<4 | v
	}
	if a < b {
		setNibble(row, a, v)
	}
}
