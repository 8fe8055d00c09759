package money

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

// parseCase is one input of Parse or FromJSONNumber and what it must give: minor units, or an
// error wrapping err whose message contains msg.
type parseCase struct {
	in    string
	c     Currency
	minor int64
	err   error
	msg   string
}

// Cases where Parse and FromJSONNumber agree.
var commonCases = []parseCase{
	{in: "12.5", c: eur, minor: 1250},
	{in: "12.50", c: eur, minor: 1250},
	{in: "12.10", c: eur, minor: 1210},
	{in: "12.1", c: eur, minor: 1210},
	{in: "0.01", c: eur, minor: 1},
	{in: "0", c: eur, minor: 0},
	{in: "-0", c: eur, minor: 0},
	{in: "-3.2", c: eur, minor: -320},
	{in: "12.500", c: eur, minor: 1250},
	{in: "12.5000000000000000000000", c: eur, minor: 1250},
	{in: "1000", c: jpy, minor: 1000},
	{in: "1000.0", c: jpy, minor: 1000},
	{in: "0.005", c: kwd, minor: 5},
	{in: "1.234", c: kwd, minor: 1234},
	{in: "0.0001", c: clf, minor: 1},
	{in: "10000000000000", c: eur, minor: MaxMinor},
	{in: "-10000000000000.00", c: eur, minor: -MaxMinor},
	{in: "1000000000000000", c: jpy, minor: MaxMinor},
	{in: "12.345", c: eur, err: ErrPrecision, msg: "EUR allows at most 2 decimals"},
	{in: "0.001", c: eur, err: ErrPrecision, msg: "at most 2 decimals"},
	{in: "12.3450", c: eur, err: ErrPrecision, msg: "at most 2 decimals"},
	{in: "0.5", c: jpy, err: ErrPrecision, msg: "JPY (Yen) has no minor unit"},
	{in: "0.0005", c: kwd, err: ErrPrecision, msg: "at most 3 decimals"},
	{in: "10000000000000.01", c: eur, err: ErrRange, msg: "at most 10000000000000.00"},
	{in: "1000000000000001", c: jpy, err: ErrRange},
	{in: "99999999999999999999999", c: jpy, err: ErrRange},
	{in: "", c: eur, err: ErrSyntax},
	{in: "-", c: eur, err: ErrSyntax},
	{in: "+12", c: eur, err: ErrSyntax},
	{in: " 12", c: eur, err: ErrSyntax},
	{in: "12 ", c: eur, err: ErrSyntax},
	{in: "1,000", c: eur, err: ErrSyntax},
	{in: "1 000", c: eur, err: ErrSyntax},
	{in: "1_000", c: eur, err: ErrSyntax},
	{in: "12,50", c: eur, err: ErrSyntax},
	{in: ".5", c: eur, err: ErrSyntax},
	{in: "5.", c: eur, err: ErrSyntax},
	{in: "1.2.3", c: eur, err: ErrSyntax},
	{in: "--1", c: eur, err: ErrSyntax},
	{in: "NaN", c: eur, err: ErrSyntax},
	{in: "Inf", c: eur, err: ErrSyntax},
	{in: "Infinity", c: eur, err: ErrSyntax},
	{in: "-Infinity", c: eur, err: ErrSyntax},
	{in: "0x10", c: eur, err: ErrSyntax},
	{in: "١٢", c: eur, err: ErrSyntax}, // Arabic-Indic digits
	{in: "12€", c: eur, err: ErrSyntax},
	{in: "1", c: Currency{}, err: ErrUnknownCurrency},
}

func TestParse(t *testing.T) {
	cases := append(append([]parseCase(nil), commonCases...), []parseCase{
		{in: "007.50", c: eur, minor: 750},
		{in: "1e2", c: eur, err: ErrSyntax, msg: "without spaces, separators or exponents"},
		{in: "1E2", c: jpy, err: ErrSyntax},
	}...)
	for _, tt := range cases {
		a, err := Parse(tt.in, tt.c)
		check(t, "Parse", tt, a, err)
	}
}

func TestFromJSONNumber(t *testing.T) {
	cases := append(append([]parseCase(nil), commonCases...), []parseCase{
		{in: "1e2", c: eur, minor: 10000},
		{in: "1E2", c: jpy, minor: 100},
		{in: "1e+2", c: jpy, minor: 100},
		{in: "1.25E+1", c: eur, minor: 1250},
		{in: "1250e-2", c: eur, minor: 1250},
		{in: "5e-3", c: kwd, minor: 5},
		{in: "-1.5e1", c: eur, minor: -1500},
		{in: "0e-1000", c: eur, minor: 0},
		{in: "1e13", c: eur, minor: MaxMinor},
		{in: "1e14", c: eur, err: ErrRange},
		{in: "1e1000", c: eur, err: ErrRange},
		{in: "1e1001", c: eur, err: ErrRange, msg: "exponent is beyond ±1000"},
		{in: "1e99999999999999999999", c: eur, err: ErrRange},
		{in: "1e-3", c: eur, err: ErrPrecision},
		{in: "1e-1001", c: eur, err: ErrRange},
		{in: "1e", c: eur, err: ErrSyntax},
		{in: "1e+", c: eur, err: ErrSyntax},
		{in: "e2", c: eur, err: ErrSyntax},
		{in: "1e2.5", c: eur, err: ErrSyntax},
		{in: "007.50", c: eur, err: ErrSyntax, msg: "a JSON number is expected"},
		{in: "00", c: eur, err: ErrSyntax},
		{in: `"12.50"`, c: eur, err: ErrSyntax},
	}...)
	for _, tt := range cases {
		a, err := FromJSONNumber(json.Number(tt.in), tt.c)
		check(t, "FromJSONNumber", tt, a, err)
	}
}

func TestParsePositive(t *testing.T) {
	tests := []struct {
		in  string
		err error
	}{
		{"0.01", nil}, {"12.50", nil}, {"0", ErrNotPositive}, {"0.00", ErrNotPositive},
		{"-0", ErrNotPositive}, {"-1", ErrNotPositive}, {"1.001", ErrPrecision},
	}
	for _, tt := range tests {
		_, err := ParsePositive(tt.in, eur)
		if !errors.Is(err, tt.err) || (tt.err == nil) != (err == nil) {
			t.Errorf("ParsePositive(%q): %v; want %v", tt.in, err, tt.err)
		}
	}
}

// TestJSONDecode decodes a tool's arguments the way a handler should: amount as json.Number.
func TestJSONDecode(t *testing.T) {
	var args struct {
		Amount   json.Number `json:"amount"`
		Currency Currency    `json:"currency"`
	}
	err := json.Unmarshal([]byte(`{"amount": 0.1, "currency": "eur"}`), &args)
	if err != nil {
		t.Fatal(err)
	}
	a, err := FromJSONNumber(args.Amount, args.Currency)
	if err != nil || a.Minor() != 10 || a.String() != "0.10" {
		t.Errorf("0.1 EUR decoded as %v (%d), %v", a, a.Minor(), err)
	}
}

func check(t *testing.T, fn string, tt parseCase, a Amount, err error) {
	t.Helper()
	if tt.err == nil {
		if err != nil || a.Minor() != tt.minor || a.Currency() != tt.c {
			t.Errorf("%s(%q, %s) = %d %s, %v; want %d", fn, tt.in, tt.c, a.Minor(),
				a.Currency(), err, tt.minor)
		}
		return
	}
	if !errors.Is(err, tt.err) {
		t.Errorf("%s(%q, %s) = %v, %v; want %v", fn, tt.in, tt.c, a, err, tt.err)
		return
	}
	if !strings.Contains(err.Error(), tt.msg) {
		t.Errorf("%s(%q, %s): message %q lacks %q", fn, tt.in, tt.c, err, tt.msg)
	}
}
