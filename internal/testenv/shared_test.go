package testenv_test

import (
	"testing"

	"github.com/bananaqr/bananaqr/internal/testenv"
)

// TestSharedCopies: every file the tests read as a copy of ../shared equals its original. A
// test that needs a file of ../shared reads a copy under testdata/ beside it and adds it here.
func TestSharedCopies(t *testing.T) {
	for _, c := range []struct{ copy, shared string }{
		{"payload/testdata/payload-vectors.json", "design/payload-vectors.json"},                // payload, client
		{"internal/httpapi/testdata/server-card.schema.json", "design/server-card.schema.json"}, // the MCP server card
	} {
		t.Run(c.copy, func(t *testing.T) { testenv.SameAsShared(t, c.copy, c.shared) })
	}
}
