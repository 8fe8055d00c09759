package api

import (
	"errors"
	"image/color"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/bananaqr/bananaqr/payload"
)

// checkDecoded checks what a decoder returned: a request within the limits, or a typed error with
// a code, a status, a message and a hint.
func checkDecoded(t *testing.T, in string, r Request, err error) {
	if err != nil {
		var e *Error
		var p *payload.Error
		switch {
		case errors.As(err, &e):
			if e.Reason == "" || e.Status < 400 || e.Message == "" || e.Hint == "" {
				t.Fatalf("%q: error %+v", in, e)
			}
		case errors.As(err, &p):
			if p.Reason == "" || p.Hint == "" {
				t.Fatalf("%q: error %+v", in, p)
			}
		default:
			t.Fatalf("%q: untyped error %v", in, err)
		}
		return
	}
	if r.Size < MinSize || r.Size > MaxSize || r.Margin < 0 || r.Margin > MaxMargin || !slices.Contains(StyleValues("format"), string(r.Format)) {
		t.Fatalf("%q: request out of range: %+v", in, r)
	}
}

// checkEncodes checks that EncodeJSON writes r as a body that DecodeJSON reads back as r.
func checkEncodes(t *testing.T, in string, r Request) {
	body, err := EncodeJSON(&r)
	if err != nil {
		t.Fatalf("%q: EncodeJSON(%+v): %v", in, r, err)
	}
	back, err := DecodeJSON(body)
	if err != nil || !reflect.DeepEqual(back, r) {
		t.Fatalf("%q: %+v\nencodes as %s\nwhich decodes as %+v, %v", in, r, body, back, err)
	}
}

// FuzzFromQuery: reading any query string never panics, and gives a request within the limits
// (which EncodeJSON writes as a body that reads back as it) or a typed error.
func FuzzFromQuery(f *testing.F) {
	for _, s := range []string{"url=example.com", "text=a&size=2048&margin=0&format=png&download=1", "type=wifi&ssid=x",
		"size=1&size=2", "x=%zz", "text=%FF", "color=12345g&logo=banana&ecc=H&corners=rounded", "data=a&type=text"} {
		f.Add(s, uint8(0))
	}
	f.Fuzz(func(t *testing.T, query string, route uint8) {
		r, err := FromQuery(query, Route(route%4))
		checkDecoded(t, query, r, err)
		if err == nil {
			checkEncodes(t, query, r)
		}
	})
}

// FuzzDecodeJSON: reading any body never panics, and gives a request within the limits or a
// typed error.
func FuzzDecodeJSON(f *testing.F) {
	for _, s := range []string{`{"type":"url","url":"example.com"}`, `{"type":"wifi","ssid":"x","password":"hunter22","hidden":true}`,
		`{"text":"a","size":1024.0}`, `{"text":"a\ud800"}`, `{"a":1} {}`, `[]`, `{"size":"1"}`, `{"margin":-1}`, `{"download":true,"format":"png"}`,
		`{"type":"geo","latitude":48.8582,"longitude":"-0.5","altitude":1e2}`, `{"type":"epc","name":"A","iban":"DE89370400440532013000","amount":12.30}`,
		`{"type":"event","summary":"x","start":"2026-12-24T18:00+01:00"}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		r, err := DecodeJSON(body)
		checkDecoded(t, string(body), r, err)
		if err == nil { // what decodes, encodes back to itself, and builds or fails with a typed error
			checkEncodes(t, string(body), r)
			if _, err := payload.Build(&r.Payload); err != nil {
				var p *payload.Error
				if !errors.As(err, &p) {
					t.Fatalf("%q: %v", body, err)
				}
			}
		}
	})
}

func TestEncodeJSON(t *testing.T) {
	r := NewRequest()
	if body, err := EncodeJSON(&r); err != nil || string(body) != `{}` {
		t.Errorf("the defaults encode as %s, %v; want {}", body, err)
	}
	r.Payload = payload.Request{Type: payload.WiFi, SSID: "Lab", Password: "hunter22", Hidden: true}
	r.Format, r.Download, r.Size, r.Margin, r.ECC = FormatPNG, true, 512, 0, LevelQ
	r.Logo, r.Corners, r.Color = LogoBanana, CornersRounded, color.RGBA{0x12, 0x34, 0x56, 0xff}
	const want = `{"color":"123456","corners":"rounded","download":true,"ecc":"Q","format":"png","hidden":true,` +
		`"logo":"banana","margin":0,"password":"hunter22","size":512,"ssid":"Lab","type":"wifi"}`
	if body, err := EncodeJSON(&r); err != nil || string(body) != want {
		t.Errorf("EncodeJSON = %s, %v\nwant %s", body, err, want)
	}
	r.Payload.SSID = "Lab\xff"
	var e *Error
	if _, err := EncodeJSON(&r); !errors.As(err, &e) || e.Reason != payload.ReasonInvalidText || e.Field != "ssid" {
		t.Errorf("invalid UTF-8: %v", err)
	}
}

// TestDecodeJSONDeterministic: a body with several faults always gets the same error (the
// properties are checked in name order).
func TestDecodeJSONDeterministic(t *testing.T) {
	body := []byte(`{"size":"x","color":"zz","logo":"q","bogus":1}`)
	_, first := DecodeJSON(body)
	var e *Error
	if !errors.As(first, &e) || e.Field != "bogus" || e.Reason != ReasonUnknownField {
		t.Fatalf("first fault in name order: %v", first)
	}
	for range 100 {
		if _, err := DecodeJSON(body); err.Error() != first.Error() {
			t.Fatalf("%v, then %v", first, err)
		}
	}
	if _, err := DecodeJSON([]byte(`{"size":"1"}`)); !strings.Contains(err.Error(), "size must be a JSON integer") {
		t.Errorf("wrong-type message: %v", err)
	}
}
