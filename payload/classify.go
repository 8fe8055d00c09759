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
//     BEGIN:VEVENT anywhere (VEventResultParser looks for it anywhere). Payment orders, which
//     banking and wallet apps read and which name an account: BCD and a line break (an EPC
//     credit transfer, EPC069-12), SPC and a line break (a Swiss QR-bill, whose QRType is SPC
//     in the Swiss Implementation Guidelines for the QR-bill; lines end in CR LF or LF), SPD*,
//     SCD* and SID* (the Czech Banking Association's Short Payment Descriptor, its direct debit
//     and its Short Invoice Descriptor: SPD*1.0*ACC:…), bitcoin: (BIP 21), upi: (India's Unified
//     Payments Interface, upi://pay?pa=…), and an EMV merchant-presented payload (EMV QRCPS MPM:
//     000201 first and a right CRC last, the form of Pix and PromptPay codes, which name a
//     merchant's or a person's key). Links that call or message a person, whose address
//     is a phone number or an account: sip: and sips: (RFC 3261 19.1), skype: (Skype URIs),
//     whatsapp: (whatsapp://send?phone=), viber: (viber://chat?number=) and tg: (Telegram,
//     tg://resolve?phone=). Raw data in these formats stays of type text, as before the types
//     tel, geo, event and epc existed; only the privacy is judged.
//   - private whatever their type: a URL with user information anywhere in the payload
//     (RFC 3986 3.2.1: scheme://user:password@host, any scheme; the user information is
//     usually a credential, and RFC 3986 7.5 advises against it), and a payload that is a web
//     link of the messaging apps above, which carries a phone number or a private group's
//     invitation: wa.me/<number> and api.whatsapp.com/send?phone= (WhatsApp's click to chat),
//     t.me/+<number or invitation> and t.me/joinchat/ (Telegram), signal.me/#p/<number>
//     (Signal), each after http:// or https://.
//   - url: http:// or https:// that the URL rule accepts (see NormalizeURL); one it refuses,
//     such as https://a..com/, is text (so is https://bank.example@evil.example, which ZXing
//     too shows as text, URIResultParser.isPossiblyMaliciousURI, and which is private above).
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
	case emvcoPayload(strings.TrimRightFunc(s, unicode.IsSpace)):
		return Text, true
	}
	private = hasUserInfo(s) || messagingLink(s)
	if len(s) >= 7 && (strings.EqualFold(s[:7], "http://") || len(s) >= 8 && strings.EqualFold(s[:8], "https://")) {
		if normalizedURL {
			return URL, private
		}
		if _, err := NormalizeURL("data", s); err == nil {
			return URL, private
		}
	}
	return Text, private
}

// hasUserInfo reports whether s holds a URL with user information anywhere (RFC 3986 3.2.1):
// "://" after a scheme's last character, then an authority (up to "/", "?", "#", white space or
// the end) that holds an "@".
func hasUserInfo(s string) bool {
	for i := 0; ; {
		j := strings.Index(s[i:], "://")
		if j < 0 {
			return false
		}
		j += i
		authority := s[j+3:]
		if end := strings.IndexFunc(authority, endsAuthority); end >= 0 {
			authority = authority[:end]
		}
		if j > 0 && schemeChar(s[j-1]) && strings.Contains(authority, "@") {
			return true
		}
		i = j + 3
	}
}

// endsAuthority reports whether c ends a URL's authority (RFC 3986 3.2), or the URL itself.
func endsAuthority(c rune) bool { return c == '/' || c == '?' || c == '#' || unicode.IsSpace(c) }

// schemeChar reports whether c may end a URI scheme (RFC 3986 3.1: ALPHA, DIGIT, "+", "-", ".").
func schemeChar(c byte) bool {
	return 'a' <= c|0x20 && c|0x20 <= 'z' || '0' <= c && c <= '9' || c == '+' || c == '-' || c == '.'
}

// messagingLink reports whether s is a web link of a messaging app that carries a phone number
// or a private group's invitation (see Classify).
func messagingLink(s string) bool {
	switch {
	case len(s) >= 8 && strings.EqualFold(s[:8], "https://"):
		s = s[8:]
	case len(s) >= 7 && strings.EqualFold(s[:7], "http://"):
		s = s[7:]
	default:
		return false
	}
	for _, p := range messagingLinks {
		if len(s) >= len(p) && strings.EqualFold(s[:len(p)], p) {
			return true
		}
	}
	return false
}

// messagingLinks are the starts, after the scheme, of messagingLink's links.
var messagingLinks = []string{"wa.me/", "api.whatsapp.com/send", "t.me/+", "t.me/joinchat/", "signal.me/#p/"}

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
	{"BCD\n", Text}, {"BCD\r\n", Text}, {"SPC\n", Text}, {"SPC\r\n", Text},
	{"SPD*", Text}, {"SCD*", Text}, {"SID*", Text}, {"bitcoin:", Text}, {"upi:", Text},
	{"sip:", Text}, {"sips:", Text}, {"skype:", Text}, {"whatsapp:", Text}, {"viber:", Text}, {"tg:", Text},
}

// bareAddress is ZXing's test of a whole text being an e-mail address
// (EmailDoCoMoResultParser.isBasicallyValidEmailAddress): anything but a colon, @, then a
// domain whose last label is two letters or more.
var bareAddress = regexp.MustCompile(`^[^:]+@([0-9a-zA-Z]+(-+[0-9a-zA-Z]+)*\.)+[a-zA-Z]{2,}$`)

// invisible reports whether readers skip c at the start of a payload, or a person would not
// see it: white space and format characters (Unicode Cf: the byte-order mark U+FEFF, zero-width
// spaces and joiners, direction marks).
func invisible(c rune) bool { return unicode.IsSpace(c) || unicode.Is(unicode.Cf, c) }
