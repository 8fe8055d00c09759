package render

import "github.com/bananaqr/bananaqr/qr"

// A grid holds the modules to draw dark: a symbol's, less those under a logo's pad, with a
// border of light modules around it so that neighbours can be read without bounds checks.
type grid struct {
	n     int
	cells []uint8  // (n+2)×(n+2), row by row, the symbol's module (x, y) at (y+1)*(n+2)+x+1: 1 dark
	bits  []uint64 // the same rows as bits, module x of row y in bit x%64 of word y*words+x/64
	words int
}

// fill sets g to the modules of s less those under pad: as bits, with none beyond the symbol,
// and as cells too when withCells (only the outline tracer reads cells; they are unset
// otherwise).
func (g *grid) fill(s *qr.Symbol, pad padding, withCells bool) {
	g.n = s.Size()
	w := g.n + 2
	g.cells = g.cells[:0]
	if withCells {
		if cap(g.cells) < w*w {
			g.cells = make([]uint8, w*w)
		}
		g.cells = g.cells[:w*w]
		clear(g.cells)
	}
	g.words = (g.n + 63) / 64
	g.bits = g.bits[:0]
	for y := range g.n {
		g.bits = s.Row(y, g.bits)
		row := g.rowBits(y)
		if g.n%64 != 0 { // no modules beyond the symbol
			row[len(row)-1] &= 1<<(g.n%64) - 1
		}
		if uint(y-pad.first) < uint(pad.side) {
			clearBits(row, pad.first, pad.first+pad.side)
		}
		if withCells {
			cells := g.cells[(y+1)*w+1 : (y+1)*w+1+g.n]
			for x := range cells {
				cells[x] = uint8(row[x/64] >> (x % 64) & 1)
			}
		}
	}
}

// rowBits returns the modules of row y as bits.
func (g *grid) rowBits(y int) []uint64 { return g.bits[y*g.words : (y+1)*g.words] }
