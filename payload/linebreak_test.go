package payload

import (
	"errors"
	"strings"
	"testing"
)

// TestLineBreakCharacters: every field of a payload made of lines (vCard, iCalendar event, EPC
// code, an e-mail's subject line) refuses the characters that end a line to Unicode (UAX #14
// class BK) other than CR and LF: U+2028 and U+2029 (checkLineText), and NEL, VT and FF
// (checkText, as controls), with INVALID_TEXT naming the field; without them the same request
// is made.
func TestLineBreakCharacters(t *testing.T) {
	const iban = "DE89370400440532013000"
	for _, c := range []struct {
		field string
		make  func(value string) Request
	}{
		{"name", func(v string) Request { return Request{Type: EPC, Name: "Anna " + v + "Example", IBAN: iban} }},
		{"remittance", func(v string) Request {
			return Request{Type: EPC, Name: "Anna", IBAN: iban, Remittance: "Invoice 1" + v + "Invoice 2"}
		}},
		{"name", func(v string) Request { return Request{Type: VCard, Name: "Anna " + v + "Example"} }},
		{"firstName", func(v string) Request { return Request{Type: VCard, FirstName: "Anna" + v, LastName: "Example"} }},
		{"organization", func(v string) Request { return Request{Type: VCard, Name: "Anna", Organization: "ACME" + v + "Inc"} }},
		{"jobTitle", func(v string) Request { return Request{Type: VCard, Name: "Anna", JobTitle: "CTO" + v + "CEO"} }},
		{"summary", func(v string) Request {
			return Request{Type: Event, Summary: "Party" + v + "END:VEVENT", Start: "2026-12-24"}
		}},
		{"location", func(v string) Request {
			return Request{Type: Event, Summary: "Party", Start: "2026-12-24", Location: "Hall" + v + "B"}
		}},
		{"description", func(v string) Request {
			return Request{Type: Event, Summary: "Party", Start: "2026-12-24", Description: "Bring" + v + "food"}
		}},
		{"subject", func(v string) Request {
			return Request{Type: Email, To: "anna@example.com", Subject: "Hi" + v + "there"}
		}},
	} {
		ok := c.make("")
		if _, err := Build(&ok); err != nil {
			t.Fatalf("%s %s without a line break: %v", ok.Type, c.field, err)
		}
		for _, sep := range []string{"\u2028", "\u2029", "\u0085", "\v", "\f"} {
			r := c.make(sep)
			_, err := Build(&r)
			var e *Error
			if !errors.As(err, &e) || e.Reason != ReasonInvalidText || e.Field != c.field {
				t.Errorf("%s %s with U+%04X: %v, want INVALID_TEXT on %s", r.Type, c.field, []rune(sep)[0], err, c.field)
				continue
			}
			if strings.Contains(e.Message, "Anna") || strings.Contains(e.Message, sep) {
				t.Errorf("%s %s: the message quotes the value: %q", r.Type, c.field, e.Message)
			}
		}
	}
}

// TestLineBreakCharactersKeptInFreeText: payloads that are not made of lines keep U+2028 and
// U+2029 as text: raw data, text, an e-mail's and a text message's body, and a Wi-Fi password
// (the WIFI: format ends its fields with ";", not lines).
func TestLineBreakCharactersKeptInFreeText(t *testing.T) {
	for _, r := range []Request{
		{Data: "a\u2028b"},
		{Type: Text, Text: "a\u2029b"},
		{Type: Email, To: "anna@example.com", Message: "a\u2028b"},
		{Type: SMS, Phone: "+15551234", Message: "a\u2028b"},
		{Type: WiFi, SSID: "Lab", Password: "secret\u2028123"},
	} {
		if _, err := Build(&r); err != nil {
			t.Errorf("%+v: %v", r, err)
		}
	}
}
