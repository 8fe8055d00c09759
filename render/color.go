package render

import (
	"fmt"
	"image/color"
)

// ParseColor parses an opaque colour written as six hexadecimal digits, with or without a
// leading '#': "7B260F", "#ffffff".
func ParseColor(s string) (color.RGBA, error) {
	h := s
	if len(h) == 7 && h[0] == '#' {
		h = h[1:]
	}
	var v [3]uint8
	if len(h) != 6 {
		return color.RGBA{}, fmt.Errorf("render: colour %q is not six hexadecimal digits", s)
	}
	for i := range 6 {
		d, ok := hexDigit(h[i])
		if !ok {
			return color.RGBA{}, fmt.Errorf("render: colour %q is not six hexadecimal digits", s)
		}
		v[i/2] = v[i/2]<<4 | d
	}
	return color.RGBA{v[0], v[1], v[2], 0xff}, nil
}

func hexDigit(c byte) (uint8, bool) {
	switch {
	case '0' <= c && c <= '9':
		return c - '0', true
	case 'a' <= c && c <= 'f':
		return c - 'a' + 10, true
	case 'A' <= c && c <= 'F':
		return c - 'A' + 10, true
	}
	return 0, false
}

// FormatColor returns c as #RRGGBB, upper case.
func FormatColor(c color.RGBA) string { return string(appendColor(nil, c)) }
