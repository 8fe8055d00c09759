package glyph

import (
	"bytes"
	"image"
	"math"
	"testing"
)

// TestMaskBounds checks that a mask's ink lies in the box of the outlines at the mask's scale,
// reaching each side of it to within a pixel, and that it is drawn solid inside the strokes.
func TestMaskBounds(t *testing.T) {
	for _, f := range faces {
		for _, scale := range []float64{0.048, 0.15, 1.0 / 3} {
			run := f.Shape("Scan for the menu: Меню, Μενού")
			tr := Transform{X: 7.3, Y: 100.6, Scale: scale}
			mask := f.Mask(run, tr)
			ink := inkBox(mask)
			b := f.InkBounds(run)
			want := [4]float64{tr.X + scale*float64(b.MinX), tr.Y - scale*float64(b.MaxY),
				tr.X + scale*float64(b.MaxX), tr.Y - scale*float64(b.MinY)}
			got := [4]float64{float64(ink.Min.X), float64(ink.Min.Y), float64(ink.Max.X), float64(ink.Max.Y)}
			for i := range got {
				if math.Abs(got[i]-want[i]) > 1 {
					t.Errorf("%s at %v: mask ink %v, outline box %v", f, scale, ink, want)
					break
				}
			}
			if n := countAlpha(mask, 255); n < ink.Dx()*ink.Dy()/20 {
				t.Errorf("%s at %v: only %d solid pixels in %v", f, scale, n, ink)
			}
		}
		if m := f.Mask(f.Shape("  "), Transform{Scale: 1}); !m.Rect.Empty() {
			t.Errorf("%s: Mask of spaces = %v, want empty", f, m.Rect)
		}
	}
}

// inkBox returns the box of m's pixels with any coverage.
func inkBox(m *image.Alpha) image.Rectangle {
	var box image.Rectangle
	for y := m.Rect.Min.Y; y < m.Rect.Max.Y; y++ {
		for x := m.Rect.Min.X; x < m.Rect.Max.X; x++ {
			if m.AlphaAt(x, y).A > 0 {
				box = box.Union(image.Rect(x, y, x+1, y+1))
			}
		}
	}
	return box
}

func countAlpha(m *image.Alpha, a uint8) int {
	return bytes.Count(m.Pix, []byte{a})
}

// TestAddSaturating checks the eight-lane saturating addition against the byte-wise one.
func TestAddSaturating(t *testing.T) {
	values := []uint8{0, 1, 2, 63, 64, 127, 128, 129, 200, 254, 255}
	for _, x := range values {
		for _, y := range values {
			a := uint64(x) * 0x0101010101010101
			b := uint64(y)<<56 | uint64(y)<<8 | uint64(x)
			got := addSaturating(a, b)
			for lane := range 8 {
				ai, bi := uint(a>>(8*lane)&0xFF), uint(b>>(8*lane)&0xFF)
				if g := uint(got >> (8 * lane) & 0xFF); g != min(ai+bi, 255) {
					t.Fatalf("addSaturating(%#x, %#x) lane %d = %d, want %d", a, b, lane, g, min(ai+bi, 255))
				}
			}
		}
	}
}

// TestMaskCache checks that the glyph mask cache stays within its bound over many scales, and
// that a mask does not depend on what the cache held before.
func TestMaskCache(t *testing.T) {
	warm := &Face{name: Regular.name, ttf: Regular.ttf}
	run := warm.Shape("Scan for the menu")
	for i := range 300 {
		warm.Mask(run, Transform{X: 1.1 * float64(i), Y: 90, Scale: 0.04 + float64(i)/2000})
		if warm.masks.bytes > maxMaskBytes {
			t.Fatalf("after %d masks the cache holds %d bytes, more than %d", i+1, warm.masks.bytes, maxMaskBytes)
		}
	}
	tr := Transform{X: 5.6, Y: 70.3, Scale: 0.061}
	cold := &Face{name: Regular.name, ttf: Regular.ttf}
	if got, want := warm.Mask(run, tr), cold.Mask(run, tr); got.Rect != want.Rect || !bytes.Equal(got.Pix, want.Pix) {
		t.Errorf("the mask from a warm cache differs from a cold one's")
	}
}
