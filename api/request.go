// Package api holds the HTTP API's wire types, shared by the service's edges and its Go client:
// the request (spec 2.1) and how it is read from a JSON body or a query string, the JSON
// response (2.2), the error object (2.3) and the list of error codes. It is data and parsing
// only: the rules a request meets (the colour rule, the EPC rules, the logo's cover, warnings)
// live in the pipeline, internal/generate, and api imports neither the encoder nor the
// renderers, so that the Go client compiles neither.
package api

import (
	"fmt"
	"image/color"
	"net/url"
	"strconv"
	"unicode"
	"unicode/utf8"

	"github.com/bananaqr/bananaqr/payload"
)

// Format is the form of a response.
type Format string

// The formats. PDF and EPS, for print, are bananaqr extensions: a page of Size pixels at
// 300 pixels an inch (the renderer's PrintDPI), drawn in vectors as the SVG is.
const (
	FormatJSON Format = "json"
	FormatSVG  Format = "svg"
	FormatPNG  Format = "png"
	FormatPDF  Format = "pdf"
	FormatEPS  Format = "eps"
)

// Request is one QR request, whichever edge it came from: what to encode and how to draw it.
// NewRequest gives the defaults.
type Request struct {
	Payload  payload.Request
	Format   Format
	Download bool // an attachment rather than inline content
	Size     int  // pixels, MinSize..MaxSize
	Margin   int  // quiet zone in modules, 0..MaxMargin
	ECC      Level
	Color    color.RGBA // foreground
	// Background is the colour of the light modules and the quiet zone.
	Background color.RGBA
	Logo       Logo
	Corners    Corners

	// Words around the code (bananaqr extensions): a caption of 1 to MaxCaption characters on
	// one line, over or under the code, and for a public url code its destination printed
	// small beneath. Empty Caption is none.
	Caption         string
	CaptionPosition CaptionPosition
	ShowDestination bool
}

// Limits and defaults of the request (spec 2.1, 8; decisions.md). The renderer has the same
// limits; a test of package generate, which converts a request for it, holds the two equal.
const (
	MinSize       = 128
	MaxSize       = 2048
	DefaultSize   = 1024
	MaxMargin     = 16
	DefaultMargin = 4
	MaxCaption    = 40 // characters (Unicode code points) of a caption
)

// NewRequest returns a request with the defaults: SVG, 1024 pixels, a quiet zone of 4 modules,
// level M, #7B260F on #FFFFFF, no logo, square corners.
func NewRequest() Request {
	return Request{Format: FormatSVG, Size: DefaultSize, Margin: DefaultMargin, ECC: LevelM,
		Color: DefaultColor, Background: DefaultBackground, Logo: LogoNone, Corners: CornersSquare}
}

// ReasonSmallQuietZone warns of a quiet zone narrower than the 4 modules that ISO/IEC 18004:2015
// 6.3.7 asks for: readers such as zxing-cpp find the code far less often without it, unless
// the image sits on a wide light ground.
const ReasonSmallQuietZone = "SMALL_QUIET_ZONE"

// ReasonNoPublicURL warns that image_url and svg_url are null for a public payload: the request
// named no host (an HTTP/1.0 request without Host) and no base URL is configured, so there is
// no address to give.
const ReasonNoPublicURL = "NO_PUBLIC_URL"

// MaxHeaderBytes is the most bytes a request's line and headers may take; more is 431
// HEADERS_TOO_LARGE.
const MaxHeaderBytes = 16 << 10

// SetStyle sets the style field name (color, background, format, logo, corners, ecc, size or
// margin) from its text form, as a query string gives it, with the API's checks and errors:
// what bananaqr encode's flags go through.
func (r *Request) SetStyle(name, value string) error {
	if name == "size" || name == "margin" {
		n, err := parseInt(name, value)
		if err != nil {
			return err
		}
		return r.setInt(name, n)
	}
	if ok, err := r.setStyle(name, value); ok {
		return err
	}
	return unknownField(name)
}

// setStyle sets the style field name (not a payload field) from its text form; ok is false when
// name is not a style field.
func (r *Request) setStyle(name, value string) (ok bool, err error) {
	switch name {
	case "color", "background":
		c, perr := ParseColor(value)
		if perr != nil {
			return true, NewError(ReasonInvalidColor, name, "Give "+name+" as six hexadecimal digits, with or without #, such as 7B260F.",
				"%s %q is not a colour", name, value)
		}
		if name == "color" {
			r.Color = c
		} else {
			r.Background = c
		}
	case "format":
		r.Format, err = formats.parse(value)
	case "logo":
		r.Logo, err = logos.parse(value)
	case "corners":
		r.Corners, err = corners.parse(value)
	case "ecc":
		r.ECC, err = levels.parse(value)
	case "caption":
		r.Caption, err = value, checkCaption(value)
	case "caption_position":
		r.CaptionPosition, err = captionPositions.parse(value)
	case "show_destination":
		r.ShowDestination, err = parseBool(name, value)
	default:
		return false, nil
	}
	return true, err
}

// checkCaption refuses a caption that is not text of at most MaxCaption characters on one
// line: invalid UTF-8, a control character (Unicode's Cc, tab and line breaks included) or a
// line or paragraph separator (U+2028, U+2029). An empty caption is none. Whether the caption
// font can draw every character is the pipeline's check (internal/generate), since package api
// knows no font.
func checkCaption(s string) error {
	hint := fmt.Sprintf("Give caption as one line of at most %d characters, such as Scan for the menu.", MaxCaption)
	if !utf8.ValidString(s) {
		return NewError(ReasonInvalidCaption, "caption", hint, "caption is not valid UTF-8")
	}
	if n := utf8.RuneCountInString(s); n > MaxCaption {
		return NewError(ReasonInvalidCaption, "caption", hint, "caption has %d characters, more than %d", n, MaxCaption)
	}
	for _, c := range s {
		if unicode.IsControl(c) || c == '\u2028' || c == '\u2029' {
			return NewError(ReasonInvalidCaption, "caption", hint, "caption holds the control or line-break character U+%04X", c)
		}
	}
	return nil
}

// parseBool reads a boolean parameter: 0, 1, false or true.
func parseBool(name, v string) (bool, error) {
	switch v {
	case "0", "false":
		return false, nil
	case "1", "true":
		return true, nil
	}
	return false, NewError(ReasonInvalidValue, name, "Use 0 or 1 (or false or true).", "%s %q is not 0, 1, false or true", name, v)
}

// setInt sets size or margin, checking its range.
func (r *Request) setInt(name string, v int64) error {
	lo, hi, dst := int64(MinSize), int64(MaxSize), &r.Size
	if name == "margin" {
		lo, hi, dst = 0, MaxMargin, &r.Margin
	}
	if v < lo || v > hi {
		return NewError(ReasonInvalidValue, name, fmt.Sprintf("Give %s as a whole number from %d to %d.", name, lo, hi),
			"%s %d is out of range %d..%d", name, v, lo, hi)
	}
	*dst = int(v)
	return nil
}

// parseInt parses the decimal digits of an integer parameter, with an optional minus sign.
func parseInt(name, s string) (int64, error) {
	v, err := strconv.ParseInt(s, 10, 32)
	if err != nil || s[0] == '+' {
		return 0, NewError(ReasonInvalidValue, name, "Give "+name+" as a whole number, such as 1024.", "%s %q is not a whole number", name, s)
	}
	return v, nil
}

// Query returns the query string that asks for the same image as r, for a public payload p
// built from r: the payload itself (as url, text or data, the way it came) and the style
// fields that differ from the defaults. It is what image_url and svg_url carry.
func (r *Request) Query(p payload.Payload) string {
	q := url.Values{}
	switch {
	case r.Payload.Data != "":
		q.Set("data", p.Text)
		if r.Payload.Type != "" {
			q.Set("type", string(r.Payload.Type))
		}
	case p.Type == payload.URL:
		q.Set("url", p.Text)
	default:
		q.Set("text", p.Text)
	}
	for _, f := range r.styleFields() {
		q.Set(f.name, f.value)
	}
	return q.Encode()
}
