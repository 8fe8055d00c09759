package banana

import (
	"math"
	"strconv"
)

// This file fills the mark's contours into a raster of levels (see geometry.go).

// Raster returns the mark rasterised for a square of px×px pixels (px ≥ 8 makes sense;
// px < 1 panics): px·px bytes, row by row, each a level (LevelNone … LevelYellowOverBg75).
// Each call rasterises anew (some milliseconds at 400 px): callers that draw the mark often
// keep the result. Safe for concurrent use.
func Raster(px int) []uint8 {
	if px < 1 {
		panic("banana: raster of " + strconv.Itoa(px) + " pixels")
	}
	return rasterize(geometry(), px)
}

// Rasteriser settings.
const (
	subRows   = 16   // sample rows per pixel row; across a row, coverage is exact
	flatness  = 0.04 // how far, in pixels, the flattened outline may stray from the curve
	maxPieces = 256  // most line segments one Bézier segment is flattened into
)

// edge is one line segment of a flattened contour, stored top to bottom.
type edge struct {
	x0, y0, x1, y1 float64 // y0 < y1
	wind           int     // +1 if the contour runs downwards here, −1 if upwards
	ink            bool    // whether the edge belongs to the ink layer (else the yellow)
}

// crossing is where a sample row crosses an edge.
type crossing struct {
	x    float64 // where, across
	wind int     // the edge's winding direction
	ink  bool    // the edge's layer
}

// rasterize fills the shape's layers at px×px pixels and returns the banana levels.
// Each pixel row is sampled on subRows horizontal lines; on each line the crossings with
// both layers' edges are sorted and swept with a non-zero winding count per layer, and the
// stretches where ink (else yellow) shows add their exact length to the pixels they cover.
func rasterize(s shape, px int) []uint8 {
	edges, rows := edgesOf(s, px)
	out := make([]uint8, px*px)
	yellow := make([]float64, px)
	ink := make([]float64, px)
	var cross []crossing
	for r := range px {
		clear(yellow)
		clear(ink)
		for k := range subRows {
			y := float64(r) + (float64(k)+0.5)/subRows
			cross = crossings(cross[:0], edges, rows[r], y)
			sweep(cross, yellow, ink)
		}
		for x := range px {
			out[r*px+x] = quantise(yellow[x]/subRows, ink[x]/subRows)
		}
	}
	return out
}

// edgesOf flattens the shape at px pixels to the box and returns its non-horizontal edges
// and, for each pixel row, the indices of the edges that reach into it.
func edgesOf(s shape, px int) ([]edge, [][]int32) {
	var edges []edge
	scale := float64(px)
	var pts []point
	for li, layer := range [][]contour{s.yellow, s.ink} {
		for _, ct := range layer {
			pts = flatten(pts[:0], ct, scale)
			for i := range pts {
				a, b := pts[i], pts[(i+1)%len(pts)]
				switch {
				case a.y < b.y:
					edges = append(edges, edge{a.x, a.y, b.x, b.y, 1, li == 1})
				case a.y > b.y:
					edges = append(edges, edge{b.x, b.y, a.x, a.y, -1, li == 1})
				}
			}
		}
	}
	rows := make([][]int32, px)
	for i, e := range edges {
		lo := max(0, int(math.Floor(e.y0)))
		hi := min(px-1, int(math.Floor(e.y1)))
		for r := lo; r <= hi; r++ {
			rows[r] = append(rows[r], int32(i))
		}
	}
	return edges, rows
}

// flatten appends to pts the contour c scaled by scale and flattened into line segments,
// each segment's start point only (the contour is closed).
func flatten(pts []point, c contour, scale float64) []point {
	for _, s := range c {
		// The n-piece polyline strays at most max|B''|/(8n²) from the curve, and
		// |B''| ≤ 6·(the larger second difference of the control points).
		d := math.Max(math.Hypot(s[0].x-2*s[1].x+s[2].x, s[0].y-2*s[1].y+s[2].y),
			math.Hypot(s[1].x-2*s[2].x+s[3].x, s[1].y-2*s[2].y+s[3].y)) * scale
		n := int(math.Ceil(math.Sqrt(0.75 * d / flatness)))
		n = min(max(n, 1), maxPieces)
		for i := range n {
			pts = append(pts, s.at(float64(i)/float64(n)).mul(scale))
		}
	}
	return pts
}

// crossings appends to cross where the horizontal line at y crosses the edges listed in
// idx (edges are half-open: they contain their top but not their bottom end), sorted by x.
func crossings(cross []crossing, edges []edge, idx []int32, y float64) []crossing {
	for _, i := range idx {
		e := &edges[i]
		if y < e.y0 || y >= e.y1 {
			continue
		}
		x := e.x0 + (y-e.y0)*(e.x1-e.x0)/(e.y1-e.y0)
		c := crossing{x, e.wind, e.ink}
		// Insertion sort: a line crosses only a handful of edges.
		j := len(cross)
		cross = append(cross, c)
		for j > 0 && cross[j-1].x > x {
			cross[j] = cross[j-1]
			j--
		}
		cross[j] = c
	}
	return cross
}

// sweep walks the sorted crossings of one sample line with a winding count per layer and
// adds the lengths where ink shows to ink and where (only) yellow shows to yellow, per pixel.
func sweep(cross []crossing, yellow, ink []float64) {
	var wy, wi int
	for j, c := range cross {
		if j > 0 {
			switch {
			case wi != 0:
				span(ink, cross[j-1].x, c.x)
			case wy != 0:
				span(yellow, cross[j-1].x, c.x)
			}
		}
		if c.ink {
			wi += c.wind
		} else {
			wy += c.wind
		}
	}
}

// span adds to acc, per pixel, the length of [a, b) that lies in it.
func span(acc []float64, a, b float64) {
	a = math.Max(a, 0)
	b = math.Min(b, float64(len(acc)))
	if b <= a {
		return
	}
	ia, ib := int(a), int(b)
	if ia == ib {
		acc[ia] += b - a
		return
	}
	acc[ia] += float64(ia+1) - a
	for i := ia + 1; i < ib; i++ {
		acc[i]++
	}
	if ib < len(acc) {
		acc[ib] += b - float64(ib)
	}
}

// quantise returns the banana level nearest to a pixel whose area is a share y visible
// yellow and i ink (the rest background): the level whose mix of background, yellow and ink
// is closest. So a layer covering under 12.5 % of a pixel next to the background is dropped,
// and one covering 87.5 % or more counts as full.
func quantise(y, i float64) uint8 {
	const eps = 1e-9
	switch {
	case y < eps && i < eps:
		return LevelNone
	case y > 1-eps:
		return LevelYellow
	case i > 1-eps:
		return LevelInk
	}
	b := 1 - y - i
	best, bestD := uint8(LevelNone), math.Inf(1)
	for l, m := range levelMix {
		d := (m[0]-b)*(m[0]-b) + (m[1]-y)*(m[1]-y) + (m[2]-i)*(m[2]-i)
		if d < bestD {
			best, bestD = uint8(l), d
		}
	}
	return best
}
