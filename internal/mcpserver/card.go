package mcpserver

import (
	"encoding/json"

	"github.com/bananaqr/bananaqr/internal/buildinfo"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The discovery documents: the server card (SEP-2127, "MCP Server Cards"), which the HTTP
// edge serves at /mcp/server-card and at /.well-known/mcp.json (the spec's name), and an AI
// Catalog at /.well-known/ai-catalog.json whose one entry points at the card.

// CardName is the server's name in the card: reverse DNS, one slash.
const CardName = "io.github.bananaqr/bananaqr"

// ProtocolVersions are the MCP protocol versions the SDK serves.
var ProtocolVersions = []string{"2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25", "2026-07-28"}

// card is the server card's JSON form.
type card struct {
	Schema      string     `json:"$schema"`
	Name        string     `json:"name"`
	Version     string     `json:"version"`
	Title       string     `json:"title"`
	Description string     `json:"description"`
	WebsiteURL  string     `json:"websiteUrl,omitempty"`
	Icons       []mcp.Icon `json:"icons"`
	Remotes     []remote   `json:"remotes,omitempty"`
}

type remote struct {
	Type                      string   `json:"type"`
	URL                       string   `json:"url"`
	SupportedProtocolVersions []string `json:"supportedProtocolVersions"`
}

// Card returns the server card. Its remote, the /mcp endpoint, is given only when the
// service's public base URL is configured: a card must not point wherever a request's Host
// header says. Its icons are the banana's data: URIs (Icons), or its addresses under that
// base URL.
func Card(baseURL string) []byte {
	c := card{
		Schema:      "https://static.modelcontextprotocol.io/schemas/v1/server-card.schema.json",
		Name:        CardName,
		Version:     buildinfo.Version(), // the binary's, as in serverInfo; not openapi.json's info.version
		Title:       "bananaqr QR codes",
		Description: "QR codes for links, Wi-Fi, contacts, e-mail, SMS and text, as PNG images.",
		Icons:       Icons,
	}
	if baseURL != "" {
		// The icons at the service's own address (/icon.svg, /icon.png: the same bytes), which a
		// registry can fetch and cache, rather than data: URIs in every copy of the card.
		c.Icons = []mcp.Icon{
			{Source: baseURL + "/icon.svg", MIMEType: Icons[0].MIMEType, Sizes: Icons[0].Sizes},
			{Source: baseURL + "/icon.png", MIMEType: Icons[1].MIMEType, Sizes: Icons[1].Sizes},
		}
		c.WebsiteURL = baseURL + "/"
		c.Remotes = []remote{{Type: "streamable-http", URL: baseURL + "/mcp", SupportedProtocolVersions: ProtocolVersions}}
	}
	b, err := json.MarshalIndent(c, "", "  ")
	if err != nil {
		panic(err)
	}
	return append(b, '\n')
}

// Catalog returns the AI Catalog of the service: one entry, the server card (at an absolute
// URL when the base URL is configured, else relative to the catalog's host).
func Catalog(baseURL string) []byte {
	type entry struct {
		Identifier  string `json:"identifier"`
		Type        string `json:"type"`
		URL         string `json:"url"`
		Description string `json:"description"`
	}
	c := struct {
		Entries []entry `json:"entries"`
	}{[]entry{{
		Identifier:  "urn:mcp:server:" + CardName,
		Type:        "application/mcp-server-card+json",
		URL:         baseURL + "/mcp/server-card",
		Description: "The bananaqr MCP server: one tool, generate_qr.",
	}}}
	b, err := json.MarshalIndent(c, "", "  ")
	if err != nil {
		panic(err)
	}
	return append(b, '\n')
}
