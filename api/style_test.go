package api

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/bananaqr/bananaqr/payload"
)

// TestStyleCatalogueMatchesParsing: every value StyleValues lists is accepted by SetStyle and
// names a distinct setting, the defaults are NewRequest's, and nothing else is accepted.
func TestStyleCatalogueMatchesParsing(t *testing.T) {
	defaults := StyleDefaults()
	for _, name := range []string{"format", "logo", "corners", "ecc"} {
		seen := map[string]bool{}
		for _, v := range StyleValues(name) {
			r := NewRequest()
			if err := r.SetStyle(name, v); err != nil {
				t.Errorf("%s=%s: %v", name, v, err)
			}
			got, _ := EncodeJSON(&r)
			seen[string(got)] = true
		}
		if len(seen) != len(StyleValues(name)) {
			t.Errorf("%s: %d values make %d distinct requests", name, len(StyleValues(name)), len(seen))
		}
		if !slices.Contains(StyleValues(name), defaults[name]) {
			t.Errorf("%s: default %q is not among %v", name, defaults[name], StyleValues(name))
		}
		r := NewRequest()
		if err := r.SetStyle(name, "nonsense"); ErrorOf(err).Reason != ReasonInvalidValue {
			t.Errorf("%s=nonsense: %v", name, err)
		}
	}
	for name, v := range defaults {
		r, d := NewRequest(), NewRequest()
		if err := r.SetStyle(name, v); err != nil || r != d {
			t.Errorf("default %s=%s: %v, %+v", name, v, err, r)
		}
	}
}

// TestOpenAPIStyles holds the OpenAPI document's request body to the catalogue: each style
// property's default, and its enumeration in the tables' order with each value's meaning as
// x-enum-descriptions and in the schema's description.
func TestOpenAPIStyles(t *testing.T) {
	var doc struct {
		Components struct {
			Schemas map[string]struct {
				Properties map[string]struct {
					Ref     string          `json:"$ref"` // a property with a default refers to a schema of its own
					Enum    []string        `json:"enum"`
					Default json.RawMessage `json:"default"`
				} `json:"properties"`
				Enum        []string        `json:"enum"`
				Default     json.RawMessage `json:"default"`
				Meanings    []string        `json:"x-enum-descriptions"`
				Description string          `json:"description"`
			} `json:"schemas"`
		} `json:"components"`
	}
	if err := json.Unmarshal(OpenAPI, &doc); err != nil {
		t.Fatal(err)
	}
	props := doc.Components.Schemas["QrRequest"].Properties
	for name, want := range StyleDefaults() {
		p, ok := props[name]
		if !ok {
			t.Errorf("QrRequest has no %s", name)
			continue
		}
		var meanings []string
		var description string
		if ref, ok := strings.CutPrefix(p.Ref, "#/components/schemas/"); ok {
			s := doc.Components.Schemas[ref]
			p.Enum, p.Default, meanings, description = s.Enum, s.Default, s.Meanings, s.Description
		}
		var def any
		if err := json.Unmarshal(p.Default, &def); err != nil {
			t.Fatalf("unmarshal: %v", err)
		}
		if got := jsonText(def); got != want {
			t.Errorf("%s: default %s, want %s", name, got, want)
		}
		choices := StyleChoices(name)
		if choices == nil {
			continue
		}
		var want, wantMeanings, wantDescription []string
		for _, c := range choices {
			want, wantMeanings = append(want, c.Name), append(wantMeanings, c.Meaning)
			wantDescription = append(wantDescription, "`"+c.Name+"`: "+c.Meaning)
		}
		if !slices.Equal(p.Enum, want) || !slices.Equal(meanings, wantMeanings) {
			t.Errorf("%s: enum %q with x-enum-descriptions %q, want %q and %q", name, p.Enum, meanings, want, wantMeanings)
		}
		if d := strings.Join(wantDescription, "; ") + "."; description != d {
			t.Errorf("%s: description %q, want %q", name, description, d)
		}
	}
}

// jsonText returns a decoded JSON default as StyleDefaults spells it.
func jsonText(v any) string {
	switch v := v.(type) {
	case string:
		if len(v) == 7 && v[0] == '#' {
			return v[1:]
		}
		return v
	case float64:
		b, _ := json.Marshal(v)
		return string(b)
	}
	b, _ := json.Marshal(v)
	return string(b)
}

func sorted(s []string) []string {
	s = slices.Clone(s)
	slices.Sort(s)
	return s
}

// TestOpenAPIPrivateTypes holds the document's x-private list, which the web page reads, to
// package payload's private types.
func TestOpenAPIPrivateTypes(t *testing.T) {
	var doc struct {
		Components struct {
			Schemas map[string]struct {
				Properties map[string]struct {
					Private []string `json:"x-private"`
				} `json:"properties"`
			} `json:"schemas"`
		} `json:"components"`
	}
	if err := json.Unmarshal(OpenAPI, &doc); err != nil {
		t.Fatal(err)
	}
	var want []string
	for _, ty := range payload.Types {
		if ty.Private() {
			want = append(want, string(ty))
		}
	}
	if got := doc.Components.Schemas["QrRequest"].Properties["type"].Private; !slices.Equal(sorted(got), sorted(want)) {
		t.Fatalf("x-private %v, want %v", got, want)
	}
}
