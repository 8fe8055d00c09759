package payload

import (
	"strings"
	"unicode"
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
	domain, err := checkAddress("to", to)
	if err != nil {
		return "", err
	}
	if err := checkText("message", message); err != nil {
		return "", err
	}
	if err := checkLineText("subject", r.Subject); err != nil {
		return "", err
	}
	if strings.ContainsAny(r.Subject, "\r\n") {
		return "", fail(ReasonInvalidText, "subject", "Write the subject on one line; put longer text in message.",
			"subject holds a line break")
	}
	at := strings.IndexByte(to, '@')
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

// checkAddress checks that an e-mail address is one addr-spec, local@domain (RFC 5322 3.4.1),
// and returns the domain in IDNA A-labels. The local part is a dot-atom (RFC 5322 3.2.3; UTF-8
// allowed, RFC 6532 3.2): no quoted strings, no white space or control characters, no leading,
// trailing or double dot, at most 64 bytes (RFC 5321 4.5.3.1.1), and no "?", though atext allows
// it: in a mailto: URI "?" starts header fields (RFC 6068 2), and a reader that decodes the
// address before splitting it would take "a?bcc=x@y.z" for a hidden copy to x@y.z. So a second
// "@", a "," or ";" (address lists) and "?" are refused: one recipient, no headers. The domain
// must be a host name (see asciiHost). The error does not quote the address.
func checkAddress(field, addr string) (domain string, err error) {
	bad := func() (string, error) {
		return "", fail(ReasonInvalidEmail, field, "Give one address such as anna@example.com: no spaces, commas, semicolons, ? or second @.",
			"%s is not one e-mail address", field)
	}
	local, host, ok := strings.Cut(addr, "@")
	if !ok || !utf8.ValidString(addr) || len(local) > 64 || !dotAtom(local) {
		return bad()
	}
	if domain, ok = asciiHost(host); !ok || strings.HasPrefix(host, "[") {
		return "", fail(ReasonInvalidEmail, field, "Check the domain after @: it must be a valid domain name.",
			"%s has an invalid domain", field)
	}
	return domain, nil
}

// dotAtom reports whether s is a dot-atom of RFC 5322 3.2.3 without "?" (see checkAddress):
// atoms of atext or UTF-8 beyond ASCII other than white space and controls, joined by single
// dots.
func dotAtom(s string) bool {
	if s == "" || s[0] == '.' || s[len(s)-1] == '.' || strings.Contains(s, "..") {
		return false
	}
	for _, c := range s {
		switch {
		case c < 0x80 && (isAlpha(byte(c)) || isDigit(byte(c)) || strings.ContainsRune("!#$%&'*+-/=^_`{|}~.", c)):
		case c >= 0x80 && !unicode.IsSpace(c) && !unicode.IsControl(c):
		default:
			return false
		}
	}
	return true
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
