package main

import (
	"io"
	"strings"
	"testing"
)

// TestEncodeFlagsErrorOrder checks that of several bad style flags encode reports the same one
// on every run, the first in the order the flags are declared, whatever the order given.
func TestEncodeFlagsErrorOrder(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string // the flag reported
	}{
		{[]string{"-logo", "apple", "-ecc", "Z", "-size", "5", "x"}, "-ecc"},
		{[]string{"-corners", "star", "-color", "nope", "-size", "5", "x"}, "-size"},
	} {
		for range 100 {
			f := newEncodeFlags(io.Discard)
			if err := f.parse(c.args); err != nil {
				t.Fatalf("%q: %v", c.args, err)
			}
			if _, err := f.request(); err == nil || !strings.HasPrefix(err.Error(), c.want+":") {
				t.Fatalf("%q: error %v, want the one of %s", c.args, err, c.want)
			}
		}
	}
}
