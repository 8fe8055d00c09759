// Package api holds the HTTP API's wire types, shared by the service's edges and its Go client:
// the request (spec 2.1) and how it is read from a JSON body or a query string, the JSON
// response (2.2), the error object (2.3) and the list of error codes.
package api

import (
	"fmt"
	"image/color"
	"math"
	"net/url"
	"strconv"

	"github.com/bananaqr/bananaqr/contrast"
	"github.com/bananaqr/bananaqr/payload"
	"github.com/bananaqr/bananaqr/qr"
	"github.com/bananaqr/bananaqr/render"
)

// Format is the form of a response.
type Format string

// The formats. PDF and EPS, for print, are bananaqr extensions: a page of Size pixels at
// render.PrintDPI, drawn in vectors as the SVG is.
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
	ECC      qr.Level
	Color    color.RGBA // foreground
	// Background is the colour of the light modules and the quiet zone.
	Background color.RGBA
	Logo       render.Logo
	Corners    render.Corners
}

// Limits and defaults of the request (spec 2.1, 8; decisions.md).
const (
	MinSize       = render.MinSize
	MaxSize       = render.MaxSize
	DefaultSize   = 1024
	MaxMargin     = render.MaxMargin
	DefaultMargin = 4
)

// NewRequest returns a request with the defaults: SVG, 1024 pixels, a quiet zone of 4 modules,
// level M, #7B260F on #FFFFFF, no logo, square corners.
func NewRequest() Request {
	d := render.Defaults()
	return Request{Format: FormatSVG, Size: DefaultSize, Margin: DefaultMargin, ECC: qr.M,
		Color: d.Foreground, Background: d.Background, Logo: render.NoLogo, Corners: render.Square}
}

// Options returns how to draw the request's code.
func (r *Request) Options() render.Options {
	return render.Options{Size: r.Size, Margin: r.Margin, Foreground: r.Color, Background: r.Background,
		Corners: r.Corners, Logo: r.Logo}
}

// Encoding returns how to encode the request's symbol: at the level asked for or stronger, and
// with the logo's pad covered, so that the encoder keeps error correction to spare for it
// rather than forcing level H, whose larger symbol has smaller modules at the same printed size
// and reads worse in a camera than a smaller one with its pad.
//
// An epc code (a bananaqr extension) is encoded as the EPC guideline (EPC069-12) requires:
// at level M exactly, never raised, and without the ECI designator, since its third line names
// the character set (UTF-8) and banking apps read that; Check refuses a logo or another level
// for it.
func (r *Request) Encoding() qr.Options {
	if r.Payload.Type == payload.EPC {
		return qr.Options{Level: qr.M, NoBoost: true, NoECI: true}
	}
	o := qr.Options{Level: r.ECC}
	if r.Logo == render.Banana {
		o.Cover = render.LogoPad
	}
	return o
}

// CodeSmallQuietZone warns of a quiet zone narrower than the 4 modules that ISO/IEC 18004:2015
// 6.3.7 asks for: readers such as zxing-cpp find the code far less often without it, unless
// the image sits on a wide light ground.
const CodeSmallQuietZone = "SMALL_QUIET_ZONE"

// CodeNoPublicURL warns that image_url and svg_url are null for a public payload: the request
// named no host (an HTTP/1.0 request without Host) and no base URL is configured, so there is
// no address to give.
const CodeNoPublicURL = "NO_PUBLIC_URL"

// MaxHeaderBytes is the most bytes a request's line and headers may take; more is 431
// HEADERS_TOO_LARGE.
const MaxHeaderBytes = 16 << 10

// Warnings returns what about the request's style some readers mishandle, though it is valid.
func (r *Request) Warnings() []Warning {
	if r.Margin < DefaultMargin {
		return []Warning{{Code: CodeSmallQuietZone, Field: "margin",
			Message: fmt.Sprintf("A quiet zone of %d modules is below the 4 that the QR standard asks for: many readers fail without it unless the code is placed on a wide light area.", r.Margin)}}
	}
	return nil
}

// ContrastOf returns the verdict of package contrast on the request's colours, as GET
// /api/contrast answers it.
func (r *Request) ContrastOf() Contrast {
	v := contrast.Judge(r.Color, r.Background)
	round := func(x, per float64) float64 { return math.Round(x*per) / per } // to 1/per
	out := Contrast{Readable: v.Readable, Color: render.FormatColor(r.Color), Background: render.FormatColor(r.Background),
		ColorLuma: round(v.ColorLuma, 10), BackgroundLuma: round(v.BackgroundLuma, 10), WCAG: round(v.WCAG, 100),
		Message:    "QR readers can tell these colours apart.",
		Suggestion: ColorPair{render.FormatColor(v.Color), render.FormatColor(v.Background)},
		Rule:       ContrastRule{contrast.MaxLumaRatio, contrast.MinLumaDifference, contrast.MinWCAG}}
	if !v.Readable {
		out.Message = "Hard for QR readers to read: " + v.Problem + "."
	}
	return out
}

// Check checks what no single field shows: that readers can tell the colours apart (package
// contrast), else LOW_CONTRAST with a nearby pair that they can; and that an epc code asks for
// neither the banana logo nor a level other than M, else INVALID_VALUE: the EPC guideline fixes
// the level at M, which cannot spare the logo's modules.
func (r *Request) Check() error {
	if r.Payload.Type == payload.EPC {
		if r.Logo != render.NoLogo {
			return NewError(CodeInvalidValue, "logo", "Leave out the logo (logo=none) for epc codes: the EPC guideline fixes error correction at level M, which cannot spare the logo's modules.",
				"logo banana is not available for epc codes")
		}
		if r.ECC != qr.M {
			return NewError(CodeInvalidValue, "ecc", "Leave out ecc (or give M) for epc codes: the EPC guideline requires level M.",
				"ecc %s is not available for epc codes", nameOf(levels, r.ECC))
		}
	}
	v := contrast.Judge(r.Color, r.Background)
	if v.Readable {
		return nil
	}
	fg, bg := render.FormatColor(r.Color), render.FormatColor(r.Background)
	hint := "Use a darker color, such as " + render.FormatColor(v.Color) + "."
	switch {
	case v.Color != r.Color && v.Background != r.Background:
		hint = "Use a darker color on a lighter background, such as " + render.FormatColor(v.Color) + " on " + render.FormatColor(v.Background) + "."
	case v.Background != r.Background:
		hint = "Use a lighter background, such as " + render.FormatColor(v.Background) + "."
	}
	return NewError(CodeLowContrast, "color", hint, "color %s on background %s is hard for QR readers to read: %s", fg, bg, v.Problem)
}

// The enumerations of the request, as the spec writes them (case-sensitive).
var (
	formats = map[string]Format{"json": FormatJSON, "svg": FormatSVG, "png": FormatPNG, "pdf": FormatPDF, "eps": FormatEPS}
	logos   = map[string]render.Logo{"none": render.NoLogo, "banana": render.Banana}
	corners = map[string]render.Corners{"square": render.Square, "rounded": render.Rounded}
	levels  = map[string]qr.Level{"L": qr.L, "M": qr.M, "Q": qr.Q, "H": qr.H}
)

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
		c, perr := render.ParseColor(value)
		if perr != nil {
			return true, NewError(CodeInvalidColor, name, "Give "+name+" as six hexadecimal digits, with or without #, such as 7B260F.",
				"%s %q is not a colour", name, value)
		}
		if name == "color" {
			r.Color = c
		} else {
			r.Background = c
		}
	case "format":
		r.Format, err = enum(formats, name, value, "json, svg, png, pdf or eps")
	case "logo":
		r.Logo, err = enum(logos, name, value, "none or banana")
	case "corners":
		r.Corners, err = enum(corners, name, value, "square or rounded")
	case "ecc":
		r.ECC, err = enum(levels, name, value, "L, M, Q or H (upper case)")
	default:
		return false, nil
	}
	return true, err
}

// enum returns the value of an enumerated field, or an INVALID_VALUE error naming the allowed
// ones.
func enum[T any](m map[string]T, name, value, allowed string) (T, error) {
	v, ok := m[value]
	if !ok {
		return v, NewError(CodeInvalidValue, name, "Use "+allowed+".", "%s %q is not %s", name, value, allowed)
	}
	return v, nil
}

// setInt sets size or margin, checking its range.
func (r *Request) setInt(name string, v int64) error {
	lo, hi, dst := int64(MinSize), int64(MaxSize), &r.Size
	if name == "margin" {
		lo, hi, dst = 0, MaxMargin, &r.Margin
	}
	if v < lo || v > hi {
		return NewError(CodeInvalidValue, name, fmt.Sprintf("Give %s as a whole number from %d to %d.", name, lo, hi),
			"%s %d is out of range %d..%d", name, v, lo, hi)
	}
	*dst = int(v)
	return nil
}

// parseInt parses the decimal digits of an integer parameter, with an optional minus sign.
func parseInt(name, s string) (int64, error) {
	v, err := strconv.ParseInt(s, 10, 32)
	if err != nil || s[0] == '+' {
		return 0, NewError(CodeInvalidValue, name, "Give "+name+" as a whole number, such as 1024.", "%s %q is not a whole number", name, s)
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
