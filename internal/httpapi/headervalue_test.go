package httpapi

import (
	"encoding/json"
	"net/http"
	"net/url"
	"strconv"
	"strings"
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

// X-QR-Version and X-QR-ECC say what the JSON answer's version and ecc say, in every format.
func TestVersionAndLevelHeaders(t *testing.T) {
	srv := newTestServer(t, Config{})
	for _, q := range []string{"url=example.com&ecc=L", "text=" + strings.Repeat("x", 300) + "&ecc=Q", "url=example.com&logo=banana"} {
		var answer struct {
			Version int    `json:"version"`
			ECC     string `json:"ecc"`
		}
		r := srv.get(t, "/api/qr-code?format=json&"+q)
		if err := json.Unmarshal(r.body, &answer); err != nil {
			t.Fatal(err)
		}
		for _, format := range []string{"json", "svg", "png", "pdf"} {
			h := srv.get(t, "/api/qr-code?format="+format+"&"+q).header
			if h.Get("X-QR-Version") != strconv.Itoa(answer.Version) || h.Get("X-QR-ECC") != answer.ECC {
				t.Errorf("%s, %s: X-QR-Version %q, X-QR-ECC %q; the JSON answer says %d, %s", q, format,
					h.Get("X-QR-Version"), h.Get("X-QR-ECC"), answer.Version, answer.ECC)
			}
		}
	}
}
