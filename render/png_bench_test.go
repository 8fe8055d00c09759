package render

import (
	"fmt"
	"testing"

	"github.com/bananaqr/bananaqr/qr"
)

// BenchmarkAppendPNG draws the URL of the rendering tests with the real rasteriser, in each
// style (square, rounded, banana, rounded banana) at three sizes, without encoding it; "bytes"
// is the file's size. Square modules make 1-bit images, the other styles 8-bit ones.
func BenchmarkAppendPNG(b *testing.B) {
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
					if buf, err = AppendPNG(buf[:0], s, &o); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(float64(len(buf)), "bytes")
			})
		}
	}
}
