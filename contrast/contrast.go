// Package contrast decides whether QR code readers can tell a code's dark colour from its
// light one. It is the service's one colour rule: the HTTP API and the MCP tool refuse pairs
// that fail it (LOW_CONTRAST), bananaqr encode does too, and the web page shows its verdict
// through GET /api/contrast.
//
// Readers do not see colours: they turn the image into luma and binarise it. Cameras and
// decoders compute luma from the sRGB values as ITU-R BT.601 does (Y = 0.299 R + 0.587 G +
// 0.114 B); zxing-cpp, zbar and OpenCV all do. Measured against them (rendered codes at 256 and
// 1024 pixels, square and rounded, six payloads, 910 colour pairs):
//
//   - zxing-cpp's default binariser thresholds 8×8-pixel blocks; a flat block gets a threshold
//     of half its darkest value, so inside large dark modules a dark colour whose luma is half
//     the light colour's or more reads as light and the finder patterns fall apart. Failures
//     start at a luma ratio of 0.49.
//   - It also takes a block whose luma spreads over 24 steps or fewer for flat, and zbar fails
//     below a difference of about 16.
//   - OpenCV's WeChat detector read every pair but those 1 luma step apart.
//
// So a pair is readable when the dark colour's luma is at most MaxLumaRatio of the light
// colour's (0.45: about 10 % below the first failure) and at least MinLumaDifference below it
// (48: twice zxing-cpp's flat-block spread). WCAG 2's contrast ratio alone is not enough (it
// admits E0701A on FFF8E1, 3.04:1, which zxing-cpp fails to read), but the WCAG floor of 3:1
// stays as well: it keeps out the dark-on-darker pairs whose small luma range leaves a camera's
// exposure no room.
package contrast

import (
	"fmt"
	"image/color"
	"math"
)

// The rule's bounds.
const (
	// MaxLumaRatio is the largest share of the light colour's luma that the dark colour's may be.
	MaxLumaRatio = 0.45
	// MinLumaDifference is the least difference of the two lumas, in steps of 255.
	MinLumaDifference = 48.0
	// MinWCAG is the least WCAG 2 contrast ratio.
	MinWCAG = 3.0
)

// Luma returns the BT.601 luma of c's sRGB values, 0 to 255: what a camera or a decoder makes
// of a colour (ITU-R BT.601; zxing-cpp, zbar and OpenCV convert so).
func Luma(c color.RGBA) float64 {
	return 0.299*float64(c.R) + 0.587*float64(c.G) + 0.114*float64(c.B)
}

// WCAG returns the WCAG 2 contrast ratio of two colours, 1 to 21.
func WCAG(a, b color.RGBA) float64 {
	la, lb := luminance(a), luminance(b)
	return (max(la, lb) + 0.05) / (min(la, lb) + 0.05)
}

// luminance returns the relative luminance of c (WCAG 2: sRGB components made linear).
func luminance(c color.RGBA) float64 {
	lin := func(v uint8) float64 {
		s := float64(v) / 255
		if s <= 0.04045 {
			return s / 12.92
		}
		return math.Pow((s+0.055)/1.055, 2.4)
	}
	return 0.2126*lin(c.R) + 0.7152*lin(c.G) + 0.0722*lin(c.B)
}

// Verdict is what Judge says of a pair of colours.
type Verdict struct {
	Readable bool
	// ColorLuma and BackgroundLuma are the colours' lumas (see Luma); LumaRatio is the first
	// over the second (0 on a black background), WCAG their WCAG 2 contrast ratio.
	ColorLuma, BackgroundLuma, LumaRatio, WCAG float64
	// Problem says in words why the pair is not readable; empty when it is.
	Problem string
	// Color and Background are a nearby readable pair: the pair itself when it is readable,
	// else the colour made darker, or if that cannot do, the background made lighter too.
	Color, Background color.RGBA
}

// Judge returns the verdict on codes drawn in fg on bg.
func Judge(fg, bg color.RGBA) Verdict {
	v := measure(fg, bg)
	v.Problem = problem(&v)
	v.Readable = v.Problem == ""
	v.Color, v.Background = fg, bg
	if !v.Readable {
		v.Color, v.Background = nearby(fg, bg)
	}
	return v
}

// measure returns the verdict's figures for fg on bg.
func measure(fg, bg color.RGBA) Verdict {
	v := Verdict{ColorLuma: Luma(fg), BackgroundLuma: Luma(bg), WCAG: WCAG(fg, bg)}
	if v.BackgroundLuma > 0 {
		v.LumaRatio = v.ColorLuma / v.BackgroundLuma
	} else if v.ColorLuma > 0 {
		v.LumaRatio = math.Inf(1)
	}
	return v
}

// problem returns why the measured pair v is not readable, or "".
func problem(v *Verdict) string {
	switch {
	case v.ColorLuma >= v.BackgroundLuma:
		return "the colour is not darker than the background: many readers cannot read light on dark"
	case v.LumaRatio > MaxLumaRatio:
		return fmt.Sprintf("the colour's luma (%.0f) is %.0f%% of the background's (%.0f); readers need it at most %.0f%%",
			v.ColorLuma, 100*v.LumaRatio, v.BackgroundLuma, 100*MaxLumaRatio)
	case v.BackgroundLuma-v.ColorLuma < MinLumaDifference:
		return fmt.Sprintf("the lumas of colour and background (%.0f and %.0f) are less than %.0f apart",
			v.ColorLuma, v.BackgroundLuma, MinLumaDifference)
	case v.WCAG < MinWCAG:
		return fmt.Sprintf("the contrast ratio is %.2f:1; readers need at least %.0f:1", v.WCAG, MinWCAG)
	}
	return ""
}

// readable reports whether fg on bg passes the rule.
func readable(fg, bg color.RGBA) bool {
	v := measure(fg, bg)
	return problem(&v) == ""
}

// nearby returns a readable pair close to fg on bg: fg darkened as little as needed (towards
// black, keeping its hue); when even black will not do on bg, bg lightened as little as needed
// (towards white) with fg, and when that will not do either, fg darkened on white.
func nearby(fg, bg color.RGBA) (color.RGBA, color.RGBA) {
	darker := func(t float64) color.RGBA { return scale(fg, black, t) }
	if readable(darker(0), bg) {
		return darker(lastReadable(func(t float64) bool { return readable(darker(t), bg) })), bg
	}
	lighter := func(t float64) color.RGBA { return scale(bg, white, t) }
	if readable(fg, white) {
		return fg, lighter(1 - lastReadable(func(t float64) bool { return readable(fg, lighter(1-t)) }))
	}
	return darker(lastReadable(func(t float64) bool { return readable(darker(t), white) })), white
}

var (
	black = color.RGBA{0, 0, 0, 0xff}
	white = color.RGBA{0xff, 0xff, 0xff, 0xff}
)

// scale returns the colour t of the way from to to c: to at 0, c at 1, rounded.
func scale(c, to color.RGBA, t float64) color.RGBA {
	mix := func(a, b uint8) uint8 { return uint8(math.Round(float64(b) + (float64(a)-float64(b))*t)) }
	return color.RGBA{mix(c.R, to.R), mix(c.G, to.G), mix(c.B, to.B), 0xff}
}

// lastReadable returns the largest t in [0, 1], to 1/1024, for which ok(t) holds, given that
// ok(0) does and ok is monotone (true up to some t, false beyond).
func lastReadable(ok func(t float64) bool) float64 {
	lo, hi := 0.0, 1.0
	if ok(hi) {
		return hi
	}
	for range 10 {
		mid := (lo + hi) / 2
		if ok(mid) {
			lo = mid
		} else {
			hi = mid
		}
	}
	return lo
}
