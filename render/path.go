package render

import (
	"sync"

	"github.com/bananaqr/bananaqr/qr"
)

// This file is the one description of the dark modules' path that the vector formats share:
// SVG, PDF and PostScript spell it each in their own way (svgPath, pdfPath, psPath), but which
// rectangles and outlines make it, where lines are shortened and where corners are rounded is
// decided here once.

// A pathSink receives the path of the dark modules in module units, y growing downwards, the
// symbol's top left module at (0, 0): the coordinates of the SVG's viewBox. Rectangles never
// overlap and outlines run clockwise around dark and counter-clockwise around light, so that
// either fill rule paints them alike; edges (edges.go) need the even-odd rule.
type pathSink interface {
	// rect adds a rectangle of whole modules: w×h from (x, y).
	rect(x, y, w, h int)
	// moveTo starts an outline at (x, y), in quarter modules.
	moveTo(x, y int)
	// lineBy adds a straight edge of (dx, dy) quarter modules: one of them is 0.
	lineBy(dx, dy int)
	// arcBy adds a convex corner: a quarter circle of radius cornerRadius, clockwise (y down),
	// entered going in and left going out (unit steps, see steps). It ends quarterRadius·(in +
	// out) quarter modules from where it starts.
	arcBy(in, out [2]int)
	// closePath closes the outline.
	closePath()
}

// pathScratch is the scratch memory of drawing the dark modules; its memory is reused from
// call to call (pathScratches).
type pathScratch struct {
	g grid
	t tracer
	r rectangler
}

var pathScratches = sync.Pool{New: func() any { return new(pathScratch) }}

// drawModules sends the dark modules of s, less those under pad, to p: as rectangles (a row's
// runs of dark modules, each merged with the identical runs below it) for square corners, as
// outlines with rounded convex corners for rounded ones. (The SVG draws square modules as their
// edges instead, edges.go: fewer and shorter in its relative path data than rectangles, which
// the print formats have an operator for.)
func (w *pathScratch) drawModules(s *qr.Symbol, pad padding, corners Corners, p pathSink) {
	rounded := corners == Rounded
	w.g.fill(s, pad, rounded) // only the outline tracer reads cells
	if rounded {
		w.t.trace(&w.g, func(c []corner) { traceRounded(c, p) })
	} else {
		w.r.rects(&w.g, p)
	}
}

// cornerRadius is the radius of rounded corners, in modules: a quarter of a module, so that a
// lone module becomes a square with rounded corners. A larger radius takes away more of the
// dark area at the corners of finder patterns and modules: at half a module (a lone module a
// disc) rounded codes read markedly less often than square ones under strong camera
// conditions, at a quarter as often (bench/scan). Paths count it in quarter modules.
const (
	cornerRadius  = 0.25
	quarterRadius = 1
)

// traceRounded sends the outline of corners c to p: its convex corners quarter circles of
// radius cornerRadius, its concave corners square.
func traceRounded(c []corner, p pathSink) {
	first := c[0]
	x, y := 4*first.x, 4*first.y // in quarter modules
	if first.convex {
		x += quarterRadius * steps[first.out][0]
		y += quarterRadius * steps[first.out][1]
	}
	p.moveTo(x, y)
	for i := 1; i <= len(c); i++ {
		prev, cur := c[i-1], c[i%len(c)]
		cut := 0
		if prev.convex {
			cut += quarterRadius
		}
		if cur.convex {
			cut += quarterRadius
		}
		if dx, dy := shortened(4*(cur.x-prev.x), 4*(cur.y-prev.y), cut); dx != 0 || dy != 0 {
			p.lineBy(dx, dy)
		}
		if cur.convex {
			p.arcBy(steps[prev.out], steps[cur.out])
		}
	}
	p.closePath()
}

// shortened returns the straight edge (dx, dy), in quarter modules, less cut quarter modules;
// (0, 0) when nothing is left of it.
func shortened(dx, dy, cut int) (int, int) {
	switch {
	case dx > cut:
		return dx - cut, 0
	case dx < -cut:
		return dx + cut, 0
	case dy > cut:
		return 0, dy - cut
	case dy < -cut:
		return 0, dy + cut
	}
	return 0, 0
}
