// Package payload builds the text a QR Code carries from a request: raw data, or a structured
// value (a URL, Wi-Fi credentials, a contact card, an e-mail, a text message or plain text)
// whose standard format it writes and escapes the way scanners read it; and, as bananaqr
// extensions, a phone number to call, a location, a calendar event or a SEPA credit transfer. It validates the
// request and says whether the payload is private (never to be echoed).
//
// The formats, and the readers' behaviour behind each choice, are described in the project's
// design notes (design/payloads.md): the URL rule of RFC 3986 with IDNA (UTS #46) hosts, the
// WIFI: format of ZXing and Android, vCard 3.0 (RFC 2426), mailto: (RFC 6068) and SMSTO:; the
// extensions write tel: (RFC 3966), geo: (RFC 5870), an iCalendar VEVENT (RFC 5545) and the
// European Payments Council's QR code (EPC069-12).
package payload

import (
	"slices"
	"strings"
	"unicode/utf8"
)

// Type is the kind of a payload.
type Type string

// The payload types.
const (
	URL   Type = "url"
	WiFi  Type = "wifi"
	VCard Type = "vcard"
	Email Type = "email"
	SMS   Type = "sms"
	Text  Type = "text"

	// The bananaqr extensions, beyond the spec's six: all private.
	Tel   Type = "tel"   // a phone number to call: tel: (RFC 3966)
	Geo   Type = "geo"   // a location: geo: (RFC 5870)
	Event Type = "event" // a calendar event: an iCalendar VEVENT (RFC 5545)
	EPC   Type = "epc"   // a SEPA credit transfer: the EPC QR code (EPC069-12)

	// The payment types (issue 31), private like EPC.
	SwissQR Type = "swissqr" // a Swiss QR-bill's code (SIX Swiss Implementation Guidelines for the QR-bill 2.3)
	EMVCo   Type = "emvco"   // a merchant-presented EMV QR code (EMV QRCPS MPM 1.1): Pix, PromptPay, others
	UPI     Type = "upi"     // an Indian UPI payment link (NPCI's linking specification)
	SPAYD   Type = "spayd"   // a Czech Short Payment Descriptor (SPAYD 1.0)
	Bitcoin Type = "bitcoin" // a bitcoin: URI (BIP 321)
)

// Types lists the payload types in the order the API documents them: the spec's six, then the
// bananaqr extensions.
var Types = []Type{URL, WiFi, VCard, Email, SMS, Text, Tel, Geo, Event, EPC, SwissQR, EMVCo, UPI, SPAYD, Bitcoin}

// typeList is Types as hints list them.
var typeList = JoinWords(Types, "or")

// JoinWords returns words as a sentence lists them: "url, wifi or text" with the conjunction
// "or", "wifi and sms" with "and". Hints, help texts and schemas list the types (Types) and
// the Wi-Fi securities (Securities) through it rather than spelling them out.
func JoinWords[S ~string](words []S, conjunction string) string {
	var b strings.Builder
	for i, t := range words {
		switch {
		case i == 0:
		case i == len(words)-1:
			b.WriteString(" " + conjunction + " ")
		default:
			b.WriteString(", ")
		}
		b.WriteString(string(t))
	}
	return b.String()
}

// PublicTypes returns the types of Types that are not private (Type.Private), in order.
func PublicTypes() []Type { return slices.DeleteFunc(slices.Clone(Types), Type.Private) }

// PrivateTypes returns the private types of Types, in order (see PublicTypes).
func PrivateTypes() []Type {
	return slices.DeleteFunc(slices.Clone(Types), func(t Type) bool { return !t.Private() })
}

// Private reports whether payloads of type t hold what must not be echoed: credentials, contact
// details, addresses and messages, and so are the extensions' phone numbers, locations, events
// and bank accounts and the payment types' payees. Only url and text are public.
func (t Type) Private() bool { return t != URL && t != Text }

// MaxLen is the most characters (Unicode code points) that data, text and a generated payload
// may have.
const MaxLen = 2048

// Request is the payload part of a QR request: raw Data, or a Type and the fields of that type.
// Fields of other types are not read. An empty string is an absent field. The alias fields are
// the older reference's names; when a field and its alias are both given they must agree.
type Request struct {
	Data string // the payload as it is; when set, the type's fields are neither needed nor read
	Type Type   // the type; when empty, url or text as the URL or Text field is set, else from Data

	URL  string // url: the address; vcard: alias of Website
	Text string // text

	SSID       string // wifi: the network name
	Password   string // wifi
	Security   string // wifi: WPA (WPA, WPA2, WPA3), WEP or nopass; WPA when empty
	Encryption string // wifi: alias of Security
	Hidden     bool   // wifi: the network does not broadcast its name

	Name         string // vcard: the display name; epc: the beneficiary
	FirstName    string // vcard: alias, with LastName, for the name
	LastName     string // vcard
	Organization string // vcard
	JobTitle     string // vcard
	Title        string // vcard: alias of JobTitle
	Phone        string // vcard: a phone number; sms: the number to text; tel: the number to call
	Email        string // vcard: an e-mail address; email: alias of To
	Website      string // vcard

	To      string // email: the recipient's address
	Subject string // email
	Message string // email: the body; sms: the text
	Body    string // email: alias of Message

	// The extensions' fields. Numbers are exact decimal text, never a float: the API keeps a
	// JSON number's literal as it is.
	Latitude  string // geo: decimal degrees, -90 to 90
	Longitude string // geo: decimal degrees, -180 to 180
	Altitude  string // geo: metres, optional

	Summary     string // event: the title
	Start       string // event: an ISO 8601 date, or date-time with a zone
	End         string // event: as Start; for dates, the last day
	Location    string // event
	Description string // event

	IBAN       string // epc: the beneficiary's account; swissqr: the creditor's IBAN or QR-IBAN; spayd: the account
	BIC        string // epc: the beneficiary's bank, optional; spayd: likewise
	Amount     string // epc: euros, 0.01 to 999999999.99; the payment types: in their currency
	Reference  string // epc: an ISO 11649 creditor reference; swissqr: a QR or creditor reference; emvco: the reference label (Pix txid); upi: tr; spayd: RF
	Remittance string // epc: free text, instead of Reference

	// The payment types' fields (swissqr, emvco, upi, spayd, bitcoin). Name is the payee (the
	// creditor, merchant or recipient) and Message the note to the payee, as for the others.
	Currency             string // swissqr: CHF or EUR; emvco, upi, spayd: an ISO 4217 code
	Country              string // swissqr: the creditor's ISO 3166 country; emvco: the merchant's
	City                 string // swissqr: the creditor's town; emvco: the merchant's city
	PostalCode           string // swissqr: the creditor's postal code; emvco: the merchant's, optional
	Street               string // swissqr: the creditor's street, optional
	BuildingNumber       string // swissqr: the creditor's building number, optional
	DebtorName           string // swissqr: the ultimate debtor, optional, with the address below
	DebtorStreet         string // swissqr
	DebtorBuildingNumber string // swissqr
	DebtorPostalCode     string // swissqr
	DebtorCity           string // swissqr
	DebtorCountry        string // swissqr
	BillInformation      string // swissqr: structured bill information (//S1/…), optional
	Scheme               string // emvco: pix, promptpay, or the GUID of another scheme's merchant account
	Key                  string // emvco: the Pix key, the PromptPay id, or the merchant account of another scheme
	MerchantCategory     string // emvco: the ISO 18245 merchant category code (4 digits); upi: mc
	VPA                  string // upi: the payee's virtual payment address (pa), such as name@bank
	DueDate              string // spayd: the due date, an ISO 8601 date
	VariableSymbol       string // spayd: X-VS, up to 10 digits
	SpecificSymbol       string // spayd: X-SS, up to 10 digits
	ConstantSymbol       string // spayd: X-KS, up to 10 digits
	Address              string // bitcoin: the address (Base58Check or bech32/bech32m), may be empty with Lightning
	Label                string // bitcoin: the payee's label
	Lightning            string // bitcoin: a BOLT 11 Lightning invoice
}

// Payload is what a QR Code carries, and what the service may say about it.
type Payload struct {
	Text     string // the payload, UTF-8
	Type     Type
	Private  bool      // never echo Text (nor put it in URLs, headers or logs)
	Warnings []Warning // things some readers mishandle; the payload is still valid
}

// Build makes the payload of r, or returns an *Error that names the field at fault.
//
// Raw data is taken as it is (only control characters other than tab, line feed and carriage
// return are refused, and data of type url must pass the URL rule); its type is r.Type if
// given, else the one its content shows (see Classify).
// A payload is private when its type is, and also when its content shows a private type whatever
// the type given: a Wi-Fi password sent as "text" is still a Wi-Fi password.
func Build(r *Request) (Payload, error) {
	t, err := resolveType(r)
	if err != nil {
		return Payload{}, err
	}
	p := Payload{Text: r.Data}
	if r.Data == "" {
		if p.Text, p.Warnings, err = buildFields(t, r); err != nil {
			return Payload{}, err
		}
	}
	if err := checkLen(r, t, p.Text); err != nil {
		return Payload{}, err
	}
	p.Type = t
	_, private := classify(p.Text, r.Data == "" && t == URL)
	p.Private = t.Private() || private
	return p, nil
}

// resolveType returns the type of r's payload, checking raw data on the way: r.Type if given,
// else that of the data's content (Infer), else url or text as the URL or Text field is set.
func resolveType(r *Request) (Type, error) {
	t := r.Type
	switch {
	case r.Data != "":
		if err := checkText("data", r.Data); err != nil {
			return "", err
		}
		// Data given as a url is labelled url and echoed as one, so it must be one: the URL
		// rule's refusals hold (javascript:, user information, bad hosts), though the data is
		// encoded as it is.
		if t == URL {
			if _, err := NormalizeURL("data", r.Data); err != nil {
				return "", err
			}
		}
		if t == "" {
			t = Infer(r.Data)
		}
	case t == "" && r.URL != "" && r.Text != "":
		return "", fail(ReasonConflictingFields, "type", "Set type to url or text.",
			"both url and text are given without a type")
	case t == "" && r.URL != "":
		t = URL
	case t == "" && r.Text != "":
		t = Text
	case t == "":
		return "", fail(ReasonMissingPayload, "type", "Send data with the payload as it is, or type ("+typeList+") with its fields.",
			"the request has neither data nor type")
	}
	if !t.valid() {
		return "", fail(ReasonInvalidType, "type", "Use one of "+typeList+" (lower case).",
			"type %q is not a payload type", t)
	}
	return t, nil
}

// buildFields makes the payload of type t from r's fields, in the type's standard format (see
// the package comment), with the warnings of a Wi-Fi payload.
func buildFields(t Type, r *Request) (text string, warnings []Warning, err error) {
	switch t {
	case URL:
		text, err = buildURL(r)
	case WiFi:
		text, warnings, err = buildWiFi(r)
	case VCard:
		text, err = buildVCard(r)
	case Email:
		text, err = buildEmail(r)
	case SMS:
		text, err = buildSMS(r)
	case Text:
		text, err = buildText(r)
	case Tel:
		text, err = buildTel(r)
	case Geo:
		text, err = buildGeo(r)
	case Event:
		text, err = buildEvent(r)
	case EPC:
		text, err = buildEPC(r)
	case SwissQR:
		text, err = buildSwissQR(r)
	case EMVCo:
		text, err = buildEMVCo(r)
	case UPI:
		text, err = buildUPI(r)
	case SPAYD:
		text, err = buildSPAYD(r)
	case Bitcoin:
		text, err = buildBitcoin(r)
	}
	return text, warnings, err
}

// checkLen refuses a payload of more than MaxLen characters, naming data or text when the
// payload is that field as it is.
func checkLen(r *Request, t Type, text string) error {
	if n := utf8.RuneCountInString(text); n > MaxLen {
		field := "" // a generated payload: no one field is at fault
		if r.Data != "" {
			field = "data"
		} else if t == Text {
			field = "text"
		}
		return fail(ReasonPayloadTooLarge, field, "Shorten the content, or encode a URL that points to it.",
			"the payload has %d characters, more than %d", n, MaxLen)
	}
	return nil
}

// valid reports whether t is one of the payload types.
func (t Type) valid() bool {
	for _, u := range Types {
		if t == u {
			return true
		}
	}
	return false
}

// buildText returns text as it is.
func buildText(r *Request) (string, error) {
	if r.Text == "" {
		return "", missing("text", "the text to encode")
	}
	return r.Text, checkText("text", r.Text)
}

// missing returns the error of a required field that is absent.
func missing(field, what string) *Error {
	return fail(ReasonMissingField, field, "Add "+field+": "+what+".", "%s is required", field)
}

// checkText refuses invalid UTF-8 and the control characters in a text value: C0 other than
// tab, line feed and carriage return, DEL and C1 (U+0080 to U+009F), the whole of Unicode's
// general category Cc. C1 controls are invisible, and terminals act on them (U+009B is CSI, the
// 8-bit escape sequence introducer of ECMA-48); U+0085 is a line break to some readers only.
func checkText(field, s string) error {
	if !utf8.ValidString(s) {
		return fail(ReasonInvalidText, field, "Send "+field+" as UTF-8 text.", "%s is not valid UTF-8", field)
	}
	for _, c := range s {
		if (c < 0x20 && c != '\t' && c != '\n' && c != '\r') || (c >= 0x7f && c <= 0x9f) {
			return fail(ReasonInvalidText, field, "Remove control characters from "+field+"; tab, line feed and carriage return are allowed.",
				"%s holds the control character U+%04X", field, c)
		}
	}
	return nil
}

// checkLineText is checkText for a field of a payload made of lines (a vCard, an iCalendar
// event, an EPC code, an e-mail's subject line): it also refuses U+2028 LINE SEPARATOR and
// U+2029 PARAGRAPH SEPARATOR. Unicode counts them as mandatory line breaks (UAX #14 class BK,
// with VT, FF and NEL, which checkText refuses as controls), and so do parsers that split lines
// the Unicode way, Python's str.splitlines and Java's \R among them: there a value holding one
// would end its line early and shift the fields after it (an EPC code's name into its IBAN).
// Line breaks a format can carry are CR and LF, escaped or refused by each builder.
func checkLineText(field, s string) error {
	if err := checkText(field, s); err != nil {
		return err
	}
	if i := strings.IndexAny(s, "\u2028\u2029"); i >= 0 {
		c, _ := utf8.DecodeRuneInString(s[i:])
		return fail(ReasonInvalidText, field, "Remove the Unicode line and paragraph separators (U+2028, U+2029) from "+field+
			": some readers break lines there, which would split the payload's lines.",
			"%s holds the line break character U+%04X", field, c)
	}
	return nil
}

// alias returns the value of a field given under its canonical name or its alias, or an error
// when both are given and differ.
func alias(field, value, aliasName, aliasValue string) (string, error) {
	switch {
	case aliasValue == "":
		return value, nil
	case value == "" || value == aliasValue:
		return aliasValue, nil
	}
	return "", fail(ReasonConflictingFields, field, "Send only "+field+" ("+aliasName+" is its older name).",
		"%s and %s are both given and differ", field, aliasName)
}
