package mcpserver

import (
	"encoding/json"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/bananaqr/bananaqr/api"
	"github.com/bananaqr/bananaqr/payload"
)

// Input is the arguments of generate_qr: the API's request less raw data, format and download,
// and less the older reference's aliases. The descriptions are what an agent reads.
type Input struct {
	Type string `json:"type" jsonschema:"What to encode (inputSchema lists the types), then that type's fields."`

	URL  string `json:"url,omitempty" jsonschema:"type url: the address to open. https:// is added when it has no scheme. javascript:, data: and similar schemes are refused."`
	Text string `json:"text,omitempty" jsonschema:"type text: the text, encoded as it is."`

	SSID     string `json:"ssid,omitempty" jsonschema:"type wifi: the network name, 1 to 32 bytes, spaces kept."`
	Password string `json:"password,omitempty" jsonschema:"type wifi: the password; WPA needs 8 to 63 characters (or 64 hex digits), WEP 5, 13 or 16 characters (or 10, 26, 32, 58 hex digits); ignored for nopass."`
	Security string `json:"security,omitempty" jsonschema:"type wifi: WPA (also for WPA2 and WPA3), WEP, or nopass for an open network."`
	Hidden   bool   `json:"hidden,omitempty" jsonschema:"type wifi: true when the network does not broadcast its name."`

	Name         string `json:"name,omitempty" jsonschema:"type vcard: the contact's name, such as Anna Müller or Müller, Anna. type epc: the beneficiary's name, 1 to 70 characters on one line."`
	Organization string `json:"organization,omitempty" jsonschema:"type vcard: the company."`
	JobTitle     string `json:"jobTitle,omitempty" jsonschema:"type vcard: the job title."`
	Phone        string `json:"phone,omitempty" jsonschema:"type vcard: a phone number. type sms: the number to text, type tel: the number to call; 3 to 15 digits with an optional leading +; spaces, ( ) . - / are fine."`
	Email        string `json:"email,omitempty" jsonschema:"type vcard: an e-mail address."`
	Website      string `json:"website,omitempty" jsonschema:"type vcard: a web address."`

	To      string `json:"to,omitempty" jsonschema:"type email: the recipient's address."`
	Subject string `json:"subject,omitempty" jsonschema:"type email: the subject, one line."`
	Message string `json:"message,omitempty" jsonschema:"type email: the body. type sms: the text."`

	// The bananaqr extensions (tel, geo, event, epc). The numbers take a JSON number or a
	// string; inputSchema gives them both types.
	Latitude  any `json:"latitude,omitempty" jsonschema:"type geo: decimal degrees (WGS-84), -90 to 90, at most 7 decimal places, such as 48.8582; a number or a string, no exponent."`
	Longitude any `json:"longitude,omitempty" jsonschema:"type geo: decimal degrees, -180 to 180, at most 7 decimal places, such as 2.2945."`
	Altitude  any `json:"altitude,omitempty" jsonschema:"type geo: metres above the WGS-84 ellipsoid (negative below), within 100000, at most 2 decimal places; optional."`

	Summary     string `json:"summary,omitempty" jsonschema:"type event: the event's title."`
	Start       string `json:"start,omitempty" jsonschema:"type event: a date such as 2026-12-24 (all day), or a date and time with Z or an offset such as 2026-12-24T18:00:00+01:00."`
	End         string `json:"end,omitempty" jsonschema:"type event: as start and of the same kind, not before it; a date is the last day, inclusive. Optional."`
	Location    string `json:"location,omitempty" jsonschema:"type event: where it takes place."`
	Description string `json:"description,omitempty" jsonschema:"type event: details."`

	IBAN       string `json:"iban,omitempty" jsonschema:"type epc: the beneficiary's IBAN of a SEPA country, spaces allowed; check digits are verified."`
	BIC        string `json:"bic,omitempty" jsonschema:"type epc: the bank's BIC, 8 or 11 characters; optional."`
	Amount     any    `json:"amount,omitempty" jsonschema:"type epc: euros, 0.01 to 999999999.99, at most 2 decimals, such as 12.30; a number or a string, no currency sign or thousands separator. Optional: the payer types it."`
	Reference  string `json:"reference,omitempty" jsonschema:"type epc: an ISO 11649 creditor reference such as RF18 5390 0754 7034 (checked); not with remittance."`
	Remittance string `json:"remittance,omitempty" jsonschema:"type epc: free text for the payee, 1 to 140 characters on one line; not with reference."`

	Color      string `json:"color,omitempty" jsonschema:"The dark modules' colour, RRGGBB with or without #; it must be clearly darker than background (its BT.601 luma at most 45% of the background's, 48 steps below it, and a contrast of 3:1), or the call fails with LOW_CONTRAST naming a readable colour."`
	Background string `json:"background,omitempty" jsonschema:"The light modules' colour, RRGGBB with or without #."`
	Logo       string `json:"logo,omitempty" jsonschema:"The mark in the centre; error correction is raised only as far as its pad needs."`
	Corners    string `json:"corners,omitempty" jsonschema:"The shape of the outer corners of the dark shapes."`
	Size       int    `json:"size,omitempty" jsonschema:"The image's width and height in pixels."`
	ECC        string `json:"ecc,omitempty" jsonschema:"Least error correction level; raised for free when the code keeps its size."`
	Margin     *int   `json:"margin,omitempty" jsonschema:"The quiet zone around the code, in modules; below 4 many readers fail and the answer carries a SMALL_QUIET_ZONE warning."`
}

// inputSchema returns the input schema of generate_qr: Input's, with the enumerations, ranges,
// defaults and pattern of the API.
func inputSchema() *jsonschema.Schema {
	s, err := jsonschema.For[Input](nil)
	if err != nil {
		panic(err)
	}
	enum := func(name string, values ...any) { s.Properties[name].Enum = values }
	def := func(name string, v any) {
		b, _ := json.Marshal(v)
		s.Properties[name].Default = b
	}
	between := func(name string, lo, hi float64) {
		s.Properties[name].Minimum, s.Properties[name].Maximum = &lo, &hi
	}
	var types []any
	for _, t := range payload.Types {
		types = append(types, string(t))
	}
	enum("type", types...)
	s.Properties["type"].Description = "What to encode: " + payload.JoinWords(payload.Types, "or") + ". Then give that type's fields."
	var securities []any
	for _, v := range payload.AcceptedSecurities() {
		securities = append(securities, v)
	}
	enum("security", securities...)
	def("security", payload.Securities[0])
	def("hidden", false)
	styles := api.StyleDefaults()
	for _, name := range []string{"logo", "corners", "ecc"} {
		var values []any
		for _, v := range api.StyleValues(name) {
			values = append(values, v)
		}
		enum(name, values...)
		def(name, styles[name])
		s.Properties[name].Description += " " + choicesText(name)
	}
	between("size", api.MinSize, api.MaxSize)
	def("size", api.DefaultSize)
	s.Properties["margin"].Types, s.Properties["margin"].Type = nil, "integer" // not nullable
	between("margin", 0, api.MaxMargin)
	def("margin", api.DefaultMargin)
	for _, c := range []string{"color", "background"} {
		s.Properties[c].Pattern = "^#?[0-9A-Fa-f]{6}$"
	}
	def("color", styles["color"])
	def("background", styles["background"])
	one, max := 1, payload.MaxLen
	for _, f := range []string{"url", "text"} {
		s.Properties[f].MinLength, s.Properties[f].MaxLength = &one, &max
	}
	for _, f := range []string{"latitude", "longitude", "altitude", "amount"} {
		s.Properties[f].Type, s.Properties[f].Types = "", []string{"number", "string"}
	}
	between("latitude", -90, 90)
	between("longitude", -180, 180)
	between("altitude", -100000, 100000)
	between("amount", 0.01, 999999999.99)
	s.Required = []string{"type"}
	return s
}

// choicesText lists the values of the enumerated style field name with their meanings, from
// package api's table: "square: square modules; rounded: the outer corners … rounded."
func choicesText(name string) string {
	var list []string
	for _, c := range api.StyleChoices(name) {
		list = append(list, c.Name+": "+c.Meaning)
	}
	return strings.Join(list, "; ") + "."
}
