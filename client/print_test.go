package client

import (
	"context"
	"testing"

	"github.com/bananaqr/bananaqr/api"
	"github.com/bananaqr/bananaqr/internal/generate"
	"github.com/bananaqr/bananaqr/payload"
	"github.com/bananaqr/bananaqr/qr"
	"github.com/bananaqr/bananaqr/render"
)

// TestPrintFormats: PDF and EPS give the files package render draws for the same request,
// byte for byte, whatever r.Format says.
func TestPrintFormats(t *testing.T) {
	c := newClient(t, newService(t, nil).URL)
	r := api.NewRequest()
	r.Payload = payload.Request{Type: payload.Text, Text: "print"}
	r.Format, r.Size, r.Corners = api.FormatPNG, 512, api.CornersRounded
	s, err := qr.Encode("print", generate.Encoding(&r))
	if err != nil {
		t.Fatal(err)
	}
	o := generate.Options(&r)
	o.Title = "QR code: print"
	for name, c := range map[string]struct {
		get  func(context.Context, api.Request) (*Code, error)
		draw func(*qr.Symbol, render.Options) ([]byte, error)
	}{"PDF": {c.PDF, render.PDF}, "EPS": {c.EPS, render.EPS}} {
		got, err := c.get(context.Background(), r)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		o := o // each format its own, whichever the map gives first
		if name == "EPS" {
			o.Title = "" // an EPS has no title
		}
		want, _ := c.draw(s, o)
		if string(got.Bytes) != string(want) {
			t.Errorf("%s: %d bytes from the service, render draws %d", name, len(got.Bytes), len(want))
		}
	}
}
