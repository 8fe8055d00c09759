package render_test

import (
	"bytes"
	"errors"
	"fmt"
	"image/png"
	"log"

	"github.com/bananaqr/bananaqr/qr"
	"github.com/bananaqr/bananaqr/render"
)

// Encode a URL with package qr, then draw the symbol as an SVG and as a PNG.
func Example() {
	s, err := qr.Encode("https://example.com", qr.Options{Level: qr.M})
	if err != nil {
		log.Fatal(err)
	}
	o := render.Defaults()
	o.Size = 256
	o.Title = "QR code: https://example.com"

	svg, err := render.SVG(s, o)
	if err != nil {
		log.Fatal(err)
	}
	head, _, _ := bytes.Cut(svg, []byte("<path"))
	fmt.Printf("%s\n", head)

	img, err := render.PNG(s, o)
	if err != nil {
		log.Fatal(err)
	}
	m, err := png.Decode(bytes.NewReader(img))
	if err != nil {
		log.Fatal(err)
	}
	px, _ := render.ModulePixels(s.Size(), &o)
	fmt.Printf("version %d, %d modules a side, %d pixels a module, a %d×%d PNG\n",
		s.Version(), s.Size(), px, m.Bounds().Dx(), m.Bounds().Dy())
	// Output:
	// <svg xmlns="http://www.w3.org/2000/svg" width="256" height="256" viewBox="-5.7143 -5.7143 36.5714 36.5714" role="img" aria-labelledby="qr271e715d-t" shape-rendering="crispEdges"><title id="qr271e715d-t">QR code: https://example.com</title>
	// version 2, 25 modules a side, 7 pixels a module, a 256×256 PNG
}

// The banana needs a symbol encoded to spare the modules under its pad.
func Example_banana() {
	o := render.Defaults()
	o.Size, o.Logo, o.Corners = 512, render.Banana, render.Rounded

	plain, _ := qr.Encode("https://example.com", qr.Options{})
	_, err := render.SVG(plain, o)
	fmt.Println("without the cover:", errors.Is(err, render.ErrLogoNotCovered))

	s, err := qr.Encode("https://example.com", qr.Options{Cover: render.LogoPad})
	if err != nil {
		log.Fatal(err)
	}
	first, side := s.Cover()
	fmt.Printf("version %d, a pad of %d×%d modules from module %d\n", s.Version(), side, side, first)
	img, err := render.PNG(s, o)
	if err != nil {
		log.Fatal(err)
	}
	cfg, err := png.DecodeConfig(bytes.NewReader(img))
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("a %d×%d PNG\n", cfg.Width, cfg.Height)
	// Output:
	// without the cover: true
	// version 2, a pad of 5×5 modules from module 10
	// a 512×512 PNG
}
