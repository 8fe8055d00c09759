package payload

import (
	"strings"
	"unicode/utf8"
)

// buildEmail returns the e-mail of r as a mailto: URI (RFC 6068): the address, then subject and
// body when given. Everything is percent-encoded as UTF-8 but the unreserved characters (and
// in the local part ! $ ' *): a space is %20 and + is %2B, since readers that form-decode would
// otherwise show a + for a space or a space for a +, and line breaks in the body are %0D%0A.
// The domain is written in IDNA A-labels.
func buildEmail(r *Request) (string, error) {
	to, err := alias("to", r.To, "email", r.Email)
	if err != nil {
		return "", err
	}
	message, err := alias("message", r.Message, "body", r.Body)
	if err != nil {
		return "", err
	}
	to = strings.TrimSpace(to)
	if to == "" {
		return "", missing("to", "the recipient's address, such as anna@example.com")
	}
	if err := checkAddress("to", to); err != nil {
		return "", err
	}
	if err := checkText("message", message); err != nil {
		return "", err
	}
	if err := checkText("subject", r.Subject); err != nil {
		return "", err
	}
	if strings.ContainsAny(r.Subject, "\r\n") {
		return "", fail(CodeInvalidText, "subject", "Write the subject on one line; put longer text in message.",
			"subject holds a line break")
	}
	at := strings.LastIndexByte(to, '@')
	domain, ok := asciiHost(to[at+1:])
	if !ok {
		return "", fail(CodeInvalidEmail, "to", "Check the domain after @: it must be a valid domain name.",
			"to has an invalid domain")
	}
	var b strings.Builder
	b.WriteString("mailto:")
	percentEncode(&b, to[:at], "!$'*")
	b.WriteString("@" + domain)
	sep := "?"
	if r.Subject != "" {
		b.WriteString(sep + "subject=")
		percentEncode(&b, r.Subject, "")
		sep = "&"
	}
	if message != "" {
		b.WriteString(sep + "body=")
		percentEncode(&b, crlf(message), "")
	}
	return b.String(), nil
}

// checkAddress checks that an e-mail address is local@domain: both parts present, no white
// space, no control characters, valid UTF-8. The error does not quote the address.
func checkAddress(field, addr string) error {
	at := strings.LastIndexByte(addr, '@')
	if !utf8.ValidString(addr) || at < 1 || at == len(addr)-1 || strings.ContainsFunc(addr, func(c rune) bool {
		return c <= ' ' || c == 0x7f || c == 0x85 || c == 0xa0 || c == 0x2028 || c == 0x2029
	}) {
		return fail(CodeInvalidEmail, field, "Give one address such as anna@example.com, without spaces.",
			"%s is not an e-mail address", field)
	}
	return nil
}

// crlf makes every line break of s (CRLF, CR or LF) a CRLF.
func crlf(s string) string {
	s = strings.ReplaceAll(s, "\r\n", "\n")
	s = strings.ReplaceAll(s, "\r", "\n")
	return strings.ReplaceAll(s, "\n", "\r\n")
}

// percentEncode writes s with each UTF-8 byte percent-encoded but RFC 3986's unreserved
// characters and those in keep.
func percentEncode(b *strings.Builder, s, keep string) {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < 0x80 && (isAlpha(c) || isDigit(c) || strings.IndexByte("-._~", c) >= 0 || strings.IndexByte(keep, c) >= 0) {
			b.WriteByte(c)
		} else {
			writeEscape(b, c)
		}
	}
}
