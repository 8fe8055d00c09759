package bench

import (
	"testing"

	"github.com/bananaqr/bananaqr/qr"
	"github.com/bananaqr/bananaqr/render"
	skip2 "github.com/skip2/go-qrcode"
	rscqr "rsc.io/qr"
)

// pngSizes are the image sizes of the PNG benchmarks, by input.
var pngSizes = map[string]int{"url": 1024, "ascii2000": 2048}

// pngLibrary draws a text as a PNG of about px pixels, from the text (encode included).
type pngLibrary struct {
	name string
	png  func(text string, px int) ([]byte, error)
}

var pngLibraries = []pngLibrary{
	{"bananaqr", func(text string, px int) ([]byte, error) {
		s, err := qr.Encode(text, qr.Options{Level: qr.M})
		if err != nil {
			return nil, err
		}
		o := render.Defaults()
		o.Size = px
		return render.PNG(s, o)
	}},
	// rsc.io/qr writes its own PNG; Scale is whole pixels a module around a 4-module
	// border, chosen as the largest that fits px.
	{"rsc", func(text string, px int) ([]byte, error) {
		c, err := rscqr.Encode(text, rscqr.M)
		if err != nil {
			return nil, err
		}
		c.Scale = px / (c.Size + 8)
		return c.PNG(), nil
	}},
	// skip2 draws an image.Image and writes it with image/png.
	{"skip2", func(text string, px int) ([]byte, error) {
		return skip2.Encode(text, skip2.Medium, px)
	}},
}

var sinkPNG []byte

// BenchmarkPNG encodes and draws each input as a PNG with each library, level M: the URL at
// 1024 pixels, the 2,000-character text at 2048. The png-bytes metric is the file's size.
func BenchmarkPNG(b *testing.B) {
	for _, in := range Inputs {
		px, ok := pngSizes[in.Name]
		if !ok {
			continue
		}
		b.Run(in.Name, func(b *testing.B) {
			for _, lib := range pngLibraries {
				b.Run(lib.name, func(b *testing.B) {
					b.ReportAllocs()
					for b.Loop() {
						data, err := lib.png(in.Text, px)
						if err != nil {
							b.Fatal(err)
						}
						sinkPNG = data
					}
					b.ReportMetric(float64(len(sinkPNG)), "png-bytes")
				})
			}
		})
	}
}

// styles are bananaqr's looks, each drawn with the level the service uses for it.
var styles = []struct {
	name    string
	corners render.Corners
	logo    render.Logo
}{
	{"square", render.Square, render.NoLogo},
	{"rounded", render.Rounded, render.NoLogo},
	{"banana", render.Square, render.Banana},
	{"rounded-banana", render.Rounded, render.Banana},
}

// BenchmarkStyle encodes and draws the URL at 1024 pixels in each style, as PNG and SVG, at
// level M; with a logo, the encoder spares its pad (qr.Options.Cover), as the service does.
func BenchmarkStyle(b *testing.B) {
	for _, format := range []string{"png", "svg"} {
		b.Run(format, func(b *testing.B) {
			for _, st := range styles {
				b.Run(st.name, func(b *testing.B) {
					encoding := qr.Options{Level: qr.M}
					if st.logo == render.Banana {
						encoding.Cover = render.LogoPad
					}
					o := render.Defaults()
					o.Corners, o.Logo = st.corners, st.logo
					draw := render.PNG
					if format == "svg" {
						draw = render.SVG
					}
					b.ReportAllocs()
					for b.Loop() {
						s, err := qr.Encode(URL, encoding)
						if err != nil {
							b.Fatal(err)
						}
						if sinkPNG, err = draw(s, o); err != nil {
							b.Fatal(err)
						}
					}
					b.ReportMetric(float64(len(sinkPNG)), format+"-bytes")
				})
			}
		})
	}
}

// BenchmarkSVGOnly draws the URL's symbol as SVG, without encoding it.
func BenchmarkSVGOnly(b *testing.B) {
	s, err := qr.Encode(URL, qr.Options{Level: qr.M})
	if err != nil {
		b.Fatal(err)
	}
	o := render.Defaults()
	b.ReportAllocs()
	for b.Loop() {
		if sinkPNG, err = render.SVG(s, o); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(len(sinkPNG)), "svg-bytes")
}
