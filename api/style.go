package api

import "strconv"

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
		return logos.names()
	case "corners":
		return corners.names()
	case "ecc":
		return levels.names()
	}
	return nil
}

// StyleDefaults returns the default of every style field as text, by name: color and
// background as RRGGBB without #, size and margin as decimal integers, the others by name.
func StyleDefaults() map[string]string {
	d := NewRequest()
	return map[string]string{
		"color": FormatColor(d.Color)[1:], "background": FormatColor(d.Background)[1:],
		"size": strconv.Itoa(d.Size), "margin": strconv.Itoa(d.Margin), "format": string(d.Format),
		"logo": d.Logo.String(), "corners": d.Corners.String(), "ecc": d.ECC.String(),
	}
}

// isStyle reports whether name is a style field: one of StyleDefaults' names.
func isStyle(name string) bool {
	_, ok := StyleDefaults()[name]
	return ok
}
