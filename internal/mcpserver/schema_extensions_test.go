package mcpserver

import (
	"slices"
	"testing"
)

// TestSchemaNumbers: the extensions' numbers take a JSON number or a string, as the API's
// decoder does, within the ranges the payload checks; an amount's range is its type's (a
// bitcoin amount may be 0.00000001, an epc one 999999999.99), so the schema asks only that it
// be more than 0.
func TestSchemaNumbers(t *testing.T) {
	s := inputSchema()
	for name, r := range map[string][2]float64{"latitude": {-90, 90}, "longitude": {-180, 180}, "altitude": {-100000, 100000}} {
		p := s.Properties[name]
		if p == nil || !slices.Equal(p.Types, []string{"number", "string"}) || p.Type != "" {
			t.Errorf("%s: %+v, want the types number and string", name, p)
			continue
		}
		if p.Minimum == nil || p.Maximum == nil || *p.Minimum != r[0] || *p.Maximum != r[1] || p.Description == "" {
			t.Errorf("%s: range %v..%v, want %v", name, p.Minimum, p.Maximum, r)
		}
	}
	if p := s.Properties["amount"]; p == nil || !slices.Equal(p.Types, []string{"number", "string"}) || p.Minimum != nil || p.Maximum != nil ||
		p.ExclusiveMinimum == nil || *p.ExclusiveMinimum != 0 {
		t.Errorf("amount: %+v, want the types number and string, more than 0", p)
	}
}
