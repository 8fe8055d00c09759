package api

import (
	"fmt"

	"github.com/bananaqr/bananaqr/payload"
)

// This file holds the request's enumerations other than the format: one table each, giving every
// value its wire name, its place in the order documents list them, and its meaning. Parsing
// (SetStyle, DecodeJSON, FromQuery), the allowed-values hints, StyleValues (and through it the
// OpenAPI check, the MCP schema and bananaqr encode's flags) and the query strings all read them.

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

// The tables: wire names in document order, with their meaning.
var (
	levels = enumeration[Level]{field: "ecc", note: " (upper case)", choices: []choice[Level]{
		{LevelL, "L", "about 7 % of the codewords can be restored"},
		{LevelM, "M", "about 15 % of the codewords can be restored"},
		{LevelQ, "Q", "about 25 % of the codewords can be restored"},
		{LevelH, "H", "about 30 % of the codewords can be restored"},
	}}
	logos = enumeration[Logo]{field: "logo", choices: []choice[Logo]{
		{LogoNone, "none", "no mark"},
		{LogoBanana, "banana", "the banana in the centre, on a light pad that error correction spares"},
	}}
	corners = enumeration[Corners]{field: "corners", choices: []choice[Corners]{
		{CornersSquare, "square", "square modules"},
		{CornersRounded, "rounded", "the outer corners of dark shapes rounded"},
	}}
)

// String returns the level's wire name: L, M, Q or H.
func (l Level) String() string { return levels.name(l) }

// String returns the logo's wire name: none or banana.
func (l Logo) String() string { return logos.name(l) }

// String returns the corners' wire name: square or rounded.
func (c Corners) String() string { return corners.name(c) }

// choice is one value of an enumeration: the value, its wire name and what it means.
type choice[T comparable] struct {
	value   T
	name    string
	meaning string
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
