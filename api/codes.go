package api

import (
	"errors"
	"fmt"
	"net/http"

	"github.com/bananaqr/bananaqr/payload"
)

// Reason is a stable error identifier in UPPER_SNAKE_CASE.
type Reason = payload.Reason

// The codes of the API's own errors; the payload's are in package payload (see Reasons for all).
const (
	ReasonInvalidJSON      Reason = "INVALID_JSON"           // the body is not one JSON object
	ReasonUnknownField     Reason = "UNKNOWN_FIELD"          // a property the request does not have
	ReasonWrongType        Reason = "WRONG_TYPE"             // a JSON value of the wrong type ("size": "1024")
	ReasonInvalidQuery     Reason = "INVALID_QUERY"          // a query string that cannot be parsed, or a parameter given twice
	ReasonInvalidValue     Reason = "INVALID_VALUE"          // a value outside its allowed set or range
	ReasonEmptyValue       Reason = "EMPTY_VALUE"            // data, url or text given but empty
	ReasonInvalidColor     Reason = "INVALID_COLOR"          // a colour that is not RRGGBB
	ReasonLowContrast      Reason = "LOW_CONTRAST"           // colours that many readers cannot tell apart
	ReasonUsePost          Reason = "USE_POST"               // a structured type asked for with GET
	ReasonNotEncodable     Reason = "NOT_ENCODABLE"          // valid, but no QR Code or image can hold it
	ReasonBatchInvalid     Reason = "BATCH_INVALID"          // a batch with failing requests, each listed
	ReasonBodyTooLarge     Reason = "BODY_TOO_LARGE"         // a request body over MaxBody
	ReasonHeadersTooLarge  Reason = "HEADERS_TOO_LARGE"      // request headers over MaxHeaderBytes
	ReasonUnsupportedMedia Reason = "UNSUPPORTED_MEDIA_TYPE" // a POST body that is not application/json
	ReasonRateLimited      Reason = "RATE_LIMITED"           // over the budget of codes a minute
	ReasonNotFound         Reason = "NOT_FOUND"              // no such path
	ReasonMethodNotAllowed Reason = "METHOD_NOT_ALLOWED"     // the path does not take the method
	ReasonOverloaded       Reason = "OVERLOADED"             // too many requests waiting to be served
	ReasonInternal         Reason = "INTERNAL_ERROR"         // a fault of the service
	ReasonInvalidCaption   Reason = "INVALID_CAPTION"        // a caption too long, not on one line, or with a character the font lacks
)

// ReasonInfo describes an error code: the HTTP status that carries it and what it means.
type ReasonInfo struct {
	Reason      Reason
	Status      int
	Description string
}

// Reasons lists every error code the service sends, the payload's included, in the order the
// error table (docs/errors.md) and the OpenAPI document show them.
var Reasons = []ReasonInfo{
	{ReasonInvalidJSON, http.StatusBadRequest, "The body is not one JSON object, or gives a property twice."},
	{ReasonUnknownField, http.StatusBadRequest, "The body has a property the request does not define."},
	{ReasonWrongType, http.StatusBadRequest, "A JSON value has the wrong type, such as \"size\": \"1024\"."},
	{ReasonInvalidQuery, http.StatusBadRequest, "The query string cannot be parsed, or a parameter is given twice."},
	{ReasonInvalidValue, http.StatusBadRequest, "A value is outside its allowed set or range (size, margin, ecc, logo, corners, format, download), or a style the payload type's standard fixes is asked otherwise: an epc code is level M without a logo; a swissqr code is level M, square, black on white, without a logo."},
	{ReasonEmptyValue, http.StatusBadRequest, "data, url or text is given but empty."},
	{ReasonInvalidColor, http.StatusBadRequest, "color or background is not six hexadecimal digits, with or without #."},
	{ReasonLowContrast, http.StatusBadRequest, "QR readers cannot reliably tell the colour from the background: it must be darker, with at most 45 % of the background's luma, 48 luma steps below it, and a contrast ratio of 3:1."},
	{ReasonInvalidCaption, http.StatusBadRequest, "The caption has more than 40 characters, a line break or control character, or characters the caption font cannot draw (the message names them)."},
	{ReasonUsePost, http.StatusBadRequest, payload.JoinWords(payload.PrivateTypes(), "and") + " codes are made with POST."},
	{payload.ReasonMissingPayload, http.StatusBadRequest, "The request has neither data nor type."},
	{payload.ReasonInvalidType, http.StatusBadRequest, "type is not " + payload.JoinWords(payload.Types, "or") + "."},
	{payload.ReasonMissingField, http.StatusBadRequest, "A field the type needs is absent."},
	{payload.ReasonConflictingFields, http.StatusBadRequest, "A field and its older alias disagree, url and text come without type, or fields that exclude each other are both given (an epc reference and remittance; a bitcoin amount unlike its lightning invoice's)."},
	{payload.ReasonInvalidText, http.StatusBadRequest, "A text value holds control characters or invalid UTF-8, or a field of a payload made of lines holds U+2028 or U+2029."},
	{payload.ReasonInvalidURL, http.StatusBadRequest, "The URL is malformed, has a refused scheme, user information or no host."},
	{payload.ReasonInvalidSSID, http.StatusBadRequest, "The Wi-Fi network name is longer than 32 bytes."},
	{payload.ReasonInvalidSecurity, http.StatusBadRequest, "The Wi-Fi security is not " + payload.JoinWords(payload.AcceptedSecurities(), "or") + "."},
	{payload.ReasonInvalidPassword, http.StatusBadRequest, "The Wi-Fi password does not fit the security type."},
	{payload.ReasonInvalidEmail, http.StatusBadRequest, "The e-mail address is not local@domain."},
	{payload.ReasonInvalidPhone, http.StatusBadRequest, "The phone number is not 3 to 15 digits with an optional +."},
	{payload.ReasonInvalidCoordinate, http.StatusBadRequest, "A geo latitude, longitude or altitude is not a decimal number in range (-90..90, -180..180, ±100,000 m) with at most 7 (altitude 2) decimal places."},
	{payload.ReasonInvalidDate, http.StatusBadRequest, "An event's start or end is not an ISO 8601 date or a date-time with a time zone, or end is before start."},
	{payload.ReasonInvalidIBAN, http.StatusBadRequest, "The IBAN has the wrong length or check digits, or is not of a country the type pays into: SEPA for epc, Switzerland or Liechtenstein for swissqr."},
	{payload.ReasonInvalidBIC, http.StatusBadRequest, "The BIC is not 8 or 11 letters and digits of the ISO 9362 form."},
	{payload.ReasonInvalidAmount, http.StatusBadRequest, "The amount is not a positive decimal within the type's range and decimal places (epc and swissqr: 0.01 to 999999999.99, 2 places; bitcoin: 8 places); amounts are never rounded."},
	{payload.ReasonInvalidReference, http.StatusBadRequest, "The reference is not one the type takes: an ISO 11649 creditor reference (RF) with right check digits, a Swiss QR reference of 27 digits with its mod-10 check digit (required with a QR-IBAN), a Pix txid, or a spayd reference of digits."},
	{payload.ReasonValueTooLong, http.StatusBadRequest, "A value is longer than the type's standard allows (an epc name over 70 characters; a Pix merchant name over 25 or city over 15; …); the hint gives the limit."},
	{payload.ReasonInvalidCurrency, http.StatusBadRequest, "The currency is not one the type takes: CHF or EUR for swissqr, INR for upi, an ISO 4217 code for emvco and spayd (and the preset's, BRL or THB, for pix and promptpay)."},
	{payload.ReasonInvalidCountry, http.StatusBadRequest, "The country is not an ISO 3166-1 alpha-2 code, or not the emvco preset's (BR for pix, TH for promptpay)."},
	{payload.ReasonInvalidBillInformation, http.StatusBadRequest, "The swissqr bill information does not start with // and coded information."},
	{payload.ReasonInvalidKey, http.StatusBadRequest, "The emvco key is not one the scheme takes: a Pix key by kind (CPF or CNPJ with right check digits, e-mail, +55 phone number, random key), a PromptPay mobile number, tax id or e-wallet id, or another scheme's merchant account."},
	{payload.ReasonInvalidScheme, http.StatusBadRequest, "The emvco scheme is neither pix, promptpay nor a globally unique identifier (an AID, a UUID or a reverse domain name)."},
	{payload.ReasonInvalidMerchantCategory, http.StatusBadRequest, "The merchant category code is not 4 digits (ISO 18245)."},
	{payload.ReasonUnsupportedField, http.StatusBadRequest, "A field the kind of code has no place for is given, such as an emvco message outside the pix scheme."},
	{payload.ReasonInvalidVPA, http.StatusBadRequest, "The upi payee address (vpa) is not handle@psp."},
	{payload.ReasonInvalidSymbol, http.StatusBadRequest, "A spayd variable, specific or constant symbol is not 1 to 10 digits."},
	{payload.ReasonInvalidBitcoinAddress, http.StatusBadRequest, "The bitcoin address is neither Base58Check (1…, 3…) nor bech32 or bech32m (bc1…) with a right checksum, or is of another network."},
	{payload.ReasonInvalidLightningInvoice, http.StatusBadRequest, "The lightning value is not a mainnet BOLT 11 invoice with a right checksum."},
	{ReasonBatchInvalid, http.StatusBadRequest, "Requests of a batch are invalid and no code was made; items gives each one's index, code, field, message and hint."},
	{ReasonNotFound, http.StatusNotFound, "No such path."},
	{ReasonMethodNotAllowed, http.StatusMethodNotAllowed, "The path does not take this method; Allow lists those it takes."},
	{payload.ReasonPayloadTooLarge, http.StatusRequestEntityTooLarge, "data, text or the generated payload has more than 2,048 characters, an epc payload more than 331 bytes, or a swissqr payload more than 997 bytes."},
	{ReasonBodyTooLarge, http.StatusRequestEntityTooLarge, "The request body is larger than 64 KiB (256 KiB for a batch)."},
	{ReasonHeadersTooLarge, http.StatusRequestHeaderFieldsTooLarge, "The request line and headers are larger than 16 KiB."},
	{ReasonUnsupportedMedia, http.StatusUnsupportedMediaType, "The POST body is not application/json."},
	{ReasonNotEncodable, http.StatusUnprocessableEntity, "The payload does not fit a QR Code at this error correction level, or the image is too small for its modules."},
	{ReasonRateLimited, http.StatusTooManyRequests, "More than the allowed codes a minute; wait Retry-After seconds."},
	{ReasonInternal, http.StatusInternalServerError, "A fault of the service."},
	{ReasonOverloaded, http.StatusServiceUnavailable, "Too many requests are waiting; retry after Retry-After seconds."},
}

// statusOf returns the HTTP status of code.
func statusOf(code Reason) int {
	for _, c := range Reasons {
		if c.Reason == code {
			return c.Status
		}
	}
	return http.StatusInternalServerError
}

// Error is an error the API sends: its HTTP status, code, the field at fault (if one is),
// message and hint. Its body is ErrorBody.
type Error struct {
	Status  int
	Reason  Reason
	Field   string
	Message string
	Hint    string
}

func (e *Error) Error() string { return "api: " + e.Message }

// Body returns the error object of e (spec 2.3).
func (e *Error) Body() ErrorBody {
	return ErrorBody{Error: e.Message, Reason: string(e.Reason), Message: e.Message, Hint: e.Hint}
}

// NewError returns an *Error of code with the status Reasons gives it.
func NewError(code Reason, field, hint, format string, args ...any) *Error {
	return &Error{Status: statusOf(code), Reason: code, Field: field, Message: fmt.Sprintf(format, args...), Hint: hint}
}

// ErrorOf returns err as an *Error: itself, or a payload error with its status, or an internal
// error that says nothing of err (which the edge logs).
func ErrorOf(err error) *Error {
	var e *Error
	if errors.As(err, &e) {
		return e
	}
	var p *payload.Error
	if errors.As(err, &p) {
		return &Error{Status: statusOf(p.Reason), Reason: p.Reason, Field: p.Field, Message: p.Message, Hint: p.Hint}
	}
	return NewError(ReasonInternal, "", "Retry later; if it persists, report it.", "the service failed to make the code")
}
