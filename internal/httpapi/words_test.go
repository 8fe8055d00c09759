package httpapi

import (
	"bytes"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/bananaqr/bananaqr/api"
	"github.com/bananaqr/bananaqr/internal/qrtest"
)

// TestWords: a caption and the destination over GET and POST, through the contract: the SVG keeps
// its size, says the caption and the destination in its description, and hides the outlines;
// the JSON answer's links carry the caption; refusals come with their codes.
func TestWords(t *testing.T) {
	ts := newTestServer(t, Config{})
	q := url.Values{"url": {"https://example.com/menu"}, "caption": {"Scan for the menu"}, "caption_position": {"above"},
		"show_destination": {"1"}, "size": {"512"}}
	r := ts.get(t, "/api/qr-code?"+q.Encode())
	if r.status != http.StatusOK {
		t.Fatalf("%d %s", r.status, r.body)
	}
	svg := string(r.body)
	for _, want := range []string{`width="512" height="512"`, `aria-labelledby="`, "<desc id=", "Printed with it: Scan for the menu.",
		"It leads to example.com/menu.", `<path aria-hidden="true"`} {
		if !strings.Contains(svg, want) {
			t.Errorf("the SVG lacks %q: %.400s", want, svg)
		}
	}
	post := ts.post(t, `{"url":"https://example.com/menu","caption":"Scan for the menu","format":"json"}`)
	if post.status != http.StatusOK {
		t.Fatalf("%d %s", post.status, post.body)
	}
	if j := post.json(t); j.ImageURL == nil || !strings.Contains(*j.ImageURL, "caption=Scan+for+the+menu") {
		t.Errorf("image_url %v does not carry the caption", j.ImageURL)
	}
	for _, c := range []struct {
		target string
		body   string
		status int
		code   api.Reason
	}{
		{target: "/api/qr-code?url=example.com&caption=" + url.QueryEscape("扫码点餐"), status: 400, code: api.ReasonInvalidCaption},
		{target: "/api/qr-code?url=example.com&caption=" + strings.Repeat("x", 41), status: 400, code: api.ReasonInvalidCaption},
		{target: "/api/qr-code?text=hello&show_destination=true", status: 400, code: api.ReasonInvalidValue},
		{body: `{"type":"wifi","ssid":"Cafe","password":"hunter22","show_destination":true}`, status: 400, code: api.ReasonInvalidValue},
		{body: `{"url":"example.com","caption_position":"left"}`, status: 400, code: api.ReasonInvalidValue},
	} {
		var res *result
		if c.body != "" {
			res = ts.post(t, c.body)
		} else {
			res = ts.get(t, c.target)
		}
		e := res.wantError(t, c.status, c.code)
		if c.code == api.ReasonInvalidCaption && strings.Contains(c.target, "%E6") && !strings.Contains(e.Message, "U+626B") {
			t.Errorf("the message does not name the character: %+v", e)
		}
	}
}

// TestBatchWords: a batch's items take the words like any request: each captioned PNG reads back
// and is the one POST /api/qr-code makes.
func TestBatchWords(t *testing.T) {
	ts := newTestServer(t, Config{})
	item := `{"url":"https://example.com/menu","caption":"Scan for the menu","show_destination":true,"format":"png","size":512}`
	r := ts.postBatch(t, `[`+item+`,{"text":"Привет","caption":"Сканируйте","caption_position":"above","format":"png"}]`, batchCaller())
	if r.status != http.StatusOK {
		t.Fatalf("%d %s", r.status, r.body)
	}
	names, files := qrtest.Unzip(t, r.body)
	if len(names) != 2 {
		t.Fatalf("files %q", names)
	}
	for name, want := range map[string]string{names[0]: "https://example.com/menu", names[1]: "Привет"} {
		if _, text := qrtest.DecodePNG(t, files[name], 0); text != want {
			t.Errorf("%s reads %q, want %q", name, text, want)
		}
	}
	if single := ts.post(t, item); !bytes.Equal(single.body, files[names[0]]) {
		t.Error("the batch's captioned PNG differs from POST /api/qr-code's")
	}
}
