package payload

import (
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Classify returns the type that a payload's content shows to readers, and whether the content
// is private (never to be echoed). It is the service's one judgement of content: Build labels
// raw data with it and makes every payload whose content is private private, whatever its type.
//
// It follows what readers recognise: ZXing's result parsers (client/result: ResultParser's
// list), Android's Wi-Fi QR parser and the iOS Camera. Before matching, it skips what readers
// skip or a person cannot see: byte-order marks (ZXing's getMassagedText drops one; zbar reads
// one as the encoding), other invisible format characters and white space. Prefixes match
// without regard to case, since URI schemes are case-insensitive (RFC 3986 3.1) and so are
// vCard and iCalendar names (RFC 2425 5.8.2, RFC 5545 2), even where a reader is stricter; when
// in doubt a payload is private.
//
//   - wifi: WIFI: (WifiResultParser), DPP: (Wi-Fi Easy Connect, read by Android's Settings).
//   - vcard: BEGIN:VCARD (VCardResultParser), MECARD: (AddressBookDoCoMoResultParser),
//     BIZCARD: (BizcardResultParser), and MEMORY with a CRLF anywhere, case as written
//     (AddressBookAUResultParser).
//   - email: mailto: (EmailAddressResultParser), MATMSG: (EmailDoCoMoResultParser), SMTP:
//     (SMTPResultParser), and a whole text that is an address (EmailAddressResultParser:
//     no colon before the last @, a domain with a top-level label of letters).
//   - sms: SMSTO:, MMSTO: (SMSTOMMSTOResultParser), sms:, mms: (SMSMMSResultParser).
//   - text, private: tel: (TelResultParser), telprompt:, callto:, facetime:, facetime-audio:
//     (dialled by iOS), geo: (GeoResultParser), otpauth: and otpauth-migration: (one-time
//     password secrets, taken by iOS's and Google's authenticators), BEGIN:VCALENDAR, and
//     BEGIN:VEVENT anywhere (VEventResultParser looks for it anywhere), and BCD and a line
//     break, the start of an EPC payment code (EPC069-12), which banking apps read. Raw data
//     in these formats stays of type text, as before the types tel, geo, event and epc existed;
//     only the privacy is judged.
//   - url: http:// or https:// that the URL rule accepts (see NormalizeURL); one it refuses,
//     such as https://bank.example@evil.example, which ZXing too shows as text
//     (URIResultParser.isPossiblyMaliciousURI), is public text.
//   - text: anything else, public.
func Classify(s string) (t Type, private bool) { return classify(s, false) }

// classify is Classify; normalizedURL says that s is NormalizeURL's answer, which it accepts
// again (NormalizeURL is idempotent: FuzzURL), so that the URL rule need not run twice.
func classify(s string, normalizedURL bool) (t Type, private bool) {
	s = strings.TrimLeftFunc(s, invisible)
	for _, c := range prefixes {
		if len(s) >= len(c.prefix) && strings.EqualFold(s[:len(c.prefix)], c.prefix) {
			return c.t, true
		}
	}
	switch {
	case strings.Contains(s, "MEMORY") && strings.Contains(s, "\r\n"):
		return VCard, true
	case containsUpper(s, "BEGIN:VEVENT"):
		return Text, true
	case strings.Contains(s, "@") && bareAddress.MatchString(strings.TrimRightFunc(s, unicode.IsSpace)):
		return Email, true
	}
	if len(s) >= 7 && (strings.EqualFold(s[:7], "http://") || len(s) >= 8 && strings.EqualFold(s[:8], "https://")) {
		if normalizedURL {
			return URL, false
		}
		if _, err := NormalizeURL("data", s); err == nil {
			return URL, false
		}
	}
	return Text, false
}

// containsUpper reports whether strings.ToUpper(s) contains upper, an upper-case ASCII text,
// without making the upper-case copy when s is ASCII (where that is a case-insensitive search).
func containsUpper(s, upper string) bool {
	for i := range len(s) {
		if s[i] >= utf8.RuneSelf {
			return strings.Contains(strings.ToUpper(s), upper)
		}
	}
	for i := 0; i+len(upper) <= len(s); i++ {
		if strings.EqualFold(s[i:i+len(upper)], upper) {
			return true
		}
	}
	return false
}

// Infer returns the type that a payload's content shows (see Classify).
func Infer(s string) Type {
	t, _ := Classify(s)
	return t
}

// prefixes are the starts of private content (see Classify); type Text means private text.
var prefixes = []struct {
	prefix string
	t      Type
}{
	{"WIFI:", WiFi}, {"DPP:", WiFi},
	{"BEGIN:VCARD", VCard}, {"MECARD:", VCard}, {"BIZCARD:", VCard},
	{"mailto:", Email}, {"MATMSG:", Email}, {"SMTP:", Email},
	{"SMSTO:", SMS}, {"MMSTO:", SMS}, {"sms:", SMS}, {"mms:", SMS},
	{"tel:", Text}, {"telprompt:", Text}, {"callto:", Text}, {"facetime:", Text}, {"facetime-audio:", Text},
	{"geo:", Text}, {"otpauth:", Text}, {"otpauth-migration:", Text}, {"BEGIN:VCALENDAR", Text},
	{"BCD\n", Text}, {"BCD\r\n", Text},
}

// bareAddress is ZXing's test of a whole text being an e-mail address
// (EmailDoCoMoResultParser.isBasicallyValidEmailAddress): anything but a colon, @, then a
// domain whose last label is two letters or more.
var bareAddress = regexp.MustCompile(`^[^:]+@([0-9a-zA-Z]+(-+[0-9a-zA-Z]+)*\.)+[a-zA-Z]{2,}$`)

// invisible reports whether readers skip c at the start of a payload, or a person would not
// see it: white space and format characters (Unicode Cf: the byte-order mark U+FEFF, zero-width
// spaces and joiners, direction marks).
func invisible(c rune) bool { return unicode.IsSpace(c) || unicode.Is(unicode.Cf, c) }
