package render

import (
	"bytes"
	"image"
	"image/color"
	"image/png"
	"strconv"

	"github.com/bananaqr/bananaqr/render/internal/banana"
)

// The service's icon: the banana mark alone, on a transparent square, as the codes draw it
// (package render/internal/banana). The MCP server lists it on its tool and on itself (MCP
// 2025-11-25, "icons"), and the HTTP edge serves it at /icon.svg and /icon.png.

// IconSide is the icon's side: the SVG's view box and width, and the PNG's pixels.
const IconSide = 64

// IconSVG returns the mark as a standalone SVG document of IconSide×IconSide user units.
func IconSVG() []byte {
	side := strconv.Itoa(IconSide)
	return []byte(`<svg xmlns="http://www.w3.org/2000/svg" width="` + side + `" height="` + side +
		`" viewBox="0 0 ` + side + ` ` + side + `">` + banana.SVG(0, 0, IconSide) + "</svg>\n")
}

// IconPNG returns the mark as a PNG of IconSide×IconSide pixels on a transparent background:
// each pixel is its level's blend over transparent black, which in color.RGBA's premultiplied
// form is the mark's colour with the level's coverage as alpha.
func IconPNG() []byte {
	levels := banana.Raster(IconSide)
	img := image.NewRGBA(image.Rect(0, 0, IconSide, IconSide))
	for i, level := range levels {
		c := banana.LevelColor(level, color.RGBA{})
		img.SetRGBA(i%IconSide, i/IconSide, c)
	}
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		panic(err) // not reached: writing to memory does not fail
	}
	return b.Bytes()
}
