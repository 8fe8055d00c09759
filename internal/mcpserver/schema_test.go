package mcpserver

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/bananaqr/bananaqr/api"
	"github.com/bananaqr/bananaqr/payload"
)

// TestSchemaFromAPI holds generate_qr's input schema and description to the API's rules, so
// that they cannot drift: its properties are the API's payload fields (less data and the
// aliases) and style fields (less format), the enumerations and defaults are the API's and the
// payload's, and the description names every type and payload field and the payload's limit.
func TestSchemaFromAPI(t *testing.T) {
	s := inputSchema()
	want := append(api.PayloadFields(), "type", "hidden")
	for name := range api.StyleDefaults() {
		if name != "format" {
			want = append(want, name)
		}
	}
	slices.Sort(want)
	if got := slices.Sorted(maps.Keys(s.Properties)); !slices.Equal(got, want) {
		t.Errorf("properties %q, want %q", got, want)
	}
	enum := func(name string) []string {
		var values []string
		for _, v := range s.Properties[name].Enum {
			values = append(values, fmt.Sprint(v))
		}
		return values
	}
	var types []string
	for _, typ := range payload.Types {
		types = append(types, string(typ))
	}
	if !slices.Equal(enum("type"), types) {
		t.Errorf("type's enum %q, want %q", enum("type"), types)
	}
	if !slices.Equal(enum("security"), payload.AcceptedSecurities()) || string(s.Properties["security"].Default) != `"`+payload.Securities[0]+`"` {
		t.Errorf("security's enum %q and default %s, want %q and the first", enum("security"), s.Properties["security"].Default, payload.AcceptedSecurities())
	}
	for name, value := range api.StyleDefaults() {
		if values := api.StyleValues(name); name != "format" && values != nil && !slices.Equal(enum(name), values) {
			t.Errorf("%s's enum %q, want %q", name, enum(name), values)
		}
		if name == "format" {
			continue
		}
		for _, c := range api.StyleChoices(name) {
			if d := s.Properties[name].Description; !strings.Contains(d, c.Name+": "+c.Meaning) {
				t.Errorf("%s's description %q does not say what %s means", name, d, c.Name)
			}
		}
		if name != "size" && name != "margin" && name != "show_destination" {
			value = `"` + value + `"`
		}
		if value == `""` { // none (a caption): no default to state
			value = ""
		}
		if got := string(s.Properties[name].Default); got != value {
			t.Errorf("%s's default %s, want %s", name, got, value)
		}
	}
	if d := s.Properties["type"].Description; !strings.Contains(d, payload.JoinWords(payload.Types, "or")) {
		t.Errorf("type's description %q does not list the types", d)
	}

	d := toolDescription(0)
	for _, typ := range payload.Types {
		if !strings.Contains(d, string(typ)+" (") {
			t.Errorf("the tool's description does not explain type %s", typ)
		}
	}
	for _, field := range api.PayloadFields() {
		if !strings.Contains(d, field) {
			t.Errorf("the tool's description does not name the field %s", field)
		}
	}
	if limit := fmt.Sprintf("%d,%03d characters", payload.MaxLen/1000, payload.MaxLen%1000); !strings.Contains(d, limit) {
		t.Errorf("the tool's description does not say %s", limit)
	}
}
