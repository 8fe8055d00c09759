package api

import "strconv"

// This file is the one list of the request's style fields: their names, their allowed values in
// the order documents list them, and their defaults, as the query string and the JSON body spell
// them. The MCP tool's input schema, bananaqr encode's flags and help, and the HTTP edge's
// headers read them from here; a test holds the OpenAPI document to them.

// StyleValues returns the allowed values of the enumerated style field name (format, logo,
// corners, ecc or caption_position) in document order; nil for any other name.
func StyleValues(name string) []string {
	var out []string
	for _, c := range StyleChoices(name) {
		out = append(out, c.Name)
	}
	return out
}

// StyleChoices returns the values of the enumerated style field name (format, logo, corners, ecc
// or caption_position) in document order, with the words a form shows and their meanings (enum.go's tables); nil
// for any other name.
func StyleChoices(name string) []Choice {
	switch name {
	case "format":
		return formats.exported()
	case "logo":
		return logos.exported()
	case "corners":
		return corners.exported()
	case "ecc":
		return levels.exported()
	case "caption_position":
		return captionPositions.exported()
	}
	return nil
}

// StyleDefaults returns the default of every style field as text, by name: color and
// background as RRGGBB without #, size and margin as decimal integers, show_destination as
// false, caption as the empty string (none), the others by name.
func StyleDefaults() map[string]string {
	d := NewRequest()
	return map[string]string{
		"color": FormatColor(d.Color)[1:], "background": FormatColor(d.Background)[1:],
		"size": strconv.Itoa(d.Size), "margin": strconv.Itoa(d.Margin), "format": string(d.Format),
		"logo": d.Logo.String(), "corners": d.Corners.String(), "ecc": d.ECC.String(),
		"caption": d.Caption, "caption_position": d.CaptionPosition.String(), "show_destination": strconv.FormatBool(d.ShowDestination),
	}
}

// isStyle reports whether name is a style field: one of StyleDefaults' names.
func isStyle(name string) bool {
	_, ok := StyleDefaults()[name]
	return ok
}
