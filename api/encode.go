package api

import (
	"encoding/json"
	"strconv"
	"unicode/utf8"

	"github.com/bananaqr/bananaqr/payload"
)

// EncodeJSON returns the POST body (spec 2.1) that asks for r, the inverse of DecodeJSON: the
// payload fields that are set, type, and the format, download and style fields that differ
// from NewRequest's defaults. A string that is not valid UTF-8 cannot be written as JSON
// without changing it, so it is refused with an INVALID_TEXT *Error rather than replaced.
//
// A field left at a zero value that is not one of its values asks for the service's default,
// so that the zero Request, or one that sets only its Payload, asks for the defaults: an empty
// Format, a Size of 0, a Color or Background whose alpha is 0 (the API's colours are opaque);
// and, in a Request whose Size is 0 (one not made by NewRequest), a Margin of 0 too. A Request
// with a Size asks for the Margin it holds, 0 included.
func EncodeJSON(r *Request) ([]byte, error) {
	set := withDefaults(*r)
	r = &set
	body := map[string]any{}
	for name, field := range stringFields {
		if v := *field(&r.Payload); v != "" {
			body[name] = v
		}
	}
	if r.Payload.Type != "" {
		body["type"] = string(r.Payload.Type)
	}
	for name, v := range body {
		if !utf8.ValidString(v.(string)) {
			return nil, NewError(payload.ReasonInvalidText, name, "Give "+name+" as UTF-8 text.", "%s is not valid UTF-8", name)
		}
	}
	if r.Payload.Hidden {
		body["hidden"] = true
	}
	if r.Download {
		body["download"] = true
	}
	if r.Format != NewRequest().Format {
		body["format"] = string(r.Format)
	}
	for _, f := range r.styleFields() {
		switch {
		case f.number:
			body[f.name] = json.Number(f.value)
		case f.boolean:
			body[f.name] = true
		default:
			body[f.name] = f.value
		}
	}
	return json.Marshal(body)
}

// withDefaults returns r with the fields it leaves unset, as EncodeJSON reads them, at
// NewRequest's defaults.
func withDefaults(r Request) Request {
	d := NewRequest()
	if r.Format == "" {
		r.Format = d.Format
	}
	if r.Size == 0 {
		r.Size = d.Size
		if r.Margin == 0 {
			r.Margin = d.Margin
		}
	}
	if r.Color.A == 0 {
		r.Color = d.Color
	}
	if r.Background.A == 0 {
		r.Background = d.Background
	}
	return r
}

// styleField is a style field of a request in its text form (number: a decimal integer;
// boolean: true).
type styleField struct {
	name, value     string
	number, boolean bool
}

// styleFields returns the style fields of r that differ from the defaults, in the forms
// DecodeJSON and FromQuery read: colours as RRGGBB without #, enumerations by name, size and
// margin as decimal integers.
func (r *Request) styleFields() []styleField {
	d := NewRequest()
	var fs []styleField
	add := func(differs bool, name, value string, number bool) {
		if differs {
			fs = append(fs, styleField{name: name, value: value, number: number})
		}
	}
	add(r.Color != d.Color, "color", FormatColor(r.Color)[1:], false)
	add(r.Background != d.Background, "background", FormatColor(r.Background)[1:], false)
	add(r.Logo != d.Logo, "logo", r.Logo.String(), false)
	add(r.Corners != d.Corners, "corners", r.Corners.String(), false)
	add(r.ECC != d.ECC, "ecc", r.ECC.String(), false)
	add(r.Size != d.Size, "size", strconv.Itoa(r.Size), true)
	add(r.Margin != d.Margin, "margin", strconv.Itoa(r.Margin), true)
	add(r.Caption != d.Caption, "caption", r.Caption, false)
	add(r.CaptionPosition != d.CaptionPosition, "caption_position", r.CaptionPosition.String(), false)
	if r.ShowDestination {
		fs = append(fs, styleField{name: "show_destination", value: "true", boolean: true})
	}
	return fs
}
