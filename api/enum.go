package api

import (
	"fmt"

	"github.com/bananaqr/bananaqr/payload"
)

// This file holds the request's enumerations: one table each, giving every value its wire name,
// its place in the order documents list them, the words a form shows for it, and its meaning.
// Everything else is derived from them: parsing (SetStyle, DecodeJSON, FromQuery) and the
// allowed-values hints; through StyleChoices, the MCP tool's schema, bananaqr encode's flags,
// the web page's controls and the HTTP edge's headers and metrics; and a test holds the OpenAPI
// document's enums, their order and their x-enum-descriptions to them (TestOpenAPIStyles).

// Level is the error correction level a request asks for (ISO/IEC 18004:2015 7.5.1): the
// larger the share of codewords that can be restored, the larger the symbol. The zero value is
// M, the default.
type Level uint8

// The levels.
const (
	LevelM Level = iota // about 15 % of the codewords can be restored; the default
	LevelL              // about 7 %
	LevelQ              // about 25 %
	LevelH              // about 30 %
)

// Logo is the mark drawn in the centre of a code. The zero value is LogoNone, the default.
type Logo uint8

// The logos.
const (
	LogoNone   Logo = iota // no mark
	LogoBanana             // the service's banana, on a light pad the encoder spares
)

// Corners is the shape of the dark modules' outer corners. The zero value is CornersSquare,
// the default.
type Corners uint8

// The corner shapes.
const (
	CornersSquare  Corners = iota // square modules
	CornersRounded                // the convex corners of dark shapes rounded
)

// CaptionPosition is where a caption goes: below the code or above it. The zero value is
// CaptionBelow, the default.
type CaptionPosition uint8

// The caption positions.
const (
	CaptionBelow CaptionPosition = iota // under the code's quiet zone
	CaptionAbove                        // over the code's quiet zone
)

// The tables: wire names in document order, the words a form shows, and the meaning.
var (
	formats = enumeration[Format]{field: "format", choices: []choice[Format]{
		{FormatJSON, "json", "JSON", "a JSON answer: the SVG, the PNG in Base64, the version, the payload and the links"},
		{FormatSVG, "svg", "SVG", "an SVG image"},
		{FormatPNG, "png", "PNG", "a PNG image of size pixels"},
		{FormatPDF, "pdf", "PDF", "a PDF page for print, size pixels at 300 dpi, in vectors (a bananaqr extension)"},
		{FormatEPS, "eps", "EPS", "an EPS file for print, size pixels at 300 dpi, in vectors (a bananaqr extension)"},
	}}
	levels = enumeration[Level]{field: "ecc", note: " (upper case)", choices: []choice[Level]{
		{LevelL, "L", "7%", "about 7 % of the codewords can be restored"},
		{LevelM, "M", "15%", "about 15 % of the codewords can be restored"},
		{LevelQ, "Q", "25%", "about 25 % of the codewords can be restored"},
		{LevelH, "H", "30%", "about 30 % of the codewords can be restored"},
	}}
	logos = enumeration[Logo]{field: "logo", choices: []choice[Logo]{
		{LogoNone, "none", "None", "no mark"},
		{LogoBanana, "banana", "Banana", "the banana in the centre, on a light pad that error correction spares"},
	}}
	corners = enumeration[Corners]{field: "corners", choices: []choice[Corners]{
		{CornersSquare, "square", "Square", "square modules"},
		{CornersRounded, "rounded", "Rounded", "the outer corners of dark shapes rounded"},
	}}
	captionPositions = enumeration[CaptionPosition]{field: "caption_position", choices: []choice[CaptionPosition]{
		{CaptionBelow, "below", "Below", "the caption under the code"},
		{CaptionAbove, "above", "Above", "the caption over the code"},
	}}
)

// IsFile reports whether the format is an image file (all but json, an answer about a code):
// what a batch's files and bananaqr encode's -o may be.
func (f Format) IsFile() bool { return f != FormatJSON }

// FileFormats returns the formats that are image files, in document order.
func FileFormats() []Format {
	var out []Format
	for _, c := range formats.choices {
		if c.value.IsFile() {
			out = append(out, c.value)
		}
	}
	return out
}

// ParseFormat returns the format whose wire name is s, or an INVALID_VALUE error naming the
// allowed ones.
func ParseFormat(s string) (Format, error) { return formats.parse(s) }

// String returns the level's wire name: L, M, Q or H.
func (l Level) String() string { return levels.name(l) }

// String returns the logo's wire name: none or banana.
func (l Logo) String() string { return logos.name(l) }

// String returns the corners' wire name: square or rounded.
func (c Corners) String() string { return corners.name(c) }

// String returns the caption position's wire name: below or above.
func (p CaptionPosition) String() string { return captionPositions.name(p) }

// choice is one value of an enumeration: the value, its wire name, the words a form shows for it
// and what it means.
type choice[T comparable] struct {
	value   T
	name    string
	label   string
	meaning string
}

// Choice is one value of an enumerated field as documents and forms show it: its wire name, the
// words a form shows for it (Label: "Rounded", or "7%" beside the level's name) and its meaning.
type Choice struct {
	Name    string
	Label   string
	Meaning string
}

// enumeration is the table of an enumerated field: its name and its values in document order.
type enumeration[T comparable] struct {
	field   string
	note    string // added to the allowed-values text, such as " (upper case)"
	choices []choice[T]
}

// name returns the wire name of v; a value outside the table keeps its number, which
// DecodeJSON and FromQuery refuse as INVALID_VALUE.
func (e *enumeration[T]) name(v T) string {
	for _, c := range e.choices {
		if c.value == v {
			return c.name
		}
	}
	return fmt.Sprint(v)
}

// names returns the wire names in document order.
func (e *enumeration[T]) names() []string {
	out := make([]string, len(e.choices))
	for i, c := range e.choices {
		out[i] = c.name
	}
	return out
}

// exported returns the table's rows as Choices, in document order.
func (e *enumeration[T]) exported() []Choice {
	out := make([]Choice, len(e.choices))
	for i, c := range e.choices {
		out[i] = Choice{Name: c.name, Label: c.label, Meaning: c.meaning}
	}
	return out
}

// allowed returns the allowed-values text of hints and messages: "none or banana".
func (e *enumeration[T]) allowed() string { return payload.JoinWords(e.names(), "or") + e.note }

// parse returns the value named s, or an INVALID_VALUE error naming the allowed ones.
func (e *enumeration[T]) parse(s string) (T, error) {
	for _, c := range e.choices {
		if c.name == s {
			return c.value, nil
		}
	}
	var zero T
	a := e.allowed()
	return zero, NewError(ReasonInvalidValue, e.field, "Use "+a+".", "%s %q is not %s", e.field, s, a)
}
