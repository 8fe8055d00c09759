package payload

import "fmt"

// ErrorCode is a stable identifier of what is wrong with a request, in UPPER_SNAKE_CASE: the
// error object's "code". The HTTP and MCP edges send it to clients as it is. (In Go names, "code"
// alone means a QR code; an error's is always an ErrorCode.)
type ErrorCode string

// The codes of payload errors. All are the client's mistake (HTTP 400) except
// CodePayloadTooLarge (HTTP 413).
const (
	CodeMissingPayload    ErrorCode = "MISSING_PAYLOAD"    // neither data nor type
	CodeInvalidType       ErrorCode = "INVALID_TYPE"       // type is not one of the payload types
	CodeMissingField      ErrorCode = "MISSING_FIELD"      // a field the type needs is absent or empty
	CodeConflictingFields ErrorCode = "CONFLICTING_FIELDS" // a field and its alias disagree, or url and text without type
	CodeInvalidText       ErrorCode = "INVALID_TEXT"       // control characters or invalid UTF-8 in a text value, or a line separator in a line's field
	CodeInvalidURL        ErrorCode = "INVALID_URL"        // a URL that is malformed or refused
	CodeInvalidSSID       ErrorCode = "INVALID_SSID"       // a Wi-Fi network name of the wrong length
	CodeInvalidSecurity   ErrorCode = "INVALID_SECURITY"   // a Wi-Fi security that is not WPA, WEP or nopass
	CodeInvalidPassword   ErrorCode = "INVALID_PASSWORD"   // a Wi-Fi password that the security type cannot have
	CodeInvalidEmail      ErrorCode = "INVALID_EMAIL"      // an e-mail address that is not local@domain
	CodeInvalidPhone      ErrorCode = "INVALID_PHONE"      // a phone number that is not 3 to 15 digits
	CodePayloadTooLarge   ErrorCode = "PAYLOAD_TOO_LARGE"  // data, text or the generated payload over MaxLen characters, or an epc payload over EPCMaxBytes bytes

	// The codes of the extensions' fields.
	CodeInvalidCoordinate ErrorCode = "INVALID_COORDINATE" // geo: a latitude, longitude or altitude that is not a decimal in range
	CodeInvalidDate       ErrorCode = "INVALID_DATE"       // event: a start or end that is not an ISO 8601 date or zoned date-time, or an end before start
	CodeInvalidIBAN       ErrorCode = "INVALID_IBAN"       // epc: an IBAN of the wrong form, length or check digits, or of no SEPA country
	CodeInvalidBIC        ErrorCode = "INVALID_BIC"        // epc: a BIC that is not 8 or 11 characters of ISO 9362's form
	CodeInvalidAmount     ErrorCode = "INVALID_AMOUNT"     // epc: an amount that is not 0.01 to 999999999.99 with at most 2 decimals
	CodeInvalidReference  ErrorCode = "INVALID_REFERENCE"  // epc: a reference that is not an ISO 11649 creditor reference with right check digits
	CodeValueTooLong      ErrorCode = "VALUE_TOO_LONG"     // epc: a name over 70 or a remittance over 140 characters
)

// Error is a payload error: the request field at fault, a stable code, and for people a message
// and a hint, a concrete next step. Messages never quote the value of a private field.
type Error struct {
	Code    ErrorCode
	Field   string // the request field, by its canonical name; empty when no one field is at fault
	Message string
	Hint    string
}

// Error returns the message, prefixed with the package name.
func (e *Error) Error() string { return "payload: " + e.Message }

// fail returns an *Error.
func fail(code ErrorCode, field, hint, format string, args ...any) *Error {
	return &Error{Code: code, Field: field, Message: fmt.Sprintf(format, args...), Hint: hint}
}

// Warning is something about a payload that some readers mishandle, though it is valid: the
// service still makes the code and tells the caller.
type Warning struct {
	Code    ErrorCode
	Field   string
	Message string
}

// CodeLegacyAndroid warns of a Wi-Fi value that Android's parser before Android 15 misreads:
// one that ends in a backslash, or is wrapped in double quotes.
const CodeLegacyAndroid ErrorCode = "LEGACY_ANDROID_WIFI"
