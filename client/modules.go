package client

import (
	"bytes"
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"image/color"
	"image/png"

	"github.com/bananaqr/bananaqr/api"
)

// Modules is the module grid of a code as the service made it, read back from its image: Size
// modules a side, without the quiet zone. Its methods are those of the renderers' Modules
// (package render), so a program that has the renderers can draw the service's code again, as
// bananaqr encode -remote draws it in the terminal.
type Modules struct {
	size int
	dark []bool // row by row
}

// Size returns the modules a side: 4v+17 for a version v symbol (ISO/IEC 18004:2015 5.3.1).
func (m *Modules) Size() int { return m.size }

// Dark reports whether the module in column x and row y, counted from the top left from 0, is
// dark; false outside the symbol.
func (m *Modules) Dark(x, y int) bool {
	return uint(x) < uint(m.size) && uint(y) < uint(m.size) && m.dark[y*m.size+x]
}

// Modules returns the modules of the code of r as the service makes it: its JSON response for
// r's payload, level and logo, in the default colours at the largest size (api.MaxSize), read
// back with ReadModules. r's style (colours, corners, size, margin, format) does not change
// which modules are dark, so it is not sent. Under a logo the modules read are the logo's
// image, not the symbol's: a program that draws the modules again clears the logo's pad.
func (c *Client) Modules(ctx context.Context, r api.Request) (*Modules, error) {
	plain := api.NewRequest()
	plain.Payload, plain.ECC, plain.Logo, plain.Size = r.Payload, r.ECC, r.Logo, api.MaxSize
	code, err := c.JSON(ctx, plain)
	if err != nil {
		return nil, err
	}
	return ReadModules(code.Response)
}

// ReadModules reads the modules of a code back from the PNG of its JSON response res: the
// centre pixel of each module, whose place res's size, margin, modules and module_px give (the
// symbol and its quiet zone centred in the image), is dark when it is nearer res's colour than
// its background. It fails when res does not describe its PNG.
func ReadModules(res *api.Response) (*Modules, error) {
	b, err := base64.StdEncoding.DecodeString(res.PNGBase64)
	if err != nil {
		return nil, fmt.Errorf("the service's png_base64: %w", err)
	}
	img, err := png.Decode(bytes.NewReader(b))
	if err != nil {
		return nil, fmt.Errorf("the service's PNG: %w", err)
	}
	fg, err1 := api.ParseColor(res.Color)
	bg, err2 := api.ParseColor(res.Background)
	if err := errors.Join(err1, err2); err != nil {
		return nil, fmt.Errorf("the service's colours: %w", err)
	}
	n, px := res.Modules, res.ModulePx
	side := img.Bounds().Dx()
	if n < 21 || px < 1 || side != res.Size || img.Bounds().Dy() != side || px*(n+2*res.Margin) > side {
		return nil, fmt.Errorf("the service's JSON response does not describe its PNG: %d modules of %d px in %d px",
			n, px, side)
	}
	origin := (side-px*(n+2*res.Margin))/2 + res.Margin*px + px/2
	m := &Modules{size: n, dark: make([]bool, n*n)}
	for y := range n {
		for x := range n {
			c := color.RGBAModel.Convert(img.At(img.Bounds().Min.X+origin+x*px, img.Bounds().Min.Y+origin+y*px)).(color.RGBA)
			m.dark[y*n+x] = distance(c, fg) < distance(c, bg)
		}
	}
	return m, nil
}

// distance is the squared distance of two colours in RGB.
func distance(a, b color.RGBA) int {
	dr, dg, db := int(a.R)-int(b.R), int(a.G)-int(b.G), int(a.B)-int(b.B)
	return dr*dr + dg*dg + db*db
}
