package banana

import (
	"math"
	"sync"
)

// Design parameters, in the local units of the drawing before it is tilted and fitted into
// the unit box (only proportions matter).
const (
	arcRadius    = 0.5   // radius of the circle the spine follows
	arcFrom      = 163.0 // spine angle at the blossom end (t = 0), degrees, y down
	arcTo        = 23.0  // spine angle at the stem end (t = 1)
	outline      = 0.048 // thickness of the ink outline
	stemInset    = 0.04  // how far the stem reaches back into the body, along the spine
	stemLength   = 0.13  // how far the stem sticks out beyond the body's end
	stemBase     = 0.1   // width of the stem where it leaves the body
	stemTip      = 0.07  // width of the stem at its cut end
	stemBend     = 0.025 // sideways bend of the stem towards the concave side
	tipRadius    = 0.036 // radius of the dark blossom tip
	tipShift     = -0.04 // where the tip's centre lies, along the spine inwards from the body's end
	tilt         = -25.0 // rotation of the whole drawing, degrees (negative lifts the stem)
	boxMargin    = 0.07  // inner margin of the unit box left free on every side
	bandPieces   = 8     // Bézier segments per side of a band's contours
	derivativeH  = 1e-6  // step of the numerical derivatives (segment fits, offset normals)
	fitTolerance = 2e-4  // how far a fitted Bézier segment may stray from its curve
	fitDepth     = 10    // how often a fitted segment may be halved
)

// band is a bent lens laid along the spine: like an ellipse whose long axis follows the
// spine from t = from to t = to. Its contour is smooth, and rounded or pointed at the ends.
type band struct {
	from, to             float64 // the stretch of the spine it covers
	half                 float64 // half width at its thickest, before the taper
	taper                float64 // share of half width and shift lost from t = 0 to t = 1
	shift                float64 // offset of its middle line towards the convex side
	pointyFrom, pointyTo float64 // shape of each end: 1 round like an ellipse's, less pointed
	outer, inner         float64 // factors on the half width on the convex and the concave side
}

// The bands of the mark: the yellow body, and the ink ridge along its concave side.
var (
	body = band{from: 0, to: 1, half: 0.17, taper: 0.35, shift: 0,
		pointyFrom: 0.3, pointyTo: 0.3, outer: 1.05, inner: 0.95}
	ridge = band{from: 0.12, to: 0.78, half: 0.013, taper: 0.35, shift: -0.07,
		pointyFrom: 0.5, pointyTo: 0.5, outer: 1, inner: 1}
)

// point is a point or a vector of the drawing.
type point struct{ x, y float64 }

// add returns p + q.
func (p point) add(q point) point { return point{p.x + q.x, p.y + q.y} }

// sub returns p − q.
func (p point) sub(q point) point { return point{p.x - q.x, p.y - q.y} }

// mul returns p scaled by k.
func (p point) mul(k float64) point { return point{p.x * k, p.y * k} }

// unit returns p scaled to length 1 (p must not be zero).
func (p point) unit() point { return p.mul(1 / math.Hypot(p.x, p.y)) }

// rot returns p rotated by the angle whose cosine and sine are c and s.
func (p point) rot(c, s float64) point { return point{c*p.x - s*p.y, s*p.x + c*p.y} }

// cubic is a cubic Bézier segment: start, two control points, end.
type cubic [4]point

// at returns the point of c at parameter t in [0, 1].
func (c cubic) at(t float64) point {
	u := 1 - t
	a, b, d, e := u*u*u, 3*u*u*t, 3*u*t*t, t*t*t
	return point{
		a*c[0].x + b*c[1].x + d*c[2].x + e*c[3].x,
		a*c[0].y + b*c[1].y + d*c[2].y + e*c[3].y,
	}
}

// contour is a closed contour: each segment starts where the previous one ends, and the
// last ends where the first starts.
type contour []cubic

// shape is the whole mark: the yellow layer, painted first, and the ink layer on top.
// Solid contours run one way (positive shoelace area) and holes the other, filled non-zero.
type shape struct {
	yellow, ink []contour
}

// geometry returns the mark's geometry in the unit box, built on first use.
var geometry = sync.OnceValue(build)

// build designs the mark: body, outline, stem, tip and ridge, then tilts it and fits it into
// the unit box with boxMargin free on every side.
func build() shape {
	s := shape{
		yellow: []contour{fit(body.offset(outline / 2))},
		ink: []contour{
			fit(body.offset(outline)),
			fit(body.at), // the hole; reversed below
			stem(), tip(), fit(ridge.at),
		},
	}
	for i, c := range s.ink {
		s.ink[i] = oriented(c, i != 1) // solids positive, the hole negative
	}
	s.yellow[0] = oriented(s.yellow[0], true)
	place(&s)
	return s
}

// spine returns the point of the spine at t in [0, 1] (blossom end to stem end) and the
// unit normal there that points to the convex side.
func spine(t float64) (p, n point) {
	a := (arcFrom + (arcTo-arcFrom)*t) * math.Pi / 180
	n = point{math.Cos(a), math.Sin(a)}
	return n.mul(arcRadius), n
}

// spineTangent returns the unit tangent of the spine at t, pointing towards the stem.
func spineTangent(t float64) point {
	_, n := spine(t)
	// The angle decreases along the spine, so the tangent is the normal turned back by 90°.
	return point{n.y, -n.x}
}

// at returns the point of the band's contour at angle th in [0, 2π]: th = 0 is the end at
// t = from, th = π the end at t = to, and sin th > 0 is the convex side.
func (b band) at(th float64) point {
	u := (1 - math.Cos(th)) / 2
	t := b.from + (b.to-b.from)*u
	s := math.Sin(th)
	pointy := b.pointyFrom + (b.pointyTo-b.pointyFrom)*u
	k := 1 - b.taper*t
	w := b.half * k * math.Abs(s) * (pointy + (1-pointy)*math.Abs(s))
	if s > 0 {
		w *= b.outer
	} else {
		w *= -b.inner
	}
	p, n := spine(t)
	return p.add(n.mul(w + b.shift*k))
}

// offset returns the band's contour moved outwards by d along its normal, as a function of th.
func (b band) offset(d float64) func(float64) point {
	// Which side is outside depends on the direction of travel: for a contour of positive
	// shoelace area it is on the right (as for a counter-clockwise one with y up).
	var area float64
	const steps = 256
	prev := b.at(0)
	for i := 1; i <= steps; i++ {
		p := b.at(2 * math.Pi * float64(i) / steps)
		area += prev.x*p.y - p.x*prev.y
		prev = p
	}
	orient := math.Copysign(1, area)
	return func(th float64) point {
		const h = derivativeH
		tan := b.at(th + h).sub(b.at(th - h))
		out := point{tan.y, -tan.x}.unit().mul(orient)
		return b.at(th).add(out.mul(d))
	}
}

// fit approximates the closed curve f(th), th in [0, 2π], by cubic Hermite segments
// (matching the curve's points and one-sided derivatives at their ends): first
// 2·bandPieces of them, with joints at th = 0 and th = π where a band's bulge changes,
// each split in halves until it strays less than fitTolerance from the curve.
func fit(f func(float64) point) contour {
	const n = 2 * bandPieces
	var c contour
	for i := range n {
		c = fitPiece(c, f, 2*math.Pi*float64(i)/n, 2*math.Pi*float64(i+1)/n, 0)
	}
	c[len(c)-1][3] = c[0][0] // close exactly
	return c
}

// fitPiece appends to c the Hermite segments for f on [a, b], halving [a, b] as often as
// needed (at most fitDepth times).
func fitPiece(c contour, f func(float64) point, a, b float64, depth int) contour {
	seg := hermite(f, a, b)
	bad := false
	for _, u := range []float64{0.25, 0.5, 0.75} {
		p, q := seg.at(u), f(a+(b-a)*u)
		bad = bad || math.Hypot(p.x-q.x, p.y-q.y) > fitTolerance
	}
	if !bad || depth == fitDepth {
		return append(c, seg)
	}
	m := (a + b) / 2
	c = fitPiece(c, f, a, m, depth+1)
	return fitPiece(c, f, m, b, depth+1)
}

// hermite returns the cubic with the points and derivatives of f at a and b (derivatives
// by second-order one-sided differences that stay inside [a, b]).
func hermite(f func(float64) point, a, b float64) cubic {
	const h = derivativeH
	fa, fb := f(a), f(b)
	da := fa.mul(-3).add(f(a + h).mul(4)).sub(f(a + 2*h)).mul(1 / (2 * h))
	db := fb.mul(3).sub(f(b - h).mul(4)).add(f(b - 2*h)).mul(1 / (2 * h))
	k := (b - a) / 3
	return cubic{fa, fa.add(da.mul(k)), fb.sub(db.mul(k)), fb}
}

// stem returns the stem: a tapering band that starts inside the body near the stem end,
// sticks out along the spine while bending a little to the concave side, and is cut square.
func stem() contour {
	end, n := spine(1)
	tan := spineTangent(1)
	l := stemInset + stemLength
	base := end.sub(tan.mul(stemInset))
	tip := end.add(tan.mul(stemLength)).sub(n.mul(stemBend))
	middle := [4]point{base, base.add(tan.mul(l / 3)), base.add(tan.mul(2 * l / 3)), tip} // a cubic
	d := tip.sub(middle[2]).unit()
	across := [4]point{n, n, n, {-d.y, d.x}} // the cut is square to the stem's last direction
	if across[3].x*n.x+across[3].y*n.y < 0 {
		across[3] = across[3].mul(-1)
	}
	side := func(sign float64) cubic {
		var c cubic
		for i, p := range middle {
			w := stemBase + (stemTip-stemBase)*float64(i)/3
			c[i] = p.add(across[i].mul(sign * w / 2))
		}
		return c
	}
	a, b := side(1), side(-1)
	return contour{a, line(a[3], b[3]), {b[3], b[2], b[1], b[0]}, line(b[0], a[0])}
}

// tip returns the dark blossom tip: a small disc on the body's far end.
func tip() contour {
	end, _ := spine(0)
	centre := end.add(spineTangent(0).mul(tipShift))
	return circle(centre, tipRadius)
}

// circle returns a circle as four cubic arcs.
func circle(c point, r float64) contour {
	const k = 0.5522847498307936 // 4/3·(√2 − 1): control distance of a quarter circle
	out := make(contour, 4)
	for i := range 4 {
		a := float64(i) * math.Pi / 2
		u := point{math.Cos(a), math.Sin(a)}
		v := point{-u.y, u.x}
		out[i] = cubic{
			c.add(u.mul(r)), c.add(u.mul(r)).add(v.mul(k * r)),
			c.add(v.mul(r)).add(u.mul(k * r)), c.add(v.mul(r)),
		}
	}
	out[3][3] = out[0][0]
	return out
}

// line returns the straight segment from a to b as a cubic.
func line(a, b point) cubic {
	d := b.sub(a).mul(1.0 / 3)
	return cubic{a, a.add(d), b.sub(d), b}
}

// oriented returns c, or c reversed, so that its shoelace area is positive if solid and
// negative otherwise (a hole).
func oriented(c contour, solid bool) contour {
	if (signedArea(c) > 0) != solid {
		return reverse(c)
	}
	return c
}

// reverse returns c followed the other way round.
func reverse(c contour) contour {
	out := make(contour, len(c))
	for i, s := range c {
		out[len(c)-1-i] = cubic{s[3], s[2], s[1], s[0]}
	}
	return out
}

// signedArea returns the shoelace area of c, flattened finely: positive for one direction of
// travel, negative for the other.
func signedArea(c contour) float64 {
	var area float64
	for _, s := range c {
		prev := s[0]
		for i := 1; i <= 16; i++ {
			p := s.at(float64(i) / 16)
			area += prev.x*p.y - p.x*prev.y
			prev = p
		}
	}
	return area / 2
}

// place tilts the shape by tilt and scales and moves it so that it is centred in
// the unit box with boxMargin free on every side.
func place(s *shape) {
	a := tilt * math.Pi / 180
	c, sn := math.Cos(a), math.Sin(a)
	transform(s, func(p point) point { return p.rot(c, sn) })
	lo := point{math.Inf(1), math.Inf(1)}
	hi := point{math.Inf(-1), math.Inf(-1)}
	for _, layer := range [][]contour{s.yellow, s.ink} {
		for _, ct := range layer {
			for _, seg := range ct {
				for i := range 33 {
					p := seg.at(float64(i) / 32)
					lo = point{math.Min(lo.x, p.x), math.Min(lo.y, p.y)}
					hi = point{math.Max(hi.x, p.x), math.Max(hi.y, p.y)}
				}
			}
		}
	}
	k := (1 - 2*boxMargin) / math.Max(hi.x-lo.x, hi.y-lo.y)
	mid := lo.add(hi).mul(0.5)
	transform(s, func(p point) point {
		return p.sub(mid).mul(k).add(point{0.5, 0.5})
	})
}

// transform applies f to every point of s (f must be affine, so that the Bézier segments
// stay the images of the original ones).
func transform(s *shape, f func(point) point) {
	for _, layer := range [][]contour{s.yellow, s.ink} {
		for _, ct := range layer {
			for i := range ct {
				for j := range ct[i] {
					ct[i][j] = f(ct[i][j])
				}
			}
		}
	}
}
