package generate

import (
	"fmt"
	"image/color"
	"strings"

	"github.com/bananaqr/bananaqr/api"
	"github.com/bananaqr/bananaqr/payload"
)

// FixedStyle is what the standard of a payload type fixes of a code's style: the style fields
// that may have one value only, and why. Check refuses any other value; the web page locks the
// fields to these values and shows Why, and the MCP tool's description says it, all from
// FixedStyles.
type FixedStyle struct {
	Type   payload.Type
	Fields []FixedField
	Why    string // the rule and its source, a clause without a final full stop
}

// FixedField is a style field and the only value (its wire name) that it may have.
type FixedField struct {
	Name  string // logo, ecc, corners, color or background
	Value string
	// Default, when not empty, is the service's default of the field, accepted too and drawn as
	// Value: a request cannot tell a colour left out from the default given, and the field left
	// out must be accepted. (The swissqr code's colour: the default #7B260F stands for "left
	// out", and the code is drawn black.)
	Default string
}

// FixedStyles lists every payload type whose standard fixes its style. An epc code (a bananaqr
// extension) is at error correction level M without a logo: the EPC guideline (EPC069-12)
// requires level M, and M cannot spare the logo's modules. Encoding encodes it so.
//
// A swissqr code is the Swiss QR Code of the QR-bill (SIX, Swiss Implementation Guidelines for the
// QR-bill 2.3, and its style guide): level M, black square modules on white, and the Swiss cross
// in its centre, which is the only mark it may carry. Encoding and the renderers draw it so
// (render.SwissCross).
var FixedStyles = []FixedStyle{{
	Type:   payload.EPC,
	Fields: []FixedField{{Name: "logo", Value: api.LogoNone.String()}, {Name: "ecc", Value: api.LevelM.String()}},
	Why:    "the EPC guideline requires error correction level M, which cannot spare a logo's modules, and banking apps expect it",
}, {
	Type: payload.SwissQR,
	Fields: []FixedField{{Name: "logo", Value: api.LogoNone.String()}, {Name: "ecc", Value: api.LevelM.String()},
		{Name: "corners", Value: api.CornersSquare.String()},
		{Name: "color", Value: api.FormatColor(swissBlack), Default: api.FormatColor(api.DefaultColor)},
		{Name: "background", Value: api.FormatColor(swissWhite)}},
	Why: "the Swiss Implementation Guidelines for the QR-bill (SIX, version 2.3) require error correction level M and " +
		"black square modules on white, with the Swiss cross in the centre, which the service draws, as the only mark",
}}

// The Swiss QR Code's colours (SIX IG QR-bill 2.3): black on white.
var (
	swissBlack = color.RGBA{0, 0, 0, 0xff}
	swissWhite = color.RGBA{0xff, 0xff, 0xff, 0xff}
)

// checkFixed returns INVALID_VALUE for the first style field of r that the standard of its type
// fixes to another value (FixedStyles), or nil.
func checkFixed(r *api.Request) error {
	for _, f := range FixedStyles {
		if f.Type != r.Payload.Type {
			continue
		}
		for _, field := range f.Fields {
			if got := styleValue(r, field.Name); got != field.Value && got != field.Default {
				return api.NewError(api.ReasonInvalidValue, field.Name,
					fmt.Sprintf("Leave out %s (or give %s) for %s codes: %s.", field.Name, field.Value, f.Type, f.Why),
					"%s %s is not available for %s codes", field.Name, got, f.Type)
			}
		}
	}
	return nil
}

// styleValue returns the wire name of r's value of the style field that FixedStyles may name.
func styleValue(r *api.Request, name string) string {
	switch name {
	case "logo":
		return r.Logo.String()
	case "ecc":
		return r.ECC.String()
	case "corners":
		return r.Corners.String()
	case "color":
		return api.FormatColor(r.Color)
	case "background":
		return api.FormatColor(r.Background)
	}
	panic("generate: FixedStyles names " + name + ", which styleValue does not read")
}

// String says what f fixes, as a sentence: "An epc code always has logo none and ecc M: the EPC
// guideline requires …".
func (f FixedStyle) String() string {
	fields := make([]string, len(f.Fields))
	for i, field := range f.Fields {
		fields[i] = field.Name + " " + field.Value
	}
	article := "A "
	if strings.ContainsRune("aeiou", rune(f.Type[0])) {
		article = "An "
	}
	return article + string(f.Type) + " code always has " + payload.JoinWords(fields, "and") + ": " + f.Why + "."
}

// FixedSentences returns the sentences of every FixedStyle, joined by spaces.
func FixedSentences() string {
	s := make([]string, len(FixedStyles))
	for i, f := range FixedStyles {
		s[i] = f.String()
	}
	return strings.Join(s, " ")
}
