package payload

import (
	"errors"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"
)

// The fuzz targets, one a builder: Build never panics; what it accepts reads back as what was
// asked; what it refuses comes as an *Error with a known code, a message and a hint.

// fuzzBuild builds r and checks the common rules; it returns the payload, or ok false when r is
// refused.
func fuzzBuild(t *testing.T, r *Request) (p Payload, ok bool) {
	p, err := Build(r)
	if err != nil {
		var e *Error
		if !errors.As(err, &e) || !knownReasons[e.Reason] || e.Message == "" || e.Hint == "" {
			t.Fatalf("%+v: error %#v", r, err)
		}
		return Payload{}, false
	}
	if !utf8.ValidString(p.Text) || utf8.RuneCountInString(p.Text) > MaxLen || p.Text == "" {
		t.Fatalf("%+v: payload %q", r, p.Text)
	}
	if _, private := Classify(p.Text); p.Private != (p.Type.Private() || private) {
		t.Fatalf("%+v: %s payload %q private %v", r, p.Type, p.Text, p.Private)
	}
	return p, true
}

var knownReasons = map[Reason]bool{
	ReasonMissingPayload: true, ReasonInvalidType: true, ReasonMissingField: true, ReasonConflictingFields: true,
	ReasonInvalidText: true, ReasonInvalidURL: true, ReasonInvalidSSID: true, ReasonInvalidSecurity: true,
	ReasonInvalidPassword: true, ReasonInvalidEmail: true, ReasonInvalidPhone: true, ReasonPayloadTooLarge: true,
	ReasonInvalidCoordinate: true, ReasonInvalidDate: true, ReasonInvalidIBAN: true, ReasonInvalidBIC: true, ReasonInvalidAmount: true,
	ReasonInvalidReference: true, ReasonValueTooLong: true, ReasonInvalidCurrency: true, ReasonInvalidCountry: true,
	ReasonInvalidBillInformation: true, ReasonInvalidKey: true, ReasonInvalidScheme: true, ReasonInvalidMerchantCategory: true,
	ReasonUnsupportedField: true, ReasonInvalidVPA: true, ReasonInvalidSymbol: true, ReasonInvalidBitcoinAddress: true,
	ReasonInvalidLightningInvoice: true,
}

// uriChars are the characters an http(s) URL may hold once normalised (RFC 3986 2.2, 2.3, and %).
var uriChars = regexp.MustCompile(`^[A-Za-z0-9\-._~:/?#\[\]@!$&'()*+,;=%]*$`)

func FuzzURL(f *testing.F) {
	for _, s := range []string{"example.com", "localhost:8080/x", "HTTP://Example.COM/Path", "https://bücher.de/straße?q=a b",
		"//example.com/a", "https://example.com/%7Efoo%zz", "myapp://open?id=1", "javascript:alert(1)", "https://a@b",
		"http://[::1]:80/", "https://xn--bcher-kva.de", "a:1", "tel:+1", "https://ex ample.com"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		p, ok := fuzzBuild(t, &Request{Type: URL, URL: s})
		if !ok {
			return
		}
		if again, err := NormalizeURL("url", p.Text); err != nil || again != p.Text {
			t.Fatalf("%q gave %q, which normalises to %q, %v", s, p.Text, again, err)
		}
		scheme, _, _ := strings.Cut(p.Text, ":")
		if scheme != strings.ToLower(scheme) || deniedSchemes[scheme] {
			t.Fatalf("%q gave %q", s, p.Text)
		}
		if scheme == "http" || scheme == "https" {
			u, err := url.Parse(p.Text)
			if err != nil || u.Host == "" || u.User != nil || !uriChars.MatchString(p.Text) {
				t.Fatalf("%q gave %q: %v", s, p.Text, err)
			}
		}
	})
}

func FuzzWiFi(f *testing.F) {
	f.Add(`My;Net:"Home"\`, "p@ss,word;", "", false)
	f.Add("Guest", "", "nopass", true)
	f.Add("Old", "12345", "WEP", false)
	f.Add("Café ☕", "pässwörd", "WPA", false)
	f.Fuzz(func(t *testing.T, ssid, password, security string, hidden bool) {
		r := &Request{Type: WiFi, SSID: ssid, Password: password, Security: security, Hidden: hidden}
		p, ok := fuzzBuild(t, r)
		if !ok {
			return
		}
		if security == "" {
			security = "WPA"
		}
		if security == "nopass" {
			password = ""
		}
		gotSec, gotSSID, gotPassword, gotHidden, _ := parseWiFi(p.Text)
		if gotSec != security || gotSSID != ssid || gotPassword != password || gotHidden != hidden || !strings.HasSuffix(p.Text, ";;") {
			t.Fatalf("%q read back as %q %q %q %v", p.Text, gotSec, gotSSID, gotPassword, gotHidden)
		}
	})
}

func FuzzVCard(f *testing.F) {
	f.Add("Müller, Anna", "", "", `ACME; R&D, "Labs"`, "Head of R&D\\Ops", "+49 (30) 123-456", "anna.mueller@example.com", "example.com/a b?q=ä")
	f.Add("", "Jane", "Doe", "", "Line1\nLine2", "", "", "")
	f.Fuzz(func(t *testing.T, name, first, last, org, title, phone, email, website string) {
		r := &Request{Type: VCard, Name: name, FirstName: first, LastName: last, Organization: org, JobTitle: title,
			Phone: phone, Email: email, Website: website}
		p, ok := fuzzBuild(t, r)
		if !ok {
			return
		}
		props, ok := parseVCard(p.Text)
		if !ok {
			t.Fatalf("malformed card %q", p.Text)
		}
		fn := strings.Join(strings.Fields(name), " ")
		if fn == "" {
			fn = strings.TrimSpace(strings.Join(strings.Fields(first), " ") + " " + strings.Join(strings.Fields(last), " "))
		}
		lf := func(s string) string {
			return strings.ReplaceAll(strings.ReplaceAll(strings.TrimSpace(s), "\r\n", "\n"), "\r", "\n")
		}
		for _, c := range []struct{ prop, want string }{
			{"FN", fn}, {"ORG", lf(org)}, {"TITLE", lf(title)}, {"TEL", lf(phone)}, {"EMAIL", strings.TrimSpace(email)},
		} {
			if got := strings.Join(props[c.prop], ";"); got != c.want {
				t.Fatalf("%q: %s read back as %q, want %q", p.Text, c.prop, got, c.want)
			}
		}
		if len(props["N"]) != 5 {
			t.Fatalf("%q: N is %q", p.Text, props["N"])
		}
	})
}

func FuzzEmail(f *testing.F) {
	f.Add("anna+qr@müller.de", `Hello & "Welcome" 50% + more`, "Line 1\nZeile 2: äöü")
	f.Add("a@b.com", "Q? #1 a=b", "a\r\nb\rc\nd")
	f.Fuzz(func(t *testing.T, to, subject, message string) {
		p, ok := fuzzBuild(t, &Request{Type: Email, To: to, Subject: subject, Message: message})
		if !ok {
			return
		}
		u, err := url.Parse(p.Text)
		if err != nil || u.Scheme != "mailto" || strings.ContainsAny(p.Text, " +\r\n") {
			t.Fatalf("%q: %v", p.Text, err)
		}
		q, err := url.ParseQuery(u.RawQuery)
		if err != nil || q.Get("subject") != subject || q.Get("body") != crlfOf(message) {
			t.Fatalf("%q read back as %q, %v", p.Text, q, err)
		}
		to = strings.TrimSpace(to)
		local, _, _ := strings.Cut(u.Opaque, "@")
		if got, err := url.PathUnescape(local); err != nil || got != to[:strings.LastIndexByte(to, '@')] {
			t.Fatalf("%q: local part %q, %v", p.Text, got, err)
		}
	})
}

var smsNumber = regexp.MustCompile(`^\+?[0-9]{3,15}$`)

func FuzzSMS(f *testing.F) {
	f.Add("+1 (555) 123-4567", "Meet at 10:30")
	f.Add("12345", "")
	f.Add("123:456", "x")
	f.Fuzz(func(t *testing.T, phone, message string) {
		p, ok := fuzzBuild(t, &Request{Type: SMS, Phone: phone, Message: message})
		if !ok {
			return
		}
		rest, ok := strings.CutPrefix(p.Text, "SMSTO:")
		number, got, found := strings.Cut(rest, ":")
		if !ok || !found || !smsNumber.MatchString(number) || got != message {
			t.Fatalf("%q from %q, %q", p.Text, phone, message)
		}
	})
}

func FuzzText(f *testing.F) {
	f.Add("Hello\nWorld", false)
	f.Add("WIFI:S:x;;", true)
	f.Fuzz(func(t *testing.T, s string, raw bool) {
		r := &Request{Type: Text, Text: s}
		if raw {
			r = &Request{Data: s}
		}
		p, ok := fuzzBuild(t, r)
		if ok && p.Text != s {
			t.Fatalf("%q came out as %q", s, p.Text)
		}
	})
}
