package banana

import "image/color"

// This file hands the mark's contours (see geometry.go) to a writer of a vector format: the SVG
// of this package, and the PDF and PostScript of package render, draw the very same curves.

// A Drawer receives the mark as layers painted in order, each a colour and closed contours of
// cubic Bézier segments, to be filled with the non-zero winding rule. Coordinates are those of
// the square Draw is given (y growing downwards).
type Drawer interface {
	Layer(fill color.RGBA)                // starts a layer painted in fill
	MoveTo(x, y float64)                  // starts a contour
	CurveTo(x1, y1, x2, y2, x, y float64) // adds a cubic segment from the current point
	ClosePath()                           // closes the contour
	Fill()                                // fills the layer's contours
}

// Draw draws the mark into the square of side `side` with its top left corner at (x, y): the
// yellow body, then the ink (outline ring, stem, tip and ridge) on top of it.
func Draw(d Drawer, x, y, side float64) {
	g := geometry()
	for i, layer := range [][]contour{g.yellow, g.ink} {
		fill := yellowColor
		if i == 1 {
			fill = inkColor
		}
		d.Layer(fill)
		at := func(p point) (float64, float64) { return x + side*p.x, y + side*p.y }
		for _, ct := range layer {
			d.MoveTo(at(ct[0][0]))
			for _, s := range ct {
				x1, y1 := at(s[1])
				x2, y2 := at(s[2])
				x3, y3 := at(s[3])
				d.CurveTo(x1, y1, x2, y2, x3, y3)
			}
			d.ClosePath()
		}
		d.Fill()
	}
}
