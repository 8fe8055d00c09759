package api

// Response is the JSON answer of a generation request with format=json (spec 2.2), with the
// service's additions: version, ecc, modules, margin, module_px and warnings.
type Response struct {
	OK          bool    `json:"ok"`           // always true
	Type        string  `json:"type"`         // the payload type, as payload_type
	PayloadType string  `json:"payload_type"` // url, text, wifi, vcard, email or sms
	Payload     *string `json:"payload"`      // the payload; null when it is private
	Format      string  `json:"format"`       // always json
	MimeType    string  `json:"mime_type"`    // always image/png: the type of png_base64 and image_url
	Size        int     `json:"size"`         // pixels
	Logo        string  `json:"logo"`         // banana or none
	Color       string  `json:"color"`        // #RRGGBB, upper case
	Background  string  `json:"background"`   // #RRGGBB, upper case
	SVG         string  `json:"svg"`          // the same bytes as the .svg endpoint returns
	PNGBase64   string  `json:"png_base64"`   // standard Base64, no data: prefix
	PNGDataURL  string  `json:"png_data_url"` // data:image/png;base64,…
	ImageURL    *string `json:"image_url"`    // /api/qr-code.png?… for public payloads, else null
	SVGURL      *string `json:"svg_url"`      // /api/qr-code.svg?… for public payloads, else null
	Markdown    string  `json:"markdown"`     // an image pointing at image_url, or a data URI for private payloads

	Version  int       `json:"version"`   // the QR Code version, 1 to 40
	ECC      string    `json:"ecc"`       // the error correction level used: L, M, Q or H
	Modules  int       `json:"modules"`   // modules a side, without the quiet zone: 4·version + 17
	Margin   int       `json:"margin"`    // the quiet zone in modules
	ModulePx int       `json:"module_px"` // pixels a module
	Warnings []Warning `json:"warnings"`  // what some readers mishandle; empty when nothing
}

// Warning is something about a valid payload that some readers mishandle.
type Warning struct {
	Reason  string `json:"code"`
	Field   string `json:"field"`
	Message string `json:"message"`
}

// ErrorBody is the error object of every error response (spec 2.3): error and message carry
// the same text.
type ErrorBody struct {
	Error   string `json:"error"`
	Reason  string `json:"code"`
	Message string `json:"message"`
	Hint    string `json:"hint"`
}

// Health is the answer of the liveness checks (spec 2.4).
type Health struct {
	OK bool `json:"ok"`
}

// Contrast is the answer of GET /api/contrast: whether QR readers can tell the colours apart,
// by the rule every code is held to (package contrast), with the figures behind it.
type Contrast struct {
	Readable       bool    `json:"readable"`
	Color          string  `json:"color"`           // #RRGGBB, upper case
	Background     string  `json:"background"`      // #RRGGBB, upper case
	ColorLuma      float64 `json:"color_luma"`      // BT.601 luma, 0 to 255, one decimal
	BackgroundLuma float64 `json:"background_luma"` // BT.601 luma, 0 to 255, one decimal
	WCAG           float64 `json:"wcag_ratio"`      // WCAG 2 contrast ratio, two decimals
	Message        string  `json:"message"`         // the verdict in words
	// Suggestion is a nearby pair that readers can read: the pair itself when it is readable.
	Suggestion ColorPair    `json:"suggestion"`
	Rule       ContrastRule `json:"rule"`
}

// ColorPair is a colour and a background, each #RRGGBB.
type ColorPair struct {
	Color      string `json:"color"`
	Background string `json:"background"`
}

// ContrastRule is the bounds of the colour rule (package contrast).
type ContrastRule struct {
	MaxLumaRatio      float64 `json:"max_luma_ratio"`      // the colour's luma at most this share of the background's
	MinLumaDifference float64 `json:"min_luma_difference"` // the lumas at least this far apart
	MinWCAG           float64 `json:"min_wcag_ratio"`      // the WCAG 2 contrast ratio at least this
}

// MarkdownImage returns the Markdown image of a code at url (an image URL or a data: URL), as the
// JSON answer's markdown and the MCP tool's text give it. The URLs the service makes need no
// escaping there: their queries are percent-encoded, parentheses included, and base64 has none.
func MarkdownImage(url string) string { return "![QR code](" + url + ")" }
