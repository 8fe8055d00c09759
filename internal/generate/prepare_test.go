package generate_test

import (
	"bytes"
	"reflect"
	"strings"
	"testing"

	"github.com/bananaqr/bananaqr/api"
	"github.com/bananaqr/bananaqr/internal/generate"
	"github.com/bananaqr/bananaqr/payload"
)

// TestPrepareMakesCode checks that Prepare and then Make make what Code makes, byte for byte, in
// every format, with and without the logo, for a private payload, a quiet zone that warns and a
// symbol raised to a larger version to spare the logo; and that what Prepare decided (the
// symbol's size, the pixels a module) is what Make drew.
func TestPrepareMakesCode(t *testing.T) {
	wifi := payload.Request{Type: payload.WiFi, SSID: "home", Password: "correct horse"}
	long := text("https://example.com/a/rather/longer/path?with=a&query=string")
	cases := map[string]func(r *api.Request){
		"svg":        func(r *api.Request) {},
		"png":        func(r *api.Request) { r.Format = api.FormatPNG },
		"json":       func(r *api.Request) { r.Format = api.FormatJSON },
		"pdf":        func(r *api.Request) { r.Format = api.FormatPDF },
		"eps logo":   func(r *api.Request) { r.Format, r.Logo, r.Corners = api.FormatEPS, api.LogoBanana, api.CornersRounded },
		"logo at H":  func(r *api.Request) { r.Payload, r.ECC, r.Logo = long, api.LevelH, api.LogoBanana },
		"private":    func(r *api.Request) { r.Payload = wifi },
		"margin 0":   func(r *api.Request) { r.Margin, r.Format = 0, api.FormatPNG },
		"long text":  func(r *api.Request) { r.Payload, r.ECC = text(strings.Repeat("Grüße 2026, ", 100)), api.LevelL },
		"small size": func(r *api.Request) { r.Size = 128 },
	}
	for name, set := range cases {
		r := request(text("hello"))
		set(&r)
		want, err := generate.Code(&r)
		if err != nil {
			t.Fatalf("%s: Code: %v", name, err)
		}
		c, err := generate.Prepare(&r)
		if err != nil {
			t.Fatalf("%s: Prepare: %v", name, err)
		}
		got, err := c.Make()
		if err != nil {
			t.Fatalf("%s: Make: %v", name, err)
		}
		if !bytes.Equal(got.SVG, want.SVG) || !bytes.Equal(got.PNG, want.PNG) || !bytes.Equal(got.PDF, want.PDF) ||
			!bytes.Equal(got.EPS, want.EPS) || !reflect.DeepEqual(got.Warnings, want.Warnings) ||
			got.Payload.Text != want.Payload.Text || got.ModulePx != want.ModulePx {
			t.Errorf("%s: Prepare and Make differ from Code", name)
		}
		if c.Symbol.Size() != got.Symbol.Size() || c.Symbol.Version() != want.Symbol.Version() || c.ModulePx != got.ModulePx {
			t.Errorf("%s: prepared %d modules (version %d), %d px a module; made %d modules, %d px a module",
				name, c.Symbol.Size(), c.Symbol.Version(), c.ModulePx, got.Symbol.Size(), got.ModulePx)
		}
		got.Release()
		want.Release()
	}
}
