package payload

import "testing"

// classifyCases are raw payloads in the formats readers recognise, with the type and privacy
// the service gives them. The reader behind each is named: ZXing's result parsers
// (core/src/main/java/com/google/zxing/client/result), Android's Wi-Fi QR parser, iOS Camera.
var classifyCases = []struct {
	name    string
	in      string
	typ     Type
	private bool
}{
	// Wi-Fi: WifiResultParser; Android Settings also reads DPP: (Wi-Fi Easy Connect).
	{"wifi", "WIFI:T:WPA;S:Lab;P:secret123;;", WiFi, true},
	{"wifi lower case", "wifi:T:WPA;S:Lab;P:secret123;;", WiFi, true},
	{"wifi behind a BOM", "\uFEFFWIFI:T:WPA;S:Lab;P:secret123;;", WiFi, true},
	{"wifi behind two BOMs and spaces", "\uFEFF \uFEFF\t\r\nWIFI:S:Lab;P:secret123;;", WiFi, true},
	{"wifi behind a zero-width space", "\u200BWIFI:S:Lab;P:secret123;;", WiFi, true},
	{"wifi easy connect", "DPP:C:81/1;K:MDkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDIgADM2206avxHJaHXgLMkq/24e0rsrfMP9K1Tm8gx+ovP0I=;;", WiFi, true},
	// Contacts: VCardResultParser, AddressBookDoCoMoResultParser (MECARD), BizcardResultParser,
	// AddressBookAUResultParser (MEMORY and CRLF anywhere, case as written).
	{"vcard", "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Jane\r\nEND:VCARD\r\n", VCard, true},
	{"vcard lower case", "begin:vcard\r\nfn:Jane\r\n", VCard, true},
	{"mecard", "MECARD:N:Doe,John;TEL:5551234;;", VCard, true},
	{"mecard lower case", "mecard:n:Doe,John;;", VCard, true},
	{"mecard behind a BOM", "\uFEFFMECARD:N:Doe,John;TEL:5551234;;", VCard, true},
	{"bizcard", "BIZCARD:N:John;X:Doe;T:CTO;C:ACME;B:5551234;E:j@acme.com;;", VCard, true},
	{"au address book", "MEMORY:met at the fair\r\nNAME1:John Doe\r\nTEL1:5551234\r\n", VCard, true},
	// E-mail: EmailAddressResultParser (mailto: and a bare address), EmailDoCoMoResultParser
	// (MATMSG), SMTPResultParser.
	{"mailto", "mailto:a@b.com?subject=hi", Email, true},
	{"mailto upper case", "MAILTO:a@b.com", Email, true},
	{"matmsg", "MATMSG:TO:a@b.com;SUB:x;BODY:secret;;", Email, true},
	{"smtp", "SMTP:a@b.com:subj:secret", Email, true},
	{"smtp lower case", "smtp:a@b.com:subj:secret", Email, true},
	{"bare address", "anna@example.com", Email, true},
	{"bare address with a trailing line break", "anna@example.com\n", Email, true},
	{"words before an address", "write to anna@example.com", Email, true},
	// Text messages: SMSTOMMSTOResultParser, SMSMMSResultParser.
	{"smsto", "SMSTO:+15551234:secret", SMS, true},
	{"mmsto", "MMSTO:+15551234:secret", SMS, true},
	{"mmsto lower case", "mmsto:+15551234:secret", SMS, true},
	{"sms", "sms:+15551234?body=secret", SMS, true},
	{"mms", "mms:+15551234?body=secret", SMS, true},
	{"mms mixed case", "Mms:+15551234?body=secret", SMS, true},
	// Private, but of no type of ours: text that is never echoed. TelResultParser,
	// GeoResultParser, VEventResultParser (BEGIN:VEVENT anywhere), iOS Camera (FaceTime, calendar
	// files, one-time-password secrets for its password manager).
	{"tel", "tel:+15551234", Text, true},
	{"tel upper case", "TEL:+15551234", Text, true},
	{"telprompt", "telprompt:+15551234", Text, true},
	{"facetime", "facetime:+15551234", Text, true},
	{"geo", "geo:48.8582,2.2945", Text, true},
	{"geo upper case", "GEO:48.8582,2.2945?q=home", Text, true},
	{"calendar", "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nBEGIN:VEVENT\r\nSUMMARY:Doctor\r\nDTSTART:20260101T090000Z\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n", Text, true},
	{"event", "BEGIN:VEVENT\r\nSUMMARY:Doctor\r\nDTSTART:20260101T090000Z\r\nEND:VEVENT", Text, true},
	{"event after text", "Party!\r\nbegin:vevent\r\nDTSTART:20260101T090000Z\r\n", Text, true},
	{"otpauth", "otpauth://totp/Bank:anna?secret=JBSWY3DPEHPK3PXP&issuer=Bank", Text, true},
	// An EPC payment code (EPC069-12), read by banking apps: a name and an account.
	{"epc", "BCD\n002\n1\nSCT\n\nAnna Example\nDE89370400440532013000", Text, true},
	{"epc with CRLF", "BCD\r\n001\r\n1\r\nSCT\r\nBPOTBEB1\r\nRed Cross\r\nBE72000000001616", Text, true},
	// Public.
	{"https", "https://example.com/a?b=c", URL, false},
	{"http upper case", "HTTP://EXAMPLE.COM", URL, false},
	{"url with user information", "https://bank.example@evil.example/", Text, false},
	{"url with a bad host", "https://a..com/", Text, false},
	{"plain text", "Hello, world", Text, false},
	{"address after a colon", "Contact: anna@example.com", Text, false},
	{"javascript", "javascript:alert(1)", Text, false},
	{"bookmark", "MEBKM:TITLE:x;URL:https://example.com;;", Text, false},
	{"words only", "telephone mailto wifi memory", Text, false},
	{"BCD as a word", "BCD: binary-coded decimal", Text, false},
	{"memory without CRLF", "MEMORY: one line", Text, false},
}

// TestClassify checks Classify on each format, and that Build gives raw data of that content the
// same type and privacy.
func TestClassify(t *testing.T) {
	for _, c := range classifyCases {
		t.Run(c.name, func(t *testing.T) {
			if typ, private := Classify(c.in); typ != c.typ || private != c.private {
				t.Errorf("Classify(%q) = %s, private %v; want %s, private %v", c.in, typ, private, c.typ, c.private)
			}
			p, err := Build(&Request{Data: c.in})
			if err != nil {
				t.Fatal(err)
			}
			if p.Text != c.in || p.Type != c.typ || p.Private != c.private {
				t.Errorf("Build(data %q) = %q, %s, private %v; want %s, private %v", c.in, p.Text, p.Type, p.Private, c.typ, c.private)
			}
		})
	}
}

// TestPrivateWhateverType: a payload whose content is private stays private whatever type it is
// given or built as.
func TestPrivateWhateverType(t *testing.T) {
	for _, c := range classifyCases {
		if !c.private {
			continue
		}
		for _, r := range []Request{{Data: c.in, Type: Text}, {Type: Text, Text: c.in}} {
			p, err := Build(&r)
			if err != nil {
				t.Fatalf("%+v: %v", r, err)
			}
			if !p.Private || p.Type != Text {
				t.Errorf("%+v: %s, private %v; want text, private", r, p.Type, p.Private)
			}
		}
	}
}
