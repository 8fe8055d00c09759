package client

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"io"
	"log"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/bananaqr/bananaqr/api"
	"github.com/bananaqr/bananaqr/internal/httpapi"
	"github.com/bananaqr/bananaqr/internal/qrtest"
	"github.com/bananaqr/bananaqr/internal/ratelimit"
	"github.com/bananaqr/bananaqr/payload"
)

// service is our own HTTP service on an httptest server, counting the generation requests it
// gets.
type service struct {
	*httptest.Server
	posts atomic.Int32
}

func newService(t *testing.T, limiter ratelimit.Limiter) *service {
	t.Helper()
	h := httpapi.New(httpapi.Config{Limiter: limiter, OpenAPI: api.OpenAPI,
		Logger: slog.New(slog.DiscardHandler)}).Handler()
	s := &service{}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/api/qr-code" {
			s.posts.Add(1)
		}
		h.ServeHTTP(w, r)
	}))
	t.Cleanup(s.Close)
	return s
}

func newClient(t *testing.T, url string, opts ...Option) *Client {
	t.Helper()
	c, err := New(url, opts...)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// TestPayloadTypes: a code of every payload type, asked for with the typed request and every
// vector of design/payload-vectors.json, decodes to exactly the payload; PNG and SVG are the
// images of the JSON response.
func TestPayloadTypes(t *testing.T) {
	c := newClient(t, newService(t, nil).URL)
	ctx := context.Background()
	check := func(name string, r api.Request, want string) {
		t.Helper()
		code, err := c.JSON(ctx, r)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		res := code.Response
		pngBytes, err := base64.StdEncoding.DecodeString(res.PNGBase64)
		if err != nil {
			t.Fatal(err)
		}
		if _, got := qrtest.DecodePNG(t, pngBytes, res.ModulePx); got != want {
			t.Errorf("%s: decoded %q, want %q", name, got, want)
		}
		if public := r.Payload.Type == payload.URL || r.Payload.Type == payload.Text; public != (res.Payload != nil) ||
			(public && *res.Payload != want) || res.PayloadType != string(r.Payload.Type) {
			t.Errorf("%s: payload %v of type %s", name, res.Payload, res.PayloadType)
		}
	}
	r := api.NewRequest()
	r.Payload = payload.Request{Type: payload.WiFi, SSID: "Lab Net", Password: "hunter22", Hidden: true}
	r.Size, r.Logo, r.Corners = 512, api.LogoBanana, api.CornersRounded
	check("typed wifi", r, "WIFI:T:WPA;S:Lab Net;P:hunter22;H:true;;")

	vectors := readVectors(t, "payload-vectors.json")
	for _, typ := range payload.Types {
		for i, v := range vectors[typ] {
			if v.Expected == "REJECT" {
				continue
			}
			// The vector's fields are the API's property names: read them as the service does.
			v.Input["type"] = string(typ)
			body, _ := json.Marshal(v.Input)
			r, err := api.DecodeJSON(body)
			if err != nil {
				t.Fatalf("%s vector %d: %v", typ, i, err)
			}
			r.Size = 256
			check(string(typ)+" vector", r, v.Expected)
		}
	}

	r = api.NewRequest()
	r.Payload.URL = "example.com/menu"
	code, err := c.JSON(ctx, r)
	if err != nil {
		t.Fatal(err)
	}
	res := code.Response
	svg, err := c.SVG(ctx, r)
	if err != nil || string(svg.Bytes) != res.SVG {
		t.Errorf("SVG differs from the JSON response's svg: %v", err)
	}
	pngCode, err := c.PNG(ctx, r)
	if err != nil || base64.StdEncoding.EncodeToString(pngCode.Bytes) != res.PNGBase64 {
		t.Errorf("PNG differs from the JSON response's png_base64: %v", err)
	}
	if err := c.Health(ctx); err != nil {
		t.Errorf("Health: %v", err)
	}
}

// TestAPIErrors: 400, 413, 415 and 422 are *APIError with the status, code, message and hint
// the service sends for the same body, and none is retried.
func TestAPIErrors(t *testing.T) {
	svc := newService(t, nil)
	ctx := context.Background()
	// contentType rewrites the POST's media type, as a misconfigured proxy might.
	contentType := roundTripper(func(r *http.Request) (*http.Response, error) {
		r = r.Clone(r.Context())
		r.Header.Set("Content-Type", "text/plain")
		return http.DefaultTransport.RoundTrip(r)
	})
	for _, tc := range []struct {
		name   string
		opts   []Option
		fields payload.Request
		size   int
		status int
		code   api.Reason
	}{
		{"invalid url", nil, payload.Request{Type: payload.URL, URL: "javascript:alert(1)"}, 0, 400, payload.ReasonInvalidURL},
		{"missing field", nil, payload.Request{Type: payload.WiFi}, 0, 400, payload.ReasonMissingField},
		{"size out of range", nil, payload.Request{Text: "hi"}, 64, 400, api.ReasonInvalidValue},
		{"too long", nil, payload.Request{Text: strings.Repeat("a", payload.MaxLen+1)}, 0, 413, payload.ReasonPayloadTooLarge},
		{"not json", []Option{WithHTTPClient(&http.Client{Transport: contentType})}, payload.Request{Text: "hi"}, 0, 415, api.ReasonUnsupportedMedia},
		{"not encodable", nil, payload.Request{Text: strings.Repeat("a", 2000)}, 0, 422, api.ReasonNotEncodable},
	} {
		r := api.NewRequest()
		r.Payload = tc.fields
		r.ECC = api.LevelH
		if tc.size != 0 {
			r.Size = tc.size
		}
		before := svc.posts.Load()
		_, err := newClient(t, svc.URL, tc.opts...).PNG(ctx, r)
		var e *APIError
		if !errors.As(err, &e) {
			t.Errorf("%s: %T %v, want *APIError", tc.name, err, err)
			continue
		}
		if n := svc.posts.Load() - before; n != 1 {
			t.Errorf("%s: %d requests, want 1", tc.name, n)
		}
		// What the service itself answers to the same body.
		r.Format = api.FormatPNG
		body, _ := api.EncodeJSON(&r)
		ct := "application/json"
		if tc.status == 415 {
			ct = "text/plain"
		}
		resp, err := http.Post(svc.URL+"/api/qr-code", ct, bytes.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		var want api.ErrorBody
		json.NewDecoder(resp.Body).Decode(&want)
		resp.Body.Close()
		if e.Status != tc.status || e.Reason != tc.code || e.Status != resp.StatusCode || string(e.Reason) != want.Reason ||
			e.Message != want.Message || e.Hint != want.Hint || e.Hint == "" {
			t.Errorf("%s: %+v\nthe service answers %d %+v; want status %d code %s", tc.name, e, resp.StatusCode, want, tc.status, tc.code)
		}
	}
	// A string that JSON cannot carry unchanged is refused before sending.
	r := api.NewRequest()
	r.Payload.Text = "caf\xe9"
	var e *api.Error
	before := svc.posts.Load()
	if _, err := newClient(t, svc.URL).SVG(ctx, r); !errors.As(err, &e) || e.Reason != payload.ReasonInvalidText || svc.posts.Load() != before {
		t.Errorf("invalid UTF-8: %v", err)
	}
}

type roundTripper func(*http.Request) (*http.Response, error)

func (f roundTripper) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

// clock is the fake time of a rate limiter, moved on by the client's waits.
type clock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *clock) advance(d time.Duration) {
	c.mu.Lock()
	c.now = c.now.Add(d)
	c.mu.Unlock()
}

// TestRateLimit: a 429 is waited out (Retry-After, 60 s on the service's clock) and retried
// once; a second 429 is returned; 0 retries and waits the context cannot afford return at once;
// a cancelled context stops a wait at once.
func TestRateLimit(t *testing.T) {
	ctx := context.Background()
	clk := &clock{now: time.Unix(1e9, 0)}
	svc := newService(t, ratelimit.NewMemory(1, time.Minute, clk.Now))
	var waits, notices []time.Duration
	c := newClient(t, svc.URL, OnRateLimitWait(func(d time.Duration) { notices = append(notices, d) }))
	var during func() // what happens while the client waits
	c.wait = func(ctx context.Context, d time.Duration) error {
		waits = append(waits, d)
		clk.advance(d)
		if during != nil {
			during()
		}
		return nil
	}
	r := api.NewRequest()
	r.Payload.Text = "hello"
	if _, err := c.SVG(ctx, r); err != nil {
		t.Fatal(err)
	}
	// Over the budget: wait 60 s, then the retry is served.
	if _, err := c.SVG(ctx, r); err != nil || len(waits) != 1 || waits[0] != 60*time.Second || svc.posts.Load() != 3 {
		t.Fatalf("after a 429: %v; waits %v, %d requests; want one wait of 60s and 3 requests", err, waits, svc.posts.Load())
	}
	if !slices.Equal(notices, waits) {
		t.Errorf("OnRateLimitWait saw %v, want %v", notices, waits)
	}
	// Someone else takes the budget while the client waits: the second 429 is returned.
	during = func() {
		resp, err := http.Get(svc.URL + "/api/qr-code?text=other")
		if err != nil || resp.StatusCode != 200 {
			t.Errorf("the other request: %v", err)
		}
		resp.Body.Close()
	}
	waits = nil
	before := svc.posts.Load()
	_, err := c.SVG(ctx, r)
	var e *APIError
	if !errors.As(err, &e) || e.Status != 429 || e.Reason != api.ReasonRateLimited || e.RetryAfter != 60*time.Second || e.Hint == "" ||
		e.RateLimit.Limit != 1 || e.RateLimit.Remaining != 0 || e.RequestID == "" {
		t.Fatalf("a second 429: %v (budget %+v)", err, e.RateLimit)
	}
	if len(waits) != 1 || svc.posts.Load()-before != 3 { // the client's two and the other's GET
		t.Errorf("a second 429: waits %v, %d requests", waits, svc.posts.Load()-before)
	}
	during = nil

	// Retries off: the 429 at once.
	waits = nil
	noRetry := newClient(t, svc.URL, WithRateLimitRetries(0))
	noRetry.wait = c.wait
	if _, err := noRetry.SVG(ctx, r); !errors.As(err, &e) || e.Status != 429 || len(waits) != 0 {
		t.Errorf("no retries: %v, waits %v", err, waits)
	}
	// A deadline before Retry-After ends, or a Retry-After over the longest wait: at once.
	short, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	if _, err := c.SVG(short, r); !errors.As(err, &e) || e.Status != 429 || len(waits) != 0 {
		t.Errorf("deadline in 10 s: %v, waits %v", err, waits)
	}
	impatient := newClient(t, svc.URL, WithMaxWait(30*time.Second))
	impatient.wait = c.wait
	if _, err := impatient.SVG(ctx, r); !errors.As(err, &e) || e.Status != 429 || len(waits) != 0 {
		t.Errorf("max wait 30 s: %v, waits %v", err, waits)
	}

	// The real wait, cancelled: it ends at once, with both the cause and the 429.
	real := newClient(t, svc.URL)
	cctx, cancel := context.WithCancel(ctx)
	time.AfterFunc(50*time.Millisecond, cancel)
	start := time.Now()
	_, err = real.SVG(cctx, r)
	if !errors.Is(err, context.Canceled) || !errors.As(err, &e) || e.Status != 429 {
		t.Errorf("cancelled wait: %v", err)
	}
	if d := time.Since(start); d > 30*time.Second {
		t.Errorf("the cancelled wait took %s of its 60 s", d)
	}
}

// TestTransportErrors: failures to reach the API are *TransportError of the right kind, with
// the liveness check's result.
func TestTransportErrors(t *testing.T) {
	ctx := context.Background()
	r := api.NewRequest()
	r.Payload.Text = "hello"

	closed, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closedURL := "http://" + closed.Addr().String()
	closed.Close()

	tlsServer := httptest.NewUnstartedServer(http.NotFoundHandler())
	tlsServer.Config.ErrorLog = log.New(io.Discard, "", 0) // the handshake errors are the point
	tlsServer.StartTLS()                                   // with a certificate no one trusts
	t.Cleanup(tlsServer.Close)
	plain := newService(t, nil)

	// A service whose generation hangs up or stalls but whose liveness check answers.
	up := httpapi.New(httpapi.Config{OpenAPI: api.OpenAPI, Logger: slog.New(slog.DiscardHandler)}).Handler()
	hangUp := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/api/qr-code" {
			conn, _, _ := w.(http.Hijacker).Hijack()
			conn.Close()
			return
		}
		up.ServeHTTP(w, r)
	}))
	t.Cleanup(hangUp.Close)
	stall := make(chan struct{})
	stalled := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/api/qr-code" {
			<-stall
		}
		up.ServeHTTP(w, r)
	}))
	t.Cleanup(stalled.Close)
	t.Cleanup(func() { close(stall) })
	// A proxy's error page instead of the API.
	proxy := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		w.WriteHeader(http.StatusBadGateway)
		io.WriteString(w, "<h1>502 Bad Gateway</h1>")
	}))
	t.Cleanup(proxy.Close)

	// direct resolves names itself, even where an HTTP proxy is configured.
	transport := http.DefaultTransport.(*http.Transport).Clone()
	transport.Proxy = nil
	direct := &http.Client{Transport: transport}
	for _, tc := range []struct {
		name    string
		url     string
		opts    []Option
		failure Failure
		live    bool
	}{
		{"closed port", closedURL, nil, FailureConnect, false},
		{"unknown host", "http://bananaqr-test.invalid", []Option{WithHTTPClient(direct)}, FailureDNS, false},
		{"untrusted certificate", tlsServer.URL, nil, FailureTLS, false},
		{"TLS to a plain server", strings.Replace(plain.URL, "http:", "https:", 1), nil, FailureTLS, false},
		{"connection closed", hangUp.URL, nil, FailureConnect, true},
		{"timeout", stalled.URL, []Option{WithHTTPClient(&http.Client{Timeout: 300 * time.Millisecond})}, FailureTimeout, true},
		{"proxy error page", proxy.URL, nil, FailureForeign, false},
	} {
		_, err := newClient(t, tc.url, tc.opts...).PNG(ctx, r)
		var te *TransportError
		var ae *APIError
		if !errors.As(err, &te) || errors.As(err, &ae) {
			t.Errorf("%s: %T %v, want *TransportError", tc.name, err, err)
			continue
		}
		if te.Failure != tc.failure || !te.Liveness.Checked || te.Liveness.OK != tc.live || (te.Liveness.Err == nil) == !tc.live {
			t.Errorf("%s: %s, liveness %+v; want %s, live %v", tc.name, te.Failure, te.Liveness, tc.failure, tc.live)
		}
		if !strings.Contains(err.Error(), "liveness check") {
			t.Errorf("%s: the message does not say what the liveness check found: %v", tc.name, err)
		}
	}

	// The caller's own cancellation is not a transport failure.
	cctx, cancel := context.WithTimeout(ctx, 200*time.Millisecond)
	defer cancel()
	var te *TransportError
	if _, err := newClient(t, stalled.URL).PNG(cctx, r); !errors.Is(err, context.DeadlineExceeded) || errors.As(err, &te) {
		t.Errorf("the caller's deadline: %T %v", err, err)
	}
	if err := newClient(t, closedURL).Health(ctx); !errors.As(err, &te) || te.Failure != FailureConnect {
		t.Errorf("Health of a closed port: %v", err)
	}
}

func TestNew(t *testing.T) {
	for _, bad := range []string{"", "example.com", "ftp://example.com", "http://", "http://x/?a=1", "http://x/#f", "http://[::1"} {
		if _, err := New(bad); err == nil {
			t.Errorf("New(%q) accepted", bad)
		}
	}
	c := newClient(t, "https://example.com/qr/")
	if got := c.endpoint("/healthz"); got != "https://example.com/qr/healthz" {
		t.Errorf("endpoint under a path prefix: %s", got)
	}
}

func TestRetryAfter(t *testing.T) {
	now := time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)
	for h, want := range map[string]time.Duration{
		"": 0, "60": time.Minute, "0": 0, "-1": 0, "1.5": 0, "soon": 0,
		"Sat, 21 Nov 2026 12:00:30 GMT": 30 * time.Second, "Sat, 21 Nov 2026 11:00:00 GMT": 0,
	} {
		if got := retryAfter(h, now); got != want {
			t.Errorf("retryAfter(%q) = %s, want %s", h, got, want)
		}
	}
}

// A vector is a request's payload fields and the payload they must make (payload/testdata).
type vector struct {
	Input    map[string]any
	Expected string
}

// readVectors reads the vectors file name of payload/testdata, by type.
func readVectors(t *testing.T, name string) map[payload.Type][]vector {
	t.Helper()
	data, err := os.ReadFile("../payload/testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	var vectors map[payload.Type][]vector
	if err := json.Unmarshal(data, &vectors); err != nil {
		t.Fatal(err)
	}
	return vectors
}
