package payload

import (
	"errors"
	"fmt"
	"net/url"
	"slices"
	"strings"
	"testing"
)

// spaydKeys are the keys buildSPAYD writes, in their order.
var spaydKeys = []string{"ACC", "AM", "CC", "RF", "RN", "DT", "MSG", "X-VS", "X-SS", "X-KS"}

// parseSPAYD reads a Short Payment Descriptor as a banking app does (SPAYD 1.0): the header
// SPD*1.0, then KEY:value pairs separated by '*', each value percent-decoded (UTF-8). It returns
// the keys in order and the values, and refuses what buildSPAYD must never write: a key it does
// not write or repeated, an empty value, a character outside printable ASCII, a trailing '*'.
func parseSPAYD(s string) (keys []string, values map[string]string, err error) {
	parts := strings.Split(s, "*")
	if len(parts) < 3 || parts[0] != "SPD" || parts[1] != "1.0" {
		return nil, nil, errors.New("no SPD*1.0* header, or no pair")
	}
	if !qrASCII(s) {
		return nil, nil, errors.New("a character outside printable ASCII")
	}
	values = map[string]string{}
	for _, pair := range parts[2:] {
		key, raw, ok := strings.Cut(pair, ":")
		if !ok || !slices.Contains(spaydKeys, key) || values[key] != "" || raw == "" {
			return nil, nil, fmt.Errorf("bad or repeated pair %q", pair)
		}
		v, err := url.PathUnescape(raw) // as spayd-java's validator: URL-decoding, + kept
		if err != nil {
			return nil, nil, fmt.Errorf("%s: %v", key, err)
		}
		keys, values[key] = append(keys, key), v
	}
	return keys, values, nil
}

// checkSPAYDFields parses a payload of buildSPAYD and compares it with r field by field.
func checkSPAYDFields(t *testing.T, r *Request, text string) {
	t.Helper()
	keys, got, err := parseSPAYD(text)
	if err != nil {
		t.Fatalf("%q: %v", text, err)
	}
	inOrder := slices.DeleteFunc(slices.Clone(spaydKeys), func(k string) bool { return !slices.Contains(keys, k) })
	if !slices.Equal(keys, inOrder) {
		t.Fatalf("%q: keys %v, not in the order %v", text, keys, spaydKeys)
	}
	compact := func(s string) string { return strings.ToUpper(strings.ReplaceAll(strings.TrimSpace(s), " ", "")) }
	acc := compact(r.IBAN)
	if b := compact(r.BIC); b != "" {
		acc += "+" + b
	}
	want := map[string]string{"ACC": acc, "CC": strings.ToUpper(strings.TrimSpace(r.Currency)), "RF": r.Reference,
		"RN": r.Name, "DT": strings.ReplaceAll(strings.TrimSpace(r.DueDate), "-", ""), "MSG": r.Message,
		"X-VS": r.VariableSymbol, "X-SS": r.SpecificSymbol, "X-KS": r.ConstantSymbol}
	for k, w := range want {
		if w = strings.TrimSpace(w); got[k] != w {
			t.Errorf("%q: %s read back as %q, want %q", text, k, got[k], w)
		}
	}
	if in, _ := parseDecimal(r.Amount); strings.TrimSpace(r.Amount) != "" || got["AM"] != "" {
		if am, ok := parseDecimal(got["AM"]); !ok || am.String() != in.String() || len(got["AM"]) > 10 || strings.HasPrefix(got["AM"], "00") {
			t.Errorf("%q: AM read back as %q, want %s", text, got["AM"], in)
		}
	}
}

// TestSPAYDVectors builds each published vector byte for byte and parses it back field by field.
func TestSPAYDVectors(t *testing.T) {
	for _, v := range readPaymentVectors(t, SPAYD).Build {
		r := v.request(t)
		got, err := buildSPAYD(r)
		if err != nil || got != v.Expected {
			t.Errorf("%s (%s):\n got %q, %v\nwant %q", v.Name, v.Source, got, err, v.Expected)
			continue
		}
		checkSPAYDFields(t, r, got)
	}
}

// TestSPAYDRefusals checks each refusal rule's reason and field.
func TestSPAYDRefusals(t *testing.T) {
	ok := func() *Request {
		return &Request{Type: SPAYD, IBAN: "CZ6508000000192000145399", BIC: "GIBACZPX", Amount: "1", Currency: "CZK", Reference: "1",
			Name: "Petra Dvořáková", DueDate: "2026-01-31", Message: "Faktura za zboží", VariableSymbol: "1", SpecificSymbol: "2", ConstantSymbol: "3"}
	}
	tests := []struct {
		name   string
		edit   func(r *Request)
		reason Reason
		field  string
	}{
		{"no iban", func(r *Request) { r.IBAN = " " }, ReasonMissingField, "iban"},
		{"iban check digits", func(r *Request) { r.IBAN = "CZ6608000000192000145399" }, ReasonInvalidIBAN, "iban"},
		{"iban length", func(r *Request) { r.IBAN = "CZ650800000019200014539" }, ReasonInvalidIBAN, "iban"},
		{"iban form", func(r *Request) { r.IBAN = "19-2000145399/0800" }, ReasonInvalidIBAN, "iban"},
		{"iban outside SEPA", func(r *Request) { r.IBAN = "BR1800360305000010009795493C1" }, ReasonInvalidIBAN, "iban"},
		{"bic", func(r *Request) { r.BIC = "GIBA CZ" }, ReasonInvalidBIC, "bic"},
		{"currency of 2 letters", func(r *Request) { r.Currency = "CZ" }, ReasonInvalidCurrency, "currency"},
		{"currency with a digit", func(r *Request) { r.Currency = "CZ1" }, ReasonInvalidCurrency, "currency"},
		{"amount 0", func(r *Request) { r.Amount = "0" }, ReasonInvalidAmount, "amount"},
		{"amount negative", func(r *Request) { r.Amount = "-5" }, ReasonInvalidAmount, "amount"},
		{"amount of 3 decimals", func(r *Request) { r.Amount = "450.001" }, ReasonInvalidAmount, "amount"},
		{"amount with a comma", func(r *Request) { r.Amount = "450,00" }, ReasonInvalidAmount, "amount"},
		{"amount over 10 characters", func(r *Request) { r.Amount = "12345678.90" }, ReasonInvalidAmount, "amount"},
		{"reference with a letter", func(r *Request) { r.Reference = "12A" }, ReasonInvalidReference, "reference"},
		{"reference of 17 digits", func(r *Request) { r.Reference = strings.Repeat("1", 17) }, ReasonInvalidReference, "reference"},
		{"name over 35", func(r *Request) { r.Name = strings.Repeat("Ž", 36) }, ReasonValueTooLong, "name"},
		{"name on two lines", func(r *Request) { r.Name = "a\r\nb" }, ReasonInvalidText, "name"},
		{"due date not ISO", func(r *Request) { r.DueDate = "31.01.2026" }, ReasonInvalidDate, "dueDate"},
		{"due date compact", func(r *Request) { r.DueDate = "20260131" }, ReasonInvalidDate, "dueDate"},
		{"due date 31 February", func(r *Request) { r.DueDate = "2026-02-31" }, ReasonInvalidDate, "dueDate"},
		{"message over 60", func(r *Request) { r.Message = strings.Repeat("*", 61) }, ReasonValueTooLong, "message"},
		{"message with a control", func(r *Request) { r.Message = "a\u009bb" }, ReasonInvalidText, "message"},
		{"message with U+2029", func(r *Request) { r.Message = "a\u2029b" }, ReasonInvalidText, "message"},
		{"message with a tab", func(r *Request) { r.Message = "a\tb" }, ReasonInvalidText, "message"},
		{"variable symbol of 11 digits", func(r *Request) { r.VariableSymbol = "12345678901" }, ReasonInvalidSymbol, "variableSymbol"},
		{"variable symbol with a slash", func(r *Request) { r.VariableSymbol = "2026/1" }, ReasonInvalidSymbol, "variableSymbol"},
		{"specific symbol", func(r *Request) { r.SpecificSymbol = "x" }, ReasonInvalidSymbol, "specificSymbol"},
		{"constant symbol", func(r *Request) { r.ConstantSymbol = "-308" }, ReasonInvalidSymbol, "constantSymbol"},
	}
	if _, err := buildSPAYD(ok()); err != nil {
		t.Fatal(err)
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := ok()
			tt.edit(r)
			text, err := buildSPAYD(r)
			if err == nil {
				t.Fatalf("built %q", text)
			}
			wantError(t, err, tt.reason, tt.field, r.IBAN, r.Name, r.Message)
		})
	}
}

// TestSPAYDAccepts checks the edges that must still build: the longest values, SEPA IBANs of
// other countries, the amount's forms.
func TestSPAYDAccepts(t *testing.T) {
	for _, r := range []*Request{
		{IBAN: "SK31 1200 0000 1987 4263 7541", Amount: "9999999.99", Name: strings.Repeat("Ř", 35), Message: strings.Repeat("*", 60)},
		{IBAN: "DE89370400440532013000", BIC: "cobadeffxxx", Amount: "0.5", Currency: "eur", Reference: strings.Repeat("0", 16)},
		{IBAN: "cz2806000000000168540115", Amount: "000012", DueDate: "2028-02-29", VariableSymbol: "0000000000", Message: "100% + 5 % * x"},
	} {
		text, err := buildSPAYD(r)
		if err != nil {
			t.Fatalf("%+v: %v", r, err)
		}
		checkSPAYDFields(t, r, text)
	}
}

// TestSPAYDReadBack reads each vector's symbol back (gozxing, zbar, zxing-cpp) and parses it.
func TestSPAYDReadBack(t *testing.T) {
	var requests []*Request
	var payloads []string
	for _, v := range readPaymentVectors(t, SPAYD).Build {
		requests, payloads = append(requests, v.request(t)), append(payloads, v.Expected)
	}
	readBack(t, requests, payloads, checkSPAYDFields)
}

func FuzzSPAYD(f *testing.F) {
	f.Add("CZ2806000000000168540115", "", "450.00", "CZK", "", "", "", "PLATBA ZA ZBOZI", "1234567890", "", "")
	f.Add("CZ65 0800 0000 1920 0014 5399", "gibaczpx", "01234.5", "eur", "1234567890123456", "Jan Novák", "2026-12-31", "abc  123♥☠**123  abc-+ěščřžýáíé---%20", "2026017", "0", "0308")
	f.Add("cz", "x", "1.001", "CZ", "1a", "a\nb", "2026-02-30", "\u2028", "12345678901", "-", "x")
	f.Fuzz(func(t *testing.T, iban, bic, amount, currency, reference, name, dueDate, message, vs, ss, ks string) {
		r := &Request{Type: SPAYD, IBAN: iban, BIC: bic, Amount: amount, Currency: currency, Reference: reference, Name: name,
			DueDate: dueDate, Message: message, VariableSymbol: vs, SpecificSymbol: ss, ConstantSymbol: ks}
		if text, ok := fuzzPayment(t, buildSPAYD, r); ok {
			checkSPAYDFields(t, r, text)
		}
	})
}
