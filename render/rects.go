package render

import (
	"math/bits"
	"strconv"
)

// A span is a run of dark modules, columns x0 to x1-1, and the row y0 where a rectangle of
// such runs starts.
type span struct{ x0, x1, y0 int }

// rectangler splits the dark modules into rectangles: each row's runs, a run merged with the
// identical run in the row above. Its memory is reused from call to call.
type rectangler struct {
	open, next []span
}

// rects sends the dark modules of g to p as rectangles; it is how square modules are drawn,
// cheaper than tracing outlines.
func (r *rectangler) rects(g *grid, p pathSink) {
	n := g.n
	r.open = r.open[:0]
	for y := 0; y <= n; y++ {
		r.next = r.next[:0]
		if y < n {
			r.next = appendRuns(r.next, g.rowBits(y), y)
		}
		// Runs that continue an open rectangle keep its top; the others close it.
		i := 0
		for j := range r.next {
			for i < len(r.open) && r.open[i].x0 < r.next[j].x0 {
				closeRect(p, r.open[i], y)
				i++
			}
			if i < len(r.open) && r.open[i].x0 == r.next[j].x0 && r.open[i].x1 == r.next[j].x1 {
				r.next[j].y0 = r.open[i].y0
				i++
			}
		}
		for ; i < len(r.open); i++ {
			closeRect(p, r.open[i], y)
		}
		r.open, r.next = r.next, r.open
	}
}

// appendRuns appends the runs of set bits of row, as spans starting at row y.
func appendRuns(dst []span, row []uint64, y int) []span {
	for w, v := range row {
		for v != 0 {
			x0 := bits.TrailingZeros64(v)
			x1 := x0 + bits.TrailingZeros64(^(v >> x0))
			if x1 >= 64 {
				x1 = 64
			}
			if x1 < 64 {
				v &^= (1<<x1 - 1)
			} else {
				v = 0
			}
			a, b := 64*w+x0, 64*w+x1
			if k := len(dst) - 1; k >= 0 && dst[k].x1 == a { // the run goes on from the last word
				dst[k].x1 = b
				continue
			}
			dst = append(dst, span{a, b, y})
		}
	}
	return dst
}

// clearBits clears bits a to b-1 of a row of words.
func clearBits(row []uint64, a, b int) {
	for x := a; x < b; x++ {
		row[x/64] &^= 1 << (x % 64)
	}
}

// closeRect sends p the rectangle of span s closed at row y.
func closeRect(p pathSink, s span, y int) { p.rect(s.x0, s.y0, s.x1-s.x0, y-s.y0) }

// appendUint appends v ≥ 0 in decimal; a quick path for the small numbers of module counts.
func appendUint(dst []byte, v int) []byte {
	switch {
	case v < 10:
		return append(dst, byte('0'+v))
	case v < 100:
		return append(dst, byte('0'+v/10), byte('0'+v%10))
	case v < 1000:
		return append(dst, byte('0'+v/100), byte('0'+v/10%10), byte('0'+v%10))
	}
	return strconv.AppendInt(dst, int64(v), 10)
}
