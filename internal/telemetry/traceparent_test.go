package telemetry

import "testing"

// TestParseTraceparent: the W3C Trace Context examples (section 3.2) and the malformed headers
// its test suite sends (test/traceparent_test.py in w3c/trace-context), each refused.
func TestParseTraceparent(t *testing.T) {
	const id = "4bf92f3577b34da6a3ce929d0e0e4736"
	for _, c := range []struct {
		header string
		ok     bool
	}{
		{"00-" + id + "-00f067aa0ba902b7-01", true},
		{"00-" + id + "-00f067aa0ba902b7-00", true},
		{"cc-" + id + "-00f067aa0ba902b7-09-extra", true}, // a later version may add fields
		{"cc-" + id + "-00f067aa0ba902b7-09", true},
		{"", false},
		{"00-" + id + "-00f067aa0ba902b7-01-", false},                                // version 00 has exactly four fields
		{"00-" + id + "-00f067aa0ba902b7-0", false},                                  // short flags
		{"cc-" + id + "-00f067aa0ba902b7-09.", false},                                // a later version's fields follow a dash
		{"ff-" + id + "-00f067aa0ba902b7-01", false},                                 // version ff is invalid
		{"00-" + "4BF92F3577B34DA6A3CE929D0E0E4736" + "-00f067aa0ba902b7-01", false}, // upper case
		{"00-00000000000000000000000000000000-00f067aa0ba902b7-01", false},           // zero trace id
		{"00-" + id + "-0000000000000000-01", false},                                 // zero parent id
		{"00-" + id + "-00f067aa0ba902b7_01", false},
		{"0x-" + id + "-00f067aa0ba902b7-01", false},
		{"00-" + id[:31] + "g-00f067aa0ba902b7-01", false},
		{"00-" + id + "-00f067aa0ba902bz-01", false},
		{"00-" + id + "-00f067aa0ba902b7-0g", false},
		{" 00-" + id + "-00f067aa0ba902b7-01", false},
	} {
		got, ok := ParseTraceparent(c.header)
		if ok != c.ok || ok && got != id {
			t.Errorf("ParseTraceparent(%q) = %q, %v; want ok %v", c.header, got, ok, c.ok)
		}
	}
}

// TestParseTraceparentAllocs: reading the trace id allocates nothing.
func TestParseTraceparentAllocs(t *testing.T) {
	h := "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"
	if n := testing.AllocsPerRun(100, func() { ParseTraceparent(h) }); n != 0 {
		t.Fatalf("%v allocations", n)
	}
}
