package httpapi

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/bananaqr/bananaqr/api"
	"github.com/bananaqr/bananaqr/internal/logtest"
	"github.com/bananaqr/bananaqr/internal/qrtest"
	"github.com/bananaqr/bananaqr/internal/ratelimit"
)

// A testServer is the whole handler stack on a loopback listener, with its log in a buffer.
type testServer struct {
	*httptest.Server
	api *Server
	log *logtest.Buffer
}

// newTestServer starts a server with cfg (the OpenAPI document, a JSON log into a buffer and,
// unless set, no rate limit) and stops it when the test ends.
func newTestServer(t *testing.T, cfg Config) *testServer {
	t.Helper()
	log := &logtest.Buffer{}
	cfg.Logger = slog.New(slog.NewJSONHandler(log, nil))
	cfg.OpenAPI = api.OpenAPI
	s := New(cfg)
	ts := &testServer{Server: httptest.NewServer(s.Handler()), api: s, log: log}
	t.Cleanup(ts.Close)
	return ts
}

// A result is a response, read whole.
type result struct {
	status int
	header http.Header
	body   []byte
}

// do sends a request and checks the response against the OpenAPI document (see contract_test.go).
func (ts *testServer) do(t *testing.T, method, target string, body string, header map[string]string) *result {
	t.Helper()
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	req, err := http.NewRequest(method, ts.URL+target, rd)
	if err != nil {
		t.Fatal(err)
	}
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	for k, v := range header {
		if k == "Host" {
			req.Host = v // the client sends req.Host, not a Host header
			continue
		}
		req.Header.Set(k, v)
	}
	res, err := ts.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	r := &result{status: res.StatusCode, header: res.Header, body: b}
	checkContract(t, req, body, r)
	return r
}

func (ts *testServer) get(t *testing.T, target string) *result {
	t.Helper()
	return ts.do(t, http.MethodGet, target, "", nil)
}

func (ts *testServer) post(t *testing.T, body string) *result {
	t.Helper()
	return ts.do(t, http.MethodPost, "/api/qr-code", body, nil)
}

// json decodes a JSON response.
func (r *result) json(t *testing.T) api.Response {
	t.Helper()
	var out api.Response
	if err := json.Unmarshal(r.body, &out); err != nil {
		t.Fatalf("%s: %v", r.body, err)
	}
	return out
}

// errorBody decodes an error response and checks its shape: the four fields, error and message
// the same, a hint.
func (r *result) errorBody(t *testing.T) api.ErrorBody {
	t.Helper()
	var fields map[string]any
	if err := json.Unmarshal(r.body, &fields); err != nil || len(fields) != 4 {
		t.Fatalf("error body %s: %v", r.body, err)
	}
	var e api.ErrorBody
	if err := json.Unmarshal(r.body, &e); err != nil {
		t.Fatalf("unmarshal: %v", err)
	}
	if e.Error == "" || e.Error != e.Message || e.Hint == "" || e.Reason == "" {
		t.Fatalf("error body %s", r.body)
	}
	if ct := r.header.Get("Content-Type"); ct != "application/json" {
		t.Fatalf("error with Content-Type %q", ct)
	}
	return e
}

// wantError checks that r is the error of status and code.
func (r *result) wantError(t *testing.T, status int, code api.Reason) api.ErrorBody {
	t.Helper()
	if r.status != status {
		t.Fatalf("status %d (%s), want %d %s", r.status, r.body, status, code)
	}
	e := r.errorBody(t)
	if e.Reason != string(code) {
		t.Fatalf("code %s (%s), want %s", e.Reason, e.Message, code)
	}
	return e
}

// TestGet covers the GET endpoints with their defaults: the formats, the headers of every
// success, and the images read back.
func TestGet(t *testing.T) {
	ts := newTestServer(t, Config{})
	const link = "https://example.com/products/12345?ref=newsletter"
	for _, c := range []struct {
		target, format, contentType string
	}{
		{"/api/qr-code?url=" + url.QueryEscape(link), "svg", "image/svg+xml"},
		{"/api/qr-code?url=" + url.QueryEscape(link) + "&format=png", "png", "image/png"},
		{"/api/qr-code?url=" + url.QueryEscape(link) + "&format=json", "json", "application/json"},
		{"/api/qr-code/url?url=" + url.QueryEscape(link), "svg", "image/svg+xml"},
		{"/api/qr-code/url?url=" + url.QueryEscape(link) + "&format=png&text=ignored", "png", "image/png"},
		{"/api/qr-code.png?url=" + url.QueryEscape(link) + "&format=svg", "png", "image/png"},
		{"/api/qr-code.svg?url=" + url.QueryEscape(link) + "&format=png", "svg", "image/svg+xml"},
		{"/api/qr-code?type=url&url=" + url.QueryEscape(link) + "&format=json", "json", "application/json"},
	} {
		r := ts.get(t, c.target)
		if r.status != http.StatusOK {
			t.Fatalf("%s: %d %s", c.target, r.status, r.body)
		}
		h := r.header
		for k, want := range map[string]string{
			"Content-Type": c.contentType, "Cache-Control": "private, no-store", "X-QR-Payload-Type": "url",
			"X-QR-Payload": link, "X-QR-Logo": "none", "X-QR-Size": "1024", "X-QR-Format": c.format,
			"Content-Disposition": `inline; filename="qr-url.` + c.format + `"`, "Access-Control-Allow-Origin": "*",
		} {
			if got := h.Get(k); got != want {
				t.Errorf("%s: %s is %q, want %q", c.target, k, got, want)
			}
		}
		switch c.format {
		case "png":
			img, text := qrtest.DecodePNG(t, r.body, 4)
			if img.Bounds().Dx() != 1024 || text != link {
				t.Errorf("%s: %v, %q", c.target, img.Bounds(), text)
			}
		case "svg":
			if !bytes.HasPrefix(r.body, []byte("<svg")) || !bytes.Contains(r.body, []byte(`width="1024"`)) {
				t.Errorf("%s: %.80s", c.target, r.body)
			}
		}
	}
}

// TestJSON checks the JSON response: its fields, the SVG the .svg endpoint gives, and image
// URLs that regenerate the same PNG.
func TestJSON(t *testing.T) {
	ts := newTestServer(t, Config{})
	r := ts.get(t, "/api/qr-code?format=json&text=Gr%C3%BC%C3%9Fe&color=%23102030&background=fafafa&size=300&margin=2&ecc=Q&corners=rounded")
	if r.status != http.StatusOK {
		t.Fatalf("%d %s", r.status, r.body)
	}
	j := r.json(t)
	if !j.OK || j.Type != "text" || j.PayloadType != "text" || j.Payload == nil || *j.Payload != "Grüße" || j.Format != "json" ||
		j.MimeType != "image/png" || j.Size != 300 || j.Logo != "none" || j.Color != "#102030" || j.Background != "#FAFAFA" ||
		j.ECC != "Q" || j.Margin != 2 || j.Modules != 4*j.Version+17 || j.ModulePx != 300/(j.Modules+4) {
		t.Fatalf("%+v", j)
	}
	// A quiet zone below 4 modules is valid, with a warning.
	if len(j.Warnings) != 1 || j.Warnings[0].Reason != api.ReasonSmallQuietZone || j.Warnings[0].Field != "margin" ||
		r.header.Get("X-QR-Warning") != api.ReasonSmallQuietZone {
		t.Errorf("warnings %+v, X-QR-Warning %q", j.Warnings, r.header.Get("X-QR-Warning"))
	}
	if got := r.header.Get("X-QR-Payload"); got != "Gr%C3%BC%C3%9Fe" || r.header.Get("X-QR-Payload-Encoding") != "percent" {
		t.Errorf("X-QR-Payload %q, encoding %q", got, r.header.Get("X-QR-Payload-Encoding"))
	}
	pngData, err := base64.StdEncoding.DecodeString(j.PNGBase64)
	if err != nil || j.PNGDataURL != "data:image/png;base64,"+j.PNGBase64 {
		t.Fatal(err)
	}
	if _, text := qrtest.DecodePNG(t, pngData, 4); text != "Grüße" {
		t.Errorf("PNG reads %q", text)
	}
	if j.ImageURL == nil || j.SVGURL == nil || j.Markdown != "![QR code]("+*j.ImageURL+")" {
		t.Fatalf("image_url %v, svg_url %v, markdown %q", j.ImageURL, j.SVGURL, j.Markdown)
	}
	for _, c := range []struct {
		link string
		want []byte
	}{{*j.ImageURL, pngData}, {*j.SVGURL, []byte(j.SVG)}} {
		u, err := url.Parse(c.link)
		if err != nil || !strings.HasPrefix(c.link, ts.URL+"/api/qr-code.") {
			t.Fatalf("%q: %v", c.link, err)
		}
		again := ts.get(t, u.RequestURI())
		if again.status != http.StatusOK || !bytes.Equal(again.body, c.want) {
			t.Errorf("%s gives %d, %d bytes; want the same image", c.link, again.status, len(again.body))
		}
	}
	svg := ts.get(t, "/api/qr-code.svg?text=Gr%C3%BC%C3%9Fe&color=%23102030&background=fafafa&size=300&margin=2&ecc=Q&corners=rounded")
	if !bytes.Equal(svg.body, []byte(j.SVG)) {
		t.Error("the JSON's svg differs from the .svg endpoint's")
	}
}

// TestBaseURL checks where image URLs point: --base-url, else the request's host, with the
// forwarded scheme and host believed from trusted proxies only.
func TestBaseURL(t *testing.T) {
	fixed := newTestServer(t, Config{BaseURL: "https://qr.example.com/"})
	if j := fixed.get(t, "/api/qr-code?format=json&url=a.com").json(t); !strings.HasPrefix(*j.ImageURL, "https://qr.example.com/api/qr-code.png?url=https%3A%2F%2Fa.com") {
		t.Errorf("image_url %s", *j.ImageURL)
	}
	forwarded := map[string]string{"X-Forwarded-Proto": "https", "X-Forwarded-Host": "proxy.example"}
	untrusted := newTestServer(t, Config{})
	if j := untrusted.do(t, "GET", "/api/qr-code?format=json&url=a.com", "", forwarded).json(t); !strings.HasPrefix(*j.ImageURL, untrusted.URL+"/") {
		t.Errorf("image_url %s from an untrusted peer's forwarded headers", *j.ImageURL)
	}
	trusted := newTestServer(t, Config{TrustedProxies: loopback})
	if j := trusted.do(t, "GET", "/api/qr-code?format=json&url=a.com", "", forwarded).json(t); !strings.HasPrefix(*j.ImageURL, "https://proxy.example/") {
		t.Errorf("image_url %s from a trusted proxy", *j.ImageURL)
	}
}

// TestDeterministic sends each request twice: the bodies must be byte-identical.
func TestDeterministic(t *testing.T) {
	ts := newTestServer(t, Config{})
	for _, target := range []string{
		"/api/qr-code?url=example.com", "/api/qr-code.png?text=hello&corners=rounded&logo=banana",
		"/api/qr-code?format=json&url=example.com&size=512",
	} {
		a, b := ts.get(t, target), ts.get(t, target)
		if a.status != http.StatusOK || !bytes.Equal(a.body, b.body) {
			t.Errorf("%s: %d, bodies differ: %v", target, a.status, !bytes.Equal(a.body, b.body))
		}
	}
	body := `{"type":"wifi","ssid":"Cafe","password":"hunter22","format":"png"}`
	if a, b := ts.post(t, body), ts.post(t, body); !bytes.Equal(a.body, b.body) {
		t.Error("POST bodies differ")
	}
}

// TestHealthAndDocument covers the liveness checks and /openapi.json.
func TestHealthAndDocument(t *testing.T) {
	ts := newTestServer(t, Config{})
	for _, path := range []string{"/healthz", "/api/qr-code/healthz"} {
		r := ts.get(t, path)
		if r.status != http.StatusOK || strings.TrimSpace(string(r.body)) != `{"ok":true}` {
			t.Errorf("%s: %d %s", path, r.status, r.body)
		}
	}
	r := ts.get(t, "/openapi.json")
	if r.status != http.StatusOK || !bytes.Equal(r.body, api.OpenAPI) {
		t.Errorf("/openapi.json: %d", r.status)
	}
}

// TestCORS checks the CORS header on successes and errors, and the preflight.
func TestCORS(t *testing.T) {
	ts := newTestServer(t, Config{})
	r := ts.do(t, http.MethodOptions, "/api/qr-code", "", map[string]string{"Origin": "https://a.example", "Access-Control-Request-Method": "POST"})
	if r.status != http.StatusNoContent || r.header.Get("Access-Control-Allow-Origin") != "*" ||
		!strings.Contains(r.header.Get("Access-Control-Allow-Methods"), "POST") || r.header.Get("Access-Control-Allow-Headers") == "" {
		t.Errorf("preflight: %d %v", r.status, r.header)
	}
	if e := ts.get(t, "/api/qr-code?size=1"); e.header.Get("Access-Control-Allow-Origin") != "*" {
		t.Error("no CORS header on an error")
	}
	r = ts.do(t, http.MethodGet, "/api/qr-code.svg?text=x", "", map[string]string{"Origin": "https://a.example"})
	if !strings.Contains(r.header.Get("Access-Control-Expose-Headers"), "X-QR-Payload") {
		t.Errorf("cross-origin request: Access-Control-Expose-Headers %q", r.header.Get("Access-Control-Expose-Headers"))
	}
}

// TestLogs checks the access log: a line per request with method, route, status, bytes,
// duration in milliseconds and id, at INFO; never a payload or a query string.
func TestLogs(t *testing.T) {
	ts := newTestServer(t, Config{})
	secret := "hunter2-secret-pw"
	ts.post(t, `{"type":"wifi","ssid":"LogNet","password":"`+secret+`"}`)
	ts.get(t, "/api/qr-code?text=query-secret-text")
	ts.do(t, "GET", "/api/qr-code?text=x", "", map[string]string{"X-Request-Id": "abc-123"})
	log := ts.log.String()
	for _, leak := range []string{secret, "LogNet", "query-secret-text", "text="} {
		if strings.Contains(log, leak) {
			t.Errorf("the log holds %q:\n%s", leak, log)
		}
	}
	lines := strings.Split(strings.TrimSpace(log), "\n")
	if len(lines) != 3 {
		t.Fatalf("%d log lines:\n%s", len(lines), log)
	}
	var entry map[string]any
	if err := json.Unmarshal([]byte(lines[2]), &entry); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"method", "route", "status", "bytes", "duration_ms", "request_id"} {
		if _, ok := entry[k]; !ok {
			t.Errorf("log line without %s: %s", k, lines[2])
		}
	}
	if entry["request_id"] != "abc-123" || entry["route"] != "/api/qr-code" || entry["level"] != "INFO" {
		t.Errorf("log line %s", lines[2])
	}
	if ms, ok := entry["duration_ms"].(float64); !ok || ms < 0 || ms > 60_000 {
		t.Errorf("duration_ms %v: want milliseconds", entry["duration_ms"])
	}
}

// loopback is the test client's address, as a trusted proxy.
var loopback = mustPrefixes("127.0.0.1/32", "::1/128")

// TestRateLimit makes the 61st code in a minute get 429, and another caller go on.
func TestRateLimit(t *testing.T) {
	now := time.Unix(1_700_000_000, 0)
	clock := func() time.Time { return now }
	ts := newTestServer(t, Config{Limiter: ratelimit.NewMemory(60, time.Minute, clock), TrustedProxies: loopback})
	as := func(ip string) map[string]string { return map[string]string{"X-Forwarded-For": ip} }
	for i := range 60 {
		r := ts.do(t, "GET", "/api/qr-code.svg?text=x", "", as("203.0.113.1"))
		if r.status != http.StatusOK || r.header.Get("RateLimit-Limit") != "60" || r.header.Get("RateLimit-Remaining") != itoa(59-i) {
			t.Fatalf("request %d: %d, remaining %s", i+1, r.status, r.header.Get("RateLimit-Remaining"))
		}
	}
	r := ts.do(t, "GET", "/api/qr-code.svg?text=x", "", as("203.0.113.1"))
	r.wantError(t, http.StatusTooManyRequests, api.ReasonRateLimited)
	if r.header.Get("Retry-After") != "60" || r.header.Get("RateLimit-Remaining") != "0" || r.header.Get("RateLimit-Reset") != "60" {
		t.Errorf("429 headers %v", r.header)
	}
	if r := ts.do(t, "GET", "/api/qr-code.svg?text=x", "", as("203.0.113.2")); r.status != http.StatusOK {
		t.Errorf("another caller: %d", r.status)
	}
	// A proxy's own address is skipped: the caller is the right-most untrusted one.
	if r := ts.do(t, "GET", "/api/qr-code.svg?text=x", "", as("203.0.113.1, 127.0.0.1")); r.status != http.StatusTooManyRequests {
		t.Errorf("through two proxies: %d", r.status)
	}
	now = now.Add(61 * time.Second)
	if r := ts.do(t, "GET", "/api/qr-code.svg?text=x", "", as("203.0.113.1")); r.status != http.StatusOK {
		t.Errorf("a minute later: %d", r.status)
	}
	// Health checks and the document are not counted.
	if r := ts.get(t, "/healthz"); r.header.Get("RateLimit-Limit") != "" {
		t.Error("health check counted")
	}
}

// TestSpoofedForwardedFor checks that X-Forwarded-For from a peer that is not a trusted proxy
// changes nothing: the caller stays the peer.
func TestSpoofedForwardedFor(t *testing.T) {
	ts := newTestServer(t, Config{Limiter: ratelimit.NewMemory(3, time.Minute, nil)})
	for i := range 3 {
		if r := ts.do(t, "GET", "/api/qr-code.svg?text=x", "", map[string]string{"X-Forwarded-For": "198.51.100." + itoa(i)}); r.status != http.StatusOK {
			t.Fatalf("request %d: %d", i, r.status)
		}
	}
	r := ts.do(t, "GET", "/api/qr-code.svg?text=x", "", map[string]string{"X-Forwarded-For": "198.51.100.99"})
	r.wantError(t, http.StatusTooManyRequests, api.ReasonRateLimited)
}

// TestBurst sends 64 requests for 2048-pixel PNGs at once to a server that makes 2 codes at a
// time: all are served.
func TestBurst(t *testing.T) {
	ts := newTestServer(t, Config{MaxActive: 2})
	statuses := make([]int, 64)
	var wg sync.WaitGroup
	for i := range statuses {
		wg.Go(func() {
			statuses[i] = ts.get(t, "/api/qr-code.png?size=2048&corners=rounded&logo=banana&text=burst-"+itoa(i)).status
		})
	}
	wg.Wait()
	for i, s := range statuses {
		if s != http.StatusOK {
			t.Errorf("request %d: %d", i, s)
		}
	}
}

// TestOverloaded fills the server's places (2 at work, 2 waiting): the next request gets 503
// with Retry-After and the error object, and those waiting are served once places free up.
func TestOverloaded(t *testing.T) {
	ts := newTestServer(t, Config{MaxActive: 2, MaxQueue: 2})
	for range 2 {
		ts.api.gate.Acquire(context.Background()) // the places at work, taken by the test
	}
	results := make(chan int, 2)
	for range 2 {
		go func() { results <- ts.get(t, "/api/qr-code.svg?text=waiting").status }()
	}
	for ts.api.gate.Waiting() < 2 {
		time.Sleep(time.Millisecond)
	}
	r := ts.get(t, "/api/qr-code.svg?text=overflow")
	if r.wantError(t, http.StatusServiceUnavailable, api.ReasonOverloaded); r.header.Get("Retry-After") != "1" {
		t.Errorf("Retry-After %q", r.header.Get("Retry-After"))
	}
	ts.api.gate.Release()
	ts.api.gate.Release()
	for range 2 {
		if s := <-results; s != http.StatusOK {
			t.Errorf("a waiting request got %d", s)
		}
	}
}

func itoa(i int) string { return strconv.Itoa(i) }

// mustPrefixes parses CIDR prefixes.
func mustPrefixes(cidrs ...string) []netip.Prefix {
	var out []netip.Prefix
	for _, c := range cidrs {
		out = append(out, netip.MustParsePrefix(c))
	}
	return out
}
