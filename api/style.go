package api

import (
	"strconv"

	"github.com/bananaqr/bananaqr/render"
)

// This file is the one list of the request's style fields: their names, their allowed values in
// the order documents list them, and their defaults, as the query string and the JSON body spell
// them. The MCP tool's input schema, bananaqr encode's flags and help, and the HTTP edge's
// headers read them from here; a test holds the OpenAPI document to them.

// StyleValues returns the allowed values of the enumerated style field name (format, logo,
// corners or ecc) in order; nil for any other name.
func StyleValues(name string) []string {
	switch name {
	case "format":
		return []string{string(FormatSVG), string(FormatPNG), string(FormatJSON), string(FormatPDF), string(FormatEPS)}
	case "logo":
		return []string{nameOf(logos, render.NoLogo), nameOf(logos, render.Banana)}
	case "corners":
		return []string{nameOf(corners, render.Square), nameOf(corners, render.Rounded)}
	case "ecc":
		return []string{"L", "M", "Q", "H"}
	}
	return nil
}

// StyleDefaults returns the default of every style field as text, by name: color and
// background as RRGGBB without #, size and margin as decimal integers, the others by name.
func StyleDefaults() map[string]string {
	d := NewRequest()
	return map[string]string{
		"color": render.FormatColor(d.Color)[1:], "background": render.FormatColor(d.Background)[1:],
		"size": strconv.Itoa(d.Size), "margin": strconv.Itoa(d.Margin), "format": string(d.Format),
		"logo": LogoName(d.Logo), "corners": nameOf(corners, d.Corners), "ecc": nameOf(levels, d.ECC),
	}
}

// isStyle reports whether name is a style field: one of StyleDefaults' names.
func isStyle(name string) bool {
	_, ok := StyleDefaults()[name]
	return ok
}

// LogoName returns the API's name of a logo: none or banana.
func LogoName(l render.Logo) string { return nameOf(logos, l) }
