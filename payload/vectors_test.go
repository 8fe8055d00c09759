package payload

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
)

// newRequest returns a request of type typ with the fields of input, by their API names: each
// is the Request field of that name, matched regardless of case ("jobTitle" is JobTitle). An
// unknown name, Data or Type (a vector's fields are its type's), or a value the field cannot
// hold fails t.
func newRequest(t testing.TB, typ Type, input map[string]string) *Request {
	t.Helper()
	r := &Request{Type: typ}
	for name, value := range input {
		f := requestField(t, r, name)
		switch f.Kind() {
		case reflect.String:
			f.SetString(value)
		case reflect.Bool:
			b, err := strconv.ParseBool(value)
			if err != nil {
				t.Fatalf("field %s: %q is not true or false", name, value)
			}
			f.SetBool(b)
		default:
			t.Fatalf("field %s is a %s", name, f.Kind())
		}
	}
	return r
}

// requestField returns the field of r of an API name, matched regardless of case; a name that
// is no field, Data or Type fails t.
func requestField(t testing.TB, r *Request, name string) reflect.Value {
	t.Helper()
	if strings.EqualFold(name, "data") || strings.EqualFold(name, "type") {
		t.Fatalf("field %s is not a field of a type", name)
	}
	f := reflect.ValueOf(r).Elem().FieldByNameFunc(func(n string) bool { return strings.EqualFold(n, name) })
	if !f.IsValid() {
		t.Fatalf("Request has no field %s", name)
	}
	return f
}

// vector is a vector of the design's file: the fields of a request, by their API names (a
// JSON string, or true or false), and the payload, or "REJECT".
type vector struct {
	Input    map[string]any
	Expected string
}

// request returns the vector's request of type typ (newRequest).
func (v vector) request(t testing.TB, typ Type) *Request {
	t.Helper()
	input := map[string]string{}
	for name, value := range v.Input {
		switch value := value.(type) {
		case string:
			input[name] = value
		case bool:
			input[name] = strconv.FormatBool(value)
		default:
			t.Fatalf("field %s: %v is neither a string nor a boolean", name, value)
		}
	}
	return newRequest(t, typ, input)
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

// paymentVector is a published vector of a payment type: its name, where it comes from, the
// request's fields by their API names, and the payload.
type paymentVector struct {
	Name, Source string
	Input        map[string]string
	Expected     string

	typ Type // the type of the file it was read from
}

// request returns the vector's request (newRequest).
func (v paymentVector) request(t testing.TB) *Request {
	t.Helper()
	return newRequest(t, v.typ, v.Input)
}

// paymentVectors is testdata/<type>/vectors.json, of one shape for every payment type: what
// the file holds and its sources, the vectors to build, and for emvco published payloads to
// parse into their data objects (by path: "59", "26.01").
type paymentVectors struct {
	About string
	Build []paymentVector
	Parse []struct {
		Name, Source, Payload string
		Fields                map[string]string
	}
}

// readPaymentVectors reads testdata/<typ>/vectors.json. It fails t on a key out of the shape,
// a file without about or build vectors, and a vector without a name, a source or a payload,
// or of a name already taken.
func readPaymentVectors(t *testing.T, typ Type) paymentVectors {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", string(typ), "vectors.json"))
	if err != nil {
		t.Fatal(err)
	}
	var vs paymentVectors
	d := json.NewDecoder(bytes.NewReader(data))
	d.DisallowUnknownFields()
	if err := d.Decode(&vs); err != nil {
		t.Fatalf("%s: %v", typ, err)
	}
	if vs.About == "" || len(vs.Build) == 0 {
		t.Fatalf("%s: no about, or no vectors", typ)
	}
	names := map[string]bool{}
	for i := range vs.Build {
		v := &vs.Build[i]
		if v.Name == "" || v.Source == "" || v.Expected == "" || names[v.Name] {
			t.Fatalf("%s: a vector without name, source or payload, or of a name taken: %+v", typ, *v)
		}
		names[v.Name], v.typ = true, typ
	}
	return vs
}

// TestVectors builds every vector of testdata/payload-vectors.json (a copy of the design's
// design/payload-vectors.json), of testdata/payload-vectors-extensions.json (the bananaqr
// extensions' types: tel, geo, event, epc) and of the payment types' testdata/<type>/vectors.json
// (swissqr, emvco, upi, spayd, bitcoin) through Build, and compares the payload byte for byte,
// its type and whether it is private; "REJECT" vectors must give INVALID_URL.
func TestVectors(t *testing.T) {
	type buildCase struct {
		vector   string // the vector's name, or its input
		request  *Request
		expected string
	}
	cases := map[Type][]buildCase{}
	for _, file := range []string{"payload-vectors.json", "payload-vectors-extensions.json"} {
		for typ, vs := range readVectors(t, file) {
			if len(cases[typ]) > 0 {
				t.Fatalf("type %s has vectors in two files", typ)
			}
			for _, v := range vs {
				cases[typ] = append(cases[typ], buildCase{fmt.Sprint(v.Input), v.request(t, typ), v.Expected})
			}
		}
	}
	for _, typ := range Types {
		if _, err := os.Stat(filepath.Join("testdata", string(typ), "vectors.json")); err != nil {
			continue
		}
		if len(cases[typ]) > 0 {
			t.Fatalf("type %s has vectors in two files", typ)
		}
		for _, v := range readPaymentVectors(t, typ).Build {
			cases[typ] = append(cases[typ], buildCase{v.Name, v.request(t), v.Expected})
		}
	}
	n := 0
	for _, typ := range Types {
		if len(cases[typ]) == 0 {
			t.Errorf("no vectors of type %s", typ)
		}
		for _, c := range cases[typ] {
			n++
			p, err := Build(c.request)
			if c.expected == "REJECT" {
				var e *Error
				if !errors.As(err, &e) || e.Reason != ReasonInvalidURL || e.Hint == "" {
					t.Errorf("%s %s: got %q, %v; want INVALID_URL", typ, c.vector, p.Text, err)
				}
				continue
			}
			if err != nil || p.Text != c.expected {
				t.Errorf("%s %s:\n got  %q, %v\n want %q", typ, c.vector, p.Text, err, c.expected)
				continue
			}
			if p.Type != typ || p.Private != typ.Private() {
				t.Errorf("%s %s: type %s, private %v", typ, c.vector, p.Type, p.Private)
			}
		}
	}
	// The design's file holds 38, the extensions' 24, the payment types' 7 (swissqr), 22
	// (emvco), 4 (upi), 5 (spayd) and 12 (bitcoin).
	if n < 38+24+7+22+4+5+12 {
		t.Errorf("only %d vectors", n)
	}
}
