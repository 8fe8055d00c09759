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
	g := geometry()
	var b strings.Builder
	for i, layer := range [][]contour{g.yellow, g.ink} {
		fill := yellowColor
		if i == 1 {
			fill = inkColor
		}
		b.WriteString(`<path fill="`)
		b.WriteString(hexColor(fill))
		b.WriteString(`" d="`)
		pathData(&b, layer, x, y, side)
		b.WriteString(`"/>`)
	}
	return b.String()
}

// pathData writes the contours as SVG path data, mapped from the unit box to the square
// of side `side` at (x, y): "M x y C x1 y1 x2 y2 x y … Z", contours separated by a space.
func pathData(b *strings.Builder, layer []contour, x, y, side float64) {
	pt := func(p point) {
		b.WriteString(formatNum(x + side*p.x))
		b.WriteByte(' ')
		b.WriteString(formatNum(y + side*p.y))
	}
	for i, ct := range layer {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString("M ")
		pt(ct[0][0])
		for _, s := range ct {
			b.WriteString(" C ")
			pt(s[1])
			b.WriteByte(' ')
			pt(s[2])
			b.WriteByte(' ')
			pt(s[3])
		}
		b.WriteString(" Z")
	}
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
