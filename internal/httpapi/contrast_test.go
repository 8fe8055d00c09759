package httpapi

import (
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/bananaqr/bananaqr/api"
	"github.com/bananaqr/bananaqr/internal/ratelimit"
)

// contrastOf asks GET /api/contrast about color on background.
func contrastOf(t *testing.T, ts *testServer, color, background string) api.Contrast {
	t.Helper()
	q := url.Values{}
	if color != "" {
		q.Set("color", color)
	}
	if background != "" {
		q.Set("background", background)
	}
	r := ts.get(t, "/api/contrast?"+q.Encode())
	if r.status != http.StatusOK || r.header.Get("Cache-Control") != "public, max-age=86400" {
		t.Fatalf("%d %s %s", r.status, r.header.Get("Cache-Control"), r.body)
	}
	var c api.Contrast
	if err := json.Unmarshal(r.body, &c); err != nil {
		t.Fatal(err)
	}
	return c
}

// TestContrast checks GET /api/contrast against the codes themselves: a pair it calls readable
// makes a code, one it calls unreadable gets LOW_CONTRAST whose hint names the suggested colour,
// and the suggestion makes a code. It is never rate-limited.
func TestContrast(t *testing.T) {
	ts := newTestServer(t, Config{Limiter: ratelimit.NewMemory(1, time.Minute, nil)})
	def := contrastOf(t, ts, "", "")
	if !def.Readable || def.Color != "#7B260F" || def.Background != "#FFFFFF" || def.Suggestion != (api.ColorPair{Color: "#7B260F", Background: "#FFFFFF"}) ||
		def.Rule.MaxLumaRatio != 0.45 || def.Rule.MinLumaDifference != 48 || def.Rule.MinWCAG != 3 {
		t.Errorf("defaults: %+v", def)
	}
	for _, pair := range [][2]string{{"E0701A", "FFF8E1"}, {"#808080", "FFFFFF"}, {"FFFFFF", "000000"}, {"222222", "444444"}, {"1A237E", "FFF8E1"}} {
		c := contrastOf(t, ts, pair[0], pair[1])
		// The codes are made by a server without a limit: ts allows one a minute.
		codes := newTestServer(t, Config{})
		body := `{"text":"hi","color":"` + pair[0] + `","background":"` + pair[1] + `"}`
		r := codes.post(t, body)
		if c.Readable {
			if r.status != http.StatusOK || c.Suggestion.Color != c.Color || c.Suggestion.Background != c.Background {
				t.Errorf("%v: readable, yet %d %s; %+v", pair, r.status, r.body, c)
			}
			continue
		}
		e := r.wantError(t, http.StatusBadRequest, api.ReasonLowContrast)
		named := c.Suggestion.Color
		if c.Suggestion.Color == c.Color {
			named = c.Suggestion.Background
		}
		if !strings.Contains(e.Hint, named) || !strings.Contains(c.Message, "Hard for QR readers") {
			t.Errorf("%v: hint %q does not name %s; %+v", pair, e.Hint, named, c)
		}
		if again := contrastOf(t, ts, c.Suggestion.Color, c.Suggestion.Background); !again.Readable {
			t.Errorf("%v: the suggestion %+v is not readable", pair, c.Suggestion)
		}
		body = `{"text":"hi","color":"` + c.Suggestion.Color + `","background":"` + c.Suggestion.Background + `"}`
		if r := codes.post(t, body); r.status != http.StatusOK {
			t.Errorf("%v: the suggestion gives %d %s", pair, r.status, r.body)
		}
	}
	ts.get(t, "/api/contrast?color=12345").wantError(t, http.StatusBadRequest, api.ReasonInvalidColor)
	ts.get(t, "/api/contrast?color=000000&color=111111").wantError(t, http.StatusBadRequest, api.ReasonInvalidQuery)
	// The contrast checks used none of the one code a minute that ts allows.
	if r := ts.get(t, "/api/qr-code?text=hi"); r.status != http.StatusOK {
		t.Fatalf("the first code: %d %s", r.status, r.body)
	}
	ts.get(t, "/api/qr-code?text=hi").wantError(t, http.StatusTooManyRequests, api.ReasonRateLimited)
}
