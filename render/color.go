package render

import "image/color"

// FormatColor returns c as #RRGGBB, upper case (the SVG writes #RGB where that says the same).
func FormatColor(c color.RGBA) string {
	const hex = "0123456789ABCDEF"
	return string([]byte{'#', hex[c.R>>4], hex[c.R&15], hex[c.G>>4], hex[c.G&15], hex[c.B>>4], hex[c.B&15]})
}
