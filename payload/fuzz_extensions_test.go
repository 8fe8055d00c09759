package payload

import (
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"
)

// The fuzz targets of the bananaqr extension types, as those of fuzz_test.go: Build never
// panics, what it accepts reads back as what was asked, what it refuses is an *Error with a
// known code, a message and a hint.

var telURI = regexp.MustCompile(`^tel:\+?[0-9]{3,15}$`)

func FuzzTel(f *testing.F) {
	for _, s := range []string{"+1 (555) 123-4567", "112", "*100#", "+49 30 123.456/78", "tel:+1", "+", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, phone string) {
		p, ok := fuzzBuild(t, &Request{Type: Tel, Phone: phone})
		if !ok {
			return
		}
		digits := strings.Map(func(c rune) rune {
			if c >= '0' && c <= '9' || c == '+' {
				return c
			}
			return -1
		}, phone)
		if !telURI.MatchString(p.Text) || p.Text != "tel:"+digits {
			t.Fatalf("%q gave %q", phone, p.Text)
		}
	})
}

// geoURI is what ZXing's GeoResultParser takes: geo:, numbers of digits, - and ., by commas.
var geoURI = regexp.MustCompile(`^geo:(-?(?:0|[1-9][0-9]*)(?:\.[0-9]*[1-9])?),(-?(?:0|[1-9][0-9]*)(?:\.[0-9]*[1-9])?)(?:,(-?(?:0|[1-9][0-9]*)(?:\.[0-9]*[1-9])?))?$`)

func FuzzGeo(f *testing.F) {
	f.Add("48.8582", "2.2945", "")
	f.Add("-90", "135", "-12.50")
	f.Add("-0.0", "-000.50000", "1e3")
	f.Add("90.0000001", "+1", "100000")
	f.Fuzz(func(t *testing.T, lat, lon, alt string) {
		p, ok := fuzzBuild(t, &Request{Type: Geo, Latitude: lat, Longitude: lon, Altitude: alt})
		if !ok {
			return
		}
		m := geoURI.FindStringSubmatch(p.Text)
		if m == nil || (strings.TrimSpace(alt) == "") != (m[3] == "") || m[1] == "-0" || m[2] == "-0" || m[3] == "-0" {
			t.Fatalf("%q %q %q gave %q", lat, lon, alt, p.Text)
		}
		for i, in := range []string{lat, lon, alt} {
			if d, ok := parseDecimal(in); ok && !(i == 1 && (m[1] == "90" || m[1] == "-90")) && d.String() != m[i+1] {
				t.Fatalf("%q %q %q gave %q", lat, lon, alt, p.Text)
			}
		}
	})
}

func FuzzEvent(f *testing.F) {
	f.Add("Dinner; drinks, \"fun\"\\n", "2026-06-01T23:30:00-02:00", "2026-06-02T01:00Z", "Café Müller, Köln", "Line 1\nLine 2")
	f.Add("Holiday", "2026-12-24", "2026-12-26", "", strings.Repeat("é", 80))
	f.Fuzz(func(t *testing.T, summary, start, end, location, description string) {
		r := &Request{Type: Event, Summary: summary, Start: start, End: end, Location: location, Description: description}
		p, ok := fuzzBuild(t, r)
		if !ok {
			return
		}
		props, ok := rfcEvent(t, p.Text)
		if !ok || props["SUMMARY"] == "" {
			t.Fatalf("malformed event %q", p.Text)
		}
		clean := func(s string) string {
			return strings.TrimSpace(strings.ReplaceAll(strings.ReplaceAll(s, "\r\n", "\n"), "\r", "\n"))
		}
		if props["SUMMARY"] != clean(summary) || props["LOCATION"] != clean(location) || props["DESCRIPTION"] != clean(description) {
			t.Fatalf("%q read back as %q", p.Text, props)
		}
	})
}

func FuzzEPC(f *testing.F) {
	f.Add("Anna Müller", "AT61 1904 3002 3457 3201", "", "12.30", "", "Rechnung 2026-001")
	f.Add("Red Cross", "BE72000000001616", "BPOTBEB1", "1", "RF18 5390 0754 7034", "")
	f.Add("x", "de89370400440532013000", "cobadeffxxx", "0.001", "RF19", "a\nb")
	f.Fuzz(func(t *testing.T, name, iban, bic, amount, reference, remittance string) {
		r := &Request{Type: EPC, Name: name, IBAN: iban, BIC: bic, Amount: amount, Reference: reference, Remittance: remittance}
		p, ok := fuzzBuild(t, r)
		if !ok {
			return
		}
		lines := strings.Split(p.Text, "\n")
		if len(p.Text) > EPCMaxBytes || len(lines) < 7 || len(lines) > 11 || lines[len(lines)-1] == "" ||
			strings.Join(lines[:4], "\n") != "BCD\n002\n1\nSCT" || lines[5] != strings.TrimSpace(name) ||
			utf8.RuneCountInString(lines[5]) > 70 || strings.ContainsRune(p.Text, '\r') {
			t.Fatalf("%q", p.Text)
		}
		if strings.TrimSpace(reference) != "" && strings.TrimSpace(remittance) != "" {
			t.Fatalf("reference and remittance both taken: %q", p.Text)
		}
		if iban := lines[6]; !ibanSyntax.MatchString(iban) || mod97(iban[4:]+iban[:4]) != 1 {
			t.Fatalf("%q: IBAN %q", p.Text, iban)
		}
	})
}
