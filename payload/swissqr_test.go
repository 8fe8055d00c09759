package payload

import (
	"errors"
	"fmt"
	"os/exec"
	"strings"
	"testing"

	"github.com/bananaqr/bananaqr/internal/qrtest"
	"github.com/bananaqr/bananaqr/qr"
	"golang.org/x/text/unicode/norm"
)

// Tests of the swissqr builder (the Swiss QR Code of SIX's Implementation Guidelines for the
// QR-bill 2.3): the published vectors (testdata/swissqr/vectors.json) byte for byte, each
// refusal's code and field, the size limit, and reading the codes back with gozxing, zbar,
// zxing-cpp and OpenCV's WeChat detector, parsed field by field.

// TestSwissQRVectors builds each vector byte for byte, and parses it back to its fields.
func TestSwissQRVectors(t *testing.T) {
	vectors := readPaymentVectors(t, SwissQR).Build
	if len(vectors) < 5 {
		t.Fatalf("%d vectors", len(vectors))
	}
	for _, v := range vectors {
		t.Run(v.Name, func(t *testing.T) {
			got, err := buildSwissQR(v.request(t))
			if err != nil || got != v.Expected {
				t.Fatalf("got %q, %v\nwant %q (%s)", got, err, v.Expected, v.Source)
			}
			checkSwissFields(t, got, v.Input)
		})
	}
}

// swissElements are the API names of the Swiss QR Code's elements by line (IG 2.3's data
// structure): "" for the fixed and reserved ones, which parseSwissQR checks itself.
var swissElements = []string{"", "", "", "iban",
	"", "name", "street", "buildingNumber", "postalCode", "city", "country",
	"", "", "", "", "", "", "",
	"amount", "currency",
	"", "debtorName", "debtorStreet", "debtorBuildingNumber", "debtorPostalCode", "debtorCity", "debtorCountry",
	"referenceType", "reference", "message", "", "billInformation"}

// parseSwissQR reads a Swiss QR Code's payload as a banking app does, by the guidelines: 31 or
// 32 elements separated by CR LF or LF (one kind throughout), no separator at the end, the
// header SPC 0200 1, addresses of type S (or all empty), the ultimate creditor empty, the
// reference type matching the account, the trailer EPD. It returns the elements by API name.
func parseSwissQR(text string) (map[string]string, error) {
	sep := "\n"
	if strings.Contains(text, "\r\n") {
		sep = "\r\n"
	}
	lines := strings.Split(text, sep)
	switch {
	case len(lines) != 31 && len(lines) != 32:
		return nil, fmt.Errorf("%d elements", len(lines))
	case lines[0] != "SPC" || lines[1] != "0200" || lines[2] != "1" || lines[30] != "EPD":
		return nil, errors.New("header or trailer")
	case strings.Join(lines[11:18], "") != "":
		return nil, errors.New("ultimate creditor is not empty")
	case lines[4] != "S" || lines[20] != "S" && strings.Join(lines[20:27], "") != "":
		return nil, errors.New("address type")
	}
	fields := map[string]string{}
	for i, line := range lines {
		if strings.ContainsAny(line, "\r\n") {
			return nil, fmt.Errorf("element %d holds a line break", i)
		}
		if name := swissElements[i]; name != "" {
			fields[name] = line
		}
	}
	qrIBAN := fields["iban"][4] == '3' && fields["iban"][5] <= '1'
	if t := fields["referenceType"]; qrIBAN != (t == "QRR") || t == "NON" && fields["reference"] != "" {
		return nil, errors.New("reference type")
	}
	return fields, nil
}

// checkSwissFields parses payload and checks that each of the asked fields comes back, as the
// builder writes it: trimmed, the IBAN and references without spaces, the amount with 2
// decimals.
func checkSwissFields(t *testing.T, payload string, input map[string]string) {
	t.Helper()
	fields, err := parseSwissQR(payload)
	if err != nil {
		t.Fatalf("%q: %v", payload, err)
	}
	for k, v := range input {
		want := strings.TrimSpace(v)
		switch k {
		case "iban", "reference", "country", "debtorCountry", "currency":
			want = strings.ToUpper(strings.ReplaceAll(want, " ", ""))
		case "amount":
			if d, ok := parseDecimal(v); ok && d.places() < 2 {
				want = d.String() + map[int]string{0: ".00", 1: "0"}[d.places()]
			}
		}
		if fields[k] != want {
			t.Errorf("%s read back as %q, want %q", k, fields[k], want)
		}
	}
}

// swissRequest is a valid request to vary in the error tests.
func swissRequest(change func(r *Request)) *Request {
	r := &Request{Type: SwissQR, IBAN: "CH58 0079 1123 0008 8901 2", Name: "Anna Secret", Street: "Secretgasse", BuildingNumber: "12",
		PostalCode: "8000", City: "Zürich", Country: "CH", Currency: "CHF", Amount: "12.50"}
	if change != nil {
		change(r)
	}
	return r
}

// TestSwissQRErrors checks each refusal: its code and field, a message and a hint, and that
// neither quotes the request's values.
func TestSwissQRErrors(t *testing.T) {
	if _, err := buildSwissQR(swissRequest(nil)); err != nil {
		t.Fatalf("the base request: %v", err)
	}
	const qrIBAN = "CH44 3199 9123 0008 8901 2"
	for _, c := range []struct {
		name   string
		change func(r *Request)
		code   Reason
		field  string
	}{
		{"no iban", func(r *Request) { r.IBAN = " " }, ReasonMissingField, "iban"},
		{"iban of Germany", func(r *Request) { r.IBAN = "DE89370400440532013000" }, ReasonInvalidIBAN, "iban"},
		{"iban check digits", func(r *Request) { r.IBAN = "CH59 0079 1123 0008 8901 2" }, ReasonInvalidIBAN, "iban"},
		{"iban length", func(r *Request) { r.IBAN = "CH58 0079 1123 0008 8901" }, ReasonInvalidIBAN, "iban"},
		{"no name", func(r *Request) { r.Name = "" }, ReasonMissingField, "name"},
		{"name long", func(r *Request) { r.Name = strings.Repeat("ä", 71) }, ReasonValueTooLong, "name"},
		{"street long", func(r *Request) { r.Street = strings.Repeat("s", 71) }, ReasonValueTooLong, "street"},
		{"building long", func(r *Request) { r.BuildingNumber = strings.Repeat("1", 17) }, ReasonValueTooLong, "buildingNumber"},
		{"no postal code", func(r *Request) { r.PostalCode = "" }, ReasonMissingField, "postalCode"},
		{"postal code long", func(r *Request) { r.PostalCode = strings.Repeat("8", 17) }, ReasonValueTooLong, "postalCode"},
		{"no city", func(r *Request) { r.City = "" }, ReasonMissingField, "city"},
		{"city long", func(r *Request) { r.City = strings.Repeat("Z", 36) }, ReasonValueTooLong, "city"},
		{"no country", func(r *Request) { r.Country = "" }, ReasonMissingField, "country"},
		{"country of three letters", func(r *Request) { r.Country = "CHE" }, ReasonInvalidCountry, "country"},
		{"country unassigned", func(r *Request) { r.Country = "QQ" }, ReasonInvalidCountry, "country"},
		{"country a region", func(r *Request) { r.Country = "EU" }, ReasonInvalidCountry, "country"},
		{"name line break", func(r *Request) { r.Name = "Anna\nSecret" }, ReasonInvalidText, "name"},
		{"name control", func(r *Request) { r.Name = "Anna\x07Secret" }, ReasonInvalidText, "name"},
		{"name tab", func(r *Request) { r.Name = "Anna\tSecret" }, ReasonInvalidText, "name"},
		{"city not Latin", func(r *Request) { r.City = "東京" }, ReasonInvalidText, "city"},
		{"street emoji", func(r *Request) { r.Street = "Secret 🙏 Weg" }, ReasonInvalidText, "street"},
		{"amount zero", func(r *Request) { r.Amount = "0.00" }, ReasonInvalidAmount, "amount"},
		{"amount negative", func(r *Request) { r.Amount = "-5" }, ReasonInvalidAmount, "amount"},
		{"amount 3 decimals", func(r *Request) { r.Amount = "1.005" }, ReasonInvalidAmount, "amount"},
		{"amount too much", func(r *Request) { r.Amount = "1000000000.00" }, ReasonInvalidAmount, "amount"},
		{"amount comma", func(r *Request) { r.Amount = "12,50" }, ReasonInvalidAmount, "amount"},
		{"no currency", func(r *Request) { r.Currency = "" }, ReasonMissingField, "currency"},
		{"currency USD", func(r *Request) { r.Currency = "USD" }, ReasonInvalidCurrency, "currency"},
		{"debtor without name", func(r *Request) { r.DebtorCity = "Bern" }, ReasonMissingField, "debtorName"},
		{"debtor without postal code", func(r *Request) { r.DebtorName, r.DebtorCity, r.DebtorCountry = "Secret Payer", "Bern", "CH" },
			ReasonMissingField, "debtorPostalCode"},
		{"debtor without country", func(r *Request) { r.DebtorName, r.DebtorPostalCode, r.DebtorCity = "Secret Payer", "3000", "Bern" },
			ReasonMissingField, "debtorCountry"},
		{"debtor name long", func(r *Request) {
			r.DebtorName, r.DebtorPostalCode, r.DebtorCity, r.DebtorCountry = strings.Repeat("n", 71), "3000", "Bern", "CH"
		}, ReasonValueTooLong, "debtorName"},
		{"debtor country", func(r *Request) {
			r.DebtorName, r.DebtorPostalCode, r.DebtorCity, r.DebtorCountry = "Secret Payer", "3000", "Bern", "Schweiz"
		}, ReasonInvalidCountry, "debtorCountry"},
		{"QR-IBAN without reference", func(r *Request) { r.IBAN = qrIBAN }, ReasonMissingField, "reference"},
		{"QR-IBAN with a creditor reference", func(r *Request) { r.IBAN, r.Reference = qrIBAN, "RF18539007547034" }, ReasonInvalidReference, "reference"},
		{"QR reference check digit", func(r *Request) { r.IBAN, r.Reference = qrIBAN, "210000000003139471430009018" }, ReasonInvalidReference, "reference"},
		{"QR reference short", func(r *Request) { r.IBAN, r.Reference = qrIBAN, "21000000000313947143000901" }, ReasonInvalidReference, "reference"},
		{"QR reference with an IBAN", func(r *Request) { r.Reference = "210000000003139471430009017" }, ReasonInvalidReference, "reference"},
		{"creditor reference check", func(r *Request) { r.Reference = "RF19539007547034" }, ReasonInvalidReference, "reference"},
		{"creditor reference form", func(r *Request) { r.Reference = "Invoice 12" }, ReasonInvalidReference, "reference"},
		{"message long", func(r *Request) { r.Message = strings.Repeat("m", 141) }, ReasonValueTooLong, "message"},
		{"message line", func(r *Request) { r.Message = "Secret\r\ntext" }, ReasonInvalidText, "message"},
		{"message separator", func(r *Request) { r.Message = "Secret\u2028text" }, ReasonInvalidText, "message"},
		{"bill information form", func(r *Request) { r.BillInformation = "#S1/01/20170309" }, ReasonInvalidBillInformation, "billInformation"},
		{"bill information prefix only", func(r *Request) { r.BillInformation = " // " }, ReasonInvalidBillInformation, "billInformation"},
		{"bill information long", func(r *Request) { r.BillInformation = "//" + strings.Repeat("1", 139) }, ReasonValueTooLong, "billInformation"},
		{"message and bill information together", func(r *Request) {
			r.Message, r.BillInformation = strings.Repeat("m", 100), "//S1/"+strings.Repeat("1", 36)
		}, ReasonValueTooLong, "message"},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := swissRequest(c.change)
			wantSwissError(t, r, c.code, c.field)
		})
	}
}

// wantSwissError checks that buildSwissQR refuses r with code and field, a message and a hint
// that quote none of its values.
func wantSwissError(t *testing.T, r *Request, code Reason, field string) {
	t.Helper()
	got, err := buildSwissQR(r)
	var e *Error
	if !errors.As(err, &e) {
		t.Fatalf("got %q, %v; want an *Error", got, err)
	}
	if e.Reason != code || e.Field != field || e.Message == "" || e.Hint == "" {
		t.Fatalf("got %+v; want code %s, field %q, a message and a hint", e, code, field)
	}
	for _, secret := range []string{"Secret", r.IBAN, r.Reference, r.Amount, r.Country, r.DebtorName, r.Message, r.BillInformation, "ääää", "東京"} {
		if s := strings.TrimSpace(secret); len(s) >= 3 && (strings.Contains(e.Message, s) || strings.Contains(e.Hint, s)) {
			t.Fatalf("%+v quotes the private value %q", e, s)
		}
	}
}

// TestSwissQRAccepts: the edges the guidelines allow: an IBAN of Liechtenstein, the least and
// the largest amounts, EUR, a debtor without street, the longest values.
func TestSwissQRAccepts(t *testing.T) {
	for _, change := range []func(r *Request){
		func(r *Request) { r.IBAN = "LI21 0881 0000 2324 013A A" },
		func(r *Request) { r.Amount = "0.01" },
		func(r *Request) { r.Amount, r.Currency = "999999999.99", "EUR" },
		func(r *Request) { r.Amount = "" },
		func(r *Request) {
			r.DebtorName, r.DebtorPostalCode, r.DebtorCity, r.DebtorCountry = "Payer", "FL-9490", "Vaduz", "LI"
		},
		func(r *Request) {
			r.Name, r.Street, r.BuildingNumber = strings.Repeat("Ŋ", 70), strings.Repeat("ß", 70), strings.Repeat("9", 16)
		},
		func(r *Request) { r.PostalCode, r.City = strings.Repeat("8", 16), strings.Repeat("ț", 35) },
		func(r *Request) {
			r.Message, r.BillInformation = strings.Repeat("€", 70), "//S1/"+strings.Repeat("1", 65)
		},
		func(r *Request) { r.Reference = "RF18 5390 0754 7034" },
	} {
		r := swissRequest(change)
		got, err := buildSwissQR(r)
		if err != nil {
			t.Fatalf("%+v: %v", r, err)
		}
		input := map[string]string{}
		for _, k := range []string{"iban", "name", "street", "buildingNumber", "postalCode", "city", "country", "amount", "currency",
			"debtorName", "debtorPostalCode", "debtorCity", "debtorCountry", "reference", "message", "billInformation"} {
			input[k] = requestField(t, r, k).String()
		}
		checkSwissFields(t, got, input)
	}
}

// TestSwissQRNormalization: values are trimmed and put in NFC, a combining accent becoming the
// letter of the Latin set; lower-case codes are upper-cased; the amount gets its 2 decimals.
func TestSwissQRNormalization(t *testing.T) {
	r := swissRequest(func(r *Request) {
		r.City, r.Country, r.Currency, r.Amount = " Zu\u0308rich ", "ch", "eur", "007.5"
		r.Reference, r.Message = "rf18 5390 0754 7034", "Ș ș Ț ț €"
	})
	got, err := buildSwissQR(r)
	if err != nil {
		t.Fatal(err)
	}
	fields, err := parseSwissQR(got)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"city": "Zürich", "country": "CH", "currency": "EUR", "amount": "7.50", "referenceType": "SCOR",
		"reference": "RF18539007547034", "message": "Ș ș Ț ț €"}
	for k, v := range want {
		if fields[k] != v {
			t.Errorf("%s is %q, want %q", k, fields[k], v)
		}
	}
}

// swissLargest returns the largest request: every field at its limit, of letters of n bytes
// (1: ASCII, 2: ä, 3: €).
func swissLargest(n int) *Request {
	letter := map[int]string{1: "a", 2: "ä", 3: "€"}[n]
	s := func(k int) string { return strings.Repeat(letter, k) }
	return &Request{Type: SwissQR, IBAN: "CH44 3199 9123 0008 8901 2", Name: s(70), Street: s(70), BuildingNumber: s(16), PostalCode: s(16),
		City: s(35), Country: "CH", Amount: "999999999.99", Currency: "CHF", DebtorName: s(70), DebtorStreet: s(70),
		DebtorBuildingNumber: s(16), DebtorPostalCode: s(16), DebtorCity: s(35), DebtorCountry: "LI",
		Reference: "210000000003139471430009017", Message: s(60), BillInformation: "//" + s(78)}
}

// TestSwissQRLimit: the largest ASCII payload fits version 25 at level M; one with letters of 2
// or 3 bytes is refused as too large, naming the longest field.
func TestSwissQRLimit(t *testing.T) {
	got, err := buildSwissQR(swissLargest(1))
	if err != nil {
		t.Fatal(err)
	}
	s, err := qr.Encode(got, qr.Options{Level: qr.M, NoBoost: true, NoECI: true})
	if err != nil || len(got) > SwissQRMaxBytes || s.Version() > 25 {
		t.Fatalf("%d bytes: %v", len(got), err)
	}
	wantSwissError(t, swissLargest(3), ReasonPayloadTooLarge, "billInformation")
	// SwissQRMaxBytes is what version 25-M holds: one byte more needs version 26.
	if s, err := qr.Encode(strings.Repeat("é", SwissQRMaxBytes/2)+"x", qr.Options{Level: qr.M, NoBoost: true, NoECI: true}); err != nil || s.Version() != 25 {
		t.Fatalf("%d bytes: version %d, %v", SwissQRMaxBytes, s.Version(), err)
	}
	if s, _ := qr.Encode(strings.Repeat("é", SwissQRMaxBytes/2+1), qr.Options{Level: qr.M, NoBoost: true, NoECI: true}); s.Version() != 26 {
		t.Fatalf("%d bytes: version %d", SwissQRMaxBytes+1, s.Version())
	}
}

// swissSymbols encodes the vectors' payloads as the service should: level M exactly, no ECI
// (the coding type says UTF-8), version 25 at most.
func swissSymbols(t *testing.T) ([]string, []*qr.Symbol) {
	vectors := readPaymentVectors(t, SwissQR).Build
	var texts []string
	var symbols []*qr.Symbol
	for _, v := range vectors {
		s, err := qr.Encode(v.Expected, qr.Options{Level: qr.M, NoBoost: true, NoECI: true})
		if err != nil || s.Version() > 25 || s.Level() != qr.M {
			t.Fatalf("%s: %v", v.Name, err)
		}
		texts, symbols = append(texts, v.Expected), append(symbols, s)
	}
	return texts, symbols
}

// TestSwissQRScan reads each vector's code back with gozxing, exactly, and parses it.
func TestSwissQRScan(t *testing.T) {
	texts, symbols := swissSymbols(t)
	for i, text := range texts {
		got, err := qrtest.Decode(symbols[i].Size(), symbols[i].Dark)
		if err != nil || got != text {
			t.Errorf("%q decoded as %q, %v", text, got, err)
			continue
		}
		if _, err := parseSwissQR(got); err != nil {
			t.Errorf("%q: %v", got, err)
		}
	}
}

// TestSwissQRScanExternal draws each vector's code as a PNG and reads its bytes with zbar
// (-Sbinary: without an ECI zbar would guess a character set) and zxing-cpp, and its text
// with OpenCV's WeChat detector: each must be the UTF-8 payload exactly, and parse.
func TestSwissQRScanExternal(t *testing.T) {
	qrtest.NeedTools(t, "zbarimg")
	qrtest.NeedZXingCPP(t)
	qrtest.NeedWeChat(t)
	texts, symbols := swissSymbols(t)
	files := pngFiles(t, symbols, 800)
	zxingBytes := zxingBytes(t, files)
	wechat := qrtest.WeChat(t, files)
	for i, text := range texts {
		raw, err := exec.Command("zbarimg", "--raw", "-q", "-Sdisable", "-Sqrcode.enable", "-Sbinary", files[i]).Output()
		reads := map[string]string{"zbar": string(raw), "WeChat": wechat[files[i]]}
		if err != nil {
			reads["zbar"] = "error: " + err.Error()
		}
		if zxingBytes[i] != fmt.Sprintf("%x", text) {
			reads["zxing-cpp"] = "bytes " + zxingBytes[i]
		} else {
			reads["zxing-cpp"] = text
		}
		for reader, got := range reads {
			if got != text {
				t.Errorf("%s read %q as %q", reader, text, got)
			} else if _, err := parseSwissQR(got); err != nil {
				t.Errorf("%s: %q: %v", reader, got, err)
			}
		}
	}
}

// FuzzSwissQR: the builder never panics, refuses only with an *Error of a known code, a
// message and a hint, and every payload it makes parses back to what was asked.
func FuzzSwissQR(f *testing.F) {
	f.Add("CH44 3199 9123 0008 8901 2", "Robert Schneider AG", "Rue du Lac", "2501", "Biel", "1949.7", "CHF", "210000000003139471430009017", "Order", "//S1/10/1")
	f.Add("CH58 0079 1123 0008 8901 2", "Buğra Çavdarli", "", "1219", "Aïre", "", "eur", "RF18 5390 0754 7034", "€10 Ș", "")
	f.Add("ch37 0900 0000 3044 4222 5", " Anna  Muster ", " Weg 1 ", " 3000", "Bern ", " 5 ", "CHF ", " ", " Danke ", "// S1 ")
	f.Add("LI21 0881 0000 2324 013A A", "A\u0308", "x\ny", "", "\t", "1.005", "USD", "RF19", strings.Repeat("m", 141), "S1")
	known := map[Reason]bool{ReasonMissingField: true, ReasonInvalidText: true, ReasonInvalidIBAN: true, ReasonInvalidAmount: true,
		ReasonInvalidReference: true, ReasonValueTooLong: true, ReasonPayloadTooLarge: true, ReasonInvalidCurrency: true,
		ReasonInvalidCountry: true, ReasonInvalidBillInformation: true}
	f.Fuzz(func(t *testing.T, iban, name, street, postalCode, city, amount, currency, reference, message, bill string) {
		input := map[string]string{"iban": iban, "name": name, "street": street, "postalCode": postalCode, "city": city, "country": "CH",
			"amount": amount, "currency": currency, "reference": reference, "message": message, "billInformation": bill,
			"debtorName": name, "debtorPostalCode": postalCode, "debtorCity": city, "debtorCountry": "LI"}
		r := newRequest(t, SwissQR, input)
		got, err := buildSwissQR(r)
		if err != nil {
			var e *Error
			if !errors.As(err, &e) || !known[e.Reason] || e.Message == "" || e.Hint == "" {
				t.Fatalf("%+v: error %#v", r, err)
			}
			return
		}
		if len(got) > SwissQRMaxBytes {
			t.Fatalf("%d bytes", len(got))
		}
		fields, err := parseSwissQR(got)
		if err != nil {
			t.Fatalf("%q: %v", got, err)
		}
		for _, k := range []string{"name", "street", "city", "message", "billInformation", "debtorName"} {
			if want := norm.NFC.String(strings.TrimSpace(input[k])); fields[k] != want {
				t.Fatalf("%s: %q read back as %q", k, input[k], fields[k])
			}
		}
	})
}
