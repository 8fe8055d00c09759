package httpapi

import (
	"net/http"
	"net/url"
	"testing"
)

// X-QR-Payload carries a public payload as it is, or percent-encoded when a client could not
// read it back exactly: bytes outside printable ASCII, or white space at either end, which
// clients strip from a field value (RFC 9110 5.5).
func TestHeaderValue(t *testing.T) {
	for _, c := range []struct {
		text, want string
		encoded    bool
	}{
		{"https://example.com/a?b=c", "https://example.com/a?b=c", false},
		{"two words", "two words", false},
		{" lead", "%20lead", true},
		{"trail ", "trail%20", true},
		{"a\tb", "a%09b", true},
		{"Grüße", "Gr%C3%BC%C3%9Fe", true},
		{"", "", false},
	} {
		got, encoded := headerValue(c.text)
		if got != c.want || encoded != c.encoded {
			t.Errorf("headerValue(%q) = %q, %v; want %q, %v", c.text, got, encoded, c.want, c.encoded)
		}
		if encoded {
			if back, err := url.PathUnescape(got); err != nil || back != c.text {
				t.Errorf("%q decodes to %q, %v", got, back, err)
			}
		}
	}
	// Through the handler and a real client: the text's spaces survive.
	srv := newTestServer(t, Config{})
	r := srv.get(t, "/api/qr-code.svg?text=%20padded%20")
	if r.status != http.StatusOK || r.header.Get("X-QR-Payload") != "%20padded%20" || r.header.Get("X-QR-Payload-Encoding") != "percent" {
		t.Errorf("%d, X-QR-Payload %q, encoding %q", r.status, r.header.Get("X-QR-Payload"), r.header.Get("X-QR-Payload-Encoding"))
	}
}
