package glyph

import (
	"math"

	"golang.org/x/image/font/sfnt"
)

// An Op is what a Segment does.
type Op uint8

// The segments of a TrueType outline (OpenType glyf: on-curve points joined by straight lines
// or by quadratic Bézier curves through one off-curve control point).
const (
	MoveTo Op = iota // start a contour at P[0]
	LineTo           // a straight line to P[0]
	QuadTo           // a quadratic Bézier curve with control point P[0], ending at P[1]
)

// A Point is a position in font units, x to the right and y up from the glyph's origin (the
// left end of its baseline), as in the font.
type Point struct{ X, Y int16 }

// A Segment is one step of a contour. Every contour starts with MoveTo and ends back at its
// start point: the contours are closed.
type Segment struct {
	Op Op
	P  [2]Point
}

// An Outline is a glyph's contours: closed, filled by the non-zero winding rule, in font
// units with y up. A glyph without ink (space) has none.
type Outline []Segment

// A Rect is a box in font units, y up: (MinX, MinY) is its lower left corner, (MaxX, MaxY)
// its upper right.
type Rect struct{ MinX, MinY, MaxX, MaxY int }

// Empty reports whether r holds no area (the bounds of an outline without ink).
func (r Rect) Empty() bool { return r.MinX >= r.MaxX || r.MinY >= r.MaxY }

// union returns the smallest box holding r and q; an empty box adds nothing.
func (r Rect) union(q Rect) Rect {
	switch {
	case q.Empty():
		return r
	case r.Empty():
		return q
	}
	return Rect{min(r.MinX, q.MinX), min(r.MinY, q.MinY), max(r.MaxX, q.MaxX), max(r.MaxY, q.MaxY)}
}

// Outline returns glyph id's outline, read from the font once (OpenType glyf, composite glyphs
// resolved). The slice is shared: do not modify it.
func (f *Face) Outline(id ID) Outline {
	f.load()
	if int(id) >= len(f.glyphs) {
		return nil
	}
	return f.glyphs[id].outline
}

// Bounds returns the ink box of glyph id, in font units (empty for a glyph without ink).
func (f *Face) Bounds(id ID) Rect {
	f.load()
	if int(id) >= len(f.glyphs) {
		return Rect{}
	}
	return f.glyphs[id].bounds
}

// Advance returns how far glyph id moves the pen, in font units (OpenType hmtx advanceWidth).
func (f *Face) Advance(id ID) int {
	f.load()
	if int(id) >= len(f.glyphs) {
		return 0
	}
	return int(f.glyphs[id].advance)
}

// newOutline converts sfnt's segments, read at ppem = unitsPerEm so its 26.6 "pixels" are
// whole font units with y down, into an Outline (y up).
func newOutline(segs sfnt.Segments) Outline {
	if len(segs) == 0 {
		return nil
	}
	o := make(Outline, 0, len(segs))
	pt := func(i int, j int) Point {
		a := segs[i].Args[j]
		return Point{int16(a.X), int16(-a.Y)}
	}
	for i, s := range segs {
		switch s.Op {
		case sfnt.SegmentOpMoveTo:
			o = append(o, Segment{Op: MoveTo, P: [2]Point{pt(i, 0)}})
		case sfnt.SegmentOpLineTo:
			o = append(o, Segment{Op: LineTo, P: [2]Point{pt(i, 0)}})
		case sfnt.SegmentOpQuadTo:
			o = append(o, Segment{Op: QuadTo, P: [2]Point{pt(i, 0), pt(i, 1)}})
		default: // cubic: CFF outlines only, which the embedded fonts do not have
			panic("glyph: cubic segment in a TrueType outline")
		}
	}
	return o
}

// bounds returns the box of o's ink: its on-curve points and each quadratic curve's extremes
// (where the curve's derivative is zero, OpenType glyf's curves need not have points there),
// rounded outwards to whole font units.
func (o Outline) bounds() Rect {
	if len(o) == 0 {
		return Rect{}
	}
	minX, minY, maxX, maxY := math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)
	add := func(x, y float64) {
		minX, minY, maxX, maxY = min(minX, x), min(minY, y), max(maxX, x), max(maxY, y)
	}
	var last Point
	for _, s := range o {
		end := s.P[0]
		if s.Op == QuadTo {
			end = s.P[1]
			c := s.P[0]
			for _, t := range [2]float64{quadExtreme(last.X, c.X, end.X), quadExtreme(last.Y, c.Y, end.Y)} {
				if t > 0 && t < 1 {
					add(quadAt(t, last.X, c.X, end.X), quadAt(t, last.Y, c.Y, end.Y))
				}
			}
		}
		add(float64(end.X), float64(end.Y))
		last = end
	}
	return Rect{int(math.Floor(minX)), int(math.Floor(minY)), int(math.Ceil(maxX)), int(math.Ceil(maxY))}
}

// quadExtreme returns the parameter t at which the quadratic Bézier coordinate
// (1−t)²·a + 2t(1−t)·c + t²·b is extreme, or −1 if it has no extreme (it is monotonic).
func quadExtreme(a, c, b int16) float64 {
	d := float64(a) - 2*float64(c) + float64(b)
	if d == 0 {
		return -1
	}
	return (float64(a) - float64(c)) / d
}

// quadAt returns the quadratic Bézier coordinate at t.
func quadAt(t float64, a, c, b int16) float64 {
	u := 1 - t
	return u*u*float64(a) + 2*t*u*float64(c) + t*t*float64(b)
}

// A Transform places a Run in a target: the run's origin (the left end of its baseline) goes
// to (X, Y), and one font unit becomes Scale target units. A font point (x, y) lands at
// (X + Scale·x, Y − Scale·y) in a target whose y grows downwards (SVG, PNG), or at
// (X + Scale·x, Y + Scale·y) with YUp (PDF, EPS).
type Transform struct {
	X, Y  float64
	Scale float64
	YUp   bool
}

// apply returns where font point p of a glyph at x offset dx lands.
func (t Transform) apply(p Point, dx int) (x, y float64) {
	x = t.X + t.Scale*float64(int(p.X)+dx)
	if t.YUp {
		return x, t.Y + t.Scale*float64(p.Y)
	}
	return x, t.Y - t.Scale*float64(p.Y)
}

// A Pen receives a Run's contours, transformed. Each contour is MoveTo, then lines and
// quadratic curves, then Close (which returns to the contour's start: the last segment already
// ends there). PDF and EPS turn each quadratic (p0, c, p1) into the cubic with control points
// p0 + 2/3·(c − p0) and p1 + 2/3·(c − p1).
type Pen interface {
	MoveTo(x, y float64)
	LineTo(x, y float64)
	QuadTo(cx, cy, x, y float64)
	Close()
}

// Walk hands the outlines of run's glyphs, placed by t, to p, glyph by glyph in run order.
func (f *Face) Walk(run Run, t Transform, p Pen) {
	f.load()
	for _, g := range run.Glyphs {
		o := f.Outline(g.ID)
		for i, s := range o {
			switch s.Op {
			case MoveTo:
				if i > 0 {
					p.Close()
				}
				p.MoveTo(t.apply(s.P[0], g.X))
			case LineTo:
				p.LineTo(t.apply(s.P[0], g.X))
			case QuadTo:
				cx, cy := t.apply(s.P[0], g.X)
				x, y := t.apply(s.P[1], g.X)
				p.QuadTo(cx, cy, x, y)
			}
		}
		if len(o) > 0 {
			p.Close()
		}
	}
}

// InkBounds returns the box of run's ink in font units (y up, relative to the run's origin):
// the union of its glyphs' bounds; empty for a run without ink.
func (f *Face) InkBounds(run Run) Rect {
	f.load()
	var r Rect
	for _, g := range run.Glyphs {
		b := f.Bounds(g.ID)
		b.MinX += g.X
		b.MaxX += g.X
		r = r.union(b)
	}
	return r
}
