package render

import (
	"strconv"
	"strings"
)

// This file prints the banana mark as SVG paths (see banana.go).

// bananaSVG returns the mark as SVG elements for a square of side `side` user units with its
// top left corner at (x, y): a path for the yellow body, then one for the ink (outline ring,
// stem, tip and ridge), both filled with the default non-zero rule. Coordinates carry at most three
// decimals; the output depends only on the arguments. Codes place the mark by their logo pad
// only: appendLogoSVG keeps the few placements in logoSVGs.
func bananaSVG(x, y, side float64) string {
	g := bananaGeometry()
	var b strings.Builder
	for i, layer := range [][]bananaContour{g.yellow, g.ink} {
		fill := bananaYellow
		if i == 1 {
			fill = bananaInk
		}
		b.WriteString(`<path fill="`)
		b.WriteString(FormatColor(fill))
		b.WriteString(`" d="`)
		bananaPathData(&b, layer, x, y, side)
		b.WriteString(`"/>`)
	}
	return b.String()
}

// bananaPathData writes the contours as SVG path data, mapped from the unit box to the square
// of side `side` at (x, y): "M x y C x1 y1 x2 y2 x y … Z", contours separated by a space.
func bananaPathData(b *strings.Builder, layer []bananaContour, x, y, side float64) {
	pt := func(p bananaPt) {
		b.WriteString(bananaNum(x + side*p.x))
		b.WriteByte(' ')
		b.WriteString(bananaNum(y + side*p.y))
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

// bananaNum formats v with at most three decimals and no trailing zeros ("12.5", "3", "-0.25").
func bananaNum(v float64) string {
	s := strconv.FormatFloat(v, 'f', 3, 64)
	s = strings.TrimRight(s, "0")
	s = strings.TrimSuffix(s, ".")
	if s == "-0" || s == "" {
		return "0"
	}
	return s
}
