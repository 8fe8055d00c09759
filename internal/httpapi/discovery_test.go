package httpapi

import (
	"encoding/json"
	"net/http"
	"os"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"
)

// TestDiscovery checks the server card at its two places and the AI catalog: the same card
// bytes, CORS, an hour's caching, an ETag answered with 304; the card's remote from --base-url.
func TestDiscovery(t *testing.T) {
	ts := newTestServer(t, Config{BaseURL: "https://qr.example.com"})
	card := ts.get(t, "/mcp/server-card")
	wellKnown := ts.get(t, "/.well-known/mcp.json")
	if card.status != http.StatusOK || string(card.body) != string(wellKnown.body) {
		t.Fatalf("server card: %d; the two places differ: %v", card.status, string(card.body) != string(wellKnown.body))
	}
	for _, r := range []*result{card, ts.get(t, "/.well-known/ai-catalog.json")} {
		if r.header.Get("Access-Control-Allow-Origin") != "*" || r.header.Get("Cache-Control") != "public, max-age=3600" || r.header.Get("ETag") == "" {
			t.Errorf("headers %v", r.header)
		}
	}
	if ct := card.header.Get("Content-Type"); ct != "application/mcp-server-card+json" {
		t.Errorf("Content-Type %q", ct)
	}
	again := ts.do(t, http.MethodGet, "/.well-known/mcp.json", "", map[string]string{"If-None-Match": card.header.Get("ETag")})
	if again.status != http.StatusNotModified || len(again.body) != 0 {
		t.Errorf("If-None-Match: %d, %d bytes", again.status, len(again.body))
	}
	var c struct {
		Name    string `json:"name"`
		Remotes []struct {
			Type, URL string
		} `json:"remotes"`
	}
	if err := json.Unmarshal(card.body, &c); err != nil {
		t.Fatalf("unmarshal: %v", err)
	}
	if len(c.Remotes) != 1 || c.Remotes[0].URL != "https://qr.example.com/mcp" || c.Remotes[0].Type != "streamable-http" {
		t.Errorf("remotes %+v", c.Remotes)
	}
	var catalog struct {
		Entries []struct{ Identifier, Type, URL string } `json:"entries"`
	}
	if err := json.Unmarshal(ts.get(t, "/.well-known/ai-catalog.json").body, &catalog); err != nil {
		t.Fatalf("unmarshal: %v", err)
	}
	if len(catalog.Entries) != 1 || catalog.Entries[0].URL != "https://qr.example.com/mcp/server-card" ||
		catalog.Entries[0].Identifier != "urn:mcp:server:"+c.Name {
		t.Errorf("catalog %+v", catalog)
	}
	// Without a base URL the card names no endpoint: never the request's Host.
	bare := newTestServer(t, Config{})
	var noBase map[string]any
	if err := json.Unmarshal(bare.do(t, http.MethodGet, "/mcp/server-card", "", map[string]string{"Host": "evil.example"}).body, &noBase); err != nil {
		t.Fatalf("unmarshal: %v", err)
	}
	if _, ok := noBase["remotes"]; ok {
		t.Errorf("a card without --base-url names a remote: %v", noBase)
	}
}

// TestServerCardSchema validates the card against the official server-card JSON schema (a copy
// in testdata, from the design notes), with and without a base URL.
func TestServerCardSchema(t *testing.T) {
	// testdata holds a copy of the design notes' schema (../shared/design/server-card.schema.json),
	// so that the test needs nothing outside the repository.
	raw, err := os.ReadFile("testdata/server-card.schema.json")
	if err != nil {
		t.Fatal(err)
	}
	var schema jsonschema.Schema
	if err := json.Unmarshal(raw, &schema); err != nil {
		t.Fatal(err)
	}
	schema.Ref = "#/$defs/ServerCard" // the file defines the card under $defs
	resolved, err := schema.Resolve(nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, base := range []string{"", "https://qr.example.com"} {
		var card map[string]any
		if err := json.Unmarshal(newTestServer(t, Config{BaseURL: base}).get(t, "/mcp/server-card").body, &card); err != nil {
			t.Fatalf("unmarshal: %v", err)
		}
		if err := resolved.Validate(card); err != nil {
			t.Errorf("base URL %q: %v", base, err)
		}
		card["name"] = "no-slash"
		if resolved.Validate(card) == nil {
			t.Error("the schema accepts a bad name: the validation does not bite")
		}
	}
}
