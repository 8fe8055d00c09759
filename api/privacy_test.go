package api_test

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/bananaqr/bananaqr/api"
	"github.com/bananaqr/bananaqr/internal/httpapi"
	"github.com/bananaqr/bananaqr/internal/must"
	"github.com/bananaqr/bananaqr/internal/qrtest"
)

// svgTitle finds the SVG's accessible name.
var svgTitle = regexp.MustCompile(`<title[^>]*>([^<]*)</title>`)

// TestRawPrivateNotEchoed: raw data in the private formats that readers recognise (MECARD,
// BIZCARD, MMSTO, mms:, SMTP, WIFI behind a byte-order mark, tel:, geo:, a calendar event, an EPC
// payment code, a URL with a password, a Swiss QR-bill, a Czech payment, Skype and WhatsApp
// links) is echoed nowhere, by GET or POST: no X-QR-Payload, null payload, image_url and svg_url, a data
// URI in markdown, only the type in the SVG's title; and the code still carries the data as is.
func TestRawPrivateNotEchoed(t *testing.T) {
	srv := httptest.NewServer(httpapi.New(httpapi.Config{OpenAPI: api.OpenAPI, Logger: slog.New(slog.DiscardHandler)}).Handler())
	defer srv.Close()
	for _, c := range []struct{ data, typ string }{
		{"MECARD:N:Doe,John;TEL:5551234;;", "vcard"},
		{"BIZCARD:N:John;X:Doe;B:5551234;E:john@example.com;;", "vcard"},
		{"MMSTO:+15551234:secret", "sms"},
		{"mms:+15551234?body=secret", "sms"},
		{"SMTP:a@b.com:subj:secret", "email"},
		{"\uFEFFWIFI:T:WPA;S:Lab;P:secret123;;", "wifi"},
		{"john.doe@example.com", "email"},
		{"tel:+15551234", "text"},
		{"geo:48.8582,2.2945", "text"},
		{"BEGIN:VEVENT\r\nSUMMARY:secret\r\nDTSTART:20260101T090000Z\r\nEND:VEVENT\r\n", "text"},
		{"BCD\n002\n1\nSCT\n\nAnna Secret\nDE89370400440532013000\nEUR12.3", "text"}, // an EPC payment code
		{"https://alice:S3cr3tPw@intranet.example.com/", "text"},                     // a credential
		{"ftp://user:pw@files.example.com/", "text"},
		{"SPC\r\n0200\r\n1\r\nCH4431999123000889012\r\nS\r\nAnna Secret\r\n", "text"}, // a Swiss QR-bill
		{"SPD*1.0*ACC:CZ5855000000001265098001*AM:480.50*CC:CZK", "text"},             // a Czech payment
		{"skype:anna.secret?call", "text"},
		{"whatsapp://send?phone=4915112345678", "text"},
		{"https://wa.me/4915112345678", "url"},
	} {
		body, _ := json.Marshal(map[string]string{"data": c.data, "format": "json"})
		for _, req := range []*http.Request{
			must.Get(http.NewRequest(http.MethodGet, srv.URL+"/api/qr-code?format=json&data="+url.QueryEscape(c.data), nil))(t),
			must.Get(http.NewRequest(http.MethodPost, srv.URL+"/api/qr-code", bytes.NewReader(body)))(t),
		} {
			req.Header.Set("Content-Type", "application/json")
			res := must.Get(srv.Client().Do(req))(t)
			raw := must.Get(io.ReadAll(res.Body))(t)
			res.Body.Close()
			if res.StatusCode != http.StatusOK {
				t.Fatalf("%s %q: %d %s", req.Method, c.data, res.StatusCode, raw)
			}
			if v, ok := res.Header["X-Qr-Payload"]; ok {
				t.Errorf("%s %q: X-QR-Payload %q", req.Method, c.data, v)
			}
			if got := res.Header.Get("X-QR-Payload-Type"); got != c.typ {
				t.Errorf("%s %q: X-QR-Payload-Type %q, want %q", req.Method, c.data, got, c.typ)
			}
			var r api.Response
			if err := json.Unmarshal(raw, &r); err != nil {
				t.Fatal(err)
			}
			if r.Payload != nil || r.ImageURL != nil || r.SVGURL != nil || r.PayloadType != c.typ ||
				!strings.HasPrefix(r.Markdown, "![QR code](data:image/png;base64,") {
				t.Errorf("%s %q: payload_type %s, payload %v, image_url %v, svg_url %v, markdown %.40q",
					req.Method, c.data, r.PayloadType, r.Payload, r.ImageURL, r.SVGURL, r.Markdown)
			}
			if m := svgTitle.FindStringSubmatch(r.SVG); m == nil || m[1] != "QR code ("+c.typ+")" {
				t.Errorf("%s %q: SVG title %q", req.Method, c.data, m)
			}
			if _, got := qrtest.DecodePNG(t, must.Get(base64.StdEncoding.DecodeString(r.PNGBase64))(t), r.ModulePx); got != c.data {
				t.Errorf("%s %q: the code reads %q", req.Method, c.data, got)
			}
		}
	}
}
