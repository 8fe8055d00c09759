package payload

import (
	"testing"

	"github.com/bananaqr/bananaqr/internal/qrtest"
	"github.com/bananaqr/bananaqr/qr"
)

// scanRequests are requests of every type, ASCII and not (which needs the ECI).
var scanRequests = []*Request{
	{Type: URL, URL: "example.com/products/12345?ref=newsletter"},
	{Type: URL, URL: "https://bücher.de/straße?q=a b"},
	{Type: WiFi, SSID: "Cafe", Password: "hunter22"},
	{Type: WiFi, SSID: `My;Net:"Home"\`, Password: "p@ss,word;"},
	{Type: WiFi, SSID: "Café ☕", Password: "pässwörd", Hidden: true},
	{Type: VCard, Name: "Anna Maria Smith", Phone: "+1 555 123 4567", Email: "anna@example.com"},
	{Type: VCard, Name: "Müller, Anna", Organization: `ACME; R&D, "Labs"`, JobTitle: "Head of R&D\\Ops",
		Phone: "+49 (30) 123-456", Email: "anna.mueller@example.com", Website: "example.com/a b?q=ä"},
	{Type: VCard, Name: "王小明", JobTitle: "Line1\nLine2"},
	{Type: Email, To: "anna+qr@müller.de", Subject: `Hello & "Welcome" 50% + more`, Message: "Line 1\nZeile 2: äöü"},
	{Type: Email, To: "a@b.com", Subject: "Hi 😀"},
	{Type: SMS, Phone: "+1 (555) 123-4567", Message: "Meet at 10:30"},
	{Type: SMS, Phone: "+49 (30) 123-456", Message: "Hallo Müller!\nBis gleich"},
	{Type: Text, Text: "Hello\nWorld"},
	{Type: Text, Text: "Grüße aus Köln, 你好, 😀"},
	{Data: "WIFI:T:WPA;S:Raw;P:raw-pass;;"},
}

// scanPayloads builds scanRequests.
func scanPayloads(t *testing.T) []Payload {
	var out []Payload
	for _, r := range scanRequests {
		p, err := Build(r)
		if err != nil {
			t.Fatalf("%+v: %v", r, err)
		}
		out = append(out, p)
	}
	return out
}

// TestScan encodes each type's payload and reads it back with gozxing: the exact payload,
// non-ASCII ones included.
func TestScan(t *testing.T) {
	for _, p := range scanPayloads(t) {
		s, err := qr.Encode(p.Text, qr.Options{Level: qr.M})
		if err != nil {
			t.Fatalf("%q: %v", p.Text, err)
		}
		if got, err := qrtest.Decode(s.Size(), s.Dark); err != nil || got != p.Text {
			t.Errorf("%s %q decoded as %q, %v", p.Type, p.Text, got, err)
		}
	}
}

// TestScanExternal draws each type's payload as a PNG and reads it with zbarimg and zxing-cpp.
// zbar is also the ECI oracle: without the ECI it takes the bytes for Shift_JIS, Latin-1 or
// Big5 before UTF-8, so a non-ASCII payload comes back exact only when the symbol has ECI 26.
// (Debian's zxing-cpp reports the symbology identifier ]Q1 with or without an ECI, so it cannot
// tell; that ASCII payloads get no ECI is checked at the bit level by qr's TestECI.)
func TestScanExternal(t *testing.T) {
	qrtest.NeedTools(t, "zbarimg")
	qrtest.NeedZXingCPP(t)
	payloads := scanPayloads(t)
	symbols := make([]*qr.Symbol, len(payloads))
	for i, p := range payloads {
		var err error
		if symbols[i], err = qr.Encode(p.Text, qr.Options{Level: qr.M}); err != nil {
			t.Fatal(err)
		}
	}
	files := pngFiles(t, symbols, 512)
	zbar, zxing := qrtest.Zbarimg(t, files), qrtest.ZXingCPP(t, files)
	for i, p := range payloads {
		f := files[i]
		if zbar[f] != p.Text {
			t.Errorf("zbarimg read %q as %q", p.Text, zbar[f])
		}
		if zxing[f] != p.Text {
			t.Errorf("zxing-cpp read %q as %q", p.Text, zxing[f])
		}
	}
}
