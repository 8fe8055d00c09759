package banana

import (
	"image/color"
	"strconv"
	"strings"
)

// This file prints the mark as SVG paths (see geometry.go).

// SVG returns the mark as SVG elements for a square of side `side` user units with its
// top left corner at (x, y): a path for the yellow body, then one for the ink (outline ring,
// stem, tip and ridge), both filled with the default non-zero rule. Coordinates carry at most three
// decimals; the output depends only on the arguments. Codes place the mark by their logo pad
// only, so render keeps the few placements it needs.
func SVG(x, y, side float64) string {
	var p svgPaths
	Draw(&p, x, y, side)
	return p.b.String()
}

// svgPaths spells the mark as SVG paths (Drawer): "M x y C x1 y1 x2 y2 x y … Z", contours
// separated by a space.
type svgPaths struct {
	b       strings.Builder
	started bool // a contour of the current layer is written
}

// Layer opens a path element of the colour fill (Drawer).
func (p *svgPaths) Layer(fill color.RGBA) {
	p.b.WriteString(`<path fill="`)
	p.b.WriteString(hexColor(fill))
	p.b.WriteString(`" d="`)
	p.started = false
}

// MoveTo starts a contour at (x, y) (Drawer).
func (p *svgPaths) MoveTo(x, y float64) {
	if p.started {
		p.b.WriteByte(' ')
	}
	p.started = true
	p.b.WriteString("M ")
	p.point(x, y)
}

// CurveTo adds a cubic Bézier to (x, y) with control points (x1, y1) and (x2, y2) (Drawer).
func (p *svgPaths) CurveTo(x1, y1, x2, y2, x, y float64) {
	p.b.WriteString(" C ")
	p.point(x1, y1)
	p.b.WriteByte(' ')
	p.point(x2, y2)
	p.b.WriteByte(' ')
	p.point(x, y)
}

// ClosePath closes the contour (Drawer).
func (p *svgPaths) ClosePath() { p.b.WriteString(" Z") }

// Fill ends the layer's path element (Drawer).
func (p *svgPaths) Fill() { p.b.WriteString(`"/>`) }

func (p *svgPaths) point(x, y float64) {
	p.b.WriteString(formatNum(x))
	p.b.WriteByte(' ')
	p.b.WriteString(formatNum(y))
}

// formatNum formats v with at most three decimals and no trailing zeros ("12.5", "3", "-0.25").
func formatNum(v float64) string {
	s := strconv.FormatFloat(v, 'f', 3, 64)
	s = strings.TrimRight(s, "0")
	s = strings.TrimSuffix(s, ".")
	if s == "-0" || s == "" {
		return "0"
	}
	return s
}

// hexColor returns c as #RRGGBB, upper case (as render.FormatColor, which this package cannot
// import).
func hexColor(c color.RGBA) string {
	const digits = "0123456789ABCDEF"
	return string([]byte{'#', digits[c.R>>4], digits[c.R&15], digits[c.G>>4], digits[c.G&15], digits[c.B>>4], digits[c.B&15]})
}
