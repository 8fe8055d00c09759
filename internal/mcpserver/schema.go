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

	Name         string `json:"name,omitempty" jsonschema:"type vcard: the contact's name, such as Anna Müller or Müller, Anna. type epc: the beneficiary's name, 1 to 70 characters on one line. type swissqr: the creditor's name, at most 70 characters. type emvco: the merchant's name, at most 25 ASCII characters (not needed for promptpay). type upi: the payee's name. type spayd: the recipient's name, at most 35 characters, optional."`
	Organization string `json:"organization,omitempty" jsonschema:"type vcard: the company."`
	JobTitle     string `json:"jobTitle,omitempty" jsonschema:"type vcard: the job title."`
	Phone        string `json:"phone,omitempty" jsonschema:"type vcard: a phone number. type sms: the number to text, type tel: the number to call; 3 to 15 digits with an optional leading +; spaces, ( ) . - / are fine."`
	Email        string `json:"email,omitempty" jsonschema:"type vcard: an e-mail address."`
	Website      string `json:"website,omitempty" jsonschema:"type vcard: a web address."`

	To      string `json:"to,omitempty" jsonschema:"type email: the recipient's address."`
	Subject string `json:"subject,omitempty" jsonschema:"type email: the subject, one line."`
	Message string `json:"message,omitempty" jsonschema:"type email: the body. type sms: the text. type swissqr: the message to the payee (with billInformation at most 140 characters). type emvco: the description, for scheme pix only. type upi: the note (tn), at most 50 characters. type spayd: the message (MSG), at most 60 characters. type bitcoin: the message."`

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

	IBAN       string `json:"iban,omitempty" jsonschema:"type epc: the beneficiary's IBAN of a SEPA country, spaces allowed; check digits are verified. type swissqr: the creditor's IBAN or QR-IBAN (CH or LI); a QR-IBAN needs a QR reference. type spayd: the payee's IBAN."`
	BIC        string `json:"bic,omitempty" jsonschema:"type epc and spayd: the bank's BIC, 8 or 11 characters; optional."`
	Amount     any    `json:"amount,omitempty" jsonschema:"type epc: euros, 0.01 to 999999999.99, at most 2 decimals, such as 12.30; a number or a string, no currency sign or thousands separator. Optional: the payer types it. The payment types: in their currency (swissqr, upi, spayd: at most 2 decimals; emvco: the currency's decimals; bitcoin: bitcoins, at most 8 decimals, equal to the lightning invoice's amount when both are given). Never rounded."`
	Reference  string `json:"reference,omitempty" jsonschema:"type epc: an ISO 11649 creditor reference such as RF18 5390 0754 7034 (checked); not with remittance. type swissqr: with a QR-IBAN, the QR reference of 27 digits (required, check digit verified); else a creditor reference (RF…) or nothing. type emvco: the reference label, at most 25 characters (pix: the txid, letters and digits). type upi: the transaction reference (tr). type spayd: the payer's reference (RF), at most 16 digits."`
	Remittance string `json:"remittance,omitempty" jsonschema:"type epc: free text for the payee, 1 to 140 characters on one line; not with reference."`

	// The payment types (swissqr, emvco, upi, spayd, bitcoin), beside name, iban, bic, amount,
	// reference and message above.
	Currency             string `json:"currency,omitempty" jsonschema:"type swissqr: CHF or EUR, required. type emvco: an ISO 4217 code such as SGD or 702, required for schemes other than pix (BRL) and promptpay (THB). type upi: INR only. type spayd: 3 letters, optional (CZK when left out)."`
	Country              string `json:"country,omitempty" jsonschema:"type swissqr: the creditor's country, two letters such as CH, required. type emvco: the merchant's country, two letters, required for schemes other than pix (BR) and promptpay (TH)."`
	City                 string `json:"city,omitempty" jsonschema:"type swissqr: the creditor's town, at most 35 characters, required. type emvco: the merchant's city, at most 15 ASCII characters (not needed for promptpay)."`
	PostalCode           string `json:"postalCode,omitempty" jsonschema:"type swissqr: the creditor's postal code, required. type emvco: the merchant's postal code, optional."`
	Street               string `json:"street,omitempty" jsonschema:"type swissqr: the creditor's street, optional."`
	BuildingNumber       string `json:"buildingNumber,omitempty" jsonschema:"type swissqr: the creditor's building number, optional."`
	DebtorName           string `json:"debtorName,omitempty" jsonschema:"type swissqr: the payer's name. The payer's address is optional; with any debtor field, debtorName, debtorPostalCode, debtorCity and debtorCountry are required."`
	DebtorStreet         string `json:"debtorStreet,omitempty" jsonschema:"type swissqr: the payer's street, optional."`
	DebtorBuildingNumber string `json:"debtorBuildingNumber,omitempty" jsonschema:"type swissqr: the payer's building number, optional."`
	DebtorPostalCode     string `json:"debtorPostalCode,omitempty" jsonschema:"type swissqr: the payer's postal code."`
	DebtorCity           string `json:"debtorCity,omitempty" jsonschema:"type swissqr: the payer's town."`
	DebtorCountry        string `json:"debtorCountry,omitempty" jsonschema:"type swissqr: the payer's country, two letters."`
	BillInformation      string `json:"billInformation,omitempty" jsonschema:"type swissqr: structured bill information, // and coded information such as //S1/10/10201409; optional."`
	Scheme               string `json:"scheme,omitempty" jsonschema:"type emvco, required: pix (Brazil), promptpay (Thailand), or the globally unique identifier of another scheme."`
	Key                  string `json:"key,omitempty" jsonschema:"type emvco, required: the Pix key (CPF, CNPJ, e-mail, +55 phone number or random key, checked), the PromptPay id (Thai mobile number, 13-digit tax id or 15-digit e-wallet id), or another scheme's merchant account."`
	MerchantCategory     string `json:"merchantCategory,omitempty" jsonschema:"type emvco and upi: the merchant category code, 4 digits (ISO 18245), optional."`
	VPA                  string `json:"vpa,omitempty" jsonschema:"type upi, required: the payee's UPI id, handle@psp such as shop@okhdfcbank."`
	DueDate              string `json:"dueDate,omitempty" jsonschema:"type spayd: the due date, such as 2026-12-24, optional."`
	VariableSymbol       string `json:"variableSymbol,omitempty" jsonschema:"type spayd: the variable symbol, 1 to 10 digits, optional."`
	SpecificSymbol       string `json:"specificSymbol,omitempty" jsonschema:"type spayd: the specific symbol, 1 to 10 digits, optional."`
	ConstantSymbol       string `json:"constantSymbol,omitempty" jsonschema:"type spayd: the constant symbol, 1 to 10 digits, optional."`
	Address              string `json:"address,omitempty" jsonschema:"type bitcoin: the bitcoin address (1…, 3… or bc1…, checksum verified), required unless lightning is given."`
	Label                string `json:"label,omitempty" jsonschema:"type bitcoin: the payee's label, optional."`
	Lightning            string `json:"lightning,omitempty" jsonschema:"type bitcoin: a BOLT 11 Lightning invoice (lnbc…), optional."`

	Color      string `json:"color,omitempty" jsonschema:"The dark modules' colour, RRGGBB with or without #; it must be clearly darker than background (its BT.601 luma at most 45% of the background's, 48 steps below it, and a contrast of 3:1), or the call fails with LOW_CONTRAST naming a readable colour."`
	Background string `json:"background,omitempty" jsonschema:"The light modules' colour, RRGGBB with or without #."`
	Logo       string `json:"logo,omitempty" jsonschema:"The mark in the centre; error correction is raised only as far as its pad needs."`
	Corners    string `json:"corners,omitempty" jsonschema:"The shape of the outer corners of the dark shapes."`
	Size       int    `json:"size,omitempty" jsonschema:"The image's width and height in pixels."`
	ECC        string `json:"ecc,omitempty" jsonschema:"Least error correction level; raised for free when the code keeps its size."`
	Margin     *int   `json:"margin,omitempty" jsonschema:"The quiet zone around the code, in modules; below 4 many readers fail and the answer carries a SMALL_QUIET_ZONE warning."`

	Caption         string `json:"caption,omitempty" jsonschema:"Words printed with the code, such as Scan for the menu: one line of at most 40 characters, Latin, Greek or Cyrillic letters; the image keeps its size and the code shrinks to make room."`
	CaptionPosition string `json:"caption_position,omitempty" jsonschema:"Where the caption goes."`
	ShowDestination bool   `json:"show_destination,omitempty" jsonschema:"type url only: true prints the link's host and path small beneath the code, so people can check where it goes before they scan it."`
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
	exclusiveMin := func(name string, lo float64) { s.Properties[name].ExclusiveMinimum = &lo }
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
	for _, name := range []string{"logo", "corners", "ecc", "caption_position"} {
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
	def("show_destination", false)
	maxCaption := api.MaxCaption
	s.Properties["caption"].MaxLength = &maxCaption
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
	exclusiveMin("amount", 0) // each type has its own range (bitcoin's starts at 1e-8)
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
