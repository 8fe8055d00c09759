package payload

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/bananaqr/bananaqr/internal/qrtest"
	"github.com/bananaqr/bananaqr/qr"
)

// Tests of the emvco type (EMV QRCPS Merchant-Presented Mode 1.1, with the pix and promptpay
// presets): the published vectors of testdata/emvco/vectors.json built byte for byte, the
// published payloads bananaqr does not build (with templates it does not write) parsed and
// their CRC checked, every refusal, and reading the codes back with gozxing, zbar and zxing-cpp.

// TestEMVCoVectors builds each vector byte for byte, then parses the payload back and checks
// each field the request gave against its data object.
func TestEMVCoVectors(t *testing.T) {
	for _, v := range readPaymentVectors(t, EMVCo).Build {
		r := v.request(t)
		got, err := buildEMVCo(r)
		if err != nil || got != v.Expected {
			t.Errorf("%s: got %q, %v\nwant %q", v.Name, got, err, v.Expected)
			continue
		}
		checkEMVCoFields(t, v.Name, r, got)
	}
}

// checkEMVCoFields parses payload and checks that it carries what the request in asked, object
// by object.
func checkEMVCoFields(t *testing.T, name string, in *Request, payload string) {
	t.Helper()
	objects, err := parseEMVCo(payload)
	if err != nil {
		t.Errorf("%s: %q does not parse: %v", name, payload, err)
		return
	}
	account := "26"
	if strings.EqualFold(in.Scheme, "promptpay") {
		account = "29"
	}
	want := map[string]string{"59": strings.TrimSpace(in.Name), "60": strings.TrimSpace(in.City),
		"61": strings.TrimSpace(in.PostalCode), account + ".02": strings.TrimSpace(in.Message)}
	if strings.TrimSpace(in.Reference) != "" {
		want["62.05"] = strings.TrimSpace(in.Reference)
	}
	if in.MerchantCategory != "" {
		want["52"] = in.MerchantCategory
	}
	if in.Country != "" {
		want["58"] = strings.ToUpper(in.Country)
	}
	for path, value := range want {
		if value != "" && objects[path] != value {
			t.Errorf("%s: object %s is %q, want %q", name, path, objects[path], value)
		}
	}
	if d, ok := parseDecimal(in.Amount); ok != (objects["54"] != "") {
		t.Errorf("%s: amount %q but object 54 %q", name, in.Amount, objects["54"])
	} else if got, _ := parseDecimal(objects["54"]); ok && got != d {
		t.Errorf("%s: amount %q written as %q", name, in.Amount, objects["54"])
	}
	if objects[account+".00"] == "" || objects[account+".01"] == "" && objects[account+".02"] == "" && objects[account+".03"] == "" {
		t.Errorf("%s: no merchant account in template %s: %q", name, account, payload)
	}
}

// TestEMVCoParseVectors parses the published payloads that carry more than bananaqr writes
// (EMVCo's own example with its language template, tip indicator and two merchant accounts;
// the Pix manual's dynamic code; the BR Code manual's example) into exactly their data objects,
// and checks their CRC with the builder's CRC function: over UTF-8 bytes for EMVCo's Chinese
// merchant name.
func TestEMVCoParseVectors(t *testing.T) {
	parse := readPaymentVectors(t, EMVCo).Parse
	if len(parse) == 0 {
		t.Fatal("no payloads to parse")
	}
	for _, v := range parse {
		objects, err := parseEMVCo(v.Payload)
		if err != nil {
			t.Errorf("%s: %v", v.Name, err)
			continue
		}
		for path, want := range v.Fields {
			if objects[path] != want {
				t.Errorf("%s: object %s is %q, want %q", v.Name, path, objects[path], want)
			}
		}
		body := v.Payload[:len(v.Payload)-4]
		if got := fmt.Sprintf("%04X", emvcoCRC(body)); got != v.Payload[len(v.Payload)-4:] {
			t.Errorf("%s: CRC %s, want %s", v.Name, got, v.Payload[len(v.Payload)-4:])
		}
	}
}

// TestEMVCoPayload checks that every vector's payload, built or published, is taken for an
// EMV merchant-presented payload, and that one with a wrong CRC, or text that merely begins
// like one, is not.
func TestEMVCoPayload(t *testing.T) {
	payloads := emvcoPayloads(t)
	for _, p := range readPaymentVectors(t, EMVCo).Parse {
		payloads = append(payloads, p.Payload)
	}
	for _, p := range payloads {
		if !emvcoPayload(p) || !emvcoPayload(p[:len(p)-4]+strings.ToLower(p[len(p)-4:])) {
			t.Errorf("%q is not taken for an EMV payload", p)
		}
		wrongCRC := p[:len(p)-4] + fmt.Sprintf("%04X", crcTable(p[:len(p)-4])^1)
		if emvcoPayload(wrongCRC) || emvcoPayload(p[:len(p)-1]+"X") || emvcoPayload(p[:len(p)-5]) || emvcoPayload("x"+p) {
			t.Errorf("a spoilt %q is taken for an EMV payload", p)
		}
	}
	for _, s := range []string{"", "000201", "0002016304", "00020163041D3D", "hello 000201 6304ABCD"} {
		if emvcoPayload(s) {
			t.Errorf("%q is taken for an EMV payload", s)
		}
	}
}

// TestEMVCoCRC checks the CRC against the catalogue's check value of CRC-16/CCITT-FALSE (the
// CRC of "123456789") and the empty string's (the initial value).
func TestEMVCoCRC(t *testing.T) {
	for in, want := range map[string]uint16{"123456789": 0x29B1, "": 0xFFFF, "A": 0xB915} {
		if got := emvcoCRC(in); got != want {
			t.Errorf("CRC of %q is %04X, want %04X", in, got, want)
		}
	}
}

// emvcoPixCase returns a valid pix request, changed by f.
func emvcoPixCase(f func(r *Request)) *Request {
	r := &Request{Scheme: "pix", Key: "52998224725", Name: "Secret Shop", City: "BRASILIA"}
	f(r)
	return r
}

// emvcoOtherCase returns a valid request of another scheme, changed by f.
func emvcoOtherCase(f func(r *Request)) *Request {
	r := &Request{Scheme: "com.example.pay", Key: "SECRET-42", Name: "Secret Shop", City: "Singapore", Country: "SG", Currency: "SGD"}
	f(r)
	return r
}

// emvcoErrorCases are bad emvco requests, each with the code and field of its refusal: one per
// rule of buildEMVCo.
var emvcoErrorCases = []struct {
	name  string
	req   *Request
	code  Reason
	field string
}{
	{"no scheme", &Request{Key: "x"}, ReasonMissingField, "scheme"},
	{"bad scheme", &Request{Scheme: "pix!", Key: "x"}, ReasonInvalidScheme, "scheme"},
	{"scheme one label", &Request{Scheme: "example", Key: "x"}, ReasonInvalidScheme, "scheme"},
	{"scheme too long", &Request{Scheme: "com.example." + strings.Repeat("a", 21), Key: "x"}, ReasonInvalidScheme, "scheme"},
	{"scheme odd hex", &Request{Scheme: "A00000067", Key: "x"}, ReasonInvalidScheme, "scheme"},
	{"pix no key", emvcoPixCase(func(r *Request) { r.Key = " " }), ReasonMissingField, "key"},
	{"pix cpf check", emvcoPixCase(func(r *Request) { r.Key = "529.982.247-26" }), ReasonInvalidKey, "key"},
	{"pix cpf repeated", emvcoPixCase(func(r *Request) { r.Key = "11111111111" }), ReasonInvalidKey, "key"},
	{"pix cnpj check", emvcoPixCase(func(r *Request) { r.Key = "11.222.333/0001-82" }), ReasonInvalidKey, "key"},
	{"pix digits", emvcoPixCase(func(r *Request) { r.Key = "123456789012" }), ReasonInvalidKey, "key"},
	{"pix phone not brazil", emvcoPixCase(func(r *Request) { r.Key = "+1 555 123 4567" }), ReasonInvalidKey, "key"},
	{"pix phone short", emvcoPixCase(func(r *Request) { r.Key = "+55 61 1234567" }), ReasonInvalidKey, "key"},
	{"pix email", emvcoPixCase(func(r *Request) { r.Key = "secret@localhost" }), ReasonInvalidKey, "key"},
	{"pix email long", emvcoPixCase(func(r *Request) { r.Key = strings.Repeat("s", 71) + "@ex.com" }), ReasonInvalidKey, "key"},
	{"pix uuid short", emvcoPixCase(func(r *Request) { r.Key = "123e4567-e12b-12d1-a456-42665544000" }), ReasonInvalidKey, "key"},
	{"pix no name", emvcoPixCase(func(r *Request) { r.Name = "" }), ReasonMissingField, "name"},
	{"pix no city", emvcoPixCase(func(r *Request) { r.City = "" }), ReasonMissingField, "city"},
	{"pix name 26", emvcoPixCase(func(r *Request) { r.Name = strings.Repeat("N", 26) }), ReasonValueTooLong, "name"},
	{"pix city 16", emvcoPixCase(func(r *Request) { r.City = strings.Repeat("C", 16) }), ReasonValueTooLong, "city"},
	{"pix name accent", emvcoPixCase(func(r *Request) { r.Name = "Secret Café" }), ReasonInvalidText, "name"},
	{"pix city control", emvcoPixCase(func(r *Request) { r.City = "BRAS\nILIA" }), ReasonInvalidText, "city"},
	{"pix txid", emvcoPixCase(func(r *Request) { r.Reference = "SECRET-1" }), ReasonInvalidReference, "reference"},
	{"pix txid long", emvcoPixCase(func(r *Request) { r.Reference = strings.Repeat("S", 26) }), ReasonValueTooLong, "reference"},
	{"pix description long", emvcoPixCase(func(r *Request) { r.Message = strings.Repeat("m", 64) }), ReasonValueTooLong, "message"},
	{"pix description with the longest key", emvcoPixCase(func(r *Request) { r.Key = strings.Repeat("s", 70) + "@ex.com"; r.Message = "m" }), ReasonValueTooLong, "message"},
	{"pix currency", emvcoPixCase(func(r *Request) { r.Currency = "USD" }), ReasonInvalidCurrency, "currency"},
	{"pix country", emvcoPixCase(func(r *Request) { r.Country = "PT" }), ReasonInvalidCountry, "country"},
	{"pix postal code", emvcoPixCase(func(r *Request) { r.PostalCode = "70074-900-12" }), ReasonValueTooLong, "postalCode"},
	{"pix category", emvcoPixCase(func(r *Request) { r.MerchantCategory = "541" }), ReasonInvalidMerchantCategory, "merchantCategory"},
	{"pix amount places", emvcoPixCase(func(r *Request) { r.Amount = "1.005" }), ReasonInvalidAmount, "amount"},
	{"pix amount zero", emvcoPixCase(func(r *Request) { r.Amount = "0.00" }), ReasonInvalidAmount, "amount"},
	{"pix amount negative", emvcoPixCase(func(r *Request) { r.Amount = "-1" }), ReasonInvalidAmount, "amount"},
	{"pix amount comma", emvcoPixCase(func(r *Request) { r.Amount = "1,50" }), ReasonInvalidAmount, "amount"},
	{"pix amount long", emvcoPixCase(func(r *Request) { r.Amount = "1234567890123" }), ReasonInvalidAmount, "amount"},
	{"promptpay no key", &Request{Scheme: "promptpay"}, ReasonMissingField, "key"},
	{"promptpay 9 digits", &Request{Scheme: "promptpay", Key: "081234567"}, ReasonInvalidKey, "key"},
	{"promptpay letters", &Request{Scheme: "promptpay", Key: "08l2345678"}, ReasonInvalidKey, "key"},
	{"promptpay 14 digits", &Request{Scheme: "promptpay", Key: "01234567890123"}, ReasonInvalidKey, "key"},
	{"promptpay message", &Request{Scheme: "promptpay", Key: "0812345678", Message: "secret"}, ReasonUnsupportedField, "message"},
	{"promptpay currency", &Request{Scheme: "promptpay", Key: "0812345678", Currency: "840"}, ReasonInvalidCurrency, "currency"},
	{"promptpay country", &Request{Scheme: "promptpay", Key: "0812345678", Country: "LA"}, ReasonInvalidCountry, "country"},
	{"promptpay amount places", &Request{Scheme: "promptpay", Key: "0812345678", Amount: "4.225"}, ReasonInvalidAmount, "amount"},
	{"generic no key", emvcoOtherCase(func(r *Request) { r.Key = "" }), ReasonMissingField, "key"},
	{"generic key accent", emvcoOtherCase(func(r *Request) { r.Key = "SECRÉT" }), ReasonInvalidText, "key"},
	{"generic key long", emvcoOtherCase(func(r *Request) { r.Key = strings.Repeat("K", 78) }), ReasonValueTooLong, "key"},
	{"generic no name", emvcoOtherCase(func(r *Request) { r.Name = "" }), ReasonMissingField, "name"},
	{"generic no country", emvcoOtherCase(func(r *Request) { r.Country = "" }), ReasonMissingField, "country"},
	{"generic country", emvcoOtherCase(func(r *Request) { r.Country = "SGP" }), ReasonInvalidCountry, "country"},
	{"generic no currency", emvcoOtherCase(func(r *Request) { r.Currency = "" }), ReasonMissingField, "currency"},
	{"generic currency unknown letters", emvcoOtherCase(func(r *Request) { r.Currency = "XYZ" }), ReasonInvalidCurrency, "currency"},
	{"generic currency form", emvcoOtherCase(func(r *Request) { r.Currency = "S$" }), ReasonInvalidCurrency, "currency"},
	{"generic yen decimals", emvcoOtherCase(func(r *Request) { r.Currency = "JPY"; r.Amount = "10.5" }), ReasonInvalidAmount, "amount"},
	{"generic message", emvcoOtherCase(func(r *Request) { r.Message = "secret" }), ReasonUnsupportedField, "message"},
	{"generic reference long", emvcoOtherCase(func(r *Request) { r.Reference = strings.Repeat("R", 26) }), ReasonValueTooLong, "reference"},
}

// TestEMVCoErrors checks each refusal of emvcoErrorCases: its code and field, a message and a
// hint, and that neither quotes the key, the name or the reference.
func TestEMVCoErrors(t *testing.T) {
	for _, c := range emvcoErrorCases {
		_, err := buildEMVCo(c.req)
		var e *Error
		if !errors.As(err, &e) || e.Reason != c.code || e.Field != c.field || e.Message == "" || e.Hint == "" {
			t.Errorf("%s: got %#v, want %s on %s", c.name, err, c.code, c.field)
			continue
		}
		if strings.Contains(e.Hint, "at most -") || strings.Contains(e.Hint, "at most 0 ") {
			t.Errorf("%s: the hint asks for nothing: %s", c.name, e.Hint)
		}
		for _, private := range []string{"52998224725", "Secret", "SECRET", "secret"} {
			if strings.Contains(e.Message+e.Hint, private) {
				t.Errorf("%s: the error quotes %q: %s / %s", c.name, private, e.Message, e.Hint)
			}
		}
	}
}

// TestEMVCoKeys checks the kinds of key each preset takes and how it writes them.
func TestEMVCoKeys(t *testing.T) {
	for in, want := range map[string]string{
		"529.982.247-25": "52998224725", "11222333000181": "11222333000181", "12.ABC.345/01DE-35": "12ABC34501DE35",
		"+55 (11) 3456-7890": "+551134567890", "Fulano@Example.COM": "fulano@example.com",
		"123E4567-E12B-12D1-A456-426655440000": "123e4567-e12b-12d1-a456-426655440000",
	} {
		if got, err := pixKey(in); err != nil || got != want {
			t.Errorf("pix key %q: got %q, %v; want %q", in, got, err, want)
		}
	}
	for in, want := range map[string]string{"0812345678": "01 0066812345678", "+66 81 234 5678": "01 0066812345678",
		"(081) 234.5678": "01 0066812345678", "3-1005-00123-45-6": "02 3100500123456", "123456789012345": "03 123456789012345"} {
		if id, kind, err := promptPayID(in); err != nil || kind+" "+id != want {
			t.Errorf("promptpay id %q: got %s %s, %v; want %s", in, kind, id, err, want)
		}
	}
}

// parseEMVCo is a test-only reader of MPM payloads, written from the specification apart from
// the builder: it checks the Payload Format Indicator 01 first (4.6.1.1, 4.7.1.1), the CRC
// object last with the right CRC (4.6.1.2, 4.7.3), each object's ID of two digits and length of
// two digits from 01 to 99 counting characters (3.2, 4.4), no ID twice in one template
// (4.3.1.2), and a GUID first in each merchant account template (4.7.11.2). It returns the
// values by path: "59" for a root object, "26.01" for one in a template (templates: 26 to 51,
// 62, 64, 80 to 99).
func parseEMVCo(payload string) (map[string]string, error) {
	if !strings.HasPrefix(payload, "000201") {
		return nil, errors.New("does not begin with the payload format indicator 01")
	}
	if len(payload) < 8 || payload[len(payload)-8:len(payload)-4] != "6304" {
		return nil, errors.New("does not end with the CRC object")
	}
	if want := fmt.Sprintf("%04X", crcTable(payload[:len(payload)-4])); payload[len(payload)-4:] != want {
		return nil, fmt.Errorf("CRC %s, want %s", payload[len(payload)-4:], want)
	}
	objects := map[string]string{}
	root, err := parseEMVCoObjects(payload)
	if err != nil {
		return nil, err
	}
	for _, o := range root {
		objects[o.id] = o.value
		n, _ := strconv.Atoi(o.id)
		if n < 26 || n > 51 && n != 62 && n != 64 && n < 80 {
			continue
		}
		inner, err := parseEMVCoObjects(o.value)
		if err != nil {
			return nil, fmt.Errorf("template %s: %v", o.id, err)
		}
		if n <= 51 && (len(inner) == 0 || inner[0].id != "00") {
			return nil, fmt.Errorf("template %s does not begin with its GUID", o.id)
		}
		for _, i := range inner {
			objects[o.id+"."+i.id] = i.value
		}
	}
	if root[len(root)-1].id != "63" {
		return nil, errors.New("the CRC is not the last object")
	}
	return objects, nil
}

// parseEMVCoObjects splits s into data objects of ID, length and value, the length counting
// characters (runes).
func parseEMVCoObjects(s string) ([]emvObject, error) {
	var list []emvObject
	seen := map[string]bool{}
	rs := []rune(s)
	for i := 0; i < len(rs); {
		if i+4 > len(rs) {
			return nil, fmt.Errorf("a truncated object at %d", i)
		}
		id, length := string(rs[i:i+2]), string(rs[i+2:i+4])
		n, err := strconv.Atoi(length)
		if err != nil || len(length) != 2 || length[0] < '0' || n < 1 || id[0] < '0' || id[0] > '9' || id[1] < '0' || id[1] > '9' {
			return nil, fmt.Errorf("object %q has length %q", id, length)
		}
		if i+4+n > len(rs) {
			return nil, fmt.Errorf("object %s is longer than the rest", id)
		}
		if seen[id] {
			return nil, fmt.Errorf("object %s twice", id)
		}
		seen[id] = true
		list = append(list, emvObject{id, string(rs[i+4 : i+4+n])})
		i += 4 + n
	}
	return list, nil
}

// crcTable is CRC-16/CCITT-FALSE by a table, another way than the builder's bit by bit.
func crcTable(s string) uint16 {
	var table [256]uint16
	for i := range table {
		c := uint16(i) << 8
		for range 8 {
			c = c<<1 ^ uint16(-int16(c>>15))&0x1021
		}
		table[i] = c
	}
	crc := uint16(0xFFFF)
	for _, b := range []byte(s) {
		crc = crc<<8 ^ table[byte(crc>>8)^b]
	}
	return crc
}

// TestEMVCoParserRefuses shows the reader fails on what it must: a wrong CRC, a length that
// counts bytes rather than characters, a missing or misplaced format indicator.
func TestEMVCoParserRefuses(t *testing.T) {
	good := "00020101021129370016A000000677010111011300668012345675802TH530376463046197"
	if _, err := parseEMVCo(good); err != nil {
		t.Fatal(err)
	}
	withCRC := func(s string) string { return s + fmt.Sprintf("%04X", crcTable(s)) }
	for name, bad := range map[string]string{
		"crc":          good[:len(good)-1] + "8",
		"bytes length": withCRC("0002015905Café6304"),
		"no indicator": withCRC("0102115802TH6304"),
		"length zero":  withCRC("0002015900016304"),
		"twice":        withCRC("0002015802TH5802TH6304"),
		"no guid":      withCRC("000201260501abc6304"),
	} {
		if _, err := parseEMVCo(bad); err == nil {
			t.Errorf("%s: %q parsed", name, bad)
		}
	}
}

// emvcoPayloads returns the payload of each build vector.
func emvcoPayloads(t *testing.T) []string {
	var texts []string
	for _, v := range readPaymentVectors(t, EMVCo).Build {
		texts = append(texts, v.Expected)
	}
	return texts
}

// emvcoSymbols encodes the payload of each build vector, and the longest payload the builder
// makes (256 characters), at level M: plain ASCII, so the symbol needs no ECI, and version 12
// at most.
func emvcoSymbols(t *testing.T) ([]string, []*qr.Symbol) {
	var texts []string
	var symbols []*qr.Symbol
	longest, err := buildEMVCo(&Request{Scheme: "com.example.pay", Key: strings.Repeat("K~", 38), Name: strings.Repeat("N", 25),
		City: strings.Repeat("C", 15), Country: "SG", Currency: "999", Amount: "1234567890.12", MerchantCategory: "5814",
		PostalCode: strings.Repeat("P", 10), Reference: strings.Repeat("R", 25)})
	if err != nil || len(longest) != 256 {
		t.Fatalf("the longest payload: %d characters, %v", len(longest), err)
	}
	for _, text := range append(emvcoPayloads(t), longest) {
		s, err := qr.Encode(text, qr.Options{Level: qr.M})
		if err != nil || s.Version() > 12 {
			t.Fatalf("%q: %v", text, err)
		}
		texts, symbols = append(texts, text), append(symbols, s)
	}
	return texts, symbols
}

// TestScanEMVCo reads each vector's code back with gozxing, byte for byte, and parses it.
func TestScanEMVCo(t *testing.T) {
	texts, symbols := emvcoSymbols(t)
	for i, text := range texts {
		got, err := qrtest.Decode(symbols[i].Size(), symbols[i].Dark)
		if err != nil || got != text {
			t.Errorf("%q decoded as %q, %v", text, got, err)
			continue
		}
		if _, err := parseEMVCo(got); err != nil {
			t.Errorf("%q read back does not parse: %v", got, err)
		}
	}
}

// TestScanEMVCoExternal draws each vector's code as a PNG and reads it with zbarimg and
// zxing-cpp, as banking apps read it: the payload byte for byte, which parses.
func TestScanEMVCoExternal(t *testing.T) {
	qrtest.NeedTools(t, "zbarimg")
	qrtest.NeedZXingCPP(t)
	texts, symbols := emvcoSymbols(t)
	files := pngFiles(t, symbols, 640)
	zbar, zxing := qrtest.Zbarimg(t, files), qrtest.ZXingCPP(t, files)
	zxingBytes := zxingBytes(t, files)
	for i, text := range texts {
		f := files[i]
		for reader, got := range map[string]string{"zbarimg": zbar[f], "zxing-cpp": zxing[f]} {
			if got != text {
				t.Errorf("%s read %q as %q", reader, text, got)
			} else if _, err := parseEMVCo(got); err != nil {
				t.Errorf("%s: %q does not parse: %v", reader, got, err)
			}
		}
		if want := fmt.Sprintf("%x", text); zxingBytes[i] != want {
			t.Errorf("zxing-cpp read the bytes of %q as %s", text, zxingBytes[i])
		}
	}
}

// FuzzEMVCo checks that buildEMVCo never panics, refuses with an *Error of a known code, a
// message and a hint, and that every payload it makes parses (its CRC right, each length
// counting characters), is ASCII, and carries the name and key it was given.
func FuzzEMVCo(f *testing.F) {
	f.Add("pix", "123e4567-e12b-12d1-a456-426655440000", "Fulano de Tal", "BRASILIA", "", "", "10.5", "TX1", "Pedido")
	f.Add("promptpay", "+66-89-123-4567", "", "", "", "", "4.22", "", "")
	f.Add("com.example.pay", "M-1", "Kopi", "Singapore", "SG", "SGD", "3", "INV 1", "")
	f.Add("A000000727", "k", "N", "C", "jp", "392", "1500.", "", "")
	f.Add("pix", "529.982.247-25", "São", "Rio", "BR", "BRL", "0.001", "***", "")
	f.Fuzz(func(t *testing.T, scheme, key, name, city, country, currency, amount, reference, message string) {
		r := &Request{Type: EMVCo, Scheme: scheme, Key: key, Name: name, City: city, Country: country, Currency: currency,
			Amount: amount, Reference: reference, Message: message}
		p, err := buildEMVCo(r)
		if err != nil {
			var e *Error
			if !errors.As(err, &e) || e.Message == "" || e.Hint == "" || !emvcoKnownReason(e.Reason) {
				t.Fatalf("%+v: error %#v", r, err)
			}
			return
		}
		objects, err := parseEMVCo(p)
		if err != nil || !utf8.ValidString(p) || len(p) != utf8.RuneCountInString(p) {
			t.Fatalf("%+v: payload %q: %v", r, p, err)
		}
		if n := strings.TrimSpace(name); n != "" && objects["59"] != n {
			t.Fatalf("%+v: payload %q has name %q", r, p, objects["59"])
		}
		if objects["26.01"] == "" && objects["29.01"] == "" && objects["29.02"] == "" && objects["29.03"] == "" {
			t.Fatalf("%+v: payload %q has no key", r, p)
		}
	})
}

// emvcoKnownReason reports whether code is one the emvco builder may give.
func emvcoKnownReason(code Reason) bool {
	switch code {
	case ReasonMissingField, ReasonInvalidText, ReasonValueTooLong, ReasonInvalidAmount, ReasonInvalidReference,
		ReasonInvalidKey, ReasonInvalidScheme, ReasonInvalidCountry, ReasonInvalidCurrency, ReasonInvalidMerchantCategory,
		ReasonUnsupportedField:
		return true
	}
	return false
}
