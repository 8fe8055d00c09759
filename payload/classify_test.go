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
	// Other payment orders, read by banking and wallet apps: a Swiss QR-bill (QRType SPC), the
	// Czech Short Payment Descriptor, its direct debit and invoice (SPD*, SCD*, SID*), BIP 21,
	// UPI.
	{"swiss qr-bill", "SPC\r\n0200\r\n1\r\nCH4431999123000889012\r\nS\r\nRobert Schneider AG\r\n", Text, true},
	{"swiss qr-bill with LF", "SPC\n0200\n1\nCH4431999123000889012\nS\nRobert Schneider AG\n", Text, true},
	{"spayd", "SPD*1.0*ACC:CZ5855000000001265098001*AM:480.50*CC:CZK*MSG:PLATBA ZA ZBOZI", Text, true},
	{"spayd lower case", "spd*1.0*ACC:CZ5855000000001265098001", Text, true},
	{"spayd direct debit", "SCD*1.0*ACC:CZ5855000000001265098001*AM:480.50*CC:CZK*FRQ:1M", Text, true},
	{"short invoice descriptor", "SID*1.0*ID:2001401154*DD:20140404*AM:61189.00*VII:CZ25568736", Text, true},
	{"bitcoin", "bitcoin:BC1QAR0SRRR7XFKVY5L643LYDNW9RE59GTZZWF5MDQ?amount=0.01", Text, true},
	{"upi", "upi://pay?pa=anna@okbank&pn=Anna&am=100", Text, true},
	// An EMV merchant-presented code (EMV QRCPS MPM): the Pix manual's static example, whose key
	// may be a person's tax number; private only with its CRC right, so that digits that merely
	// start with 000201 stay public text.
	{"emv pix", "00020126580014br.gov.bcb.pix0136123e4567-e12b-12d1-a456-4266554400005204000053039865802BR5913Fulano de Tal6008BRASILIA62070503***63041D3D", Text, true},
	{"emv pix, trailing line break", "00020126580014br.gov.bcb.pix0136123e4567-e12b-12d1-a456-4266554400005204000053039865802BR5913Fulano de Tal6008BRASILIA62070503***63041D3D\n", Text, true},
	{"emv, wrong crc", "00020126580014br.gov.bcb.pix0136123e4567-e12b-12d1-a456-4266554400005204000053039865802BR5913Fulano de Tal6008BRASILIA62070503***63041D3E", Text, false},
	{"digits starting 000201", "0002016304ABCD", Text, false},
	// Links that call or message a person: SIP (RFC 3261), Skype, WhatsApp, Viber, Telegram,
	// Signal, and the messaging apps' web links with a phone number or an invitation.
	{"sip", "sip:+12125551212@gateway.example;user=phone", Text, true},
	{"sips", "sips:anna@example.com", Text, true},
	{"skype", "skype:anna.example?call", Text, true},
	{"whatsapp", "whatsapp://send?phone=4915112345678", Text, true},
	{"viber", "viber://chat?number=%2B4915112345678", Text, true},
	{"telegram", "tg://resolve?phone=4915112345678", Text, true},
	{"wa.me", "https://wa.me/4915112345678?text=hi", URL, true},
	{"wa.me over http, upper case", "HTTP://WA.ME/4915112345678", URL, true},
	{"whatsapp click to chat", "https://api.whatsapp.com/send?phone=4915112345678", URL, true},
	{"telegram phone link", "https://t.me/+4915112345678", URL, true},
	{"telegram invitation", "https://t.me/joinchat/AAAAAEkk2WdoDrB4-Q8-gg", URL, true},
	{"signal phone link", "https://signal.me/#p/+4915112345678", URL, true},
	// A URL with user information (RFC 3986 3.2.1), any scheme, anywhere: a credential.
	{"url with a password", "https://alice:S3cr3tPw@intranet.example.com/", Text, true},
	{"url with user information", "https://bank.example@evil.example/", Text, true},
	{"ftp with a password", "ftp://user:pw@files.example.com/report.pdf", Text, true},
	{"ssh user", "ssh://deploy@host.example.com:2222", Text, true},
	{"redis with a password", "redis://:hunter2@cache.internal:6379/0", Text, true},
	{"a password in a sentence", "Log in at https://alice:pw@intranet.example.com today", Text, true},
	{"a password in a bookmark", "MEBKM:TITLE:x;URL:https://u:p@example.com;;", Text, true},
	{"a password after a redirect", "https://example.com/go?to=https://u:p@example.com/", URL, true},
	// Public.
	{"https", "https://example.com/a?b=c", URL, false},
	{"http upper case", "HTTP://EXAMPLE.COM", URL, false},
	{"an @ in the path", "https://example.com/@anna", URL, false},
	{"an @ in the query", "https://example.com/?to=a@b.example", URL, false},
	{"an @ after the address", "see https://example.com or mail me@home", Text, false},
	{"no scheme before ://", "://u:p@example.com", Text, false},
	{"a public telegram channel", "https://t.me/durov", URL, false},
	{"whatsapp's site", "https://whatsapp.com/download", URL, false},
	{"SPC as a word", "SPC: special", Text, false},
	{"SPD without a star", "SPD is a party", Text, false},
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

// TestPrivateURLType: a url built from the URL field is private when it is a messaging app's
// phone link (the URL rule refuses user information before privacy is judged).
func TestPrivateURLType(t *testing.T) {
	for _, u := range []string{"https://wa.me/4915112345678", "api.whatsapp.com/send?phone=4915112345678", "t.me/+4915112345678"} {
		p, err := Build(&Request{Type: URL, URL: u})
		if err != nil {
			t.Fatalf("%s: %v", u, err)
		}
		if p.Type != URL || !p.Private {
			t.Errorf("%s: %s, private %v; want url, private", u, p.Type, p.Private)
		}
	}
	if _, err := Build(&Request{Type: URL, URL: "https://alice:S3cr3tPw@intranet.example.com/"}); err == nil {
		t.Error("a url with user information was accepted")
	}
}
