package glyph

import "testing"

// caption40 is a caption of the longest allowed length, 40 characters, with kerning pairs.
const caption40 = "Scan for the menu: AVATAR, Tokyo, Меню!!"

func BenchmarkShape(b *testing.B) {
	if n := len([]rune(caption40)); n != 40 {
		b.Fatalf("caption has %d characters", n)
	}
	Regular.Shape(caption40) // the kerning cache warm, as in a running service
	b.ReportAllocs()
	for b.Loop() {
		Regular.Shape(caption40)
	}
}

func BenchmarkMissing(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		Regular.Missing(caption40)
	}
}

func BenchmarkAppendSVGPath(b *testing.B) {
	run := Regular.Shape(caption40)
	tr := Transform{X: 12, Y: 300, Scale: 0.024}
	buf := Regular.AppendSVGPath(nil, run, tr)
	b.SetBytes(int64(len(buf)))
	b.ReportAllocs()
	for b.Loop() {
		buf = Regular.AppendSVGPath(buf[:0], run, tr)
	}
}

func BenchmarkMask(b *testing.B) {
	for _, em := range []struct {
		name string
		px   float64
	}{{"em48", 48}, {"em150", 150}} {
		b.Run(em.name, func(b *testing.B) {
			run := Regular.Shape(caption40)
			tr := Transform{X: 10.25, Y: 2 * em.px, Scale: em.px / float64(Regular.Metrics().UnitsPerEm)}
			b.ReportAllocs()
			for b.Loop() {
				Regular.Mask(run, tr)
			}
		})
	}
}

// BenchmarkLoad measures parsing a face and reading all its glyphs, which the first caption
// of a process pays.
func BenchmarkLoad(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		f := &Face{name: Regular.name, ttf: Regular.ttf}
		f.load()
	}
}

func BenchmarkAppendSVGPathFontUnits(b *testing.B) {
	run := Regular.Shape(caption40)
	buf := Regular.AppendSVGPathFontUnits(nil, run)
	b.SetBytes(int64(len(buf)))
	b.ReportAllocs()
	for b.Loop() {
		buf = Regular.AppendSVGPathFontUnits(buf[:0], run)
	}
}
