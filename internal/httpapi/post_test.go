package httpapi

import (
	"bytes"
	"encoding/base64"
	"net/http"
	"strings"
	"testing"

	"github.com/bananaqr/bananaqr/api"
	"github.com/bananaqr/bananaqr/internal/qrtest"
)

// TestPost makes a code of every type with POST, aliases included, and reads each back; private
// payloads are echoed nowhere.
func TestPost(t *testing.T) {
	ts := newTestServer(t, Config{})
	for _, c := range []struct {
		body, typ, payload string
		private            bool
	}{
		{`{"type":"url","url":"example.com/a b"}`, "url", "https://example.com/a%20b", false},
		{`{"url":"example.com"}`, "url", "https://example.com", false},
		{`{"type":"text","text":"Hello\nWorld"}`, "text", "Hello\nWorld", false},
		{`{"type":"wifi","ssid":"Café ☕","password":"pässwörd","hidden":true}`, "wifi", "WIFI:T:WPA;S:Café ☕;P:pässwörd;H:true;;", true},
		{`{"type":"wifi","ssid":"Old","password":"12345","encryption":"WEP"}`, "wifi", "WIFI:T:WEP;S:Old;P:12345;;", true},
		{`{"type":"vcard","name":"Müller, Anna","organization":"ACME","jobTitle":"CEO","phone":"+49 30 1","email":"a@b.de","website":"b.de"}`, "vcard",
			"BEGIN:VCARD\r\nVERSION:3.0\r\nN:Müller;Anna;;;\r\nFN:Müller\\, Anna\r\nORG:ACME\r\nTITLE:CEO\r\nTEL:+49 30 1\r\nEMAIL:a@b.de\r\nURL:https://b.de\r\nEND:VCARD\r\n", true},
		{`{"type":"vcard","firstName":"Jane","lastName":"Doe","title":"CTO","url":"jane.example"}`, "vcard",
			"BEGIN:VCARD\r\nVERSION:3.0\r\nN:Doe;Jane;;;\r\nFN:Jane Doe\r\nTITLE:CTO\r\nURL:https://jane.example\r\nEND:VCARD\r\n", true},
		{`{"type":"email","to":"anna+qr@example.com","subject":"Hi there","message":"a\nb"}`, "email",
			"mailto:anna%2Bqr@example.com?subject=Hi%20there&body=a%0D%0Ab", true},
		{`{"type":"email","email":"a@b.com","body":"x"}`, "email", "mailto:a@b.com?body=x", true},
		{`{"type":"sms","phone":"+1 (555) 123-4567","message":"Meet at 10:30"}`, "sms", "SMSTO:+15551234567:Meet at 10:30", true},
		{`{"data":"WIFI:T:WPA;S:Raw;P:rawpass1;;"}`, "wifi", "WIFI:T:WPA;S:Raw;P:rawpass1;;", true},
		{`{"data":"anything at all","type":"text"}`, "text", "anything at all", false},
		{`{"type":"wifi","data":"WIFI:T:nopass;S:x;;"}`, "wifi", "WIFI:T:nopass;S:x;;", true},
	} {
		body := strings.TrimSuffix(c.body, "}") + `,"format":"json"}`
		r := ts.post(t, body)
		if r.status != http.StatusOK {
			t.Fatalf("%s: %d %s", c.body, r.status, r.body)
		}
		j := r.json(t)
		if j.PayloadType != c.typ || j.Type != c.typ || r.header.Get("X-QR-Payload-Type") != c.typ {
			t.Errorf("%s: type %s", c.body, j.PayloadType)
		}
		pngData, _ := base64.StdEncoding.DecodeString(j.PNGBase64)
		if _, text := qrtest.DecodePNG(t, pngData, 4); text != c.payload {
			t.Errorf("%s: reads %q, want %q", c.body, text, c.payload)
		}
		if c.private {
			if j.Payload != nil || j.ImageURL != nil || j.SVGURL != nil || !strings.HasPrefix(j.Markdown, "![QR code](data:image/png;base64,") ||
				r.header.Get("X-QR-Payload") != "" {
				t.Errorf("%s: a private payload echoed: %v %v %v %q %q", c.body, j.Payload, j.ImageURL, j.SVGURL, j.Markdown[:30], r.header.Get("X-QR-Payload"))
			}
			if secret := c.payload[len(c.payload)/2:]; strings.Contains(j.SVG, secret) || strings.Contains(j.Markdown, secret) {
				t.Errorf("%s: the SVG or markdown shows the payload", c.body)
			}
		} else if j.Payload == nil || *j.Payload != c.payload || j.ImageURL == nil {
			t.Errorf("%s: payload %v, image_url %v", c.body, j.Payload, j.ImageURL)
		}
	}
}

// TestStyle covers the style parameters: size, colours, logo (which spares its pad without a
// larger symbol where it can), corners, ecc, margin, download.
func TestStyle(t *testing.T) {
	ts := newTestServer(t, Config{})
	r := ts.post(t, `{"type":"url","url":"example.com","format":"json","logo":"banana","ecc":"L","corners":"rounded","size":512,"margin":0,"color":"#000000","background":"FFFFFF","download":true}`)
	if r.status != http.StatusOK {
		t.Fatalf("%d %s", r.status, r.body)
	}
	j := r.json(t)
	// https://example.com fits version 2 at level Q (raised from L for free); the logo's pad
	// costs that symbol no more than it can spare, so it stays.
	if j.Version != 2 || j.ECC != "Q" || j.Logo != "banana" || j.Size != 512 || j.Margin != 0 || j.Color != "#000000" || j.ModulePx != 512/j.Modules {
		t.Errorf("%+v", j)
	}
	if w := r.header.Get("X-QR-Warning"); w != api.ReasonSmallQuietZone {
		t.Errorf("X-QR-Warning %q for margin 0", w)
	}
	if d := r.header.Get("Content-Disposition"); d != `attachment; filename="qr-url.json"` || r.header.Get("X-QR-Logo") != "banana" {
		t.Errorf("Content-Disposition %q, X-QR-Logo %q", d, r.header.Get("X-QR-Logo"))
	}
	if !strings.Contains(*j.ImageURL, "logo=banana") || !strings.Contains(*j.ImageURL, "size=512") || !strings.Contains(*j.ImageURL, "margin=0") {
		t.Errorf("image_url %s", *j.ImageURL)
	}
	for _, target := range []string{"/api/qr-code.png?url=a.com&download=1", "/api/qr-code.png?url=a.com&download=true"} {
		if d := ts.get(t, target).header.Get("Content-Disposition"); d != `attachment; filename="qr-url.png"` {
			t.Errorf("%s: %q", target, d)
		}
	}
	if d := ts.get(t, "/api/qr-code.png?url=a.com&download=0").header.Get("Content-Disposition"); d != `inline; filename="qr-url.png"` {
		t.Errorf("download=0: %q", d)
	}
	small := ts.get(t, "/api/qr-code.png?url=a.com&size=128")
	img, _ := qrtest.DecodePNG(t, small.body, 4)
	if img.Bounds().Dx() != 128 {
		t.Errorf("size 128 gives %v", img.Bounds())
	}
	// The tracking parameters of links are ignored.
	if r := ts.get(t, "/api/qr-code.svg?url=a.com&utm_source=x&fbclid=y"); r.status != http.StatusOK {
		t.Errorf("tracking parameters: %d", r.status)
	}
	// Wi-Fi values that old Android misreads come with a warning.
	w := ts.post(t, `{"type":"wifi","ssid":"net\\","password":"hunter22","format":"png"}`)
	if w.status != http.StatusOK || w.header.Get("X-QR-Warning") != "LEGACY_ANDROID_WIFI" {
		t.Errorf("warning: %d %q", w.status, w.header.Get("X-QR-Warning"))
	}
	if j := ts.post(t, `{"type":"wifi","ssid":"net\\","password":"hunter22","format":"json"}`).json(t); len(j.Warnings) != 1 || j.Warnings[0].Field != "ssid" {
		t.Errorf("warnings %+v", j.Warnings)
	}
	if !bytes.Contains(ts.get(t, "/api/qr-code.svg?url=a.com&corners=rounded").body, []byte("<path")) {
		t.Error("rounded SVG without a path")
	}
}

// TestLogoTooCostly: a payload that fits only at level L, where no symbol can spare the logo's
// pad, is 422 NOT_ENCODABLE naming the logo; without the logo it is made.
func TestLogoTooCostly(t *testing.T) {
	ts := newTestServer(t, Config{})
	text := strings.Repeat("ü", 1200) // 2,400 bytes: more than version 40-M holds
	r := ts.post(t, `{"text":"`+text+`","ecc":"L","logo":"banana","format":"png"}`)
	if e := r.wantError(t, http.StatusUnprocessableEntity, api.ReasonNotEncodable); !strings.Contains(e.Hint, "logo=none") {
		t.Errorf("hint %q", e.Hint)
	}
	if r := ts.post(t, `{"text":"`+text+`","ecc":"L","format":"png"}`); r.status != http.StatusOK {
		t.Errorf("without the logo: %d %s", r.status, r.body)
	}
}
