package mcpserver

import (
	"encoding/base64"
	"slices"
	"strconv"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/bananaqr/bananaqr/api"
	"github.com/bananaqr/bananaqr/internal/generate"
	"github.com/bananaqr/bananaqr/render"
)

// Output is the structured content of a generate_qr result (MCP 2025-06-18, "Structured
// Content"): what the HTTP API's JSON answer (api.Response) says about the code, by the same
// names and rules, less the image bytes, which the image block carries. A private payload is
// null and so are its links, as in the JSON answer; a public one without a base URL has null
// links and the NO_PUBLIC_URL warning.
type Output struct {
	Type        string        `json:"type" jsonschema:"The payload type, as payload_type."`
	PayloadType string        `json:"payload_type" jsonschema:"The payload type: url, text, wifi, vcard, email, sms, tel, geo, event or epc."`
	Payload     *string       `json:"payload" jsonschema:"The encoded payload; null when it is private (wifi, vcard, email, sms, tel, geo, event, epc, or text that looks like one)."`
	Format      string        `json:"format" jsonschema:"The image block's format: always png."`
	MimeType    string        `json:"mime_type" jsonschema:"The image's media type: always image/png."`
	Size        int           `json:"size" jsonschema:"The image's width and height in pixels."`
	Logo        string        `json:"logo" jsonschema:"banana or none."`
	Color       string        `json:"color" jsonschema:"The dark modules' colour, #RRGGBB."`
	Background  string        `json:"background" jsonschema:"The light modules' colour, #RRGGBB."`
	ImageURL    *string       `json:"image_url" jsonschema:"The PNG's address (GET /api/qr-code.png) for a public payload; null for a private one or when the service knows no public address."`
	SVGURL      *string       `json:"svg_url" jsonschema:"The SVG's address (GET /api/qr-code.svg), as image_url."`
	Version     int           `json:"version" jsonschema:"The QR Code version, 1 to 40."`
	ECC         string        `json:"ecc" jsonschema:"The error correction level used: L, M, Q or H."`
	Modules     int           `json:"modules" jsonschema:"Modules a side, without the quiet zone: 4·version + 17."`
	Margin      int           `json:"margin" jsonschema:"The quiet zone in modules."`
	ModulePx    int           `json:"module_px" jsonschema:"Pixels a module."`
	Warnings    []api.Warning `json:"warnings" jsonschema:"What some readers mishandle; empty when nothing."`
}

// outputSchema returns the output schema of generate_qr: Output's, every property required,
// none other allowed, the warnings an array of {code, field, message}.
func outputSchema() *jsonschema.Schema {
	s, err := jsonschema.For[Output](nil)
	if err != nil {
		panic(err)
	}
	s.Required = s.Required[:0]
	for name := range s.Properties {
		s.Required = append(s.Required, name)
	}
	slices.Sort(s.Required)
	w := s.Properties["warnings"]
	w.Types, w.Type = nil, "array" // never null: [] when there is nothing
	w.Items.Required = []string{"code", "field", "message"}
	s.Properties["format"].Enum = []any{"png"}
	s.Properties["mime_type"].Enum = []any{"image/png"}
	s.Properties["logo"].Enum = []any{"banana", "none"}
	s.Properties["ecc"].Enum = []any{"L", "M", "Q", "H"}
	one, forty := 1.0, 40.0
	s.Properties["version"].Minimum, s.Properties["version"].Maximum = &one, &forty
	return s
}

// output returns the structured content of res, made for r, with the links of a public
// payload under base ("" for none), as the HTTP API's JSON answer has them.
func output(res *generate.Result, base string, r *api.Request) *Output {
	p := res.Payload
	out := &Output{
		Type: string(p.Type), PayloadType: string(p.Type), Format: string(api.FormatPNG), MimeType: "image/png",
		Size: r.Size, Logo: r.Logo.String(), Color: api.FormatColor(r.Color), Background: api.FormatColor(r.Background),
		Version: res.Symbol.Version(), ECC: res.Symbol.Level().String(), Modules: res.Symbol.Size(),
		Margin: r.Margin, ModulePx: res.ModulePx, Warnings: append([]api.Warning{}, res.Warnings...),
	}
	if p.Private {
		return out
	}
	text := p.Text
	out.Payload = &text
	if base == "" {
		out.Warnings = append(out.Warnings, api.Warning{Reason: api.ReasonNoPublicURL, Field: "",
			Message: "The service knows no public address (no base URL and no Host), so image_url and svg_url are null; the image block holds the code."})
		return out
	}
	query := r.Query(p)
	imageURL, svgURL := base+"/api/qr-code.png?"+query, base+"/api/qr-code.svg?"+query
	out.ImageURL, out.SVGURL = &imageURL, &svgURL
	return out
}

// links returns the resource_link content items (MCP 2025-06-18) of out's PNG and SVG, none
// for a private payload or without a base URL. An agent can fetch, cache or hand on the image
// by its address; GET answers it as the image block, from the same query.
func links(out *Output) []mcp.Content {
	if out.ImageURL == nil {
		return nil
	}
	return []mcp.Content{
		&mcp.ResourceLink{URI: *out.ImageURL, Name: "qr-code.png", Title: "The QR code as PNG", MIMEType: "image/png",
			Description: "GET answers the PNG of the image block."},
		&mcp.ResourceLink{URI: *out.SVGURL, Name: "qr-code.svg", Title: "The QR code as SVG", MIMEType: "image/svg+xml",
			Description: "GET answers the same code as SVG, scalable for print."},
	}
}

// Icons are the service's banana mark as MCP icons (MCP 2025-11-25, Icon), listed on the
// tool and on the server: an SVG of any size and a PNG of render.IconSide pixels, as data:
// URIs (RFC 2397). The spec allows data: and https: sources; a data: URI needs no request and
// no public address (the server is made before any request says where it is), and cannot be
// swapped by whoever controls a Host header. The same bytes are served at /icon.svg and
// /icon.png.
var Icons = []mcp.Icon{
	{Source: dataURI("image/svg+xml", render.IconSVG()), MIMEType: "image/svg+xml", Sizes: []string{"any"}},
	{Source: dataURI("image/png", render.IconPNG()), MIMEType: "image/png", Sizes: []string{sizes()}},
}

// dataURI returns data as a base64 data: URI of media type typ (RFC 2397).
func dataURI(typ string, data []byte) string {
	return "data:" + typ + ";base64," + base64.StdEncoding.EncodeToString(data)
}

// sizes returns the PNG icon's size as MCP's Icon.sizes spells it: WxH.
func sizes() string {
	n := strconv.Itoa(render.IconSide)
	return n + "x" + n
}
