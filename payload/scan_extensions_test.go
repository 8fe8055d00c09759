package payload

import (
	"fmt"
	"os/exec"
	"strings"
	"testing"

	"github.com/bananaqr/bananaqr/internal/qrtest"
	"github.com/bananaqr/bananaqr/qr"
)

// scanExtensionRequests are requests of each extension type, with the escaping, folding, time
// zones and non-ASCII text that readers must get back exactly.
var scanExtensionRequests = []*Request{
	{Type: Tel, Phone: "+1 (555) 123-4567"},
	{Type: Geo, Latitude: "-33.8567844", Longitude: "151.2152967", Altitude: "58.5"},
	{Type: Event, Summary: "Dinner; drinks, \"fun\"", Start: "2026-06-01T23:30:00-02:00", End: "2026-06-02T01:00:00-02:00",
		Location: "Café Müller, Köln", Description: strings.Repeat("Line with a \\ backslash\n", 5)},
	{Type: Event, Summary: strings.Repeat("王", 40), Start: "2026-12-24", End: "2026-12-26"},
	{Type: EPC, Name: "Wikimedia Foerdergesellschaft", IBAN: "DE33 1002 0500 0001 1947 00", BIC: "BFSWDE33BER", Amount: "20",
		Remittance: "Spende fuer Wikipedia"},
	{Type: EPC, Name: "Franz Mustermänn", IBAN: "AT61 1904 3002 3457 3201", Amount: "12.30", Reference: "RF18 5390 0754 7034"},
	{Type: EPC, Name: strings.Repeat("Ü", 70), IBAN: "DE89370400440532013000", Amount: "999999999.99", Remittance: strings.Repeat("é", 67)}, // 331 bytes: version 13-M
}

// encodingOf returns the options the service encodes p with (api.Request.Encoding): an epc
// code at level M exactly and without an ECI, as the EPC guideline requires; others at level M.
func encodingOf(p Payload) qr.Options {
	if p.Type == EPC {
		return qr.Options{Level: qr.M, NoBoost: true, NoECI: true}
	}
	return qr.Options{Level: qr.M}
}

// scanExtensionSymbols builds and encodes scanExtensionRequests.
func scanExtensionSymbols(t *testing.T) ([]Payload, []*qr.Symbol) {
	var ps []Payload
	var ss []*qr.Symbol
	for _, r := range scanExtensionRequests {
		p, err := Build(r)
		if err != nil {
			t.Fatalf("%+v: %v", r, err)
		}
		s, err := qr.Encode(p.Text, encodingOf(p))
		if err != nil {
			t.Fatalf("%q: %v", p.Text, err)
		}
		if p.Type == EPC && (s.Level() != qr.M || s.Version() > 13) {
			t.Errorf("%q: symbol %d-%s, want level M, version 13 at most", p.Text, s.Version(), s.Level())
		}
		ps, ss = append(ps, p), append(ss, s)
	}
	return ps, ss
}

// TestScanExtensions reads each extension payload back with gozxing: exactly, the epc codes
// (UTF-8 without an ECI) included.
func TestScanExtensions(t *testing.T) {
	ps, ss := scanExtensionSymbols(t)
	for i, p := range ps {
		if got, err := qrtest.Decode(ss[i].Size(), ss[i].Dark); err != nil || got != p.Text {
			t.Errorf("%s %q decoded as %q, %v", p.Type, p.Text, got, err)
		}
	}
}

// zxingBytesScript prints, for each image file, zxing-cpp's raw bytes of the QR code in it as
// hexadecimal (or "error: ..."): the bytes, whatever character set zxing-cpp would guess.
const zxingBytesScript = `
import sys, zxingcpp
from PIL import Image
for path in sys.argv[1:]:
    with Image.open(path) as img:
        r = zxingcpp.read_barcode(img.convert("L"), formats=zxingcpp.BarcodeFormat.QRCode)
    print(r.bytes.hex() if r is not None and r.valid else "error: none")
`

// TestScanExtensionsExternal draws each extension payload as a PNG and reads it with zbarimg
// and zxing-cpp. Codes with an ECI must come back as text; epc codes carry none (their third
// line says UTF-8, which banking apps read), so zbar, which would guess Shift_JIS or Latin-1
// for them, is asked for the bytes (-Sbinary), and so is zxing-cpp: the bytes must be the UTF-8
// payload exactly.
func TestScanExtensionsExternal(t *testing.T) {
	qrtest.NeedTools(t, "zbarimg")
	qrtest.NeedZXingCPP(t)
	ps, ss := scanExtensionSymbols(t)
	files := pngFiles(t, ss, 640)
	zbar, zxing := qrtest.Zbarimg(t, files), qrtest.ZXingCPP(t, files)
	zxingBytes := zxingBytes(t, files)
	for i, p := range ps {
		f := files[i]
		if want := fmt.Sprintf("%x", p.Text); zxingBytes[i] != want {
			t.Errorf("zxing-cpp read the bytes of %q as %s", p.Text, zxingBytes[i])
		}
		if p.Type == EPC {
			raw, err := exec.Command("zbarimg", "--raw", "-q", "-Sdisable", "-Sqrcode.enable", "-Sbinary", f).Output()
			if err != nil || string(raw) != p.Text {
				t.Errorf("zbarimg -Sbinary read %q as %q, %v", p.Text, raw, err)
			}
			continue
		}
		if zbar[f] != p.Text {
			t.Errorf("zbarimg read %q as %q", p.Text, zbar[f])
		}
		if zxing[f] != p.Text {
			t.Errorf("zxing-cpp read %q as %q", p.Text, zxing[f])
		}
	}
}
