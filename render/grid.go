package render

import "github.com/bananaqr/bananaqr/qr"

// A grid holds the modules to draw dark: a symbol's, less those under a logo's pad, with a
// border of light modules around it so that neighbours can be read without bounds checks.
type grid struct {
	n     int
	cells []bool // (n+2)×(n+2), row by row, the symbol's module (x, y) at (y+1)*(n+2)+x+1
}

func (g *grid) fill(s *qr.Symbol, pad padding) {
	g.n = s.Size()
	w := g.n + 2
	if cap(g.cells) < w*w {
		g.cells = make([]bool, w*w)
	}
	g.cells = g.cells[:w*w]
	clear(g.cells)
	for y := range g.n {
		row := g.cells[(y+1)*w+1 : (y+1)*w+1+g.n]
		for x := range row {
			row[x] = s.Dark(x, y) && !pad.covers(x, y)
		}
	}
}

// dark reports whether module (x, y) is drawn dark; -1 and n are the light border.
func (g *grid) dark(x, y int) bool { return g.cells[(y+1)*(g.n+2)+x+1] }
