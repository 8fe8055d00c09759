package httpapi

import (
	"bytes"
	"image/png"
	"net/http"
	"regexp"
	"strings"
	"testing"

	"github.com/bananaqr/bananaqr/api"
	"github.com/bananaqr/bananaqr/internal/qrtest"
	"github.com/bananaqr/bananaqr/payload"
)

// TestPostPayments makes a code of each payment type (swissqr, emvco, upi, spayd, bitcoin) with
// POST and reads it back byte for byte; every response goes through the OpenAPI contract (ts.post),
// none echoes the private payload nor logs it, and a swissqr code is level M at version 25 at most.
func TestPostPayments(t *testing.T) {
	ts := newTestServer(t, Config{})
	for _, c := range []struct{ body, typ, payload, secret string }{
		{`{"type":"swissqr","iban":"CH44 3199 9123 0008 8901 2","name":"Robert Schneider AG","street":"Rue du Lac","buildingNumber":"1268",` +
			`"postalCode":"2501","city":"Biel","country":"CH","amount":1949.75,"currency":"CHF","reference":"21 00000 00003 13947 14300 09017"}`, "swissqr",
			"SPC\r\n0200\r\n1\r\nCH4431999123000889012\r\nS\r\nRobert Schneider AG\r\nRue du Lac\r\n1268\r\n2501\r\nBiel\r\nCH\r\n\r\n\r\n\r\n\r\n\r\n\r\n\r\n" +
				"1949.75\r\nCHF\r\n\r\n\r\n\r\n\r\n\r\n\r\n\r\nQRR\r\n210000000003139471430009017\r\n\r\nEPD", "Schneider"},
		{`{"type":"emvco","scheme":"pix","key":"123e4567-e12b-12d1-a456-426655440000","name":"Fulano de Tal","city":"BRASILIA"}`, "emvco",
			"00020126580014br.gov.bcb.pix0136123e4567-e12b-12d1-a456-4266554400005204000053039865802BR5913Fulano de Tal6008BRASILIA62070503***63041D3D", "Fulano"},
		{`{"type":"upi","vpa":"nadeem@npci","name":"nadeem chinna","amount":"10"}`, "upi", "upi://pay?pa=nadeem@npci&pn=nadeem%20chinna&am=10&cu=INR", "nadeem"},
		{`{"type":"spayd","iban":"CZ2806000000000168540115","amount":450.00,"currency":"CZK","variableSymbol":"1234567890"}`, "spayd",
			"SPD*1.0*ACC:CZ2806000000000168540115*AM:450.00*CC:CZK*X-VS:1234567890", "0168540115"},
		{`{"type":"bitcoin","address":"bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq","amount":0.0005,"label":"Luke"}`, "bitcoin",
			"bitcoin:BC1QAR0SRRR7XFKVY5L643LYDNW9RE59GTZZWF5MDQ?amount=0.0005&label=Luke", "ar0srrr7"}, // upper case: alphanumeric mode
	} {
		r, j := postPrivateCode(t, ts, c.body, c.typ, c.payload)
		if strings.Contains(string(r.body), c.secret) {
			t.Errorf("%s: the answer shows %q", c.body, c.secret)
		}
		if c.typ == "swissqr" && (j.ECC != "M" || j.Version > 25) {
			t.Errorf("%s: version %d-%s, want level M and version 25 at most", c.body, j.Version, j.ECC)
		}
	}
	for _, secret := range []string{"Schneider", "Fulano", "nadeem", "0168540115", "ar0srrr7"} {
		if strings.Contains(strings.ToLower(ts.log.String()), strings.ToLower(secret)) {
			t.Errorf("the log shows %q", secret)
		}
	}
}

// TestPaymentErrors: each payment type's faults come with their codes through the contract, no
// message or hint quotes the private value, a swissqr code refuses the styles its standard
// fixes, and GET refuses the types with USE_POST.
func TestPaymentErrors(t *testing.T) {
	ts := newTestServer(t, Config{})
	const swiss = `{"type":"swissqr","iban":"CH44 3199 9123 0008 8901 2","name":"Robert Schneider AG","postalCode":"2501","city":"Biel","country":"CH"`
	for _, c := range []struct {
		body   string
		status int
		code   api.Reason
		secret string
	}{
		{swiss + `,"currency":"CHF"}`, 400, payload.ReasonMissingField, "3199"}, // a QR-IBAN needs a QR reference
		{swiss + `,"currency":"CHF","reference":"210000000003139471430009018"}`, 400, payload.ReasonInvalidReference, "09018"},
		{swiss + `,"reference":"210000000003139471430009017","currency":"USD"}`, 400, payload.ReasonInvalidCurrency, "Schneider"},
		{swiss + `,"currency":"CHF","reference":"210000000003139471430009017","color":"#000080"}`, 400, api.ReasonInvalidValue, "Schneider"},
		{swiss + `,"currency":"CHF","reference":"210000000003139471430009017","corners":"rounded"}`, 400, api.ReasonInvalidValue, "Schneider"},
		{swiss + `,"currency":"CHF","reference":"210000000003139471430009017","logo":"banana"}`, 400, api.ReasonInvalidValue, "Schneider"},
		{`{"type":"swissqr","iban":"DE89 3704 0044 0532 0130 00","name":"Anna","postalCode":"1","city":"Bern","country":"CH","currency":"CHF"}`, 400, payload.ReasonInvalidIBAN, "0532"},
		{`{"type":"emvco","scheme":"pix","key":"123.456.789-01","name":"Fulano","city":"BRASILIA"}`, 400, payload.ReasonInvalidKey, "456.789"},
		{`{"type":"emvco","scheme":"pix","key":"fulano@example.com","name":"Fulano de Tal Fulano de Tal","city":"BRASILIA"}`, 400, payload.ReasonValueTooLong, "Fulano de Tal"},
		{`{"type":"emvco","scheme":"promptpay","key":"0812345678","message":"Secret note"}`, 400, payload.ReasonUnsupportedField, "Secret"},
		{`{"type":"emvco","scheme":"not a guid!","key":"x","name":"Shop","city":"Singapore"}`, 400, payload.ReasonInvalidScheme, "guid"},
		{`{"type":"upi","vpa":"nadeem at npci","name":"Nadeem"}`, 400, payload.ReasonInvalidVPA, "nadeem at"},
		{`{"type":"upi","vpa":"nadeem@npci","name":"Nadeem","currency":"USD"}`, 400, payload.ReasonInvalidCurrency, "nadeem@"},
		{`{"type":"spayd","iban":"CZ2806000000000168540115","variableSymbol":"12A"}`, 400, payload.ReasonInvalidSymbol, "0168540115"},
		{`{"type":"bitcoin","address":"bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdr"}`, 400, payload.ReasonInvalidBitcoinAddress, "bc1qar0"},
		{`{"type":"bitcoin","address":"bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq","amount":0.000000001}`, 400, payload.ReasonInvalidAmount, "bc1qar0"},
	} {
		e := ts.post(t, c.body).wantError(t, c.status, c.code)
		if strings.Contains(e.Message, c.secret) || strings.Contains(e.Hint, c.secret) {
			t.Errorf("%s: the error quotes %q: %+v", c.body, c.secret, e)
		}
	}
	for _, typ := range payload.PrivateTypes() {
		ts.get(t, "/api/qr-code?type="+string(typ)+"&data=x").wantError(t, http.StatusBadRequest, api.ReasonUsePost)
	}
}

// TestSwissPrintSize: a swissqr SVG is the same size in millimetres whatever size asks, the 46 mm
// symbol and its quiet zone (the guidelines' print size; internal/generate checks the figure).
func TestSwissPrintSize(t *testing.T) {
	ts := newTestServer(t, Config{})
	width := regexp.MustCompile(`<svg[^>]* width="([0-9.]+mm)"`)
	var widths []string
	for _, size := range []string{"256", "2048"} {
		r := ts.post(t, `{"type":"swissqr","iban":"CH93 0076 2011 6238 5295 7","name":"Anna","postalCode":"3001","city":"Bern","country":"CH","currency":"CHF","format":"svg","size":`+size+`}`)
		m := width.FindSubmatch(r.body)
		if r.status != http.StatusOK || m == nil {
			t.Fatalf("size %s: %d %.200s", size, r.status, r.body)
		}
		widths = append(widths, string(m[1]))
	}
	if widths[0] != widths[1] {
		t.Errorf("widths %q, want one size in millimetres", widths)
	}
}

// TestBatchPayments: a batch holds codes of the payment types as any other: each file reads back
// to its payload, a swissqr PDF is the one POST /api/qr-code makes, and a swissqr item asking for
// a colour its standard forbids fails the batch with that item's error.
func TestBatchPayments(t *testing.T) {
	ts := newTestServer(t, Config{})
	const swiss = `{"type":"swissqr","iban":"CH93 0076 2011 6238 5295 7","name":"Anna","postalCode":"3001","city":"Bern","country":"CH","currency":"CHF","format":"pdf"}`
	body := `[` + swiss + `,
		{"type":"emvco","scheme":"promptpay","key":"0812345678","amount":"100","format":"png"},
		{"type":"bitcoin","address":"1andreas3batLhQa2FawWjeyjCqyBzypd","format":"png","filename":"tip"}]`
	r := ts.postBatch(t, body, batchCaller())
	if r.status != http.StatusOK {
		t.Fatalf("%d %s", r.status, r.body)
	}
	names, files := qrtest.Unzip(t, r.body)
	if want := "qr-1-swissqr.pdf|qr-2-emvco.png|tip.png"; strings.Join(names, "|") != want {
		t.Errorf("files %q, want %s", names, want)
	}
	for name, want := range map[string]string{"qr-2-emvco.png": "00020101021229370016A000000677010111011300668123456785802TH53037645406100.006304BB8A",
		"tip.png": "bitcoin:1andreas3batLhQa2FawWjeyjCqyBzypd"} {
		img, err := png.Decode(bytes.NewReader(files[name]))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if text, err := qrtest.DecodeImage(img, false); err != nil || text != want {
			t.Errorf("%s reads %q (%v), want %q", name, text, err, want)
		}
	}
	if single := ts.post(t, swiss); !bytes.Equal(single.body, files["qr-1-swissqr.pdf"]) {
		t.Error("the batch's swissqr PDF differs from POST /api/qr-code's")
	}
	bad := ts.postBatch(t, `[`+strings.TrimSuffix(swiss, "}")+`,"background":"#FFFFF0"}]`, batchCaller())
	if e := batchErrorBody(t, bad); bad.status != http.StatusBadRequest || len(e.Items) != 1 || e.Items[0].Reason != string(api.ReasonInvalidValue) {
		t.Errorf("a swissqr item on another background: %d %s", bad.status, bad.body)
	}
}
