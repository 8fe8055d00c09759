package payload

import (
	"fmt"
	"strconv"
)

// Reason is a stable identifier of what is wrong with a request, in UPPER_SNAKE_CASE: the
// error object's "code". The HTTP and MCP edges send it to clients as it is. (In Go names, "code"
// means a QR code only; the identifier of an error is its Reason, as in Kubernetes' StatusReason.)
type Reason string

// The codes of payload errors. All are the client's mistake (HTTP 400) except
// ReasonPayloadTooLarge (HTTP 413).
const (
	ReasonMissingPayload    Reason = "MISSING_PAYLOAD"    // neither data nor type
	ReasonInvalidType       Reason = "INVALID_TYPE"       // type is not one of the payload types
	ReasonMissingField      Reason = "MISSING_FIELD"      // a field the type needs is absent or empty
	ReasonConflictingFields Reason = "CONFLICTING_FIELDS" // a field and its alias disagree, or url and text without type
	ReasonInvalidText       Reason = "INVALID_TEXT"       // control characters or invalid UTF-8 in a text value, or a line separator in a line's field
	ReasonInvalidURL        Reason = "INVALID_URL"        // a URL that is malformed or refused
	ReasonInvalidSSID       Reason = "INVALID_SSID"       // a Wi-Fi network name of the wrong length
	ReasonInvalidSecurity   Reason = "INVALID_SECURITY"   // a Wi-Fi security that is not WPA, WEP or nopass
	ReasonInvalidPassword   Reason = "INVALID_PASSWORD"   // a Wi-Fi password that the security type cannot have
	ReasonInvalidEmail      Reason = "INVALID_EMAIL"      // an e-mail address that is not local@domain
	ReasonInvalidPhone      Reason = "INVALID_PHONE"      // a phone number that is not 3 to 15 digits
	ReasonPayloadTooLarge   Reason = "PAYLOAD_TOO_LARGE"  // data, text or the generated payload over MaxLen characters, or an epc payload over EPCMaxBytes bytes

	// The codes of the extensions' fields.
	ReasonInvalidCoordinate Reason = "INVALID_COORDINATE" // geo: a latitude, longitude or altitude that is not a decimal in range
	ReasonInvalidDate       Reason = "INVALID_DATE"       // event: a start or end that is not an ISO 8601 date or zoned date-time, or an end before start
	ReasonInvalidIBAN       Reason = "INVALID_IBAN"       // epc: an IBAN of the wrong form, length or check digits, or of no SEPA country
	ReasonInvalidBIC        Reason = "INVALID_BIC"        // epc: a BIC that is not 8 or 11 characters of ISO 9362's form
	ReasonInvalidAmount     Reason = "INVALID_AMOUNT"     // epc: an amount that is not 0.01 to 999999999.99 with at most 2 decimals
	ReasonInvalidReference  Reason = "INVALID_REFERENCE"  // epc: a reference that is not an ISO 11649 creditor reference with right check digits
	ReasonValueTooLong      Reason = "VALUE_TOO_LONG"     // epc and the payment types: a value longer than its standard allows

	// The codes of the payment types (swissqr, emvco, upi, spayd, bitcoin), beside the codes
	// above that they share (INVALID_IBAN, INVALID_AMOUNT, INVALID_REFERENCE, VALUE_TOO_LONG …).
	ReasonInvalidCurrency         Reason = "INVALID_CURRENCY"          // a currency the type does not take (swissqr: CHF or EUR; upi: INR; emvco, spayd: ISO 4217)
	ReasonInvalidCountry          Reason = "INVALID_COUNTRY"           // a country that is not ISO 3166-1 alpha-2, or not the emvco preset's (BR, TH)
	ReasonInvalidBillInformation  Reason = "INVALID_BILL_INFORMATION"  // swissqr: bill information that is not "//" and coded information
	ReasonInvalidKey              Reason = "INVALID_KEY"               // emvco: a Pix key, PromptPay id or merchant account the scheme does not take
	ReasonInvalidScheme           Reason = "INVALID_SCHEME"            // emvco: neither pix, promptpay nor a globally unique identifier (MPM 4.7.11.2)
	ReasonInvalidMerchantCategory Reason = "INVALID_MERCHANT_CATEGORY" // emvco, upi: a merchant category code that is not 4 digits (ISO 18245)
	ReasonUnsupportedField        Reason = "UNSUPPORTED_FIELD"         // a field the kind of code has no place for (an emvco message outside pix)
	ReasonInvalidVPA              Reason = "INVALID_VPA"               // upi: a payee address that is not handle@psp
	ReasonInvalidSymbol           Reason = "INVALID_SYMBOL"            // spayd: a variable, specific or constant symbol that is not 1 to 10 digits
	ReasonInvalidBitcoinAddress   Reason = "INVALID_BITCOIN_ADDRESS"   // bitcoin: not Base58Check (1…, 3…) nor bech32/bech32m (bc1…) with a right checksum, or of another network
	ReasonInvalidLightningInvoice Reason = "INVALID_LIGHTNING_INVOICE" // bitcoin: not a mainnet BOLT 11 invoice with a right checksum
)

// Error is a payload error: the request field at fault, a stable code, and for people a message
// and a hint, a concrete next step. Messages never quote the value of a private field.
type Error struct {
	Reason  Reason
	Field   string // the request field, by its canonical name; empty when no one field is at fault
	Message string
	Hint    string
}

// Error returns the message, prefixed with the package name.
func (e *Error) Error() string { return "payload: " + e.Message }

// count is n and its noun as a message says them, in English: "1 character", "2 characters",
// "0 characters".
func count(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return strconv.Itoa(n) + " " + noun + "s"
}

// fail returns an *Error.
func fail(code Reason, field, hint, format string, args ...any) *Error {
	return &Error{Reason: code, Field: field, Message: fmt.Sprintf(format, args...), Hint: hint}
}

// Warning is something about a payload that some readers mishandle, though it is valid: the
// service still makes the code and tells the caller.
type Warning struct {
	Reason  Reason
	Field   string
	Message string
}

// ReasonLegacyAndroid warns of a Wi-Fi value that Android's parser before Android 15 misreads:
// one that ends in a backslash, or is wrapped in double quotes.
const ReasonLegacyAndroid Reason = "LEGACY_ANDROID_WIFI"
