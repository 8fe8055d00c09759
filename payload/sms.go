package payload

import (
	"strings"
	"unicode"
)

// buildSMS returns the text message of r as SMSTO:<number>:<message>, which prefills the
// message on iOS and Android alike (sms:…?body= does not on iOS). The number loses its visual
// separators (spaces, ( ) . - /) and must then be 3 to 15 digits, with an optional leading +.
// The message is kept as it is, colons and line breaks included: readers take everything after
// the second colon.
func buildSMS(r *Request) (string, error) {
	if strings.TrimSpace(r.Phone) == "" {
		return "", missing("phone", "the number to text, such as +1 555 123 4567")
	}
	number, err := normalizePhone("phone", r.Phone)
	if err != nil {
		return "", err
	}
	if err := checkText("message", r.Message); err != nil {
		return "", err
	}
	return "SMSTO:" + number + ":" + r.Message, nil
}

// normalizePhone removes a phone number's visual separators and checks what is left: an
// optional + and 3 to 15 digits (short codes included).
func normalizePhone(field, phone string) (string, error) {
	var b strings.Builder
	digits := 0
	for i, c := range strings.TrimSpace(phone) {
		switch {
		case unicode.IsSpace(c) || strings.ContainsRune("().-/", c):
		case c == '+' && i == 0:
			b.WriteRune(c)
		case c >= '0' && c <= '9':
			b.WriteRune(c)
			digits++
		default:
			return "", fail(ReasonInvalidPhone, field, "Give the number in digits, with an optional leading +; spaces, ( ) . - / are fine.",
				"%s holds something other than digits and separators", field)
		}
	}
	if digits < 3 || digits > 15 {
		return "", fail(ReasonInvalidPhone, field, "Give a number of 3 to 15 digits, such as +15551234567.",
			"%s has %s; 3 to 15 are needed", field, count(digits, "digit"))
	}
	return b.String(), nil
}
