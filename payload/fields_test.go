package payload

import (
	"errors"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// fieldValues are valid values of every field, by its API name.
var fieldValues = map[string]string{
	"url": "https://example.com", "text": "hello", "ssid": "Cafe", "password": "hunter22", "security": "WEP",
	"hidden": "true", "name": "Anna Example", "organization": "Example Ltd", "jobTitle": "Engineer",
	"phone": "+1 555 123 4567", "email": "anna@example.com", "website": "https://example.com",
	"to": "anna@example.com", "subject": "Hello", "message": "See you",
	"latitude": "48.8582", "longitude": "2.2945", "altitude": "35", "summary": "Party",
	"start": "2026-12-24T18:00:00+01:00", "end": "2026-12-24T22:00:00+01:00", "location": "Home",
	"description": "Bring food", "iban": "DE89 3704 0044 0532 0130 00", "bic": "COBADEFFXXX",
	"amount": "12.30", "reference": "RF18 5390 0754 7034", "remittance": "Invoice 42",
}

// requestOf returns a request of type t with the given fields set to their fieldValues.
func requestOf(t *testing.T, typ Type, fields []string) Request {
	r := Request{Type: typ}
	v := reflect.ValueOf(&r).Elem()
	for _, name := range fields {
		f := v.FieldByNameFunc(func(n string) bool { return strings.EqualFold(n, name) })
		if !f.IsValid() {
			t.Fatalf("Request has no field %s", name)
		}
		if f.Kind() == reflect.Bool {
			f.SetBool(fieldValues[name] == "true")
		} else {
			f.SetString(fieldValues[name])
		}
	}
	if typ == WiFi && slices.Contains(fields, "security") {
		r.Password = "12345" // a WEP key
	}
	return r
}

// TypeFields is what the builders read: a code builds from the required fields alone, and from
// all of them; leaving out any required one is MISSING_FIELD naming it; and each optional field
// changes the payload.
func TestTypeFields(t *testing.T) {
	if len(TypeFields) != len(Types) {
		t.Fatalf("TypeFields has %d types, Types %d", len(TypeFields), len(Types))
	}
	for _, typ := range Types {
		f := TypeFields[typ]
		required := requestOf(t, typ, f.Required)
		base, err := Build(&required)
		if err != nil {
			t.Fatalf("%s with %v: %v", typ, f.Required, err)
		}
		for i, name := range f.Required {
			r := requestOf(t, typ, slices.Delete(slices.Clone(f.Required), i, i+1))
			var e *Error
			if _, err := Build(&r); !errors.As(err, &e) || e.Reason != ReasonMissingField || e.Field != name {
				t.Errorf("%s without %s: %v, want MISSING_FIELD of %s", typ, name, err, name)
			}
		}
		for _, name := range f.Optional {
			r := requestOf(t, typ, append(slices.Clone(f.Required), name))
			p, err := Build(&r)
			if err != nil || p.Text == base.Text {
				t.Errorf("%s with %s: %q, %v; want a payload other than %q", typ, name, p.Text, err, base.Text)
			}
		}
	}
}
