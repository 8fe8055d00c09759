package httpapi

import (
	"bufio"
	"encoding/json"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/bananaqr/bananaqr/api"
)

// raw sends a request written by hand to ts and reads the first response.
func raw(t *testing.T, ts *testServer, request string) (*http.Response, []byte) {
	t.Helper()
	c, err := net.Dial("tcp", strings.TrimPrefix(ts.URL, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	c.SetDeadline(time.Now().Add(5 * time.Second))
	if _, err := c.Write([]byte(request)); err != nil {
		t.Fatal(err)
	}
	res, err := http.ReadResponse(bufio.NewReader(c), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var body []byte
	buf := make([]byte, 64<<10)
	for {
		n, err := res.Body.Read(buf)
		body = append(body, buf[:n]...)
		if err != nil {
			break
		}
	}
	return res, body
}

// TestHeadersTooLarge: headers over 16 KiB get 431 with the error object, on any path.
func TestHeadersTooLarge(t *testing.T) {
	ts := newTestServer(t, Config{})
	big := map[string]string{"X-Padding": strings.Repeat("a", 20<<10)}
	for _, target := range []string{"/api/qr-code?url=example.com", "/healthz", "/no/such/path"} {
		r := ts.do(t, http.MethodGet, target, "", big)
		r.wantError(t, http.StatusRequestHeaderFieldsTooLarge, api.ReasonHeadersTooLarge)
	}
	if r := ts.do(t, http.MethodGet, "/healthz", "", map[string]string{"X-Padding": strings.Repeat("a", 15<<10)}); r.status != http.StatusOK {
		t.Errorf("15 KiB of headers: %d", r.status)
	}
}

// TestExpectContinueTooLarge: a body declared over 64 KiB with Expect: 100-continue is refused
// at once with 413, never invited with 100 Continue.
func TestExpectContinueTooLarge(t *testing.T) {
	ts := newTestServer(t, Config{})
	res, body := raw(t, ts, "POST /api/qr-code HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"+
		"Content-Length: 10000000\r\nExpect: 100-continue\r\n\r\n")
	var e api.ErrorBody
	if res.StatusCode != http.StatusRequestEntityTooLarge || json.Unmarshal(body, &e) != nil || e.Reason != string(api.ReasonBodyTooLarge) {
		t.Fatalf("%d %s", res.StatusCode, body)
	}
	// A small declared body is still invited and served.
	res, body = raw(t, ts, "POST /api/qr-code HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"+
		"Content-Length: 12\r\nExpect: 100-continue\r\n\r\n")
	if res.StatusCode != http.StatusContinue {
		t.Fatalf("a small body: %d %s", res.StatusCode, body)
	}
}

// TestNoHost: an HTTP/1.0 request without Host, and no base URL configured: no image_url or
// svg_url (null, with the warning NO_PUBLIC_URL) rather than a link without a host; with a base
// URL, the links use it.
func TestNoHost(t *testing.T) {
	for _, base := range []string{"", "https://qr.example.com"} {
		ts := newTestServer(t, Config{BaseURL: base})
		res, body := raw(t, ts, "GET /api/qr-code?url=example.com&format=json HTTP/1.0\r\n\r\n")
		var j api.Response
		if res.StatusCode != http.StatusOK || json.Unmarshal(body, &j) != nil {
			t.Fatalf("base %q: %d %.200s", base, res.StatusCode, body)
		}
		if base == "" {
			if j.ImageURL != nil || j.SVGURL != nil || !strings.HasPrefix(j.Markdown, "![QR code](data:image/png;base64,") ||
				len(j.Warnings) != 1 || j.Warnings[0].Reason != api.ReasonNoPublicURL {
				t.Errorf("no host: image_url %v, svg_url %v, markdown %.40s, warnings %+v", j.ImageURL, j.SVGURL, j.Markdown, j.Warnings)
			}
			continue
		}
		if j.ImageURL == nil || !strings.HasPrefix(*j.ImageURL, base+"/api/qr-code.png?") || len(j.Warnings) != 0 {
			t.Errorf("base %q: %+v", base, j)
		}
	}
}
