package payload

import (
	"encoding/json"
	"errors"
	"os"
	"testing"
)

// vectorInput holds the fields of a test vector, by their API names.
type vectorInput struct {
	URL, Text, SSID, Password, Security  string
	Hidden                               bool
	Name, Organization, JobTitle, Phone  string
	Email, Website, To, Subject, Message string

	Latitude, Longitude, Altitude              string
	Summary, Start, End, Location, Description string
	IBAN, BIC, Amount, Reference, Remittance   string
}

// request returns in as a Request of type t.
func (in vectorInput) request(t Type) *Request {
	return &Request{Type: t, URL: in.URL, Text: in.Text, SSID: in.SSID, Password: in.Password,
		Security: in.Security, Hidden: in.Hidden, Name: in.Name, Organization: in.Organization,
		JobTitle: in.JobTitle, Phone: in.Phone, Email: in.Email, Website: in.Website, To: in.To,
		Subject: in.Subject, Message: in.Message, Latitude: in.Latitude, Longitude: in.Longitude,
		Altitude: in.Altitude, Summary: in.Summary, Start: in.Start, End: in.End, Location: in.Location,
		Description: in.Description, IBAN: in.IBAN, BIC: in.BIC, Amount: in.Amount, Reference: in.Reference,
		Remittance: in.Remittance}
}

// vector is a test vector: the fields of a request, by their API names, and the payload.
type vector struct {
	Input    vectorInput
	Expected string
}

// readVectors reads the vectors of a file of testdata, by type.
func readVectors(t *testing.T, name string) map[Type][]vector {
	t.Helper()
	data, err := os.ReadFile("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	var vectors map[Type][]vector
	if err := json.Unmarshal(data, &vectors); err != nil {
		t.Fatal(err)
	}
	return vectors
}

// TestVectors builds every vector of testdata/payload-vectors.json (a copy of the design's
// design/payload-vectors.json) and of testdata/payload-vectors-extensions.json (the bananaqr
// extensions' types: tel, geo, event, epc) and compares the payload byte for byte; "REJECT"
// vectors must give INVALID_URL.
func TestVectors(t *testing.T) {
	vectors := readVectors(t, "payload-vectors.json")
	for typ, vs := range readVectors(t, "payload-vectors-extensions.json") {
		if len(vectors[typ]) > 0 {
			t.Fatalf("type %s has vectors in both files", typ)
		}
		vectors[typ] = vs
	}
	n := 0
	for _, typ := range Types {
		if len(vectors[typ]) == 0 {
			t.Errorf("no vectors of type %s", typ)
		}
		for _, v := range vectors[typ] {
			n++
			p, err := Build(v.Input.request(typ))
			if v.Expected == "REJECT" {
				var e *Error
				if !errors.As(err, &e) || e.Reason != ReasonInvalidURL || e.Hint == "" {
					t.Errorf("%s %+v: got %q, %v; want INVALID_URL", typ, v.Input, p.Text, err)
				}
				continue
			}
			if err != nil || p.Text != v.Expected {
				t.Errorf("%s %+v:\n got  %q, %v\n want %q", typ, v.Input, p.Text, err, v.Expected)
				continue
			}
			if p.Type != typ || p.Private != typ.Private() {
				t.Errorf("%s %+v: type %s, private %v", typ, v.Input, p.Type, p.Private)
			}
		}
	}
	if n < 38+24 { // the design's file holds 38, the extensions' 24
		t.Errorf("only %d vectors", n)
	}
}
