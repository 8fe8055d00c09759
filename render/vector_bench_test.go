package render

import (
	"testing"

	"github.com/bananaqr/bananaqr/qr"
)

// BenchmarkVector draws the URL of the rendering tests at 1024 pixels in each style with each
// vector writer: SVG, PDF and EPS; "bytes" is the file's size.
func BenchmarkVector(b *testing.B) {
	writers := []struct {
		name  string
		write func([]byte, *qr.Symbol, *Options) ([]byte, error)
	}{{"svg", AppendSVG}, {"pdf", AppendPDF}, {"eps", AppendEPS}}
	for _, w := range writers {
		for _, st := range []struct {
			name    string
			corners Corners
			logo    Logo
		}{{"square", Square, NoLogo}, {"rounded", Rounded, NoLogo}, {"banana", Square, Banana}} {
			s, err := encodeFor(renderTexts[0], qr.Options{Level: qr.M}, st.logo)
			if err != nil {
				b.Fatal(err)
			}
			o := Defaults()
			o.Corners, o.Logo = st.corners, st.logo
			b.Run(w.name+"/"+st.name, func(b *testing.B) { benchVector(b, w.write, s, &o) })
		}
	}
}

// BenchmarkWordsVector draws the URL of the rendering tests at 1024 pixels, square, with each
// vector writer, plain and with words: a caption of 17 characters, a caption of 40, and a
// caption with the destination; the target is a captioned SVG within 2× of a plain one.
func BenchmarkWordsVector(b *testing.B) {
	s, err := qr.Encode(renderTexts[0], qr.Options{Level: qr.M})
	if err != nil {
		b.Fatal(err)
	}
	for _, w := range []struct {
		name  string
		write func([]byte, *qr.Symbol, *Options) ([]byte, error)
	}{{"svg", AppendSVG}, {"pdf", AppendPDF}} {
		for _, words := range []struct{ name, caption, host, path string }{
			{"plain", "", "", ""},
			{"caption", "Scan for the menu", "", ""},
			{"caption40", "Scannez pour voir la carte du restaurant", "", ""},
			{"destination", "Scan for the menu", "example.com", "/menu"},
		} {
			o := Defaults()
			o.Caption, o.DestinationHost, o.DestinationPath = words.caption, words.host, words.path
			b.Run(w.name+"/"+words.name, func(b *testing.B) { benchVector(b, w.write, s, &o) })
		}
	}
}

// benchVector times write drawing s with o; "bytes" is the file's size.
func benchVector(b *testing.B, write func([]byte, *qr.Symbol, *Options) ([]byte, error), s *qr.Symbol, o *Options) {
	var buf []byte
	var err error
	b.ReportAllocs()
	for b.Loop() {
		if buf, err = write(buf[:0], s, o); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(len(buf)), "bytes")
}
