package generate

import (
	"strings"
	"testing"

	"github.com/bananaqr/bananaqr/api"
)

// TestFixedStyles: each style value that FixedStyles fixes is the one Check accepts for its
// type, every other value of the field is refused as INVALID_VALUE on that field with the rule in
// its hint, and the encoder's level is the fixed ecc.
func TestFixedStyles(t *testing.T) {
	for _, f := range FixedStyles {
		fixed := api.NewRequest()
		fixed.Payload.Type = f.Type
		for _, field := range f.Fields {
			if err := fixed.SetStyle(field.Name, field.Value); err != nil {
				t.Fatalf("%s: %v", f.Type, err)
			}
		}
		if err := Check(&fixed); err != nil {
			t.Errorf("%s with its fixed style: %v", f.Type, err)
		}
		for _, field := range f.Fields {
			if field.Name == "ecc" && level(fixed.ECC).String() != field.Value {
				t.Errorf("%s: encoded at %s, fixed at %s", f.Type, level(fixed.ECC), field.Value)
			}
			for _, v := range api.StyleValues(field.Name) {
				r := fixed
				if err := r.SetStyle(field.Name, v); err != nil || v == field.Value {
					continue
				}
				e := api.ErrorOf(Check(&r))
				if e.Reason != api.ReasonInvalidValue || e.Field != field.Name || !strings.Contains(e.Hint, f.Why) {
					t.Errorf("%s with %s %s: %+v", f.Type, field.Name, v, e)
				}
			}
		}
	}
	if s := FixedSentences(); !strings.HasPrefix(s, "An epc code always has logo none and ecc M: the EPC guideline") {
		t.Errorf("FixedSentences: %q", s)
	}
}
