package render

import "image/color"

// FormatColor returns c as #RRGGBB, upper case.
func FormatColor(c color.RGBA) string { return string(appendColor(nil, c)) }
