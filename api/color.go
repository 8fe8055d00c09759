package api

import (
	"errors"
	"image/color"
)

// The default colours of a request: a dark banana brown on white.
var (
	DefaultColor      = color.RGBA{0x7b, 0x26, 0x0f, 0xff}
	DefaultBackground = color.RGBA{0xff, 0xff, 0xff, 0xff}
)

// errColor is ParseColor's error, which the request's parsing turns into INVALID_COLOR.
var errColor = errors.New("api: a colour is six hexadecimal digits, with or without #")

// ParseColor parses an opaque colour written as six hexadecimal digits, with or without a
// leading '#': "7B260F", "#ffffff".
func ParseColor(s string) (color.RGBA, error) {
	h := s
	if len(h) == 7 && h[0] == '#' {
		h = h[1:]
	}
	if len(h) != 6 {
		return color.RGBA{}, errColor
	}
	var v [3]uint8
	for i := range 6 {
		d, ok := hexDigit(h[i])
		if !ok {
			return color.RGBA{}, errColor
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

// FormatColor returns c as #RRGGBB, upper case, as the answers write colours.
func FormatColor(c color.RGBA) string {
	const hex = "0123456789ABCDEF"
	return string([]byte{'#', hex[c.R>>4], hex[c.R&15], hex[c.G>>4], hex[c.G&15], hex[c.B>>4], hex[c.B&15]})
}
