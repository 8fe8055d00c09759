package payload

import (
	"errors"
	"fmt"
	"net/url"
	"slices"
	"strings"
	"testing"

	"github.com/bananaqr/bananaqr/internal/qrtest"
	"github.com/bananaqr/bananaqr/qr"
)

// wantError checks that err is an *Error of the reason and field, with a message and a hint
// that quote no private value (of 4 characters or more: shorter ones may be words).
func wantError(t *testing.T, err error, reason Reason, field string, private ...string) {
	t.Helper()
	var e *Error
	if !errors.As(err, &e) || e.Reason != reason || e.Field != field || e.Message == "" || e.Hint == "" {
		t.Fatalf("got %#v, want %s on %s", err, reason, field)
	}
	for _, p := range private {
		if p = strings.TrimSpace(p); len(p) >= 4 && (strings.Contains(e.Message, p) || strings.Contains(e.Hint, p)) {
			t.Fatalf("%s quotes the value %q", e.Message, p)
		}
	}
}

// upiKeys are the parameters buildUPI writes, in their order.
var upiKeys = []string{"pa", "pn", "mc", "tr", "tn", "am", "cu"}

// parseUPI reads a UPI link as a payer's app does (NPCI UPI Linking Specifications 1.6, 1.2):
// upi://pay?, then name=value pairs by &, each value percent-decoded. It returns the names in
// order and the values, and refuses what buildUPI must never write: a raw character outside
// RFC 3986's unreserved set but @ (a raw space, +, & or =), a repeated or unknown name.
func parseUPI(s string) (names []string, values map[string]string, err error) {
	query, ok := strings.CutPrefix(s, "upi://pay?")
	if !ok {
		return nil, nil, errors.New("not upi://pay?")
	}
	values = map[string]string{}
	for pair := range strings.SplitSeq(query, "&") {
		name, raw, ok := strings.Cut(pair, "=")
		if !ok || !slices.Contains(upiKeys, name) || values[name] != "" {
			return nil, nil, fmt.Errorf("bad or repeated parameter %q", pair)
		}
		if i := strings.IndexFunc(raw, func(c rune) bool {
			return !(c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || strings.ContainsRune("-._~%@", c))
		}); i >= 0 {
			return nil, nil, fmt.Errorf("%s holds a raw %q", name, raw[i])
		}
		v, err := url.PathUnescape(raw)
		if err != nil || v == "" {
			return nil, nil, fmt.Errorf("%s: %q %v", name, raw, err)
		}
		names, values[name] = append(names, name), v
	}
	return names, values, nil
}

// checkUPIFields parses a payload of buildUPI and compares it with r field by field.
func checkUPIFields(t *testing.T, r *Request, text string) {
	t.Helper()
	names, got, err := parseUPI(text)
	if err != nil {
		t.Fatalf("%q: %v", text, err)
	}
	inOrder := slices.DeleteFunc(slices.Clone(upiKeys), func(k string) bool { return !slices.Contains(names, k) })
	if !slices.Equal(names, inOrder) {
		t.Fatalf("%q: parameters %v, not in the order %v", text, names, upiKeys)
	}
	want := map[string]string{"pa": r.VPA, "pn": r.Name, "mc": r.MerchantCategory, "tr": r.Reference, "tn": r.Message, "cu": "INR"}
	for k, w := range want {
		if w = strings.TrimSpace(w); got[k] != w {
			t.Errorf("%q: %s read back as %q, want %q", text, k, got[k], w)
		}
	}
	if in, _ := parseDecimal(r.Amount); strings.TrimSpace(r.Amount) != "" || got["am"] != "" {
		if am, ok := parseDecimal(got["am"]); !ok || am.String() != in.String() || strings.HasPrefix(got["am"], "00") {
			t.Errorf("%q: am read back as %q, want %s", text, got["am"], in)
		}
	}
}

// TestUPIVectors builds each published vector byte for byte and parses it back field by field.
func TestUPIVectors(t *testing.T) {
	for _, v := range readPaymentVectors(t, UPI).Build {
		r := v.request(t)
		got, err := buildUPI(r)
		if err != nil || got != v.Expected {
			t.Errorf("%s (%s):\n got %q, %v\nwant %q", v.Name, v.Source, got, err, v.Expected)
			continue
		}
		checkUPIFields(t, r, got)
	}
}

// TestUPIRefusals checks each refusal rule's reason and field.
func TestUPIRefusals(t *testing.T) {
	ok := func() *Request {
		return &Request{Type: UPI, VPA: "kirana.store@ybl", Name: "Kirana Store", Amount: "10", Reference: "ORD-77", Message: "Order 77 groceries", MerchantCategory: "5411"}
	}
	tests := []struct {
		name   string
		edit   func(r *Request)
		reason Reason
		field  string
	}{
		{"no vpa", func(r *Request) { r.VPA = " " }, ReasonMissingField, "vpa"},
		{"vpa without @", func(r *Request) { r.VPA = "shop.okhdfcbank" }, ReasonInvalidVPA, "vpa"},
		{"vpa with two @", func(r *Request) { r.VPA = "shop@ok@hdfc" }, ReasonInvalidVPA, "vpa"},
		{"vpa with a space", func(r *Request) { r.VPA = "my shop@okhdfcbank" }, ReasonInvalidVPA, "vpa"},
		{"vpa handle of 1", func(r *Request) { r.VPA = "s@okhdfcbank" }, ReasonInvalidVPA, "vpa"},
		{"vpa psp of 1", func(r *Request) { r.VPA = "kirana@y" }, ReasonInvalidVPA, "vpa"},
		{"vpa psp over 64", func(r *Request) { r.VPA = "shop@" + strings.Repeat("b", 65) }, ReasonInvalidVPA, "vpa"},
		{"vpa psp with a digit first", func(r *Request) { r.VPA = "shop@1bank" }, ReasonInvalidVPA, "vpa"},
		{"vpa psp ending in a dot", func(r *Request) { r.VPA = "shop@bank." }, ReasonInvalidVPA, "vpa"},
		{"vpa with &", func(r *Request) { r.VPA = "shop&am=1@bank" }, ReasonInvalidVPA, "vpa"},
		{"vpa over 255", func(r *Request) { r.VPA = strings.Repeat("a", 250) + "@bankxy" }, ReasonInvalidVPA, "vpa"},
		{"no name", func(r *Request) { r.Name = "" }, ReasonMissingField, "name"},
		{"name over 99", func(r *Request) { r.Name = strings.Repeat("n", 100) }, ReasonValueTooLong, "name"},
		{"name on two lines", func(r *Request) { r.Name = "a\nb" }, ReasonInvalidText, "name"},
		{"name with a control", func(r *Request) { r.Name = "a\x1bb" }, ReasonInvalidText, "name"},
		{"message with U+2028", func(r *Request) { r.Message = "a\u2028b" }, ReasonInvalidText, "message"},
		{"message over 50", func(r *Request) { r.Message = strings.Repeat("é", 51) }, ReasonValueTooLong, "message"},
		{"reference over 35", func(r *Request) { r.Reference = strings.Repeat("1", 36) }, ReasonValueTooLong, "reference"},
		{"reference with a tab", func(r *Request) { r.Reference = "a\tb" }, ReasonInvalidText, "reference"},
		{"currency USD", func(r *Request) { r.Currency = "USD" }, ReasonInvalidCurrency, "currency"},
		{"mc of 3 digits", func(r *Request) { r.MerchantCategory = "541" }, ReasonInvalidMerchantCategory, "merchantCategory"},
		{"mc with a letter", func(r *Request) { r.MerchantCategory = "54A1" }, ReasonInvalidMerchantCategory, "merchantCategory"},
		{"amount 0", func(r *Request) { r.Amount = "0.00" }, ReasonInvalidAmount, "amount"},
		{"amount negative", func(r *Request) { r.Amount = "-1" }, ReasonInvalidAmount, "amount"},
		{"amount of 3 decimals", func(r *Request) { r.Amount = "1.005" }, ReasonInvalidAmount, "amount"},
		{"amount with a comma", func(r *Request) { r.Amount = "1,50" }, ReasonInvalidAmount, "amount"},
		{"amount with an exponent", func(r *Request) { r.Amount = "1e3" }, ReasonInvalidAmount, "amount"},
		{"amount bare dot", func(r *Request) { r.Amount = "5." }, ReasonInvalidAmount, "amount"},
		{"amount of 11 digits", func(r *Request) { r.Amount = "12345678901" }, ReasonInvalidAmount, "amount"},
	}
	if _, err := buildUPI(ok()); err != nil {
		t.Fatal(err)
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := ok()
			tt.edit(r)
			text, err := buildUPI(r)
			if err == nil {
				t.Fatalf("built %q", text)
			}
			wantError(t, err, tt.reason, tt.field, r.VPA, r.Name, r.Message, r.Reference)
		})
	}
}

// TestUPIAccepts checks the edges that must still build: the longest values, the amount's
// forms, a currency in lower case.
func TestUPIAccepts(t *testing.T) {
	for _, r := range []*Request{
		{VPA: strings.Repeat("a", 244) + "@okhdfcbank", Name: strings.Repeat("ñ", 99), Message: strings.Repeat("€", 50), Reference: strings.Repeat("9", 35)},
		{VPA: "ab@ybl", Name: "x", Amount: "9999999999.99", Currency: " inr "},
		{VPA: "a.b-c_d@upi", Name: "x", Amount: "0.01", MerchantCategory: "0000"},
	} {
		text, err := buildUPI(r)
		if err != nil {
			t.Fatalf("%+v: %v", r, err)
		}
		checkUPIFields(t, r, text)
	}
}

// encodePayloads encodes each payload at level M, as the service encodes a payment type's
// payload, and draws it as a PNG (pngFiles); it returns the symbols and the files.
func encodePayloads(t *testing.T, payloads []string) ([]*qr.Symbol, []string) {
	t.Helper()
	var symbols []*qr.Symbol
	for _, p := range payloads {
		s, err := qr.Encode(p, qr.Options{Level: qr.M})
		if err != nil {
			t.Fatalf("%q: %v", p, err)
		}
		symbols = append(symbols, s)
	}
	return symbols, pngFiles(t, symbols, 640)
}

// readBack reads each payload's symbol back with gozxing always, and with zbar and zxing-cpp
// when they are installed (always in CI): the bytes must be the payload's, and check parses
// what was read field by field.
func readBack(t *testing.T, requests []*Request, payloads []string, check func(*testing.T, *Request, string)) {
	symbols, files := encodePayloads(t, payloads)
	for i, s := range symbols {
		got, err := qrtest.Decode(s.Size(), s.Dark)
		if err != nil || got != payloads[i] {
			t.Fatalf("gozxing read %q as %q, %v", payloads[i], got, err)
		}
		check(t, requests[i], got)
	}
	t.Run("external", func(t *testing.T) {
		qrtest.NeedTools(t, "zbarimg")
		qrtest.NeedZXingCPP(t)
		zbar, zxing := qrtest.Zbarimg(t, files), qrtest.ZXingCPP(t, files)
		for i, f := range files {
			if zbar[f] != payloads[i] {
				t.Errorf("zbarimg read %q as %q", payloads[i], zbar[f])
			}
			if zxing[f] != payloads[i] {
				t.Errorf("zxing-cpp read %q as %q", payloads[i], zxing[f])
			}
			check(t, requests[i], zbar[f])
			check(t, requests[i], zxing[f])
		}
	})
}

// TestUPIReadBack reads each vector's symbol back (gozxing, zbar, zxing-cpp) and parses it.
func TestUPIReadBack(t *testing.T) {
	var requests []*Request
	var payloads []string
	for _, v := range readPaymentVectors(t, UPI).Build {
		requests, payloads = append(requests, v.request(t)), append(payloads, v.Expected)
	}
	readBack(t, requests, payloads, checkUPIFields)
}

// fuzzPayment runs a builder: it must not panic, and a refusal must be an *Error with a known
// reason, a field, a message and a hint. ok is false when the request was refused.
func fuzzPayment(t *testing.T, build func(*Request) (string, error), r *Request) (string, bool) {
	text, err := build(r)
	if err != nil {
		var e *Error
		if !errors.As(err, &e) || !knownReasons[e.Reason] || e.Field == "" || e.Message == "" || e.Hint == "" {
			t.Fatalf("%+v: error %#v", r, err)
		}
		return "", false
	}
	if !qrASCII(text) {
		t.Fatalf("%+v: payload %q is not printable ASCII", r, text)
	}
	return text, true
}

// qrASCII reports whether s is printable ASCII: both types' payloads escape everything else.
func qrASCII(s string) bool {
	return strings.IndexFunc(s, func(c rune) bool { return c < 0x20 || c > 0x7e }) < 0
}

func FuzzUPI(f *testing.F) {
	f.Add("nadeem@npci", "nadeem chinna", "0000", "4894398cndhcd23", "Pay to mystar store", "10", "INR")
	f.Add("1234567890@SBIN0001234.ifsc.npci", "Chai & Co. (Pune)", "5814", "INV/2026/0042", "Café: 2+2=4, 100%", "0499.50", "inr")
	f.Add("a@b", "", "12345", "a\nb", "\u2028", "1.005", "USD")
	f.Fuzz(func(t *testing.T, vpa, name, mc, reference, message, amount, currency string) {
		r := &Request{Type: UPI, VPA: vpa, Name: name, MerchantCategory: mc, Reference: reference, Message: message, Amount: amount, Currency: currency}
		if text, ok := fuzzPayment(t, buildUPI, r); ok {
			checkUPIFields(t, r, text)
		}
	})
}
