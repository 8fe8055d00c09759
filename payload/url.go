package payload

import (
	"net/netip"
	"strconv"
	"strings"
	"unicode/utf8"

	"golang.org/x/net/idna"
)

// buildURL returns the url field as a URL (see NormalizeURL).
func buildURL(r *Request) (string, error) {
	if strings.TrimSpace(r.URL) == "" {
		return "", missing("url", "the address to open, such as https://example.com")
	}
	return NormalizeURL("url", r.URL)
}

// deniedSchemes run code or reach local data when a scanner opens them.
var deniedSchemes = map[string]bool{
	"javascript": true, "data": true, "vbscript": true, "file": true, "blob": true,
	"about": true, "filesystem": true,
}

// hostProfile converts host names to IDNA A-labels: UTS #46 mapping, non-transitional (ß and ς
// stay themselves), then Punycode. Underscores and other ASCII outside the letter-digit-hyphen
// rule are let through, as browsers do.
var hostProfile = idna.New(idna.MapForLookup(), idna.Transitional(false), idna.StrictDomainName(false), idna.BidiRule())

// NormalizeURL returns s as the URL a QR Code should carry, or an INVALID_URL error for field:
//
//   - Spaces around it are trimmed; control characters anywhere are refused (browsers delete tabs
//     and line feeds, so "java\tscript:" would run).
//   - It has a scheme when it starts as RFC 3986 says (a letter, then letters, digits, + - .,
//     then a colon), unless what precedes the colon is a host and a port ("localhost:8080").
//     Without one, https:// is put in front ("https:" before a leading "//"). The scheme is
//     lower-cased; javascript, data, vbscript, file, blob, about and filesystem are refused.
//   - http and https URLs need a host and may not carry user information
//     ("https://bank.com@evil.example"). The host becomes IDNA A-labels in lower case; the
//     path, query and fragment get every character outside RFC 3986's unreserved and reserved
//     sets percent-encoded as UTF-8, and a % that starts no escape becomes %25. Nothing else
//     changes: no trailing slash, no dot segments resolved, no default port dropped.
//   - Other schemes (app links, tel:, geo:) pass unchanged but for the scheme's case.
func NormalizeURL(field, s string) (string, error) {
	s = strings.TrimSpace(s)
	if err := checkURLText(field, s); err != nil {
		return "", err
	}
	scheme, rest := schemeOf(s)
	if deniedSchemes[scheme] {
		return "", badURL(field, "Use an http(s) address, or another scheme than "+scheme+":.",
			"%s uses the %s: scheme, which is refused", field, scheme)
	}
	if scheme != "http" && scheme != "https" {
		return scheme + ":" + rest, nil
	}
	return normalizeHTTP(field, scheme, rest)
}

// badURL returns the INVALID_URL error of field.
func badURL(field, hint, format string, args ...any) error {
	return fail(ReasonInvalidURL, field, hint, format, args...)
}

// checkURLText refuses an empty URL, one that is not UTF-8, and one holding a control character
// (C0 or DEL, which browsers delete or act on).
func checkURLText(field, s string) error {
	if s == "" {
		return badURL(field, "Give an address such as https://example.com.", "%s is empty", field)
	}
	if !utf8.ValidString(s) {
		return badURL(field, "Send "+field+" as UTF-8 text.", "%s is not valid UTF-8", field)
	}
	for _, c := range []byte(s) {
		if c < 0x20 || c == 0x7f {
			return badURL(field, "Remove the control characters (tabs, line breaks) from "+field+".",
				"%s holds a control character", field)
		}
	}
	return nil
}

// schemeOf splits s at the colon after its scheme (RFC 3986 3.1, see splitScheme), putting
// https:// in front of s when it has none ("https:" before a leading "//"), and returns the
// scheme in lower case.
func schemeOf(s string) (scheme, rest string) {
	scheme, rest, ok := splitScheme(s)
	if !ok {
		if strings.HasPrefix(s, "//") {
			s = "https:" + s
		} else {
			s = "https://" + s
		}
		scheme, rest, _ = splitScheme(s)
	}
	return strings.ToLower(scheme), rest
}

// normalizeHTTP returns the http or https URL whose text after the scheme's colon is rest: the
// authority (RFC 3986 3.2) normalized by normalizeAuthority, then the path, query and fragment
// (3.3 to 3.5) percent-encoded by escapeURI.
func normalizeHTTP(field, scheme, rest string) (string, error) {
	if !strings.HasPrefix(rest, "//") {
		return "", badURL(field, "Write the address as "+scheme+"://host/path.", "%s has no host", field)
	}
	authority, tail := rest[2:], ""
	if i := strings.IndexAny(authority, "/?#"); i >= 0 {
		authority, tail = authority[:i], authority[i:]
	}
	host, err := normalizeAuthority(field, scheme, authority)
	if err != nil {
		return "", err
	}
	return scheme + "://" + host + escapeURI(tail), nil
}

// normalizeAuthority returns the authority of an http(s) URL (RFC 3986 3.2) as host and port:
// user information (3.2.1) refused, the host (3.2.2) in IDNA A-labels and lower case (see
// asciiHost), the port (3.2.3) digits of at most 65535, kept as given, with an empty one's colon.
func normalizeAuthority(field, scheme, authority string) (string, error) {
	if strings.Contains(authority, "@") {
		return "", badURL(field, "Remove the user name before @ from the address: scanners show such links as a warning.",
			"%s holds user information (before @), which disguises the real host", field)
	}
	host, port := splitPort(authority)
	if host == "" {
		return "", badURL(field, "Write the address as "+scheme+"://host/path.", "%s has no host", field)
	}
	if err := checkPort(field, port); err != nil {
		return "", err
	}
	if h, ok := asciiHost(host); ok {
		host = h
	} else {
		return "", badURL(field, "Check the host name: it must be a domain name, an IPv4 address or an IPv6 address in brackets.",
			"%s has an invalid host name", field)
	}
	if port != "" || strings.HasSuffix(authority, ":") {
		host += ":" + port
	}
	return host, nil
}

// checkPort refuses a port (RFC 3986 3.2.3) that is not digits or is above 65535.
func checkPort(field, port string) error {
	for _, c := range port {
		if c < '0' || c > '9' {
			return badURL(field, "Give the port as digits, such as example.com:8443.", "%s has a port that is not a number", field)
		}
	}
	if port == "" {
		return nil
	}
	// A port is 16 bits (RFC 6335 6); the WHATWG URL parser fails on one above 65535.
	if n, err := strconv.Atoi(port); err != nil || n > 65535 {
		return badURL(field, "Give a port from 0 to 65535.", "%s has a port above 65535", field)
	}
	return nil
}

// asciiHost returns host in IDNA A-labels and lower case (an IPv6 address in brackets as it
// is), and false when it is not a host name: after IDNA, letters, digits, hyphens, dots and
// underscores only, in labels of 1 to 63 characters and 253 in all (RFC 1034 3.1, RFC 1035
// 2.3.4), one final dot allowed. A name whose last label is a number, decimal or 0x hex, is
// read by browsers as an IPv4 address (WHATWG URL, "ends in a number"), where 0x7f.1 and
// 010.0.0.1 are other addresses than they look: such a name must be an IPv4 address of four
// decimal parts without leading zeros, and 1.2.3.4.5 is refused.
func asciiHost(host string) (string, bool) {
	if strings.HasPrefix(host, "[") {
		inner, ok := strings.CutSuffix(host[1:], "]")
		a, err := netip.ParseAddr(inner)
		return host, ok && err == nil && a.Is6() && a.Zone() == ""
	}
	a, err := toASCII(host)
	if err != nil || a == "" {
		return "", false
	}
	for i := 0; i < len(a); i++ {
		if c := a[i]; !isAlpha(c) && !isDigit(c) && c != '-' && c != '.' && c != '_' {
			return "", false
		}
	}
	name := strings.TrimSuffix(a, ".")
	if len(name) > 253 {
		return "", false
	}
	last := name
	for label := range strings.SplitSeq(name, ".") {
		if label == "" || len(label) > 63 {
			return "", false
		}
		last = label
	}
	last = strings.ToLower(last)
	if hex, ok := strings.CutPrefix(last, "0x"); strings.Trim(last, "0123456789") == "" || ok && strings.Trim(hex, "0123456789abcdef") == "" {
		if ip, err := netip.ParseAddr(name); err != nil || !ip.Is4() {
			return "", false
		}
	}
	return strings.ToLower(a), true
}

// toASCII returns host in IDNA A-labels (hostProfile). A host already in lower-case
// letter-digit-hyphen labels, none starting or ending with a hyphen and none holding "--" (so no
// A-label, "xn--", to check), is what the profile returns unchanged, and is returned without
// running it: that is most hosts, and the profile takes longer than the rest of the URL rule.
func toASCII(host string) (string, error) {
	plain := host != "" && host[0] != '.' && host[len(host)-1] != '-' && host[len(host)-1] != '.'
	for i := 0; i < len(host) && plain; i++ {
		switch c := host[i]; {
		case 'a' <= c && c <= 'z', isDigit(c):
		case c == '-':
			plain = i > 0 && host[i-1] != '.' && host[i-1] != '-' && i+1 < len(host) && host[i+1] != '.'
		case c == '.':
			plain = host[i-1] != '.'
		default:
			plain = false
		}
	}
	if plain {
		return host, nil
	}
	return hostProfile.ToASCII(host)
}

// splitScheme splits s at the colon after its scheme (RFC 3986 3.1); ok is false when s has none,
// or when what looks like one is a host and a port ("localhost:8080", "example.com:8443/x").
func splitScheme(s string) (scheme, rest string, ok bool) {
	i := strings.IndexByte(s, ':')
	if i < 1 || !isAlpha(s[0]) {
		return "", s, false
	}
	for j := 1; j < i; j++ {
		if c := s[j]; !isAlpha(c) && !isDigit(c) && c != '+' && c != '-' && c != '.' {
			return "", s, false
		}
	}
	digits := 0
	for digits < len(s)-i-1 && isDigit(s[i+1+digits]) {
		digits++
	}
	if end := i + 1 + digits; digits >= 1 && digits <= 5 && (end == len(s) || strings.IndexByte("/?#", s[end]) >= 0) {
		return "", s, false // host:port
	}
	return s[:i], s[i+1:], true
}

// splitPort splits an authority without user information into host and port; an IPv6 literal
// keeps its brackets.
func splitPort(authority string) (host, port string) {
	i := strings.LastIndexByte(authority, ':')
	if i < 0 || strings.LastIndexByte(authority, ']') > i {
		return authority, ""
	}
	return authority[:i], authority[i+1:]
}

// escapeURI percent-encodes, as UTF-8 in upper-case hex, each byte of s outside RFC 3986's
// unreserved and reserved characters (2.2, 2.3), and each % that does not start an escape.
func escapeURI(s string) string {
	first := -1 // the first byte to escape
	for i := 0; i < len(s) && first < 0; i++ {
		if !keptInURI(s, i) {
			first = i
		}
	}
	if first < 0 {
		return s // most URLs: nothing to escape, nothing to copy
	}
	var b strings.Builder
	b.Grow(len(s) + 16)
	b.WriteString(s[:first])
	for i := first; i < len(s); i++ {
		if keptInURI(s, i) {
			b.WriteByte(s[i])
		} else {
			writeEscape(&b, s[i])
		}
	}
	return b.String()
}

// keptInURI reports whether escapeURI keeps the byte s[i] as it is: an unreserved or reserved
// character (RFC 3986 2.2, 2.3) other than %, or a % that starts an escape (2.1).
func keptInURI(s string, i int) bool {
	c := s[i]
	if c == '%' {
		return i+2 < len(s) && isHex(s[i+1]) && isHex(s[i+2])
	}
	return c < 0x80 && (isAlpha(c) || isDigit(c) || strings.IndexByte("-._~:/?#[]@!$&'()*+,;=", c) >= 0)
}

// escapeBytes returns s with each byte that keep refuses written as %XX (RFC 3986 2.1), the
// rest as it is: the payment URIs' and descriptors' escaping, each with its own keep.
func escapeBytes(s string, keep func(c byte) bool) string {
	var b strings.Builder
	for i := range len(s) {
		if c := s[i]; keep(c) {
			b.WriteByte(c)
		} else {
			writeEscape(&b, c)
		}
	}
	return b.String()
}

// unreserved reports whether c is an unreserved character of RFC 3986 (2.3): a letter, a digit,
// or one of - . _ ~.
func unreserved(c byte) bool {
	return c < 0x80 && (isAlpha(c) || isDigit(c) || c == '-' || c == '.' || c == '_' || c == '~')
}

// writeEscape writes c as %XX.
func writeEscape(b *strings.Builder, c byte) {
	const hex = "0123456789ABCDEF"
	b.WriteByte('%')
	b.WriteByte(hex[c>>4])
	b.WriteByte(hex[c&15])
}

func isAlpha(c byte) bool { return 'a' <= c|0x20 && c|0x20 <= 'z' }
func isDigit(c byte) bool { return '0' <= c && c <= '9' }
func isHex(c byte) bool   { return isDigit(c) || 'a' <= c|0x20 && c|0x20 <= 'f' }
