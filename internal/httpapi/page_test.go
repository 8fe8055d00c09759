package httpapi

import (
	"net/http"
	"strings"
	"testing"
)

// TestPage checks that the web page and its files are served with a content security policy
// that keeps the page on this service, and an ETag.
func TestPage(t *testing.T) {
	ts := newTestServer(t, Config{})
	for path, contentType := range map[string]string{"/": "text/html", "/style.css": "text/css", "/app.js": "text/javascript"} {
		r := ts.get(t, path)
		if r.status != http.StatusOK || !strings.HasPrefix(r.header.Get("Content-Type"), contentType) || len(r.body) == 0 {
			t.Fatalf("%s: %d %q", path, r.status, r.header.Get("Content-Type"))
		}
		csp := r.header.Get("Content-Security-Policy")
		if !strings.Contains(csp, "default-src 'self'") || !strings.Contains(csp, "connect-src 'self'") {
			t.Errorf("%s: CSP %q", path, csp)
		}
		again := ts.do(t, http.MethodGet, path, "", map[string]string{"If-None-Match": r.header.Get("ETag")})
		if again.status != http.StatusNotModified {
			t.Errorf("%s with its ETag: %d", path, again.status)
		}
	}
}
