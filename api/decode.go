package api

import (
	"bytes"
	"encoding/json"
	"io"
	"maps"
	"net/url"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/bananaqr/bananaqr/payload"
)

// MaxBody is the largest request body the API reads (64 KiB).
const MaxBody = 64 << 10

// stringFields are the request's string properties that carry the payload, each with where it
// goes in payload.Request.
var stringFields = map[string]func(p *payload.Request) *string{
	"data":         func(p *payload.Request) *string { return &p.Data },
	"url":          func(p *payload.Request) *string { return &p.URL },
	"text":         func(p *payload.Request) *string { return &p.Text },
	"ssid":         func(p *payload.Request) *string { return &p.SSID },
	"password":     func(p *payload.Request) *string { return &p.Password },
	"security":     func(p *payload.Request) *string { return &p.Security },
	"encryption":   func(p *payload.Request) *string { return &p.Encryption },
	"name":         func(p *payload.Request) *string { return &p.Name },
	"firstName":    func(p *payload.Request) *string { return &p.FirstName },
	"lastName":     func(p *payload.Request) *string { return &p.LastName },
	"organization": func(p *payload.Request) *string { return &p.Organization },
	"jobTitle":     func(p *payload.Request) *string { return &p.JobTitle },
	"title":        func(p *payload.Request) *string { return &p.Title },
	"phone":        func(p *payload.Request) *string { return &p.Phone },
	"email":        func(p *payload.Request) *string { return &p.Email },
	"website":      func(p *payload.Request) *string { return &p.Website },
	"to":           func(p *payload.Request) *string { return &p.To },
	"subject":      func(p *payload.Request) *string { return &p.Subject },
	"message":      func(p *payload.Request) *string { return &p.Message },
	"body":         func(p *payload.Request) *string { return &p.Body },
}

// payloadAliases are the older reference's names among stringFields, each with the field it
// stands for (payload.Request reads both and refuses them when they disagree).
var payloadAliases = map[string]string{
	"encryption": "security", "firstName": "name", "lastName": "name", "title": "jobTitle", "body": "message",
}

// PayloadFields returns the names of the request's string fields that build a payload of a type,
// in name order: every one but data and the older reference's aliases. bananaqr encode makes a
// flag of each.
func PayloadFields() []string {
	var names []string
	for name := range stringFields {
		if _, alias := payloadAliases[name]; !alias && name != "data" {
			names = append(names, name)
		}
	}
	slices.Sort(names)
	return names
}

// PayloadAliases returns the older reference's field names, each with the field it stands for;
// the page reads them to show an error beside the control it concerns.
func PayloadAliases() map[string]string { return maps.Clone(payloadAliases) }

// DecodeJSON reads a POST body (spec 2.1): one JSON object of the request's properties, each of
// its JSON type (strings, the booleans hidden and download, the integers size and margin), no
// unknown property, nothing after the object. data, url and text may not be empty.
func DecodeJSON(body []byte) (Request, error) {
	r := NewRequest()
	if !utf8.Valid(body) {
		return r, NewError(CodeInvalidJSON, "", "Send the body as UTF-8 JSON.", "the body is not valid UTF-8")
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	fields, err := readObject(dec)
	if err != nil {
		return r, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return r, NewError(CodeInvalidJSON, "", "Send exactly one JSON object, with nothing after it.", "the body has data after the JSON object")
	}
	// In name order, so that a body with several faults always gets the same error.
	for _, name := range slices.Sorted(maps.Keys(fields)) {
		if err := r.setJSON(name, fields[name]); err != nil {
			return r, err
		}
	}
	return r, nil
}

// readObject reads one JSON object from dec: its properties by name, each value as it is. A
// name given twice is refused: RFC 8259 4 leaves duplicate names to the reader and readers
// differ (Go's encoding/json keeps the last value, others the first), so which one was meant is
// unknown, as with a query parameter given twice. Names are compared unescaped.
func readObject(dec *json.Decoder) (map[string]json.RawMessage, error) {
	notObject := NewError(CodeInvalidJSON, "", `Send one JSON object, such as {"type":"url","url":"https://example.com"}.`,
		"the body is not a JSON object")
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return nil, notObject
	}
	fields := map[string]json.RawMessage{}
	for dec.More() {
		tok, err := dec.Token()
		name, ok := tok.(string)
		if err != nil || !ok {
			return nil, notObject
		}
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return nil, notObject
		}
		if _, dup := fields[name]; dup {
			return nil, NewError(CodeInvalidJSON, name, "Give "+name+" once.", "the body gives %q more than once", name)
		}
		fields[name] = raw
	}
	if tok, err := dec.Token(); err != nil || tok != json.Delim('}') {
		return nil, notObject
	}
	return fields, nil
}

// setJSON sets property name from its JSON value.
func (r *Request) setJSON(name string, raw json.RawMessage) error {
	wrongType := func(want string) error { // want with its article: "an integer"
		return NewError(CodeWrongType, name, "Send "+name+" as "+want+".", "%s must be %s", name, want)
	}
	switch name {
	case "hidden", "download":
		var b bool
		if err := json.Unmarshal(raw, &b); err != nil {
			return wrongType("a JSON boolean (true or false)")
		}
		if name == "hidden" {
			r.Payload.Hidden = b
		} else {
			r.Download = b
		}
		return nil
	case "size", "margin":
		s := string(raw)
		if strings.ContainsAny(s, ".eE") || len(s) == 0 || (s[0] != '-' && (s[0] < '0' || s[0] > '9')) {
			return wrongType("a JSON integer")
		}
		v, err := parseInt(name, s)
		if err != nil {
			return err
		}
		return r.setInt(name, v)
	}
	var s string
	if err := json.Unmarshal(raw, &s); err != nil || raw[0] != '"' {
		if _, known := stringFields[name]; known || isStyle(name) || name == "type" {
			return wrongType("a JSON string")
		}
		return unknownField(name)
	}
	if strings.ContainsRune(s, utf8.RuneError) && !strings.ContainsRune(string(raw), utf8.RuneError) &&
		!strings.Contains(strings.ToLower(string(raw)), `\ufffd`) {
		return NewError(payload.CodeInvalidText, name, "Send "+name+" as text without lone UTF-16 surrogates (\\ud800-\\udfff).",
			"%s holds a lone surrogate", name)
	}
	return r.setString(name, s)
}

func unknownField(name string) error {
	return NewError(CodeUnknownField, name, "Remove "+name+"; the request's properties are listed in /openapi.json.",
		"the request has no property %q", name)
}

// setString sets a string property: a payload field, type, or a style field.
func (r *Request) setString(name, value string) error {
	if field, ok := stringFields[name]; ok {
		if value == "" && (name == "data" || name == "url" || name == "text") {
			return NewError(CodeEmptyValue, name, "Give "+name+" at least one character, or leave it out.", "%s is empty", name)
		}
		*field(&r.Payload) = value
		return nil
	}
	if name == "type" {
		if value == "" {
			return NewError(payload.CodeInvalidType, name, "Use "+payload.JoinWords(payload.Types, "or")+".", "type is empty")
		}
		r.Payload.Type = payload.Type(value)
		return nil
	}
	if ok, err := r.setStyle(name, value); ok {
		return err
	}
	return unknownField(name)
}

// Route is a GET endpoint that reads its request from the query string.
type Route int

// The GET routes.
const (
	RouteQRCode Route = iota // /api/qr-code: format from the query
	RouteURL                 // /api/qr-code/url: the url parameter only, as type url
	RoutePNG                 // /api/qr-code.png: always PNG
	RouteSVG                 // /api/qr-code.svg: always SVG
)

// queryNames are the parameters a GET request reads; others are ignored (links get tracking
// parameters appended).
var queryNames = []string{"type", "url", "text", "data", "color", "background", "logo", "corners", "size",
	"format", "download", "ecc", "margin"}

// FromQuery reads a GET request from its raw query string (spec 4.1, 4.3 to 4.5): url, text or
// raw data, and the style parameters; type may be url or text (the structured types need POST);
// download is 0, 1, true or false. A parameter the route reads may be given once only.
func FromQuery(rawQuery string, route Route) (Request, error) {
	r := NewRequest()
	q, err := parseQuery(rawQuery)
	if err != nil {
		return r, err
	}
	if err := routeQuery(&r, q, route); err != nil {
		return r, err
	}
	for _, name := range queryNames {
		v, ok, err := queryValue(q, name)
		if err != nil {
			return r, err
		}
		if !ok {
			continue
		}
		if err := r.setQuery(name, v); err != nil {
			return r, err
		}
	}
	switch route {
	case RoutePNG:
		r.Format = FormatPNG
	case RouteSVG:
		r.Format = FormatSVG
	}
	return r, nil
}

// routeQuery drops from q the parameters that route sets itself (spec 4.3 to 4.5): /url takes
// the url parameter only, as type url, and requires it; the .png and .svg routes fix the format.
func routeQuery(r *Request, q url.Values, route Route) error {
	switch route {
	case RouteURL:
		delete(q, "type")
		delete(q, "text")
		delete(q, "data")
		if _, ok := q["url"]; !ok {
			return NewError(payload.CodeMissingField, "url", "Add url: the address to encode, percent-encoded.", "url is required")
		}
		r.Payload.Type = payload.URL
	case RoutePNG, RouteSVG:
		delete(q, "format")
	}
	return nil
}

// setQuery sets the request's property name to the query parameter's value v: type, the style
// sizes (size, margin), download, or one of the string properties.
func (r *Request) setQuery(name, v string) error {
	switch name {
	case "type":
		t, err := queryType(v)
		if err != nil {
			return err
		}
		r.Payload.Type = t
	case "size", "margin":
		return r.SetStyle(name, v)
	case "download":
		switch v {
		case "0", "false":
			r.Download = false
		case "1", "true":
			r.Download = true
		default:
			return NewError(CodeInvalidValue, name, "Use 0 or 1 (or false or true).", "download %q is not 0, 1, false or true", v)
		}
	default:
		return r.setString(name, v)
	}
	return nil
}

// queryType returns the payload type v of a GET request: url or text.
func queryType(v string) (payload.Type, error) {
	// The private types are made with POST, so that their fields stay out of URLs and
	// logs; which types are private is payload's one judgement (Type.Private).
	switch t := payload.Type(v); {
	case !slices.Contains(payload.Types, t):
		return "", NewError(payload.CodeInvalidType, "type", "Use "+payload.JoinWords(payload.PublicTypes(), "or")+" with GET; "+
			payload.JoinWords(payload.PrivateTypes(), "and")+" with POST.",
			"type %q is not a payload type", v)
	case t.Private():
		return "", NewError(CodeUsePost, "type", "Send "+v+" codes with POST /api/qr-code and a JSON body.",
			"type %s is made with POST, not GET", v)
	default:
		return t, nil
	}
}

// ColorsFromQuery reads the query string of GET /api/contrast: color and background, each at
// most once, the defaults where absent; other parameters are ignored.
func ColorsFromQuery(rawQuery string) (Request, error) {
	r := NewRequest()
	q, err := parseQuery(rawQuery)
	if err != nil {
		return r, err
	}
	for _, name := range []string{"color", "background"} {
		v, ok, err := queryValue(q, name)
		if err == nil && ok {
			_, err = r.setStyle(name, v)
		}
		if err != nil {
			return r, err
		}
	}
	return r, nil
}

// parseQuery parses a raw query string, or returns INVALID_QUERY.
func parseQuery(rawQuery string) (url.Values, error) {
	q, err := url.ParseQuery(rawQuery)
	if err != nil {
		return nil, NewError(CodeInvalidQuery, "", "Percent-encode the parameter values (a ; as %3B, a % as %25).",
			"the query string cannot be parsed")
	}
	return q, nil
}

// queryValue returns the value of parameter name in q, and whether it is there: an error when
// it is given more than once or is not UTF-8.
func queryValue(q url.Values, name string) (string, bool, error) {
	values, ok := q[name]
	switch {
	case !ok:
		return "", false, nil
	case len(values) > 1:
		return "", true, NewError(CodeInvalidQuery, name, "Give "+name+" once.", "%s is given %d times", name, len(values))
	case !utf8.ValidString(values[0]):
		return "", true, NewError(payload.CodeInvalidText, name, "Percent-encode "+name+" as UTF-8.", "%s is not valid UTF-8", name)
	}
	return values[0], true, nil
}
