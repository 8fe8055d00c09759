package httpapi

import (
	"encoding/base64"
	"net/http"
	"strings"
	"testing"

	"github.com/bananaqr/bananaqr/api"
	"github.com/bananaqr/bananaqr/internal/qrtest"
	"github.com/bananaqr/bananaqr/payload"
)

// TestPostExtensions makes a code of each bananaqr extension type (tel, geo, event, epc) with
// POST, numbers given as JSON numbers and as strings, and reads each back; every response goes
// through the OpenAPI contract (ts.do), and none echoes the private payload. epc codes are at
// level M, never raised, as the EPC guideline requires.
func TestPostExtensions(t *testing.T) {
	ts := newTestServer(t, Config{})
	for _, c := range []struct{ body, typ, payload string }{
		{`{"type":"tel","phone":"+1 (555) 123-4567"}`, "tel", "tel:+15551234567"},
		{`{"type":"geo","latitude":48.85820,"longitude":"2.2945","altitude":-12.50}`, "geo", "geo:48.8582,2.2945,-12.5"},
		{`{"type":"geo","latitude":-0,"longitude":180}`, "geo", "geo:0,180"},
		{`{"type":"event","summary":"Dinner; drinks","start":"2026-12-24T18:00:00+01:00","end":"2026-12-24T22:00+01:00","location":"Café Müller, Köln"}`, "event",
			"BEGIN:VEVENT\r\nSUMMARY:Dinner\\; drinks\r\nDTSTART:20261224T170000Z\r\nDTEND:20261224T210000Z\r\nLOCATION:Café Müller\\, Köln\r\nEND:VEVENT\r\n"},
		{`{"type":"epc","name":"Anna Müller","iban":"DE89 3704 0044 0532 0130 00","amount":12.30,"remittance":"Invoice 2026-001"}`, "epc",
			"BCD\n002\n1\nSCT\n\nAnna Müller\nDE89370400440532013000\nEUR12.3\n\n\nInvoice 2026-001"},
		{`{"type":"epc","name":"Red Cross","iban":"BE72000000001616","bic":"BPOTBEB1","amount":"1","reference":"RF18 5390 0754 7034"}`, "epc",
			"BCD\n002\n1\nSCT\nBPOTBEB1\nRed Cross\nBE72000000001616\nEUR1\n\nRF18539007547034"},
	} {
		r, j := postPrivateCode(t, ts, c.body, c.typ, c.payload)
		for _, secret := range []string{"Müller", "555", "48.8582", "DE89", "Invoice", "RF18"} {
			if strings.Contains(c.payload, secret) && (strings.Contains(j.SVG, secret) || strings.Contains(j.Markdown, secret) || strings.Contains(string(r.body), secret)) {
				t.Errorf("%s: the response shows %q", c.body, secret)
			}
		}
		if c.typ == "epc" && (j.ECC != "M" || j.Version > 13) {
			t.Errorf("%s: version %d-%s, want level M and version 13 at most", c.body, j.Version, j.ECC)
		}
	}
}

// TestExtensionErrors: the extensions' faults come with their codes and statuses, through the
// contract, and no message or hint quotes a private value; GET refuses the types with USE_POST.
func TestExtensionErrors(t *testing.T) {
	ts := newTestServer(t, Config{})
	for _, c := range []struct {
		body   string
		status int
		code   api.Reason
		secret string
	}{
		{`{"type":"tel","phone":"+1 555 CALL ME"}`, 400, payload.ReasonInvalidPhone, "CALL ME"},
		{`{"type":"geo","latitude":91.5,"longitude":2}`, 400, payload.ReasonInvalidCoordinate, "91.5"},
		{`{"type":"geo","latitude":1e2,"longitude":2}`, 400, payload.ReasonInvalidCoordinate, "1e2"},
		{`{"type":"geo","latitude":48.12345678,"longitude":2}`, 400, payload.ReasonInvalidCoordinate, "48.12345678"},
		{`{"type":"geo","latitude":true,"longitude":2}`, 400, api.ReasonWrongType, ""},
		{`{"type":"event","summary":"Secret meeting","start":"2026-12-24T18:00:00"}`, 400, payload.ReasonInvalidDate, "Secret"},
		{`{"type":"event","summary":"Secret meeting","start":"2026-12-24","end":"2026-12-23"}`, 400, payload.ReasonInvalidDate, "2026-12-23"},
		{`{"type":"event","start":"2026-12-24"}`, 400, payload.ReasonMissingField, "2026-12-24"},
		{`{"type":"epc","name":"Anna","iban":"DE89 3704 0044 0532 0130 01"}`, 400, payload.ReasonInvalidIBAN, "0130 01"},
		{`{"type":"epc","name":"Anna","iban":"US64SVBKUS6S3300958879"}`, 400, payload.ReasonInvalidIBAN, "SVBK"},
		{`{"type":"epc","name":"Anna","iban":"DE89370400440532013000","bic":"NOTABIC"}`, 400, payload.ReasonInvalidBIC, "NOTABIC"},
		{`{"type":"epc","name":"Anna","iban":"DE89370400440532013000","amount":12.345}`, 400, payload.ReasonInvalidAmount, "12.345"},
		{`{"type":"epc","name":"Anna","iban":"DE89370400440532013000","amount":"1,000.00"}`, 400, payload.ReasonInvalidAmount, "1,000"},
		{`{"type":"epc","name":"Anna","iban":"DE89370400440532013000","reference":"RF19 5390 0754 7034"}`, 400, payload.ReasonInvalidReference, "RF19"},
		{`{"type":"epc","name":"Anna","iban":"DE89370400440532013000","reference":"RF18539007547034","remittance":"Secret note"}`, 400, payload.ReasonConflictingFields, "Secret"},
		{`{"type":"epc","name":"` + strings.Repeat("Ä", 71) + `","iban":"DE89370400440532013000"}`, 400, payload.ReasonValueTooLong, "ÄÄÄ"},
		{`{"type":"epc","name":"` + strings.Repeat("😀", 70) + `","iban":"DE89370400440532013000","remittance":"` + strings.Repeat("😀", 20) + `"}`, 413, payload.ReasonPayloadTooLarge, "😀"},
		{`{"type":"epc","name":"Anna","iban":"DE89370400440532013000","logo":"banana"}`, 400, api.ReasonInvalidValue, "DE89"},
		{`{"type":"epc","name":"Anna","iban":"DE89370400440532013000","ecc":"H"}`, 400, api.ReasonInvalidValue, "DE89"},
	} {
		r := ts.post(t, c.body)
		e := r.wantError(t, c.status, c.code)
		if c.secret != "" && (strings.Contains(e.Message, c.secret) || strings.Contains(e.Hint, c.secret)) {
			t.Errorf("%s: the error quotes %q: %+v", c.body, c.secret, e)
		}
	}
	for _, typ := range []string{"tel", "geo", "event", "epc"} {
		ts.get(t, "/api/qr-code?type="+typ+"&data=x").wantError(t, http.StatusBadRequest, api.ReasonUsePost)
	}
}

// postPrivateCode asks for the code of body, a request of the private type typ, as JSON; checks
// that it reads back (gozxing) as payload and that the answer does not echo it (no payload, no
// links, no X-QR-Payload, an inline Markdown image); and returns the response and its JSON.
func postPrivateCode(t *testing.T, ts *testServer, body, typ, payload string) (*result, api.Response) {
	t.Helper()
	r := ts.post(t, strings.TrimSuffix(body, "}")+`,"format":"json"}`)
	if r.status != http.StatusOK {
		t.Fatalf("%s: %d %s", body, r.status, r.body)
	}
	j := r.json(t)
	if j.PayloadType != typ || j.Type != typ || r.header.Get("X-QR-Payload-Type") != typ {
		t.Errorf("%s: type %s", body, j.PayloadType)
	}
	pngData, _ := base64.StdEncoding.DecodeString(j.PNGBase64)
	if _, text := qrtest.DecodePNG(t, pngData, j.ModulePx); text != payload {
		t.Errorf("%s: reads %q, want %q", body, text, payload)
	}
	if j.Payload != nil || j.ImageURL != nil || j.SVGURL != nil || !strings.HasPrefix(j.Markdown, "![QR code](data:image/png;base64,") ||
		r.header.Get("X-QR-Payload") != "" {
		t.Errorf("%s: a private payload echoed: %v %v %v %q", body, j.Payload, j.ImageURL, j.SVGURL, r.header.Get("X-QR-Payload"))
	}
	return r, j
}
