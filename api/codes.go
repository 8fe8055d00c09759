package api

import (
	"errors"
	"fmt"
	"net/http"

	"github.com/bananaqr/bananaqr/payload"
)

// ErrorCode is a stable error identifier in UPPER_SNAKE_CASE.
type ErrorCode = payload.ErrorCode

// The codes of the API's own errors; the payload's are in package payload (see ErrorCodes for all).
const (
	CodeInvalidJSON      ErrorCode = "INVALID_JSON"           // the body is not one JSON object
	CodeUnknownField     ErrorCode = "UNKNOWN_FIELD"          // a property the request does not have
	CodeWrongType        ErrorCode = "WRONG_TYPE"             // a JSON value of the wrong type ("size": "1024")
	CodeInvalidQuery     ErrorCode = "INVALID_QUERY"          // a query string that cannot be parsed, or a parameter given twice
	CodeInvalidValue     ErrorCode = "INVALID_VALUE"          // a value outside its allowed set or range
	CodeEmptyValue       ErrorCode = "EMPTY_VALUE"            // data, url or text given but empty
	CodeInvalidColor     ErrorCode = "INVALID_COLOR"          // a colour that is not RRGGBB
	CodeLowContrast      ErrorCode = "LOW_CONTRAST"           // colours that many readers cannot tell apart
	CodeUsePost          ErrorCode = "USE_POST"               // a structured type asked for with GET
	CodeNotEncodable     ErrorCode = "NOT_ENCODABLE"          // valid, but no QR Code or image can hold it
	CodeBatchInvalid     ErrorCode = "BATCH_INVALID"          // a batch with failing requests, each listed
	CodeBodyTooLarge     ErrorCode = "BODY_TOO_LARGE"         // a request body over MaxBody
	CodeHeadersTooLarge  ErrorCode = "HEADERS_TOO_LARGE"      // request headers over MaxHeaderBytes
	CodeUnsupportedMedia ErrorCode = "UNSUPPORTED_MEDIA_TYPE" // a POST body that is not application/json
	CodeRateLimited      ErrorCode = "RATE_LIMITED"           // over the budget of codes a minute
	CodeNotFound         ErrorCode = "NOT_FOUND"              // no such path
	CodeMethodNotAllowed ErrorCode = "METHOD_NOT_ALLOWED"     // the path does not take the method
	CodeOverloaded       ErrorCode = "OVERLOADED"             // too many requests waiting to be served
	CodeInternal         ErrorCode = "INTERNAL_ERROR"         // a fault of the service
)

// ErrorCodeInfo describes an error code: the HTTP status that carries it and what it means.
type ErrorCodeInfo struct {
	Code        ErrorCode
	Status      int
	Description string
}

// ErrorCodes lists every error code the service sends, the payload's included, in the order the
// README and the OpenAPI document show them.
var ErrorCodes = []ErrorCodeInfo{
	{CodeInvalidJSON, http.StatusBadRequest, "The body is not one JSON object, or gives a property twice."},
	{CodeUnknownField, http.StatusBadRequest, "The body has a property the request does not define."},
	{CodeWrongType, http.StatusBadRequest, "A JSON value has the wrong type, such as \"size\": \"1024\"."},
	{CodeInvalidQuery, http.StatusBadRequest, "The query string cannot be parsed, or a parameter is given twice."},
	{CodeInvalidValue, http.StatusBadRequest, "A value is outside its allowed set or range (size, margin, ecc, logo, corners, format, download), or an epc code asks for logo banana or a level other than M."},
	{CodeEmptyValue, http.StatusBadRequest, "data, url or text is given but empty."},
	{CodeInvalidColor, http.StatusBadRequest, "color or background is not six hexadecimal digits, with or without #."},
	{CodeLowContrast, http.StatusBadRequest, "QR readers cannot reliably tell the colour from the background: it must be darker, with at most 45 % of the background's luma, 48 luma steps below it, and a contrast ratio of 3:1."},
	{CodeUsePost, http.StatusBadRequest, payload.JoinWords(payload.PrivateTypes(), "and") + " codes are made with POST."},
	{payload.CodeMissingPayload, http.StatusBadRequest, "The request has neither data nor type."},
	{payload.CodeInvalidType, http.StatusBadRequest, "type is not " + payload.JoinWords(payload.Types, "or") + "."},
	{payload.CodeMissingField, http.StatusBadRequest, "A field the type needs is absent."},
	{payload.CodeConflictingFields, http.StatusBadRequest, "A field and its older alias disagree, url and text come without type, or an epc code has both reference and remittance."},
	{payload.CodeInvalidText, http.StatusBadRequest, "A text value holds control characters or invalid UTF-8, or a field of a payload made of lines holds U+2028 or U+2029."},
	{payload.CodeInvalidURL, http.StatusBadRequest, "The URL is malformed, has a refused scheme, user information or no host."},
	{payload.CodeInvalidSSID, http.StatusBadRequest, "The Wi-Fi network name is longer than 32 bytes."},
	{payload.CodeInvalidSecurity, http.StatusBadRequest, "The Wi-Fi security is not " + payload.JoinWords(payload.AcceptedSecurities(), "or") + "."},
	{payload.CodeInvalidPassword, http.StatusBadRequest, "The Wi-Fi password does not fit the security type."},
	{payload.CodeInvalidEmail, http.StatusBadRequest, "The e-mail address is not local@domain."},
	{payload.CodeInvalidPhone, http.StatusBadRequest, "The phone number is not 3 to 15 digits with an optional +."},
	{payload.CodeInvalidCoordinate, http.StatusBadRequest, "A geo latitude, longitude or altitude is not a decimal number in range (-90..90, -180..180, ±100,000 m) with at most 7 (altitude 2) decimal places."},
	{payload.CodeInvalidDate, http.StatusBadRequest, "An event's start or end is not an ISO 8601 date or a date-time with a time zone, or end is before start."},
	{payload.CodeInvalidIBAN, http.StatusBadRequest, "The IBAN is not of a SEPA country, has the wrong length, or its check digits are wrong."},
	{payload.CodeInvalidBIC, http.StatusBadRequest, "The BIC is not 8 or 11 letters and digits of the ISO 9362 form."},
	{payload.CodeInvalidAmount, http.StatusBadRequest, "The amount is not a decimal from 0.01 to 999999999.99 with at most 2 decimal places."},
	{payload.CodeInvalidReference, http.StatusBadRequest, "The reference is not an ISO 11649 creditor reference (RF) with right check digits."},
	{payload.CodeValueTooLong, http.StatusBadRequest, "An epc name is over 70 characters, or its remittance over 140."},
	{CodeBatchInvalid, http.StatusBadRequest, "Requests of a batch are invalid and no code was made; items gives each one's index, code, field, message and hint."},
	{CodeNotFound, http.StatusNotFound, "No such path."},
	{CodeMethodNotAllowed, http.StatusMethodNotAllowed, "The path does not take this method; Allow lists those it takes."},
	{payload.CodePayloadTooLarge, http.StatusRequestEntityTooLarge, "data, text or the generated payload has more than 2,048 characters, or an epc payload more than 331 bytes."},
	{CodeBodyTooLarge, http.StatusRequestEntityTooLarge, "The request body is larger than 64 KiB (256 KiB for a batch)."},
	{CodeHeadersTooLarge, http.StatusRequestHeaderFieldsTooLarge, "The request line and headers are larger than 16 KiB."},
	{CodeUnsupportedMedia, http.StatusUnsupportedMediaType, "The POST body is not application/json."},
	{CodeNotEncodable, http.StatusUnprocessableEntity, "The payload does not fit a QR Code at this error correction level, or the image is too small for its modules."},
	{CodeRateLimited, http.StatusTooManyRequests, "More than the allowed codes a minute; wait Retry-After seconds."},
	{CodeInternal, http.StatusInternalServerError, "A fault of the service."},
	{CodeOverloaded, http.StatusServiceUnavailable, "Too many requests are waiting; retry after Retry-After seconds."},
}

// statusOf returns the HTTP status of code.
func statusOf(code ErrorCode) int {
	for _, c := range ErrorCodes {
		if c.Code == code {
			return c.Status
		}
	}
	return http.StatusInternalServerError
}

// Error is an error the API sends: its HTTP status, code, the field at fault (if one is),
// message and hint. Its body is ErrorBody.
type Error struct {
	Status  int
	Code    ErrorCode
	Field   string
	Message string
	Hint    string
}

func (e *Error) Error() string { return "api: " + e.Message }

// Body returns the error object of e (spec 2.3).
func (e *Error) Body() ErrorBody {
	return ErrorBody{Error: e.Message, Code: string(e.Code), Message: e.Message, Hint: e.Hint}
}

// NewError returns an *Error of code with the status Codes gives it.
func NewError(code ErrorCode, field, hint, format string, args ...any) *Error {
	return &Error{Status: statusOf(code), Code: code, Field: field, Message: fmt.Sprintf(format, args...), Hint: hint}
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
		return &Error{Status: statusOf(p.Code), Code: p.Code, Field: p.Field, Message: p.Message, Hint: p.Hint}
	}
	return NewError(CodeInternal, "", "Retry later; if it persists, report it.", "the service failed to make the code")
}
