package render

import (
	"fmt"
	"testing"

	"github.com/bananaqr/bananaqr/qr"
)

// BenchmarkAppendPNG draws the URL of the rendering tests with the real rasteriser, in each
// style (square, rounded, banana, rounded banana) at three sizes, without encoding it; "bytes"
// is the file's size. Square modules make 1-bit images, the other styles 8-bit ones.
func BenchmarkAppendPNG(b *testing.B) { benchImages(b, AppendPNG) }

// BenchmarkAppendPNGWords draws the URL of the rendering tests at 1024 pixels, square and
// rounded, without words ("none"), with a caption below ("caption") and with the link's
// destination too ("caption+destination"): the words' pieces come from wordsRasterCache after
// the first image. "cold" changes the caption every image, so that its pieces are made afresh
// each time (the glyphs' masks stay cached in package glyph). The names are benchstat's keys:
// benchstat -col /words compares the words with none.
func BenchmarkAppendPNGWords(b *testing.B) {
	s, err := encodeFor(renderTexts[0], qr.Options{Level: qr.M}, NoLogo)
	if err != nil {
		b.Fatal(err)
	}
	for _, corners := range []Corners{Square, Rounded} {
		for _, words := range []string{"none", "caption", "caption+destination", "cold"} {
			o := Defaults()
			o.Corners = corners
			if words != "none" {
				o.Caption = "Scan for the menu"
			}
			if words == "caption+destination" || words == "cold" {
				o.DestinationHost, o.DestinationPath = "example.com", "/products/12345"
			}
			name := map[Corners]string{Square: "square", Rounded: "rounded"}[corners]
			b.Run(fmt.Sprintf("corners=%s/words=%s/size=1024px", name, words), func(b *testing.B) {
				var buf []byte
				b.ReportAllocs()
				i := 0
				for b.Loop() {
					if words == "cold" {
						i++
						o.Caption = fmt.Sprintf("Scan for the menu %d", i)
					}
					if buf, err = AppendPNG(buf[:0], s, &o); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(float64(len(buf)), "bytes")
			})
		}
	}
}
