package payload

import (
	"errors"
	"slices"
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
	"currency": "EUR", "country": "CH", "city": "Bern", "postalCode": "3001", "street": "Bahnhofstrasse",
	"buildingNumber": "1", "debtorName": "Pia Muster", "debtorStreet": "Hauptstrasse", "debtorBuildingNumber": "2",
	"debtorPostalCode": "8000", "debtorCity": "Zürich", "debtorCountry": "CH", "billInformation": "//S1/10/10201409",
	"scheme": "pix", "key": "+5561912345678", "merchantCategory": "5411", "vpa": "shop@okhdfcbank", "dueDate": "2026-12-24",
	"variableSymbol": "1234567890", "specificSymbol": "42", "constantSymbol": "308",
	"address": "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq", "label": "Luke", "lightning": lightningInvoice,
}

// lightningInvoice is a valid BOLT 11 invoice (BOLT 11's example of "a donation of 2500 µBTC").
const lightningInvoice = "lnbc2500u1pvjluezsp5zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zygspp5qqqsyqcyq5rqwzqfqqqsyqcyq5rqwzqfqqqsyqcyq5rqwzqfqypqdq5xysxxatsyp3k7enxv4jsxqzpu9qrsgquk0rl77nj30yxdy8j9vdx85fkpmdla2087ne0xh8nhedh8w27kyke0lp53ut353s06fv3qfegext0eh0ymjpf39tuven09sam30g4vgpfna3rh"

// typeValues are the values of fields that differ by type from fieldValues.
var typeValues = map[Type]map[string]string{
	SwissQR: {"iban": "CH93 0076 2011 6238 5295 7"},
	EMVCo:   {"country": "BR", "currency": "BRL", "reference": "INV42", "message": "Coffee"},
	SPAYD:   {"iban": "CZ65 0800 0000 1920 0014 5399", "currency": "CZK", "reference": "1234"},
	UPI:     {"currency": "INR"},
}

// presetFields are optional fields whose value in typeValues is the one the type writes when
// the field is left out (pix's country and currency, UPI's rupees): given, they change nothing.
var presetFields = map[Type][]string{EMVCo: {"country", "currency"}, UPI: {"currency"}}

// dependentFields are optional fields that need others given with them: the parts of the
// debtor's address (swissqr) need its required parts, which are required when any part is given.
var dependentFields = map[string][]string{}

func init() {
	debtor := []string{"debtorName", "debtorPostalCode", "debtorCity", "debtorCountry"}
	for _, name := range append(debtor, "debtorStreet", "debtorBuildingNumber") {
		dependentFields[name] = slices.DeleteFunc(slices.Clone(debtor), func(s string) bool { return s == name })
	}
}

// requestOf returns a request of type typ with the given fields set to their values: the
// type's own (typeValues), else fieldValues.
func requestOf(t *testing.T, typ Type, fields []string) Request {
	input := map[string]string{}
	for _, name := range fields {
		value, ok := typeValues[typ][name]
		if !ok {
			value = fieldValues[name]
		}
		input[name] = value
	}
	r := *newRequest(t, typ, input)
	if typ == WiFi && slices.Contains(fields, "security") {
		r.Password = "12345" // a WEP key
	}
	return r
}

// TypeFields is what the builders read: a code builds from the required fields alone, and from
// all of them; leaving out any required one is MISSING_FIELD naming it; and each optional field
// changes the payload (with the fields it needs, dependentFields), but for the preset ones.
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
			needed := append(slices.Clone(f.Required), dependentFields[name]...)
			want := base.Text
			if len(needed) > len(f.Required) {
				// Without name, the others build, or name is required with them.
				r := requestOf(t, typ, needed)
				p, err := Build(&r)
				var e *Error
				switch {
				case err == nil:
					want = p.Text
				case !errors.As(err, &e) || e.Reason != ReasonMissingField || e.Field != name:
					t.Errorf("%s with %v: %v, want it built or MISSING_FIELD of %s", typ, needed, err, name)
				}
			}
			r := requestOf(t, typ, append(needed, name))
			p, err := Build(&r)
			if preset := slices.Contains(presetFields[typ], name); err != nil || (p.Text == want) != preset {
				t.Errorf("%s with %s: %q, %v; want a payload other than %q (or the same, when preset: %v)", typ, name, p.Text, err, want, preset)
			}
		}
	}
}
