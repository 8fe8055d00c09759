package glyph

import (
	"encoding/binary"
	"image"
	"image/draw"
	"math"
	"sync"

	"golang.org/x/image/vector"
)

// subpixels is how finely Mask places glyphs: at a quarter of a pixel, in x and in y. A glyph
// is rasterised once per scale and quarter-pixel position, then copied.
const subpixels = 4

// maxMaskBytes bounds a face's cache of glyph masks; past it, the cache starts afresh.
const maxMaskBytes = 4 << 20

// Mask fills the outlines of run, placed by t in a target whose y grows downwards (t.YUp is
// ignored), into an 8-bit coverage mask: each pixel's alpha is the share of its area the ink
// covers (golang.org/x/image/vector's exact-area scanline rasteriser, non-zero winding), each
// glyph placed to the nearest quarter pixel. The mask's Rect is in the target's pixel
// coordinates, just large enough for the ink, so it is drawn with
// draw.DrawMask(dst, mask.Rect, src, sp, mask, mask.Rect.Min, draw.Over). A run without ink
// gives an empty mask.
//
// Each glyph is rasterised once per scale and quarter-pixel position and cached; the run's mask
// is the sum of its glyphs' (saturating at full coverage where glyphs overlap). The result
// depends on run and t only, not on what the cache holds.
func (f *Face) Mask(run Run, t Transform) *image.Alpha {
	f.load()
	y0, phaseY := snap(t.Y)
	keys := make([]maskKey, 0, len(run.Glyphs))
	at := make([]image.Point, 0, len(run.Glyphs))
	for _, g := range run.Glyphs {
		if f.glyphs[g.ID].bounds.Empty() {
			continue
		}
		x0, phaseX := snap(t.X + t.Scale*float64(g.X))
		keys = append(keys, maskKey{t.Scale, g.ID, phaseX, phaseY})
		at = append(at, image.Point{x0, y0})
	}
	masks := f.masks.get(f, keys)
	var r image.Rectangle
	for i, m := range masks {
		r = r.Union(m.Rect.Add(at[i]))
	}
	out := image.NewAlpha(r)
	for i, m := range masks {
		addMask(out, m, at[i])
	}
	return out
}

// snap splits a position in pixels into whole pixels and quarters: v ≈ whole + quarter/4.
func snap(v float64) (whole int, quarter uint8) {
	q := int(math.Round(v * subpixels))
	whole = q >> 2 // floor division by subpixels (4)
	return whole, uint8(q - whole*subpixels)
}

// addMask adds glyph mask m, its origin at pixel at, into out, saturating at 255.
func addMask(out, m *image.Alpha, at image.Point) {
	r := m.Rect.Add(at)
	for y := r.Min.Y; y < r.Max.Y; y++ {
		src := m.Pix[m.PixOffset(m.Rect.Min.X, y-at.Y):][:r.Dx()]
		dst := out.Pix[out.PixOffset(r.Min.X, y):][:len(src)]
		for len(src) >= 8 {
			sum := addSaturating(binary.LittleEndian.Uint64(dst), binary.LittleEndian.Uint64(src))
			binary.LittleEndian.PutUint64(dst, sum)
			src, dst = src[8:], dst[8:]
		}
		for i, a := range src {
			dst[i] = uint8(min(uint(dst[i])+uint(a), 255))
		}
	}
}

// addSaturating adds the eight bytes of a and b lane by lane, each sum capped at 255: the low
// seven bits of each lane are added without crossing lanes, the top bit and the carry out of
// it worked out apart (a lane overflows when both top bits are set, or one is and the carry
// into it is).
func addSaturating(a, b uint64) uint64 {
	const low7, top = 0x7F7F7F7F7F7F7F7F, 0x8080808080808080
	t := a&low7 + b&low7
	sum := t ^ (a^b)&top
	overflow := (a&b | t&(a^b)) & top
	return sum | (overflow>>7)*0xFF
}

// A maskKey names one glyph's mask: its scale and its origin's quarter-pixel position.
type maskKey struct {
	scale          float64
	id             ID
	phaseX, phaseY uint8
}

// maskCache holds glyph masks by maskKey, up to maxMaskBytes.
type maskCache struct {
	mu    sync.RWMutex
	masks map[maskKey]*image.Alpha
	bytes int
}

// get returns the masks of keys, rasterising those not in the cache.
func (c *maskCache) get(f *Face, keys []maskKey) []*image.Alpha {
	out := make([]*image.Alpha, len(keys))
	missing := false
	c.mu.RLock()
	for i, k := range keys {
		out[i] = c.masks[k]
		missing = missing || out[i] == nil
	}
	c.mu.RUnlock()
	if !missing {
		return out
	}
	fresh := make(map[maskKey]*image.Alpha)
	for i, k := range keys {
		if out[i] == nil {
			if out[i] = fresh[k]; out[i] == nil {
				out[i] = f.rasterise(k)
				fresh[k] = out[i]
			}
		}
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	for k, m := range fresh {
		if c.bytes+len(m.Pix) > maxMaskBytes || c.masks == nil {
			c.masks, c.bytes = make(map[maskKey]*image.Alpha), 0
		}
		c.masks[k] = m
		c.bytes += len(m.Pix)
	}
	return out
}

// rasterise draws glyph k.id at scale k.scale, its origin at (k.phaseX, k.phaseY) quarters of
// a pixel from pixel (0, 0), into a mask just large enough for its ink.
func (f *Face) rasterise(k maskKey) *image.Alpha {
	t := Transform{X: float64(k.phaseX) / subpixels, Y: float64(k.phaseY) / subpixels, Scale: k.scale}
	ink := f.glyphs[k.id].bounds
	r := image.Rect( // the ink box in pixels, rounded outwards: font y up becomes pixel y down
		int(math.Floor(t.X+t.Scale*float64(ink.MinX))), int(math.Floor(t.Y-t.Scale*float64(ink.MaxY))),
		int(math.Ceil(t.X+t.Scale*float64(ink.MaxX))), int(math.Ceil(t.Y-t.Scale*float64(ink.MinY))),
	)
	mask := image.NewAlpha(image.Rect(0, 0, r.Dx(), r.Dy()))
	z := rasterizers.Get().(*vector.Rasterizer)
	defer rasterizers.Put(z)
	z.Reset(r.Dx(), r.Dy())
	t.X -= float64(r.Min.X) // the rasteriser's pixels start at the mask's corner
	t.Y -= float64(r.Min.Y)
	f.Walk(Run{Glyphs: []Placed{{ID: k.id}}}, t, rasterPen{z})
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
