package render

import (
	"image/color"
	"math"
	"sync"
)

// The banana mark: the service's own logo, drawn in the centre of a code when logo=banana.
//
// Its geometry is built once, in a unit box (x to the right, y down, the box [0,1]×[0,1]), as
// closed contours of cubic Bézier segments in two layers painted in order: the yellow body,
// then the dark ink on top of it (the outline ring, the stem, the blossom tip and a ridge line
// along the body). bananaSVG prints those contours as two SVG paths; bananaRaster fills the very
// same contours with its own scanline rasteriser (non-zero winding, as SVG fills), so both forms
// show the same drawing.
//
// The body is a bananaBand: an ellipse bent along an arc of a circle (the spine), fuller on the
// convex side, slimmer towards the stem and with pointed ends. The outline is the body offset
// outwards, so it never folds over itself, and the ink ring is that offset contour with the
// body cut out. The analytic curves are turned into Bézier segments by Hermite interpolation,
// halving segments until they follow the curve to bananaFitTolerance.

// Colours of the mark (fixed; the pad behind it takes the code's background colour).
var (
	bananaYellow = color.RGBA{0xFF, 0xD2, 0x3F, 255} // a ripe banana yellow
	bananaInk    = color.RGBA{0x3B, 0x2A, 0x14, 255} // a dark brown outline
)

// Banana levels: the pixel values of bananaRaster. Each stands for a mix of the background,
// the yellow and the ink; bananaLevelColor gives its colour on a given background.
const (
	markNone            = iota // background (the pad colour shows)
	markYellow                 // full yellow
	markInk                    // full outline colour
	markInkOverBg25            // ink blended over background at 25 %
	markInkOverBg50            // ink blended over background at 50 %
	markInkOverBg75            // ink blended over background at 75 %
	markInkOverYellow25        // ink blended over yellow at 25 %
	markInkOverYellow50        // ink blended over yellow at 50 %
	markInkOverYellow75        // ink blended over yellow at 75 %
	markYellowOverBg25         // yellow blended over background at 25 %
	markYellowOverBg50         // yellow blended over background at 50 %
	markYellowOverBg75         // yellow blended over background at 75 %

	bananaLevels // how many levels there are
)

// bananaMix holds, for each banana level, the shares of background, yellow and ink it stands
// for; each row sums to 1.
var bananaMix = [bananaLevels][3]float64{
	markNone:            {1, 0, 0},
	markYellow:          {0, 1, 0},
	markInk:             {0, 0, 1},
	markInkOverBg25:     {0.75, 0, 0.25},
	markInkOverBg50:     {0.5, 0, 0.5},
	markInkOverBg75:     {0.25, 0, 0.75},
	markInkOverYellow25: {0, 0.75, 0.25},
	markInkOverYellow50: {0, 0.5, 0.5},
	markInkOverYellow75: {0, 0.25, 0.75},
	markYellowOverBg25:  {0.75, 0.25, 0},
	markYellowOverBg50:  {0.5, 0.5, 0},
	markYellowOverBg75:  {0.25, 0.75, 0},
}

// bananaLevelColor returns the colour that level stands for on the background bg: the linear
// blend of bg, bananaYellow and bananaInk in the level's proportions, channel by channel in
// sRGB values, alpha included. Callers pass opaque backgrounds, so the results are opaque too:
// Options asks for opaque colours, and the PNG palette has no tRNS chunk to carry alpha.
// Unknown levels give bg.
func bananaLevelColor(level uint8, bg color.RGBA) color.RGBA {
	if int(level) >= bananaLevels {
		return bg
	}
	m := bananaMix[level]
	mix := func(b, y, i uint8) uint8 {
		return uint8(math.Round(m[0]*float64(b) + m[1]*float64(y) + m[2]*float64(i)))
	}
	y, i := bananaYellow, bananaInk
	return color.RGBA{mix(bg.R, y.R, i.R), mix(bg.G, y.G, i.G), mix(bg.B, y.B, i.B), mix(bg.A, y.A, i.A)}
}

// Design parameters, in the local units of the drawing before it is tilted and fitted into
// the unit box (only proportions matter).
const (
	bananaArcRadius    = 0.5   // radius of the circle the spine follows
	bananaArcFrom      = 163.0 // spine angle at the blossom end (t = 0), degrees, y down
	bananaArcTo        = 23.0  // spine angle at the stem end (t = 1)
	bananaOutline      = 0.048 // thickness of the ink outline
	bananaStemInset    = 0.04  // how far the stem reaches back into the body, along the spine
	bananaStemLength   = 0.13  // how far the stem sticks out beyond the body's end
	bananaStemBase     = 0.1   // width of the stem where it leaves the body
	bananaStemTip      = 0.07  // width of the stem at its cut end
	bananaStemBend     = 0.025 // sideways bend of the stem towards the concave side
	bananaTipRadius    = 0.036 // radius of the dark blossom tip
	bananaTipShift     = -0.04 // where the tip's centre lies, along the spine inwards from the body's end
	bananaTilt         = -25.0 // rotation of the whole drawing, degrees (negative lifts the stem)
	bananaBoxMargin    = 0.07  // inner margin of the unit box left free on every side
	bananaBandPieces   = 8     // Bézier segments per side of a band's contours
	bananaDerivativeH  = 1e-6  // step of the numerical derivatives (segment fits, offset normals)
	bananaFitTolerance = 2e-4  // how far a fitted Bézier segment may stray from its curve
	bananaFitDepth     = 10    // how often a fitted segment may be halved
)

// bananaBand is a bent lens laid along the spine: like an ellipse whose long axis follows the
// spine from t = from to t = to. Its contour is smooth, and rounded or pointed at the ends.
type bananaBand struct {
	from, to             float64 // the stretch of the spine it covers
	half                 float64 // half width at its thickest, before the taper
	taper                float64 // share of half width and shift lost from t = 0 to t = 1
	shift                float64 // offset of its middle line towards the convex side
	pointyFrom, pointyTo float64 // shape of each end: 1 round like an ellipse's, less pointed
	outer, inner         float64 // factors on the half width on the convex and the concave side
}

// The bands of the mark: the yellow body, and the ink ridge along its concave side.
var (
	bananaBody = bananaBand{from: 0, to: 1, half: 0.17, taper: 0.35, shift: 0,
		pointyFrom: 0.3, pointyTo: 0.3, outer: 1.05, inner: 0.95}
	bananaRidge = bananaBand{from: 0.12, to: 0.78, half: 0.013, taper: 0.35, shift: -0.07,
		pointyFrom: 0.5, pointyTo: 0.5, outer: 1, inner: 1}
)

// bananaPt is a point or a vector of the drawing.
type bananaPt struct{ x, y float64 }

// add returns p + q.
func (p bananaPt) add(q bananaPt) bananaPt { return bananaPt{p.x + q.x, p.y + q.y} }

// sub returns p − q.
func (p bananaPt) sub(q bananaPt) bananaPt { return bananaPt{p.x - q.x, p.y - q.y} }

// mul returns p scaled by k.
func (p bananaPt) mul(k float64) bananaPt { return bananaPt{p.x * k, p.y * k} }

// unit returns p scaled to length 1 (p must not be zero).
func (p bananaPt) unit() bananaPt { return p.mul(1 / math.Hypot(p.x, p.y)) }

// rot returns p rotated by the angle whose cosine and sine are c and s.
func (p bananaPt) rot(c, s float64) bananaPt { return bananaPt{c*p.x - s*p.y, s*p.x + c*p.y} }

// bananaCubic is a cubic Bézier segment: start, two control points, end.
type bananaCubic [4]bananaPt

// at returns the point of c at parameter t in [0, 1].
func (c bananaCubic) at(t float64) bananaPt {
	u := 1 - t
	a, b, d, e := u*u*u, 3*u*u*t, 3*u*t*t, t*t*t
	return bananaPt{
		a*c[0].x + b*c[1].x + d*c[2].x + e*c[3].x,
		a*c[0].y + b*c[1].y + d*c[2].y + e*c[3].y,
	}
}

// bananaContour is a closed contour: each segment starts where the previous one ends, and the
// last ends where the first starts.
type bananaContour []bananaCubic

// bananaShape is the whole mark: the yellow layer, painted first, and the ink layer on top.
// Solid contours run one way (positive shoelace area) and holes the other, filled non-zero.
type bananaShape struct {
	yellow, ink []bananaContour
}

// bananaGeometry returns the mark's geometry in the unit box, built on first use.
var bananaGeometry = sync.OnceValue(buildBanana)

// buildBanana designs the mark: body, outline, stem, tip and ridge, then tilts it and fits it into
// the unit box with bananaBoxMargin free on every side.
func buildBanana() bananaShape {
	shape := bananaShape{
		yellow: []bananaContour{bananaFit(bananaBody.offset(bananaOutline / 2))},
		ink: []bananaContour{
			bananaFit(bananaBody.offset(bananaOutline)),
			bananaFit(bananaBody.at), // the hole; reversed below
			bananaStem(), bananaTip(), bananaFit(bananaRidge.at),
		},
	}
	for i, c := range shape.ink {
		shape.ink[i] = bananaOriented(c, i != 1) // solids positive, the hole negative
	}
	shape.yellow[0] = bananaOriented(shape.yellow[0], true)
	bananaPlace(&shape)
	return shape
}

// bananaSpine returns the point of the spine at t in [0, 1] (blossom end to stem end) and the
// unit normal there that points to the convex side.
func bananaSpine(t float64) (p, n bananaPt) {
	a := (bananaArcFrom + (bananaArcTo-bananaArcFrom)*t) * math.Pi / 180
	n = bananaPt{math.Cos(a), math.Sin(a)}
	return n.mul(bananaArcRadius), n
}

// bananaSpineTangent returns the unit tangent of the spine at t, pointing towards the stem.
func bananaSpineTangent(t float64) bananaPt {
	_, n := bananaSpine(t)
	// The angle decreases along the spine, so the tangent is the normal turned back by 90°.
	return bananaPt{n.y, -n.x}
}

// at returns the point of the band's contour at angle th in [0, 2π]: th = 0 is the end at
// t = from, th = π the end at t = to, and sin th > 0 is the convex side.
func (b bananaBand) at(th float64) bananaPt {
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
	p, n := bananaSpine(t)
	return p.add(n.mul(w + b.shift*k))
}

// offset returns the band's contour moved outwards by d along its normal, as a function of th.
func (b bananaBand) offset(d float64) func(float64) bananaPt {
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
	return func(th float64) bananaPt {
		const h = bananaDerivativeH
		tan := b.at(th + h).sub(b.at(th - h))
		out := bananaPt{tan.y, -tan.x}.unit().mul(orient)
		return b.at(th).add(out.mul(d))
	}
}

// bananaFit approximates the closed curve f(th), th in [0, 2π], by cubic Hermite segments
// (matching the curve's points and one-sided derivatives at their ends): first
// 2·bananaBandPieces of them, with joints at th = 0 and th = π where a band's bulge changes,
// each split in halves until it strays less than bananaFitTolerance from the curve.
func bananaFit(f func(float64) bananaPt) bananaContour {
	const n = 2 * bananaBandPieces
	var c bananaContour
	for i := range n {
		c = bananaFitPiece(c, f, 2*math.Pi*float64(i)/n, 2*math.Pi*float64(i+1)/n, 0)
	}
	c[len(c)-1][3] = c[0][0] // close exactly
	return c
}

// bananaFitPiece appends to c the Hermite segments for f on [a, b], halving [a, b] as often as
// needed (at most bananaFitDepth times).
func bananaFitPiece(c bananaContour, f func(float64) bananaPt, a, b float64, depth int) bananaContour {
	seg := bananaHermite(f, a, b)
	bad := false
	for _, u := range []float64{0.25, 0.5, 0.75} {
		p, q := seg.at(u), f(a+(b-a)*u)
		bad = bad || math.Hypot(p.x-q.x, p.y-q.y) > bananaFitTolerance
	}
	if !bad || depth == bananaFitDepth {
		return append(c, seg)
	}
	m := (a + b) / 2
	c = bananaFitPiece(c, f, a, m, depth+1)
	return bananaFitPiece(c, f, m, b, depth+1)
}

// bananaHermite returns the cubic with the points and derivatives of f at a and b (derivatives
// by second-order one-sided differences that stay inside [a, b]).
func bananaHermite(f func(float64) bananaPt, a, b float64) bananaCubic {
	const h = bananaDerivativeH
	fa, fb := f(a), f(b)
	da := fa.mul(-3).add(f(a + h).mul(4)).sub(f(a + 2*h)).mul(1 / (2 * h))
	db := fb.mul(3).sub(f(b - h).mul(4)).add(f(b - 2*h)).mul(1 / (2 * h))
	k := (b - a) / 3
	return bananaCubic{fa, fa.add(da.mul(k)), fb.sub(db.mul(k)), fb}
}

// bananaStem returns the stem: a tapering band that starts inside the body near the stem end,
// sticks out along the spine while bending a little to the concave side, and is cut square.
func bananaStem() bananaContour {
	end, n := bananaSpine(1)
	tan := bananaSpineTangent(1)
	l := bananaStemInset + bananaStemLength
	base := end.sub(tan.mul(bananaStemInset))
	tip := end.add(tan.mul(bananaStemLength)).sub(n.mul(bananaStemBend))
	middle := [4]bananaPt{base, base.add(tan.mul(l / 3)), base.add(tan.mul(2 * l / 3)), tip} // a cubic
	d := tip.sub(middle[2]).unit()
	across := [4]bananaPt{n, n, n, {-d.y, d.x}} // the cut is square to the stem's last direction
	if across[3].x*n.x+across[3].y*n.y < 0 {
		across[3] = across[3].mul(-1)
	}
	side := func(sign float64) bananaCubic {
		var c bananaCubic
		for i, p := range middle {
			w := bananaStemBase + (bananaStemTip-bananaStemBase)*float64(i)/3
			c[i] = p.add(across[i].mul(sign * w / 2))
		}
		return c
	}
	a, b := side(1), side(-1)
	return bananaContour{a, bananaLine(a[3], b[3]), {b[3], b[2], b[1], b[0]}, bananaLine(b[0], a[0])}
}

// bananaTip returns the dark blossom tip: a small disc on the body's far end.
func bananaTip() bananaContour {
	end, _ := bananaSpine(0)
	centre := end.add(bananaSpineTangent(0).mul(bananaTipShift))
	return bananaCircle(centre, bananaTipRadius)
}

// bananaCircle returns a circle as four cubic arcs.
func bananaCircle(c bananaPt, r float64) bananaContour {
	const k = 0.5522847498307936 // 4/3·(√2 − 1): control distance of a quarter circle
	out := make(bananaContour, 4)
	for i := range 4 {
		a := float64(i) * math.Pi / 2
		u := bananaPt{math.Cos(a), math.Sin(a)}
		v := bananaPt{-u.y, u.x}
		out[i] = bananaCubic{
			c.add(u.mul(r)), c.add(u.mul(r)).add(v.mul(k * r)),
			c.add(v.mul(r)).add(u.mul(k * r)), c.add(v.mul(r)),
		}
	}
	out[3][3] = out[0][0]
	return out
}

// bananaLine returns the straight segment from a to b as a cubic.
func bananaLine(a, b bananaPt) bananaCubic {
	d := b.sub(a).mul(1.0 / 3)
	return bananaCubic{a, a.add(d), b.sub(d), b}
}

// bananaOriented returns c, or c reversed, so that its shoelace area is positive if solid and
// negative otherwise (a hole).
func bananaOriented(c bananaContour, solid bool) bananaContour {
	if (bananaArea(c) > 0) != solid {
		return bananaReverse(c)
	}
	return c
}

// bananaReverse returns c followed the other way round.
func bananaReverse(c bananaContour) bananaContour {
	out := make(bananaContour, len(c))
	for i, s := range c {
		out[len(c)-1-i] = bananaCubic{s[3], s[2], s[1], s[0]}
	}
	return out
}

// bananaArea returns the shoelace area of c, flattened finely: positive for one direction of
// travel, negative for the other.
func bananaArea(c bananaContour) float64 {
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

// bananaPlace tilts the shape by bananaTilt and scales and moves it so that it is centred in
// the unit box with bananaBoxMargin free on every side.
func bananaPlace(s *bananaShape) {
	a := bananaTilt * math.Pi / 180
	c, sn := math.Cos(a), math.Sin(a)
	bananaTransform(s, func(p bananaPt) bananaPt { return p.rot(c, sn) })
	lo := bananaPt{math.Inf(1), math.Inf(1)}
	hi := bananaPt{math.Inf(-1), math.Inf(-1)}
	for _, layer := range [][]bananaContour{s.yellow, s.ink} {
		for _, ct := range layer {
			for _, seg := range ct {
				for i := range 33 {
					p := seg.at(float64(i) / 32)
					lo = bananaPt{math.Min(lo.x, p.x), math.Min(lo.y, p.y)}
					hi = bananaPt{math.Max(hi.x, p.x), math.Max(hi.y, p.y)}
				}
			}
		}
	}
	k := (1 - 2*bananaBoxMargin) / math.Max(hi.x-lo.x, hi.y-lo.y)
	mid := lo.add(hi).mul(0.5)
	bananaTransform(s, func(p bananaPt) bananaPt {
		return p.sub(mid).mul(k).add(bananaPt{0.5, 0.5})
	})
}

// bananaTransform applies f to every point of s (f must be affine, so that the Bézier segments
// stay the images of the original ones).
func bananaTransform(s *bananaShape, f func(bananaPt) bananaPt) {
	for _, layer := range [][]bananaContour{s.yellow, s.ink} {
		for _, ct := range layer {
			for i := range ct {
				for j := range ct[i] {
					ct[i][j] = f(ct[i][j])
				}
			}
		}
	}
}
