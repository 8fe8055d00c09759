package glyph

import (
	"image"
	"image/draw"
	"math"
	"sync"

	"golang.org/x/image/vector"
)

// Mask fills the outlines of run, placed by t in a target whose y grows downwards (t.YUp is
// ignored), into an 8-bit coverage mask: each pixel's alpha is the share of its area the ink
// covers (golang.org/x/image/vector's exact-area scanline rasteriser, non-zero winding). The
// mask's Rect is in the target's pixel coordinates, just large enough for the ink, so it is drawn
// with draw.DrawMask(dst, mask.Rect, src, sp, mask, mask.Rect.Min, draw.Over). A run without ink
// gives an empty mask. The result depends on run and t only.
func (f *Face) Mask(run Run, t Transform) *image.Alpha {
	t.YUp = false
	ink := f.InkBounds(run)
	if ink.Empty() {
		return image.NewAlpha(image.Rectangle{})
	}
	// The ink box in pixels, rounded outwards: font y up becomes pixel y down.
	r := image.Rect(
		int(math.Floor(t.X+t.Scale*float64(ink.MinX))), int(math.Floor(t.Y-t.Scale*float64(ink.MaxY))),
		int(math.Ceil(t.X+t.Scale*float64(ink.MaxX))), int(math.Ceil(t.Y-t.Scale*float64(ink.MinY))),
	)
	mask := image.NewAlpha(image.Rect(0, 0, r.Dx(), r.Dy()))
	z := rasterizers.Get().(*vector.Rasterizer)
	defer rasterizers.Put(z)
	z.Reset(r.Dx(), r.Dy())
	t.X -= float64(r.Min.X) // the rasteriser's pixels start at the mask's corner
	t.Y -= float64(r.Min.Y)
	f.Walk(run, t, rasterPen{z})
	z.DrawOp = draw.Src
	z.Draw(mask, mask.Rect, image.Opaque, image.Point{}) // zero-based: the rasteriser's fast path
	mask.Rect = r
	return mask
}

// rasterizers are reused between masks: a Rasterizer keeps its buffers across Reset.
var rasterizers = sync.Pool{New: func() any { return vector.NewRasterizer(0, 0) }}

// rasterPen hands a Walk's segments to a vector.Rasterizer.
type rasterPen struct{ z *vector.Rasterizer }

func (p rasterPen) MoveTo(x, y float64) { p.z.MoveTo(float32(x), float32(y)) }
func (p rasterPen) LineTo(x, y float64) { p.z.LineTo(float32(x), float32(y)) }
func (p rasterPen) QuadTo(cx, cy, x, y float64) {
	p.z.QuadTo(float32(cx), float32(cy), float32(x), float32(y))
}
func (p rasterPen) Close() { p.z.ClosePath() }
