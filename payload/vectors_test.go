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
}

// request returns in as a Request of type t.
func (in vectorInput) request(t Type) *Request {
	return &Request{Type: t, URL: in.URL, Text: in.Text, SSID: in.SSID, Password: in.Password,
		Security: in.Security, Hidden: in.Hidden, Name: in.Name, Organization: in.Organization,
		JobTitle: in.JobTitle, Phone: in.Phone, Email: in.Email, Website: in.Website, To: in.To,
		Subject: in.Subject, Message: in.Message}
}

// TestVectors builds every vector of testdata/payload-vectors.json (a copy of the design's
// design/payload-vectors.json) and compares the payload byte for byte; "REJECT" vectors must
// give INVALID_URL.
func TestVectors(t *testing.T) {
	data, err := os.ReadFile("testdata/payload-vectors.json")
	if err != nil {
		t.Fatal(err)
	}
	var vectors map[Type][]struct {
		Input    vectorInput
		Expected string
	}
	if err := json.Unmarshal(data, &vectors); err != nil {
		t.Fatal(err)
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
				if !errors.As(err, &e) || e.Code != CodeInvalidURL || e.Hint == "" {
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
	if n < 38 { // the design's file holds 38
		t.Errorf("only %d vectors", n)
	}
}
