package render

import "math/bits"

// This file draws square modules for SVG as the fewest straight lines that fill them with the
// even-odd rule (SVG 2, 13.4.2 fill-rule; PDF f*, PostScript eofill): the vertical edges between
// dark and light, each as long as it runs, joined at its ends by horizontal lines.
//
// Under the even-odd rule a point inside a module is painted when a ray from it to the right
// crosses the path an odd number of times; a horizontal ray crosses only vertical lines. So the
// vertical edges alone decide what is painted, and any horizontal lines that close the path
// leave it unchanged: the ends of the edges at each height are paired left to right (the first
// with the second, the third with the fourth, …), which makes closed loops that never cross.
// Each loop is written from its top left end, its last line left to the fill's implicit close
// (SVG 2, 9.3.1: a filled subpath is closed). A module row of runs of dark modules costs two
// lines an edge where segno's strokes cost a move and a line a run; but an edge that goes on
// down the rows is one line, however many rows it spans.

// edgeTracer finds the vertical edges of the dark modules and their loops. Its memory is reused
// from call to call.
type edgeTracer struct {
	n     int
	words int      // words a row of boundaries: n+1 bits
	ends  []uint64 // (n+1) rows: bit x of row h set where an edge at boundary x ends at height h
	open  []uint64 // ends not yet drawn, the same layout
	cross []uint64 // n rows: bit x of row y set where boundary x separates dark and light in module row y
}

// trace sends the loops of g's dark modules to p, top to bottom, each from its top left end:
// moveTo, then lines, all in quarter modules (pathSink's units) and whole modules.
func (e *edgeTracer) trace(g *grid, p pathSink) {
	e.reset(g)
	for h := 0; h <= e.n; h++ {
		for row := e.row(e.open, h); ; {
			x, ok := firstBit(row)
			if !ok {
				break
			}
			e.loop(x, h, p)
		}
	}
}

// reset sizes e for g and finds its edges: boundary x (0 to n) of module row y is crossed where
// module x−1 and module x differ, and an edge ends at height h where module rows h−1 and h
// disagree about a boundary.
func (e *edgeTracer) reset(g *grid) {
	n := g.n
	e.n, e.words = n, (n+1+63)/64
	e.cross = grow(e.cross, n*e.words)
	e.ends = grow(e.ends, (n+1)*e.words)
	e.open = grow(e.open, (n+1)*e.words)
	for y := range n {
		row, cross := g.rowBits(y), e.row(e.cross, y)
		var carry uint64 // module 64w−1, the last of the word before
		for w := range cross {
			var v uint64
			if w < len(row) {
				v = row[w]
			}
			cross[w] = v ^ (v<<1 | carry)
			carry = v >> 63
		}
	}
	for h := 0; h <= n; h++ {
		ends := e.row(e.ends, h)
		for w := range ends {
			var above, below uint64
			if h > 0 {
				above = e.cross[(h-1)*e.words+w]
			}
			if h < n {
				below = e.cross[h*e.words+w]
			}
			ends[w] = above ^ below
		}
	}
	copy(e.open, e.ends)
}

// loop sends p the loop that starts at the end of an edge at boundary x, height h, the first
// end not yet drawn from the top left, so the top of its edge: down the edge, along to the end
// paired with its bottom, along that edge, and so on until the pairing leads back to the start.
func (e *edgeTracer) loop(x, h int, p pathSink) {
	x0, h0 := x, h
	p.moveTo(4*x, 4*h)
	for {
		e.clear(x, h)
		// Along the edge: down from its top or up from its bottom, to its other end.
		var to int
		if h < e.n && e.bit(e.cross, x, h) {
			for to = h + 1; !e.bit(e.ends, x, to); to++ {
			}
		} else {
			for to = h - 1; !e.bit(e.ends, x, to); to-- {
			}
		}
		p.lineBy(0, 4*(to-h))
		h = to
		e.clear(x, h)
		// Across to the end paired with this one at height h.
		px := e.partner(x, h)
		if px == x0 && h == h0 {
			return // the fill closes the loop
		}
		p.lineBy(4*(px-x), 0)
		x = px
	}
}

// partner returns the boundary of the end paired with the end at (x, h): the ends at height h,
// left to right, pair first with second, third with fourth.
func (e *edgeTracer) partner(x, h int) int {
	row := e.row(e.ends, h)
	w, b := x/64, uint(x%64)
	before := bits.OnesCount64(row[w] & (1<<b - 1))
	for _, v := range row[:w] {
		before += bits.OnesCount64(v)
	}
	if before%2 == 0 { // the next end to the right
		if v := row[w] >> b >> 1; b < 63 && v != 0 {
			return x + 1 + bits.TrailingZeros64(v)
		}
		for i := w + 1; ; i++ {
			if row[i] != 0 {
				return 64*i + bits.TrailingZeros64(row[i])
			}
		}
	}
	if v := row[w] & (1<<b - 1); v != 0 { // the next end to the left
		return 64*w + 63 - bits.LeadingZeros64(v)
	}
	for i := w - 1; ; i-- {
		if row[i] != 0 {
			return 64*i + 63 - bits.LeadingZeros64(row[i])
		}
	}
}

// row returns row r of a bit table laid out as e's.
func (e *edgeTracer) row(t []uint64, r int) []uint64 { return t[r*e.words : (r+1)*e.words] }

// bit reports bit x of row r of table t.
func (e *edgeTracer) bit(t []uint64, x, r int) bool { return t[r*e.words+x/64]>>(x%64)&1 != 0 }

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
