package client

import (
	"context"
	"fmt"
	"image/color"
	"strings"
	"testing"

	"github.com/bananaqr/bananaqr/api"
	"github.com/bananaqr/bananaqr/internal/generate"
	"github.com/bananaqr/bananaqr/payload"
	"github.com/bananaqr/bananaqr/qr"
)

// sameModules reports the first module where m and the symbol s differ, outside the square of
// side modules from (first, first) (a logo's pad); "" when they agree.
func sameModules(m *Modules, s *qr.Symbol, first, side int) string {
	if m.Size() != s.Size() {
		return "sizes differ"
	}
	for y := range s.Size() {
		for x := range s.Size() {
			inPad := x >= first && x < first+side && y >= first && y < first+side
			if !inPad && m.Dark(x, y) != s.Dark(x, y) {
				return fmt.Sprintf("module (%d, %d) differs", x, y)
			}
		}
	}
	return ""
}

// TestModules: the modules Client.Modules reads back from the service are those of the
// symbol the service's pipeline makes for the request, whatever its style, and outside a
// logo's pad when it has one; ReadModules reads a styled response's PNG exactly too.
func TestModules(t *testing.T) {
	c := newClient(t, newService(t, nil).URL)
	ctx := context.Background()
	for _, tc := range []struct {
		name  string
		edit  func(*api.Request)
		style bool // ReadModules is checked on the styled JSON response too
	}{
		{"url", func(r *api.Request) {
			r.Payload = payload.Request{Type: payload.URL, URL: "https://example.com/products/12345?ref=newsletter"}
		}, false},
		{"styled", func(r *api.Request) {
			r.Payload, r.ECC, r.Margin, r.Size = payload.Request{Text: "Grüße aus Köln"}, api.LevelH, 1, 128
			r.Color, r.Background, r.Corners = color.RGBA{0x1A, 0x23, 0x7E, 0xFF}, color.RGBA{0xFF, 0xF8, 0xE1, 0xFF}, api.CornersRounded
		}, true},
		{"wifi", func(r *api.Request) {
			r.Payload = payload.Request{Type: payload.WiFi, SSID: "Lab Net", Password: "hunter22", Hidden: true}
		}, false},
		{"logo", func(r *api.Request) {
			r.Payload, r.Logo = payload.Request{Text: strings.Repeat("banana ", 20)}, api.LogoBanana
		}, false},
	} {
		r := api.NewRequest()
		tc.edit(&r)
		_, s, err := generate.Symbol(&r)
		if err != nil {
			t.Fatal(err)
		}
		first, side := s.Cover()
		m, err := c.Modules(ctx, r)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if diff := sameModules(m, s, first, side); diff != "" {
			t.Errorf("%s: %s", tc.name, diff)
		}
		if !tc.style {
			continue
		}
		code, err := c.JSON(ctx, r)
		if err != nil {
			t.Fatal(err)
		}
		if m, err = ReadModules(code.Response); err != nil {
			t.Fatalf("%s: ReadModules: %v", tc.name, err)
		}
		if diff := sameModules(m, s, first, side); diff != "" {
			t.Errorf("%s, read from its own PNG: %s", tc.name, diff)
		}
	}
}

// TestReadModulesRefuses: a JSON response that does not describe its PNG is an error, never a
// grid of guesses; outside the symbol no module is dark.
func TestReadModulesRefuses(t *testing.T) {
	r := api.NewRequest()
	r.Payload = payload.Request{Text: "hello"}
	code, err := newClient(t, newService(t, nil).URL).JSON(context.Background(), r)
	if err != nil {
		t.Fatal(err)
	}
	good := *code.Response
	m, err := ReadModules(&good)
	if err != nil {
		t.Fatal(err)
	}
	if m.Dark(-1, 0) || m.Dark(0, m.Size()) || !m.Dark(0, 0) {
		t.Errorf("Dark outside the symbol, or not at a finder's corner")
	}
	for name, edit := range map[string]func(*api.Response){
		"size":       func(res *api.Response) { res.Size++ },
		"module_px":  func(res *api.Response) { res.ModulePx = 0 },
		"modules":    func(res *api.Response) { res.Modules = 20 },
		"too large":  func(res *api.Response) { res.ModulePx *= 2 },
		"base64":     func(res *api.Response) { res.PNGBase64 = "!" + res.PNGBase64 },
		"png":        func(res *api.Response) { res.PNGBase64 = "aGVsbG8=" },
		"background": func(res *api.Response) { res.Background = "white" },
	} {
		res := good
		edit(&res)
		if m, err := ReadModules(&res); err == nil {
			t.Errorf("%s: read %d modules, want an error", name, m.Size())
		}
	}
}
