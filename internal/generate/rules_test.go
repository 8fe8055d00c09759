package generate

import (
	"testing"

	"github.com/bananaqr/bananaqr/api"
	"github.com/bananaqr/bananaqr/payload"
	"github.com/bananaqr/bananaqr/qr"
	"github.com/bananaqr/bananaqr/render"
)

// TestEPCEncoding: an epc code is encoded at level M exactly, without an ECI, and refuses the
// logo and other levels; other types keep their encoding.
func TestEPCEncoding(t *testing.T) {
	r := api.NewRequest()
	r.Payload.Type = payload.EPC
	if o := Encoding(&r); o.Level != qr.M || !o.NoBoost || !o.NoECI || o.Cover != nil {
		t.Errorf("epc encoding %+v", o)
	}
	if err := Check(&r); err != nil {
		t.Errorf("epc with the defaults: %v", err)
	}
	r.Logo = api.LogoBanana
	if e := api.ErrorOf(Check(&r)); e.Reason != api.ReasonInvalidValue || e.Field != "logo" || e.Hint == "" {
		t.Errorf("epc with the banana: %+v", e)
	}
	r.Logo, r.ECC = api.LogoNone, api.LevelH
	if e := api.ErrorOf(Check(&r)); e.Reason != api.ReasonInvalidValue || e.Field != "ecc" || e.Hint == "" {
		t.Errorf("epc at H: %+v", e)
	}
	for _, typ := range []payload.Type{payload.Tel, payload.Geo, payload.Event, payload.WiFi, ""} {
		r := api.NewRequest()
		r.Payload.Type, r.ECC, r.Logo = typ, api.LevelQ, api.LogoBanana
		if o := Encoding(&r); o.Level != qr.Q || o.NoBoost || o.NoECI || o.Cover == nil || Check(&r) != nil {
			t.Errorf("%s: encoding %+v, check %v", typ, o, Check(&r))
		}
	}
}

// TestWireMatchesCore: the API's limits, defaults, colours and enumerations, which package api
// declares without importing the core, say what the renderer's and the encoder's do.
func TestWireMatchesCore(t *testing.T) {
	if api.MinSize != render.MinSize || api.MaxSize != render.MaxSize || api.MaxMargin != render.MaxMargin || api.MaxCaption != render.MaxCaption {
		t.Errorf("api limits %d..%d, margin ..%d, caption %d; render %d..%d, ..%d, %d", api.MinSize, api.MaxSize, api.MaxMargin, api.MaxCaption,
			render.MinSize, render.MaxSize, render.MaxMargin, render.MaxCaption)
	}
	d, rd := api.NewRequest(), render.Defaults()
	if o := Options(&d); o != rd {
		t.Errorf("the API's defaults draw as %+v, render's are %+v", o, rd)
	}
	for _, s := range []string{"7B260F", "#ffffff", "#00aAfF"} {
		if a, err := api.ParseColor(s); err != nil || api.FormatColor(a) != render.FormatColor(a) {
			t.Errorf("%q: api writes %s, render %s (%v)", s, api.FormatColor(a), render.FormatColor(a), err)
		}
	}
	for _, name := range api.StyleValues("ecc") {
		r := api.NewRequest()
		if err := r.SetStyle("ecc", name); err != nil {
			t.Fatal(err)
		}
		if got := level(r.ECC).String(); got != name {
			t.Errorf("ecc %s encodes at level %s", name, got)
		}
	}
	for _, tt := range []struct {
		logo    api.Logo
		corners api.Corners
		want    render.Options
	}{
		{api.LogoNone, api.CornersSquare, render.Options{Logo: render.NoLogo, Corners: render.Square}},
		{api.LogoBanana, api.CornersRounded, render.Options{Logo: render.Banana, Corners: render.Rounded}},
	} {
		r := api.Request{Logo: tt.logo, Corners: tt.corners}
		if o := Options(&r); o.Logo != tt.want.Logo || o.Corners != tt.want.Corners {
			t.Errorf("logo %s, corners %s draw as %+v", tt.logo, tt.corners, o)
		}
	}
}
