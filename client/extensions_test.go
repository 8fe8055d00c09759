package client

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bananaqr/bananaqr/api"
	"github.com/bananaqr/bananaqr/internal/qrtest"
	"github.com/bananaqr/bananaqr/payload"
)

// TestExtensionTypes: the client asks for codes of the bananaqr extension types (tel, geo,
// event, epc) with every vector of payload/testdata/payload-vectors-extensions.json, sending
// the fields as the API names them; each code decodes to exactly the payload, which the answer
// does not echo. Its errors come back as *APIError.
func TestExtensionTypes(t *testing.T) {
	c := newClient(t, newService(t, nil).URL)
	ctx := context.Background()
	vectors := readVectors(t, "payload-vectors-extensions.json")
	n := 0
	for _, typ := range []payload.Type{payload.Tel, payload.Geo, payload.Event, payload.EPC} {
		for i, v := range vectors[typ] {
			v.Input["type"] = string(typ)
			body, _ := json.Marshal(v.Input)
			r, err := api.DecodeJSON(body)
			if err != nil {
				t.Fatalf("%s vector %d: %v", typ, i, err)
			}
			r.Size = 512
			code, err := c.JSON(ctx, r)
			if err != nil {
				t.Fatalf("%s vector %d: %v", typ, i, err)
			}
			res := code.Response
			png, _ := base64.StdEncoding.DecodeString(res.PNGBase64)
			if _, got := qrtest.DecodePNG(t, png, res.ModulePx); got != v.Expected {
				t.Errorf("%s vector %d: decoded %q, want %q", typ, i, got, v.Expected)
			}
			if res.Payload != nil || res.ImageURL != nil || res.PayloadType != string(typ) {
				t.Errorf("%s vector %d: payload %v, image_url %v, type %s", typ, i, res.Payload, res.ImageURL, res.PayloadType)
			}
			n++
		}
	}
	if n < 24 {
		t.Errorf("only %d vectors", n)
	}
	r := api.NewRequest()
	r.Payload = payload.Request{Type: payload.EPC, Name: "Anna", IBAN: "DE89370400440532013001"}
	var e *APIError
	if _, err := c.PNG(ctx, r); !errors.As(err, &e) || e.Status != 400 || e.Reason != payload.ReasonInvalidIBAN || e.Hint == "" {
		t.Errorf("a wrong IBAN: %v", err)
	}
}

// TestPaymentTypes: the client asks for a code of every published vector of the payment types
// (payload/testdata/<type>/vectors.json: swissqr, emvco, upi, spayd, bitcoin), sending the
// fields as the API names them; each code decodes to exactly the payload, which the answer does
// not echo.
func TestPaymentTypes(t *testing.T) {
	c := newClient(t, newService(t, nil).URL)
	ctx := context.Background()
	n := 0
	for _, typ := range []payload.Type{payload.SwissQR, payload.EMVCo, payload.UPI, payload.SPAYD, payload.Bitcoin} {
		data, err := os.ReadFile(filepath.Join("..", "payload", "testdata", string(typ), "vectors.json"))
		if err != nil {
			t.Fatal(err)
		}
		var file struct {
			Build []struct {
				Name     string
				Input    map[string]string
				Expected string
			}
		}
		if err := json.Unmarshal(data, &file); err != nil {
			t.Fatal(err)
		}
		for _, v := range file.Build {
			v.Input["type"] = string(typ)
			body, _ := json.Marshal(v.Input)
			r, err := api.DecodeJSON(body)
			if err != nil {
				t.Fatalf("%s %s: %v", typ, v.Name, err)
			}
			r.Size = 600
			code, err := c.JSON(ctx, r)
			if err != nil {
				t.Fatalf("%s %s: %v", typ, v.Name, err)
			}
			res := code.Response
			png, _ := base64.StdEncoding.DecodeString(res.PNGBase64)
			if _, got := qrtest.DecodePNG(t, png, res.ModulePx); got != v.Expected {
				t.Errorf("%s %s: decoded %q, want %q", typ, v.Name, got, v.Expected)
			}
			if res.Payload != nil || res.ImageURL != nil || res.PayloadType != string(typ) {
				t.Errorf("%s %s: payload %v, image_url %v, type %s", typ, v.Name, res.Payload, res.ImageURL, res.PayloadType)
			}
			n++
		}
	}
	if n < 50 {
		t.Errorf("only %d vectors", n)
	}
}

// TestCaption: the client sends the words' fields (api.Request's Caption, CaptionPosition and
// ShowDestination), and the code with them reads back; the service's refusal of a caption it
// cannot draw comes back as *APIError.
func TestCaption(t *testing.T) {
	c := newClient(t, newService(t, nil).URL)
	ctx := context.Background()
	r := api.NewRequest()
	r.Payload = payload.Request{URL: "https://example.com/menu"}
	r.Caption, r.CaptionPosition, r.ShowDestination, r.Size = "Scan for the menu", api.CaptionAbove, true, 512
	code, err := c.JSON(ctx, r)
	if err != nil {
		t.Fatal(err)
	}
	png, _ := base64.StdEncoding.DecodeString(code.Response.PNGBase64)
	if _, got := qrtest.DecodePNG(t, png, code.Response.ModulePx); got != "https://example.com/menu" {
		t.Errorf("decoded %q", got)
	}
	if !strings.Contains(code.Response.SVG, "Printed with it: Scan for the menu.") {
		t.Errorf("the SVG does not describe its caption: %.300s", code.Response.SVG)
	}
	r.Caption = "扫码"
	var e *APIError
	if _, err := c.PNG(ctx, r); !errors.As(err, &e) || e.Reason != api.ReasonInvalidCaption {
		t.Errorf("a caption of Han characters: %v", err)
	}
}
