package generate

import (
	"fmt"
	"math"

	"github.com/bananaqr/bananaqr/api"
	"github.com/bananaqr/bananaqr/contrast"
	"github.com/bananaqr/bananaqr/payload"
	"github.com/bananaqr/bananaqr/qr"
	"github.com/bananaqr/bananaqr/render"
)

// This file holds the rules of the domain that a request meets on its way through: how its wire
// values become the encoder's and the renderers' options, the logo's cover, the EPC guideline,
// the colours' contrast and the style's warnings. Package api only carries and parses the request.

// level returns the encoder's level of a request's.
func level(l api.Level) qr.Level {
	switch l {
	case api.LevelL:
		return qr.L
	case api.LevelQ:
		return qr.Q
	case api.LevelH:
		return qr.H
	}
	return qr.M
}

// characterList names characters as "中 (U+4E2D) and 😀 (U+1F600)".
func characterList(chars []rune) string {
	names := make([]string, len(chars))
	for i, c := range chars {
		names[i] = fmt.Sprintf("%c (U+%04X)", c, c)
	}
	return payload.JoinWords(names, "and")
}

// Options returns how to draw the code of r (without the destination, which its payload gives:
// optionsFor).
func Options(r *api.Request) render.Options {
	o := render.Options{Size: r.Size, Margin: r.Margin, Foreground: r.Color, Background: r.Background,
		Corners: render.Square, Logo: render.NoLogo, Caption: r.Caption, CaptionAbove: r.CaptionPosition == api.CaptionAbove}
	if r.Corners == api.CornersRounded {
		o.Corners = render.Rounded
	}
	if r.Logo == api.LogoBanana {
		o.Logo = render.Banana
	}
	if r.Payload.Type == payload.SwissQR {
		swissOptions(r, &o)
	}
	return o
}

// swissOptions sets o, the options of a swissqr code r, to the Swiss QR Code's (SIX IG QR-bill
// 2.3): the Swiss cross (which draws the print formats and the SVG at 46 mm for the symbol), black
// on white (Check accepts the default colour as the colour left out). Size is ignored, not refused,
// by the formats of fixed physical size, pdf, eps and svg: they are given the largest size, so
// that a symbol fits whatever size was asked; a png (and json's) keeps its pixels.
func swissOptions(r *api.Request, o *render.Options) {
	o.Logo, o.Foreground, o.Background = render.SwissCross, swissBlack, swissWhite
	switch r.Format {
	case api.FormatPDF, api.FormatEPS, api.FormatSVG:
		o.Size = render.MaxSize
	}
}

// optionsFor returns how to draw the code of r, whose payload is p: Options, with the destination
// of a public url code when r asks to show it (checkDestination has checked that it can): the
// host in Unicode, and in ASCII too when its letters mix scripts (a homograph's mark) or in
// ASCII only when the font cannot draw it; the path decoded when the font draws it.
func optionsFor(r *api.Request, p payload.Payload) render.Options {
	o := Options(r)
	if !r.ShowDestination {
		return o
	}
	d, _ := payload.DestinationOf(p.Text)
	switch {
	case !render.DestinationDrawable(d.Host):
		o.DestinationHost = d.ASCIIHost
	case d.MixedScripts:
		o.DestinationHost = d.Host + " (" + d.ASCIIHost + ")"
	default:
		o.DestinationHost = d.Host
	}
	o.DestinationPath = d.Path
	if !render.DestinationDrawable(d.Path) {
		o.DestinationPath = d.RawPath
	}
	return o
}

// Encoding returns how to encode the symbol of r: at the level asked for or stronger, and with
// the logo's pad covered, so that the encoder keeps error correction to spare for it rather
// than forcing level H, whose larger symbol has smaller modules at the same printed size and
// reads worse in a camera than a smaller one with its pad.
//
// An epc code (a bananaqr extension) is encoded as the EPC guideline (EPC069-12) requires: at
// level M exactly, never raised, and without the ECI designator, since its third line names the
// character set (UTF-8) and banking apps read that; Check refuses a logo or another level for it.
//
// A swissqr code is encoded as the Swiss Implementation Guidelines for the QR-bill (SIX, 2.3)
// require: at level M exactly, its text UTF-8 (the guideline's character set) without the ECI
// designator, which the guideline does not ask for and which the Swiss banking apps, reading
// UTF-8 bytes, do not need; and with the modules under the Swiss cross covered
// (render.SwissCrossCover) as the cross paints them (render.SwissCrossPaint: its black square
// damages light modules too), so that error correction spares them. Prepare and Symbol refuse a
// version above 25 (render.SwissMaxVersion).
func Encoding(r *api.Request) qr.Options {
	switch r.Payload.Type {
	case payload.EPC:
		return qr.Options{Level: qr.M, NoBoost: true, NoECI: true}
	case payload.SwissQR:
		return qr.Options{Level: qr.M, NoBoost: true, NoECI: true, Cover: render.SwissCrossCover, CoverPaint: render.SwissCrossPaint}
	}
	o := qr.Options{Level: level(r.ECC)}
	if r.Logo == api.LogoBanana {
		o.Cover = render.LogoPad
	}
	return o
}

// Check checks what no single field of r shows: that readers can tell the colours apart
// (package contrast), else LOW_CONTRAST with a nearby pair that they can; and that the style
// fields a payload type's standard fixes have their one value (FixedStyles: an epc code has no
// logo and level M) and that a swissqr code has no caption, else INVALID_VALUE.
func Check(r *api.Request) error {
	if err := checkFixed(r); err != nil {
		return err
	}
	if missing := render.CaptionMissing(r.Caption); len(missing) > 0 {
		return api.NewError(api.ReasonInvalidCaption, "caption",
			"Write the caption in Latin, Greek or Cyrillic letters, digits and punctuation: the caption font (Noto Sans) has no others.",
			"caption holds %s, which the caption font cannot draw", characterList(missing))
	}
	if r.Caption != "" && r.Payload.Type == payload.SwissQR {
		return api.NewError(api.ReasonInvalidValue, "caption",
			"Leave out caption for swissqr codes: the QR-bill's payment part has its own texts around the Swiss QR Code (SIX IG QR-bill 2.3).",
			"a swissqr code takes no caption")
	}
	v := contrast.Judge(r.Color, r.Background)
	if v.Readable {
		return nil
	}
	fg, bg := api.FormatColor(r.Color), api.FormatColor(r.Background)
	hint := "Use a darker color, such as " + api.FormatColor(v.Color) + "."
	switch {
	case v.Color != r.Color && v.Background != r.Background:
		hint = "Use a darker color on a lighter background, such as " + api.FormatColor(v.Color) + " on " + api.FormatColor(v.Background) + "."
	case v.Background != r.Background:
		hint = "Use a lighter background, such as " + api.FormatColor(v.Background) + "."
	}
	return api.NewError(api.ReasonLowContrast, "color", hint, "color %s on background %s is hard for QR readers to read: %s", fg, bg, v.Problem)
}

// Contrast returns the verdict of package contrast on the colours of r, as GET /api/contrast
// answers it.
func Contrast(r *api.Request) api.Contrast {
	v := contrast.Judge(r.Color, r.Background)
	round := func(x, per float64) float64 { return math.Round(x*per) / per } // to 1/per
	out := api.Contrast{Readable: v.Readable, Color: api.FormatColor(r.Color), Background: api.FormatColor(r.Background),
		ColorLuma: round(v.ColorLuma, 10), BackgroundLuma: round(v.BackgroundLuma, 10), WCAG: round(v.WCAG, 100),
		Message:    "QR readers can tell these colours apart.",
		Suggestion: api.ColorPair{Color: api.FormatColor(v.Color), Background: api.FormatColor(v.Background)},
		Rule: api.ContrastRule{MaxLumaRatio: contrast.MaxLumaRatio,
			MinLumaDifference: contrast.MinLumaDifference, MinWCAG: contrast.MinWCAG}}
	if !v.Readable {
		out.Message = "Hard for QR readers to read: " + v.Problem + "."
	}
	return out
}

// StyleWarnings returns what about the style of r some readers mishandle, though it is valid.
func StyleWarnings(r *api.Request) []api.Warning {
	if r.Margin < api.DefaultMargin {
		return []api.Warning{{Reason: api.ReasonSmallQuietZone, Field: "margin",
			Message: fmt.Sprintf("A quiet zone of %d modules is below the 4 that the QR standard asks for: many readers fail without it unless the code is placed on a wide light area.", r.Margin)}}
	}
	return nil
}
