package api

import (
	"bytes"
	"encoding/json"
	"io"
	"maps"
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
	// The bananaqr extensions' fields (types tel, geo, event and epc); tel's number is phone,
	// epc's beneficiary name.
	"latitude":    func(p *payload.Request) *string { return &p.Latitude },
	"longitude":   func(p *payload.Request) *string { return &p.Longitude },
	"altitude":    func(p *payload.Request) *string { return &p.Altitude },
	"summary":     func(p *payload.Request) *string { return &p.Summary },
	"start":       func(p *payload.Request) *string { return &p.Start },
	"end":         func(p *payload.Request) *string { return &p.End },
	"location":    func(p *payload.Request) *string { return &p.Location },
	"description": func(p *payload.Request) *string { return &p.Description },
	"iban":        func(p *payload.Request) *string { return &p.IBAN },
	"bic":         func(p *payload.Request) *string { return &p.BIC },
	"amount":      func(p *payload.Request) *string { return &p.Amount },
	"reference":   func(p *payload.Request) *string { return &p.Reference },
	"remittance":  func(p *payload.Request) *string { return &p.Remittance },
	// The payment types' fields (swissqr, emvco, upi, spayd, bitcoin), beside name, iban, bic,
	// amount, reference and message, which they share with the types above.
	"currency":             func(p *payload.Request) *string { return &p.Currency },
	"country":              func(p *payload.Request) *string { return &p.Country },
	"city":                 func(p *payload.Request) *string { return &p.City },
	"postalCode":           func(p *payload.Request) *string { return &p.PostalCode },
	"street":               func(p *payload.Request) *string { return &p.Street },
	"buildingNumber":       func(p *payload.Request) *string { return &p.BuildingNumber },
	"debtorName":           func(p *payload.Request) *string { return &p.DebtorName },
	"debtorStreet":         func(p *payload.Request) *string { return &p.DebtorStreet },
	"debtorBuildingNumber": func(p *payload.Request) *string { return &p.DebtorBuildingNumber },
	"debtorPostalCode":     func(p *payload.Request) *string { return &p.DebtorPostalCode },
	"debtorCity":           func(p *payload.Request) *string { return &p.DebtorCity },
	"debtorCountry":        func(p *payload.Request) *string { return &p.DebtorCountry },
	"billInformation":      func(p *payload.Request) *string { return &p.BillInformation },
	"scheme":               func(p *payload.Request) *string { return &p.Scheme },
	"key":                  func(p *payload.Request) *string { return &p.Key },
	"merchantCategory":     func(p *payload.Request) *string { return &p.MerchantCategory },
	"vpa":                  func(p *payload.Request) *string { return &p.VPA },
	"dueDate":              func(p *payload.Request) *string { return &p.DueDate },
	"variableSymbol":       func(p *payload.Request) *string { return &p.VariableSymbol },
	"specificSymbol":       func(p *payload.Request) *string { return &p.SpecificSymbol },
	"constantSymbol":       func(p *payload.Request) *string { return &p.ConstantSymbol },
	"address":              func(p *payload.Request) *string { return &p.Address },
	"label":                func(p *payload.Request) *string { return &p.Label },
	"lightning":            func(p *payload.Request) *string { return &p.Lightning },
}

// numberFields are the string fields that a JSON body may also give as a JSON number: the
// number's literal is kept as it is (never read into a float64, which would turn 0.1 into
// 0.1000000000000000055511 or 12.30 into 12.3 and lose what was written), and the payload
// checks it as it checks the same text given as a string.
var numberFields = map[string]bool{"latitude": true, "longitude": true, "altitude": true, "amount": true}

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
// its JSON type (strings, the booleans hidden and download, the integers size and margin, and
// for latitude, longitude, altitude and amount a number or a string), no unknown property,
// nothing after the object. data, url and text may not be empty.
func DecodeJSON(body []byte) (Request, error) {
	r := NewRequest()
	if !utf8.Valid(body) {
		return r, NewError(ReasonInvalidJSON, "", "Send the body as UTF-8 JSON.", "the body is not valid UTF-8")
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	fields, err := readObject(dec)
	if err != nil {
		return r, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return r, NewError(ReasonInvalidJSON, "", "Send exactly one JSON object, with nothing after it.", "the body has data after the JSON object")
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
	notObject := NewError(ReasonInvalidJSON, "", `Send one JSON object, such as {"type":"url","url":"https://example.com"}.`,
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
			return nil, NewError(ReasonInvalidJSON, name, "Give "+name+" once.", "the body gives %q more than once", name)
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
		return NewError(ReasonWrongType, name, "Send "+name+" as "+want+".", "%s must be %s", name, want)
	}
	switch name {
	case "hidden", "download", "show_destination":
		var b bool
		if err := json.Unmarshal(raw, &b); err != nil {
			return wrongType("a JSON boolean (true or false)")
		}
		switch name {
		case "hidden":
			r.Payload.Hidden = b
		case "download":
			r.Download = b
		default:
			r.ShowDestination = b
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
	if numberFields[name] && len(raw) > 0 && (raw[0] == '-' || raw[0] >= '0' && raw[0] <= '9') {
		// A JSON number, valid (the decoder read it): its literal, as written.
		return r.setString(name, string(raw))
	}
	var s string
	if err := json.Unmarshal(raw, &s); err != nil || raw[0] != '"' {
		if numberFields[name] {
			return wrongType("a JSON number or a string of one")
		}
		if _, known := stringFields[name]; known || isStyle(name) || name == "type" {
			return wrongType("a JSON string")
		}
		return unknownField(name)
	}
	if strings.ContainsRune(s, utf8.RuneError) && !strings.ContainsRune(string(raw), utf8.RuneError) &&
		!strings.Contains(strings.ToLower(string(raw)), `\ufffd`) {
		return NewError(payload.ReasonInvalidText, name, "Send "+name+" as text without lone UTF-16 surrogates (\\ud800-\\udfff).",
			"%s holds a lone surrogate", name)
	}
	return r.setString(name, s)
}

func unknownField(name string) error {
	return NewError(ReasonUnknownField, name, "Remove "+name+"; the request's properties are listed in /openapi.json.",
		"the request has no property %q", name)
}

// setString sets a string property: a payload field, type, or a style field.
func (r *Request) setString(name, value string) error {
	if field, ok := stringFields[name]; ok {
		if value == "" && (name == "data" || name == "url" || name == "text") {
			return NewError(ReasonEmptyValue, name, "Give "+name+" at least one character, or leave it out.", "%s is empty", name)
		}
		*field(&r.Payload) = value
		return nil
	}
	if name == "type" {
		if value == "" {
			return NewError(payload.ReasonInvalidType, name, "Use "+payload.JoinWords(payload.Types, "or")+".", "type is empty")
		}
		r.Payload.Type = payload.Type(value)
		return nil
	}
	if ok, err := r.setStyle(name, value); ok {
		return err
	}
	return unknownField(name)
}
