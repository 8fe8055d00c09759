package render

import (
	"fmt"
	"testing"

	"github.com/bananaqr/bananaqr/qr"
)

// BenchmarkAppendSVG draws the URL of the rendering tests as an SVG in each style at three
// sizes, without encoding it, as BenchmarkAppendPNG draws PNGs; "bytes" is the document's size.
// This file uses only what every version of the renderer has, so that bench/images-time.sh can
// copy it into an older checkout and compare the two builds side by side.
func BenchmarkAppendSVG(b *testing.B) { benchImages(b, AppendSVG) }

// benchImages runs write on the URL of the rendering tests in each style (square, rounded,
// banana, rounded banana) at 256, 1024 and 2048 pixels, without encoding it; "bytes" is the
// file's size.
func benchImages(b *testing.B, write func([]byte, *qr.Symbol, *Options) ([]byte, error)) {
	for _, st := range []struct {
		name    string
		corners Corners
		logo    Logo
	}{
		{"square", Square, NoLogo}, {"rounded", Rounded, NoLogo},
		{"banana", Square, Banana}, {"rounded-banana", Rounded, Banana},
	} {
		s, err := encodeFor(renderTexts[0], qr.Options{Level: qr.M}, st.logo)
		if err != nil {
			b.Fatal(err)
		}
		for _, size := range []int{256, 1024, 2048} {
			o := Defaults()
			o.Size, o.Corners, o.Logo = size, st.corners, st.logo
			b.Run(fmt.Sprintf("%s/%dpx", st.name, size), func(b *testing.B) {
				var buf []byte
				b.ReportAllocs()
				for b.Loop() {
					if buf, err = write(buf[:0], s, &o); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(float64(len(buf)), "bytes")
			})
		}
	}
}
