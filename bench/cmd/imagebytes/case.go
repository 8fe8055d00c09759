package main

import (
	"errors"
	"fmt"
	"image/color"
	"os"
	"path/filepath"
	"strconv"

	"github.com/bananaqr/bananaqr/bench"
	"github.com/bananaqr/bananaqr/qr"
	"github.com/bananaqr/bananaqr/render"
)

// style is one way of drawing the modules.
type style struct {
	name    string
	corners render.Corners
	logo    render.Logo
}

// styles are the four styles of the service, in reporting order.
var styles = []style{
	{"square", render.Square, render.NoLogo},
	{"rounded", render.Rounded, render.NoLogo},
	{"banana", render.Square, render.Banana},
	{"rounded+banana", render.Rounded, render.Banana},
}

// colours is a foreground on a background.
type colours struct {
	name   string
	fg, bg color.RGBA
}

// colourSets are black on white, what segno is compared on, and the service's default colours.
var colourSets = []colours{
	{"black", color.RGBA{0, 0, 0, 0xff}, color.RGBA{0xff, 0xff, 0xff, 0xff}},
	{"7B260F", render.Defaults().Foreground, render.Defaults().Background},
}

// sizes are the image sizes in pixels.
var sizes = []int{256, 1024, 2048}

// inputs are the bench inputs and a bare short link.
var inputs = append(append([]bench.Input(nil), bench.Inputs...), bench.Input{Name: "example", Text: "https://example.com"})

// An imageCase is one image to measure.
type imageCase struct {
	input   bench.Input
	style   style
	size    int
	colours colours
}

// dir is the case's directory under root.
func (c imageCase) dir(root string) string {
	return filepath.Join(root, c.input.Name, c.style.name, strconv.Itoa(c.size), c.colours.name)
}

// casesOf lists the cases in reporting order: all of them, or with quick only the URL at
// 1024 px.
func casesOf(quick bool) []imageCase {
	var cs []imageCase
	for _, in := range inputs {
		if quick && in.Name != "url" {
			continue
		}
		for _, st := range styles {
			for _, size := range sizes {
				if quick && size != 1024 {
					continue
				}
				for _, col := range colourSets {
					cs = append(cs, imageCase{in, st, size, col})
				}
			}
		}
	}
	return cs
}

// options are the render options of c: the service's defaults with c's size, colours and
// style, and no Title or Desc.
func (c imageCase) options() render.Options {
	o := render.Defaults()
	o.Size = c.size
	o.Foreground, o.Background = c.colours.fg, c.colours.bg
	o.Corners, o.Logo = c.style.corners, c.style.logo
	return o
}

// encode encodes c's input at the service's default level (M, raised while the version
// allows), with the logo's pad spared when c draws the banana.
func (c imageCase) encode() (*qr.Symbol, error) {
	var opts qr.Options
	if c.style.logo == render.Banana {
		opts.Cover = render.LogoPad
	}
	return qr.Encode(c.input.Text, opts)
}

// writeAll writes every case's files under root.
func writeAll(root string, cs []imageCase) error {
	for _, c := range cs {
		if err := c.write(c.dir(root)); err != nil {
			return fmt.Errorf("%s: %w", c.dir(root), err)
		}
	}
	return nil
}

// write writes c's files into dir: ours.svg, ours.png and matrix.txt, or toosmall.txt when
// the image is too small for the symbol.
func (c imageCase) write(dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	s, err := c.encode()
	if err != nil {
		return err
	}
	o := c.options()
	svg, err := render.AppendSVG(nil, s, &o)
	if tooSmall := (*render.TooSmallError)(nil); errors.As(err, &tooSmall) {
		return os.WriteFile(filepath.Join(dir, "toosmall.txt"), []byte(err.Error()+"\n"), 0o644)
	} else if err != nil {
		return err
	}
	png, err := render.AppendPNG(nil, s, &o)
	if err != nil {
		return err
	}
	for name, data := range map[string][]byte{
		"ours.svg":   svg,
		"ours.png":   png,
		"matrix.txt": appendMatrix(nil, s, o.Margin, o.Foreground, o.Background),
	} {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			return err
		}
	}
	return nil
}

// appendMatrix appends s as bench/images_segno.py reads it: a first line
// "version V margin M dark #RRGGBB light #RRGGBB", then one line a row of modules, top to
// bottom, each module 1 for dark and 0 for light, without the quiet zone. The modules are the
// symbol's as encoded: a logo's pad is not cleared (segno draws only square styles).
func appendMatrix(dst []byte, s *qr.Symbol, margin int, fg, bg color.RGBA) []byte {
	dst = fmt.Appendf(dst, "version %d margin %d dark #%02X%02X%02X light #%02X%02X%02X\n",
		s.Version(), margin, fg.R, fg.G, fg.B, bg.R, bg.G, bg.B)
	for y := range s.Size() {
		for x := range s.Size() {
			if s.Dark(x, y) {
				dst = append(dst, '1')
			} else {
				dst = append(dst, '0')
			}
		}
		dst = append(dst, '\n')
	}
	return dst
}
