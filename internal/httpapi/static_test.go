package httpapi

import (
	"context"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/bananaqr/bananaqr/internal/logtest"
)

// TestNoneMatch checks If-None-Match's one rule: *, lists, weak tags, several headers.
func TestNoneMatch(t *testing.T) {
	const etag = `"0123456789abcdef"`
	for _, c := range []struct {
		values []string
		want   bool
	}{
		{nil, false},
		{[]string{""}, false},
		{[]string{etag}, true},
		{[]string{"*"}, true},
		{[]string{"W/" + etag}, true},
		{[]string{`"other", ` + etag}, true},
		{[]string{`"other",W/` + etag + `,"more"`}, true},
		{[]string{`"other"`, etag}, true},
		{[]string{`"other"`}, false},
		{[]string{`"0123456789abcdef`}, false},
		{[]string{`0123456789abcdef`}, false},
		{[]string{`"x,` + etag[1:]}, false}, // the tag is "x," then garbage
		{[]string{`W/"0123456789abcde"`}, false},
	} {
		if got := noneMatch(c.values, etag); got != c.want {
			t.Errorf("%q: %v, want %v", c.values, got, c.want)
		}
	}
}

// TestStaticETags checks that the page and the discovery documents answer the same
// If-None-Match forms with 304: a list, a weak tag, *.
func TestStaticETags(t *testing.T) {
	ts := newTestServer(t, Config{})
	for _, path := range []string{"/", "/app.js", "/mcp/server-card", "/.well-known/ai-catalog.json"} {
		etag := ts.get(t, path).header.Get("ETag")
		if etag == "" {
			t.Fatalf("%s: no ETag", path)
		}
		for _, match := range []string{etag, `"stale", ` + etag, "W/" + etag, "*"} {
			r := ts.do(t, http.MethodGet, path, "", map[string]string{"If-None-Match": match})
			if r.status != http.StatusNotModified || len(r.body) != 0 || r.header.Get("ETag") != etag {
				t.Errorf("%s, If-None-Match %s: %d, %d bytes", path, match, r.status, len(r.body))
			}
		}
		if r := ts.do(t, http.MethodGet, path, "", map[string]string{"If-None-Match": `"stale"`}); r.status != http.StatusOK || len(r.body) == 0 {
			t.Errorf("%s with a stale ETag: %d", path, r.status)
		}
	}
}

// TestClientGone checks that a request whose client went away while it waited for its turn is
// logged and counted as 499, not as the 200 of a response never written.
func TestClientGone(t *testing.T) {
	log := &logtest.Buffer{}
	s := New(Config{MaxActive: 1, Logger: slog.New(slog.NewJSONHandler(log, nil))})
	s.gate.Acquire(context.Background()) // the one place is taken: the request waits
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	w := httptest.NewRecorder()
	s.Handler().ServeHTTP(w, httptest.NewRequest(http.MethodGet, "/api/qr-code.svg?text=x", nil).WithContext(ctx))
	if w.Body.Len() != 0 {
		t.Errorf("wrote %q to a client that is gone", w.Body.String())
	}
	if !strings.Contains(log.String(), `"status":499`) {
		t.Errorf("log:\n%s", log.String())
	}
	m := httptest.NewRecorder()
	s.MetricsHandler().ServeHTTP(m, httptest.NewRequest(http.MethodGet, "/metrics", nil))
	if want := `bananaqr_http_requests_total{format="",route="/api/qr-code.svg",status="499"} 1`; !strings.Contains(m.Body.String(), want) {
		t.Errorf("metrics lack %s:\n%s", want, m.Body.String())
	}
}
