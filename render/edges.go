package render

import "math/bits"

// This file draws square modules for SVG as the fewest straight lines that fill them with the
// even-odd rule (SVG 2, 13.4.2 fill-rule): the vertical edges between
// dark and light, each as long as it runs, joined at its ends by horizontal lines.
//
// Under the even-odd rule a point inside a module is painted when a ray from it to the right
// crosses the path an odd number of times; a horizontal ray crosses only vertical lines. So the
// vertical edges alone decide what is painted, and any horizontal lines that close the path
// leave it unchanged: the ends of the edges at each height are paired left to right (the first
// with the second, the third with the fourth, …), which makes closed loops that never cross.
// Each loop is written from its top left end, its last line left to the fill's implicit close
// (SVG 2, 9.3.1: a filled subpath is closed). Where segno's strokes cost a move and a line a run
// of dark modules, an edge costs two lines; but an edge that goes on down the rows is one line,
// however many rows it spans.

// edgeTracer finds the vertical edges of the dark modules and their loops. Its memory is reused
// from call to call.
type edgeTracer struct {
	n     int
	words int      // words a row of boundaries: n+1 bits
	open  []uint64 // (n+1) rows: bit x of row h set where an edge at boundary x ends at height h, not yet drawn
	cross []uint64 // n+1 rows: bit x of row y set where boundary x separates dark and light in module row y (none in row n)
	// pair holds, for the end at boundary x, height h, at h·(n+1)+x, the boundary of the end
	// paired with it (a symbol has at most 177 modules a side: it fits a byte).
	pair []uint8
}

// trace appends the loops of g's dark modules to p, top to bottom, each from its top left end,
// the first with an absolute move, the others relative to where the last ended.
func (e *edgeTracer) trace(g *grid, p *svgPath) {
	e.reset(g)
	x, h := 0, 0 // the current point
	first := true
	for top := 0; top <= e.n; top++ {
		for row := e.open[top*e.words : (top+1)*e.words]; ; {
			x0, ok := firstBit(row)
			if !ok {
				break
			}
			if first {
				p.moveTo(4*x0, 4*top)
				first = false
			} else {
				p.moveBy(x0-x, top-h)
			}
			x, h = e.loop(x0, top, p)
		}
	}
}

// reset sizes e for g and finds its edges: boundary x (0 to n) of module row y is crossed where
// module x−1 and module x differ, and an edge ends at height h where module rows h−1 and h
// disagree about a boundary. It pairs the ends at each height, left to right.
func (e *edgeTracer) reset(g *grid) {
	n := g.n
	w := n + 1 // boundaries a row, and heights
	e.n, e.words = n, (w+63)/64
	e.cross = grow(e.cross, (n+1)*e.words) // a last row of none, for the ends at height n
	e.open = grow(e.open, w*e.words)
	if cap(e.pair) < w*w {
		e.pair = make([]uint8, w*w)
	}
	e.pair = e.pair[:w*w]
	for y := range n {
		row, cross := g.rowBits(y), e.cross[y*e.words:(y+1)*e.words]
		var carry uint64 // module 64i−1, the last of the word before
		for i := range cross {
			var v uint64
			if i < len(row) {
				v = row[i]
			}
			cross[i] = v ^ (v<<1 | carry)
			carry = v >> 63
		}
	}
	for h := 0; h <= n; h++ {
		first, odd := 0, false
		for i := range e.words {
			var above uint64
			if h > 0 {
				above = e.cross[(h-1)*e.words+i]
			}
			ends := above ^ e.cross[h*e.words+i]
			e.open[h*e.words+i] = ends
			for ; ends != 0; ends &= ends - 1 {
				x := 64*i + bits.TrailingZeros64(ends)
				if odd {
					e.pair[h*w+x], e.pair[h*w+first] = uint8(first), uint8(x)
				}
				first, odd = x, !odd
			}
		}
	}
}

// loop appends to p the lines of the loop that starts at the end of an edge at boundary x,
// height h, the first end not yet drawn from the top left, so the top of its edge: down the
// edge, along to the end paired with its bottom, along that edge, and so on until the pairing
// leads back to the start. It returns where the last line ends.
func (e *edgeTracer) loop(x, h int, p *svgPath) (int, int) {
	w := e.n + 1
	x0, h0 := x, h
	for {
		e.clear(x, h)
		// Along the edge, down from its top or up from its bottom, to its other end: the next
		// end not yet drawn at boundary x.
		to, step := h, 1
		if e.cross[h*e.words+x/64]>>(x%64)&1 == 0 {
			step = -1
		}
		for to += step; e.open[to*e.words+x/64]>>(x%64)&1 == 0; to += step {
		}
		p.line('v', to-h)
		h = to
		e.clear(x, h)
		px := int(e.pair[h*w+x]) // across to the end paired with this one
		if px == x0 && h == h0 {
			return x, h // the fill closes the loop
		}
		p.line('h', px-x)
		x = px
	}
}

// clear marks the end at (x, h) drawn.
func (e *edgeTracer) clear(x, h int) { e.open[h*e.words+x/64] &^= 1 << (x % 64) }

// firstBit returns the lowest set bit of a row of words.
func firstBit(row []uint64) (int, bool) {
	for w, v := range row {
		if v != 0 {
			return 64*w + bits.TrailingZeros64(v), true
		}
	}
	return 0, false
}

// grow returns s with length n, its contents cleared, reusing its memory when it can.
func grow(s []uint64, n int) []uint64 {
	if cap(s) < n {
		return make([]uint64, n)
	}
	s = s[:n]
	clear(s)
	return s
}
