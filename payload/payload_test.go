package payload

import (
	"errors"
	"strings"
	"testing"
)

// TestErrors checks the error of each kind of bad request: its code and field, and that it has
// a message and a hint that do not quote private values.
func TestErrors(t *testing.T) {
	long := strings.Repeat("é", MaxLen+1)
	for _, c := range []struct {
		name  string
		req   Request
		code  Reason
		field string
	}{
		{"nothing", Request{}, ReasonMissingPayload, "type"},
		{"unknown type", Request{Type: "WIFI", SSID: "x"}, ReasonInvalidType, "type"},
		{"url and text without type", Request{URL: "a.com", Text: "b"}, ReasonConflictingFields, "type"},
		{"url missing", Request{Type: URL, Text: "x"}, ReasonMissingField, "url"},
		{"url blank", Request{Type: URL, URL: "  "}, ReasonMissingField, "url"},
		{"url javascript", Request{Type: URL, URL: "javascript:alert(1)"}, ReasonInvalidURL, "url"},
		{"url userinfo", Request{Type: URL, URL: "http://user:pw@example.com/"}, ReasonInvalidURL, "url"},
		{"url no host", Request{Type: URL, URL: "https:///path"}, ReasonInvalidURL, "url"},
		{"url no slashes", Request{Type: URL, URL: "https:example.com"}, ReasonInvalidURL, "url"},
		{"url bad port", Request{Type: URL, URL: "https://example.com:80a/"}, ReasonInvalidURL, "url"},
		{"url bad host", Request{Type: URL, URL: "https://exa mple.com/"}, ReasonInvalidURL, "url"},
		{"url line feed", Request{Type: URL, URL: "https://example.com/\nx"}, ReasonInvalidURL, "url"},
		{"url DEL", Request{Type: URL, URL: "https://example.com/\x7f"}, ReasonInvalidURL, "url"},
		{"wifi no ssid", Request{Type: WiFi, Password: "hunter22"}, ReasonMissingField, "ssid"},
		{"wifi long ssid", Request{Type: WiFi, SSID: strings.Repeat("é", 17), Password: "hunter22"}, ReasonInvalidSSID, "ssid"},
		{"wifi control ssid", Request{Type: WiFi, SSID: "a\x00b", Password: "hunter22"}, ReasonInvalidText, "ssid"},
		{"wifi security case", Request{Type: WiFi, SSID: "x", Password: "hunter22", Security: "wpa"}, ReasonInvalidSecurity, "security"},
		{"wifi security alias", Request{Type: WiFi, SSID: "x", Password: "hunter22", Security: "WPA", Encryption: "WEP"}, ReasonConflictingFields, "security"},
		{"wifi security alias case", Request{Type: WiFi, SSID: "x", Password: "hunter22", Security: "wpa3"}, ReasonInvalidSecurity, "security"},
		{"wifi WPA3 password checked as WPA's", Request{Type: WiFi, SSID: "x", Password: "secret7", Security: "WPA3"}, ReasonInvalidPassword, "password"},
		{"wifi no password", Request{Type: WiFi, SSID: "x"}, ReasonMissingField, "password"},
		{"wifi short password", Request{Type: WiFi, SSID: "x", Password: "secret7"}, ReasonInvalidPassword, "password"},
		{"wifi long password", Request{Type: WiFi, SSID: "x", Password: strings.Repeat("s", 64)}, ReasonInvalidPassword, "password"},
		{"wifi wep length", Request{Type: WiFi, SSID: "x", Password: "secret", Security: "WEP"}, ReasonInvalidPassword, "password"},
		{"wifi wep hex", Request{Type: WiFi, SSID: "x", Password: "0123456789abcdef012g", Security: "WEP"}, ReasonInvalidPassword, "password"},
		{"vcard no name", Request{Type: VCard, Phone: "123"}, ReasonMissingField, "name"},
		{"vcard blank name", Request{Type: VCard, Name: " \t "}, ReasonMissingField, "name"},
		{"vcard title alias", Request{Type: VCard, Name: "A", JobTitle: "x", Title: "y"}, ReasonConflictingFields, "jobTitle"},
		{"vcard url alias", Request{Type: VCard, Name: "A", Website: "a.com", URL: "b.com"}, ReasonConflictingFields, "website"},
		{"vcard bad email", Request{Type: VCard, Name: "A", Email: "anna at example.com"}, ReasonInvalidEmail, "email"},
		{"vcard bad website", Request{Type: VCard, Name: "A", Website: "javascript:x"}, ReasonInvalidURL, "website"},
		{"vcard bad url alias", Request{Type: VCard, Name: "A", URL: "data:x"}, ReasonInvalidURL, "url"},
		{"vcard control", Request{Type: VCard, Name: "A", Organization: "a\x1bb"}, ReasonInvalidText, "organization"},
		{"email no to", Request{Type: Email, Subject: "x"}, ReasonMissingField, "to"},
		{"email no at", Request{Type: Email, To: "anna.example.com"}, ReasonInvalidEmail, "to"},
		{"email no local", Request{Type: Email, To: "@mail.test"}, ReasonInvalidEmail, "to"},
		{"email no domain", Request{Type: Email, To: "bob.b@"}, ReasonInvalidEmail, "to"},
		{"email space", Request{Type: Email, To: "an na@example.com"}, ReasonInvalidEmail, "to"},
		{"email bad domain", Request{Type: Email, To: "anna@exa mple"}, ReasonInvalidEmail, "to"},
		{"email alias", Request{Type: Email, To: "a@b.com", Email: "c@d.com"}, ReasonConflictingFields, "to"},
		{"email body alias", Request{Type: Email, To: "a@b.com", Message: "x", Body: "y"}, ReasonConflictingFields, "message"},
		{"email subject lines", Request{Type: Email, To: "a@b.com", Subject: "a\r\nBcc: x@y.z"}, ReasonInvalidText, "subject"},
		{"sms no phone", Request{Type: SMS, Message: "hi"}, ReasonMissingField, "phone"},
		{"sms colon", Request{Type: SMS, Phone: "123:456"}, ReasonInvalidPhone, "phone"},
		{"sms letters", Request{Type: SMS, Phone: "+1 555 CALL"}, ReasonInvalidPhone, "phone"},
		{"sms short", Request{Type: SMS, Phone: "12"}, ReasonInvalidPhone, "phone"},
		{"sms long", Request{Type: SMS, Phone: "1234567890123456"}, ReasonInvalidPhone, "phone"},
		{"sms plus inside", Request{Type: SMS, Phone: "1+23"}, ReasonInvalidPhone, "phone"},
		{"sms control", Request{Type: SMS, Phone: "123", Message: "a\x07"}, ReasonInvalidText, "message"},
		{"text missing", Request{Type: Text}, ReasonMissingField, "text"},
		{"text NUL", Request{Type: Text, Text: "a\x00b"}, ReasonInvalidText, "text"},
		{"text bad UTF-8", Request{Type: Text, Text: "a\xffb"}, ReasonInvalidText, "text"},
		{"data control", Request{Data: "\x01"}, ReasonInvalidText, "data"},
		// Item 4: DEL and the C1 controls are control characters too (Unicode Cc).
		{"text DEL", Request{Type: Text, Text: "a\x7fb"}, ReasonInvalidText, "text"},
		{"text NEL", Request{Type: Text, Text: "a\u0085b"}, ReasonInvalidText, "text"},
		{"text CSI", Request{Type: Text, Text: "a\u009b31m"}, ReasonInvalidText, "text"},
		{"data C1", Request{Data: "WIFI:S:x;P:\u0080;;"}, ReasonInvalidText, "data"},
		{"sms C1", Request{Type: SMS, Phone: "123", Message: "\u009f"}, ReasonInvalidText, "message"},
		// Item 4: one address, no second @, nothing that a mailto: reader takes for headers.
		{"email two addresses", Request{Type: Email, To: "a@b.com,c@d.com"}, ReasonInvalidEmail, "to"},
		{"email two addresses by semicolon", Request{Type: Email, To: "a@b.com;c@d.com"}, ReasonInvalidEmail, "to"},
		{"email double at", Request{Type: Email, To: "a@@b.com"}, ReasonInvalidEmail, "to"},
		{"email headers after the address", Request{Type: Email, To: "a@b.com?bcc=evil@x.com"}, ReasonInvalidEmail, "to"},
		{"email headers in the local part", Request{Type: Email, To: "a?bcc=evil@x.com"}, ReasonInvalidEmail, "to"},
		{"email quoted local part", Request{Type: Email, To: `"a@b"@c.com`}, ReasonInvalidEmail, "to"},
		{"email double dot", Request{Type: Email, To: "a..b@c.com"}, ReasonInvalidEmail, "to"},
		{"email leading dot", Request{Type: Email, To: ".a@c.com"}, ReasonInvalidEmail, "to"},
		{"email long local part", Request{Type: Email, To: strings.Repeat("a", 65) + "@c.com"}, ReasonInvalidEmail, "to"},
		{"email empty label", Request{Type: Email, To: "a@b..com"}, ReasonInvalidEmail, "to"},
		{"vcard two addresses", Request{Type: VCard, Name: "A", Email: "a@b.com,c@d.com"}, ReasonInvalidEmail, "email"},
		{"vcard bad domain", Request{Type: VCard, Name: "A", Email: "a@b..com"}, ReasonInvalidEmail, "email"},
		// Item 4: hosts and ports that browsers refuse or read as another address.
		{"url empty label and big port", Request{Type: URL, URL: "https://a..com:99999999/"}, ReasonInvalidURL, "url"},
		{"url empty label", Request{Type: URL, URL: "https://a..com/"}, ReasonInvalidURL, "url"},
		{"url leading dot", Request{Type: URL, URL: "https://.a.com/"}, ReasonInvalidURL, "url"},
		{"url big port", Request{Type: URL, URL: "https://a.com:99999999/"}, ReasonInvalidURL, "url"},
		{"url port 65536", Request{Type: URL, URL: "https://a.com:65536/"}, ReasonInvalidURL, "url"},
		{"url long label", Request{Type: URL, URL: "https://" + strings.Repeat("a", 64) + ".com/"}, ReasonInvalidURL, "url"},
		{"url five numbers", Request{Type: URL, URL: "https://1.2.3.4.5/"}, ReasonInvalidURL, "url"},
		{"url three numbers", Request{Type: URL, URL: "https://1.2.3/"}, ReasonInvalidURL, "url"},
		{"url hex number", Request{Type: URL, URL: "https://0x7f.1/"}, ReasonInvalidURL, "url"},
		{"url octal number", Request{Type: URL, URL: "https://010.0.0.1/"}, ReasonInvalidURL, "url"},
		{"url ipv4 out of range", Request{Type: URL, URL: "http://256.1.1.1/"}, ReasonInvalidURL, "url"},
		{"url name ending in a number", Request{Type: URL, URL: "https://example.123/"}, ReasonInvalidURL, "url"},
		// Item 4: data given as a url must be one.
		{"data url javascript", Request{Type: URL, Data: "javascript:alert(1)"}, ReasonInvalidURL, "data"},
		{"data url userinfo", Request{Type: URL, Data: "https://bank.example@evil.example/"}, ReasonInvalidURL, "data"},
		{"data url bad host", Request{Type: URL, Data: "https://1.2.3.4.5/"}, ReasonInvalidURL, "data"},
		{"text too long", Request{Type: Text, Text: long}, ReasonPayloadTooLarge, "text"},
		{"data too long", Request{Data: long}, ReasonPayloadTooLarge, "data"},
		{"vcard too long", Request{Type: VCard, Name: "A", Organization: strings.Repeat("x", MaxLen)}, ReasonPayloadTooLarge, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			wantBuildError(t, &c.req, c.code, c.field, c.req.Password, c.req.SSID, c.req.To, c.req.Email, c.req.Phone, c.req.Subject)
		})
	}
}

// wantBuildError checks that Build refuses req with an *Error of reason code on field, with a
// message and a hint that quote none of the secrets (those of 3 bytes or more).
func wantBuildError(t *testing.T, req *Request, code Reason, field string, secrets ...string) {
	t.Helper()
	p, err := Build(req)
	var e *Error
	if !errors.As(err, &e) {
		t.Fatalf("got %q, %v; want an *Error", p.Text, err)
	}
	if e.Reason != code || e.Field != field || e.Message == "" || e.Hint == "" {
		t.Fatalf("got %+v; want code %s, field %q, a message and a hint", e, code, field)
	}
	for _, secret := range secrets {
		if len(secret) >= 3 && (strings.Contains(e.Message, secret) || strings.Contains(e.Hint, secret)) {
			t.Fatalf("%+v quotes the private value %q", e, secret)
		}
	}
}

// TestBuild checks what the vectors leave out: aliases, inference, privacy, limits, warnings.
func TestBuild(t *testing.T) {
	for _, c := range []struct {
		name     string
		req      Request
		want     string
		typ      Type
		private  bool
		warnings int
	}{
		{"url inferred", Request{URL: "example.com"}, "https://example.com", URL, false, 0},
		{"text inferred", Request{Text: " as is \r\n"}, " as is \r\n", Text, false, 0},
		{"data inferred wifi", Request{Data: "WIFI:S:x;;"}, "WIFI:S:x;;", WiFi, true, 0},
		{"data inferred vcard", Request{Data: "begin:vcard\r\n"}, "begin:vcard\r\n", VCard, true, 0},
		{"data inferred email", Request{Data: "MATMSG:TO:a@b.c;;"}, "MATMSG:TO:a@b.c;;", Email, true, 0},
		{"data inferred sms", Request{Data: "sms:+1555"}, "sms:+1555", SMS, true, 0},
		{"data inferred url", Request{Data: "HTTPS://x.y"}, "HTTPS://x.y", URL, false, 0},
		{"data inferred text", Request{Data: "hello"}, "hello", Text, false, 0},
		{"data wins", Request{Data: "raw", Type: WiFi}, "raw", WiFi, true, 0},
		{"data typed text still private", Request{Data: "WIFI:T:WPA;S:x;P:secret12;;", Type: Text}, "WIFI:T:WPA;S:x;P:secret12;;", Text, true, 0},
		{"url holding a wifi config", Request{Type: URL, URL: "WIFI:S:x;P:y;;"}, "wifi:S:x;P:y;;", URL, true, 0},
		{"url mailto", Request{Type: URL, URL: "MailTo:a@b.c"}, "mailto:a@b.c", URL, true, 0},
		{"url tel", Request{Type: URL, URL: "tel:+1 555"}, "tel:+1 555", URL, true, 0}, // a phone number: private (see Classify)
		{"url ipv6", Request{Type: URL, URL: "http://[::1]:8080/a b"}, "http://[::1]:8080/a%20b", URL, false, 0},
		{"url port kept", Request{Type: URL, URL: "https://Example.com:443"}, "https://example.com:443", URL, false, 0},
		{"url dots kept", Request{Type: URL, URL: "https://a.com/x/../y/?b=2&a=1#F"}, "https://a.com/x/../y/?b=2&a=1#F", URL, false, 0},
		{"url ipv4", Request{Type: URL, URL: "192.168.0.1:8080"}, "https://192.168.0.1:8080", URL, false, 0},
		{"wifi encryption alias", Request{Type: WiFi, SSID: "x", Password: "12345", Encryption: "WEP"}, "WIFI:T:WEP;S:x;P:12345;;", WiFi, true, 0},
		{"wifi same alias", Request{Type: WiFi, SSID: "x", Password: "12345", Security: "WEP", Encryption: "WEP"}, "WIFI:T:WEP;S:x;P:12345;;", WiFi, true, 0},
		{"wifi WPA2 is WPA", Request{Type: WiFi, SSID: "x", Password: "hunter22", Security: "WPA2"}, "WIFI:T:WPA;S:x;P:hunter22;;", WiFi, true, 0},
		{"wifi WPA3 is WPA", Request{Type: WiFi, SSID: "x", Password: "hunter22", Encryption: "WPA3"}, "WIFI:T:WPA;S:x;P:hunter22;;", WiFi, true, 0},
		{"wifi nopass ignores password", Request{Type: WiFi, SSID: "x", Password: "p", Security: "nopass"}, "WIFI:T:nopass;S:x;;", WiFi, true, 0},
		{"wifi hex key", Request{Type: WiFi, SSID: "x", Password: strings.Repeat("aB", 32)}, "WIFI:T:WPA;S:x;P:" + strings.Repeat("aB", 32) + ";;", WiFi, true, 0},
		{"wifi wep hex", Request{Type: WiFi, SSID: "x", Password: strings.Repeat("0f", 13), Security: "WEP"}, "WIFI:T:WEP;S:x;P:" + strings.Repeat("0f", 13) + ";;", WiFi, true, 0},
		{"wifi trailing backslash", Request{Type: WiFi, SSID: `x\`, Password: "hunter22"}, `WIFI:T:WPA;S:x\\;P:hunter22;;`, WiFi, true, 1},
		{"wifi quoted", Request{Type: WiFi, SSID: "x", Password: `"hunter22"`}, `WIFI:T:WPA;S:x;P:\"hunter22\";;`, WiFi, true, 1},
		{"vcard first and last", Request{Type: VCard, FirstName: " Jane ", LastName: "Doe"},
			"BEGIN:VCARD\r\nVERSION:3.0\r\nN:Doe;Jane;;;\r\nFN:Jane Doe\r\nEND:VCARD\r\n", VCard, true, 0},
		{"vcard name and aliases", Request{Type: VCard, Name: "Dr. Jane Doe", FirstName: "Jane", LastName: "Doe", Title: "CTO", URL: "example.com"},
			"BEGIN:VCARD\r\nVERSION:3.0\r\nN:Doe;Jane;;;\r\nFN:Dr. Jane Doe\r\nTITLE:CTO\r\nURL:https://example.com\r\nEND:VCARD\r\n", VCard, true, 0},
		{"email aliases", Request{Type: Email, Email: "a@b.com", Body: "hi there"}, "mailto:a@b.com?body=hi%20there", Email, true, 0},
		{"email local part", Request{Type: Email, To: "a.b!$'*%&=é@B.com"}, "mailto:a.b!$'*%25%26%3D%C3%A9@b.com", Email, true, 0},
		{"sms no message", Request{Type: SMS, Phone: "+1 555 123 4567"}, "SMSTO:+15551234567:", SMS, true, 0},
		{"text with tab and line breaks", Request{Type: Text, Text: "a\tb\r\nc\u00a0d"}, "a\tb\r\nc\u00a0d", Text, false, 0},
		{"email plus and dots", Request{Type: Email, To: "a.b+c@d-e.example"}, "mailto:a.b%2Bc@d-e.example", Email, true, 0},
		{"email final dot", Request{Type: Email, To: "a@b.com."}, "mailto:a@b.com.", Email, true, 0},
		{"url ipv4 dotted", Request{Type: URL, URL: "https://1.2.3.4/"}, "https://1.2.3.4/", URL, false, 0},
		{"url ipv4 final dot", Request{Type: URL, URL: "http://10.0.0.1.:8080"}, "http://10.0.0.1.:8080", URL, false, 0},
		{"url top port and final dot", Request{Type: URL, URL: "https://example.com.:65535/"}, "https://example.com.:65535/", URL, false, 0},
		{"url number inside", Request{Type: URL, URL: "https://1.example.com/"}, "https://1.example.com/", URL, false, 0},
		{"url localhost", Request{Type: URL, URL: "http://localhost:8080/"}, "http://localhost:8080/", URL, false, 0},
		{"data url as is", Request{Type: URL, Data: "HTTPS://Example.com/a b"}, "HTTPS://Example.com/a b", URL, false, 0},
		{"data url deep link", Request{Type: URL, Data: "myapp://open?id=1"}, "myapp://open?id=1", URL, false, 0},
		{"text at the limit", Request{Type: Text, Text: strings.Repeat("😀", MaxLen)}, strings.Repeat("😀", MaxLen), Text, false, 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			p, err := Build(&c.req)
			if err != nil {
				t.Fatal(err)
			}
			if p.Text != c.want || p.Type != c.typ || p.Private != c.private || len(p.Warnings) != c.warnings {
				t.Fatalf("got %q, %s, private %v, warnings %v; want %q, %s, private %v, %d warnings",
					p.Text, p.Type, p.Private, p.Warnings, c.want, c.typ, c.private, c.warnings)
			}
			for _, w := range p.Warnings {
				if w.Reason != ReasonLegacyAndroid || w.Field == "" || strings.Contains(w.Message, c.req.Password) {
					t.Fatalf("warning %+v", w)
				}
			}
		})
	}
}
