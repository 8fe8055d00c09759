package client

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"image/color"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/bananaqr/bananaqr/api"
	"github.com/bananaqr/bananaqr/internal/httpapi"
	"github.com/bananaqr/bananaqr/internal/qrtest"
	"github.com/bananaqr/bananaqr/internal/ratelimit"
	"github.com/bananaqr/bananaqr/payload"
)

// recorder is an http.Client that keeps the headers of the last answer, to compare what the
// client reports with what the service sent, and may send an X-Request-Id of its own.
type recorder struct {
	id   string
	last atomic.Pointer[http.Header]
}

func (rec *recorder) client() *http.Client {
	return &http.Client{Transport: roundTripper(func(r *http.Request) (*http.Response, error) {
		if rec.id != "" {
			r = r.Clone(r.Context())
			r.Header.Set("X-Request-Id", rec.id)
		}
		resp, err := http.DefaultTransport.RoundTrip(r)
		if err == nil {
			rec.last.Store(&resp.Header)
		}
		return resp, err
	})}
}

// TestZeroRequest: a Request that sets only its payload, not made by api.NewRequest, is a code
// in the service's defaults (1024 pixels, a quiet zone of 4, level M, the default colours), for
// one code and in a batch. Before, its zero Size was sent and refused (400 INVALID_VALUE).
func TestZeroRequest(t *testing.T) {
	c := newClient(t, newService(t, nil).URL)
	ctx := context.Background()
	zero := api.Request{Payload: payload.Request{Text: "hello"}}
	code, err := c.JSON(ctx, zero)
	if err != nil {
		t.Fatalf("a Request with only a payload: %v", err)
	}
	d, res := api.NewRequest(), code.Response
	if res.Size != d.Size || res.Margin != d.Margin || res.Color != api.FormatColor(d.Color) ||
		res.Background != api.FormatColor(d.Background) || res.Logo != "none" || len(res.Warnings) != 0 {
		t.Errorf("a Request with only a payload made size %d, margin %d, %s on %s, logo %s, warnings %v; want the defaults",
			res.Size, res.Margin, res.Color, res.Background, res.Logo, res.Warnings)
	}
	if _, got := qrtest.DecodePNG(t, mustBase64(t, res.PNGBase64), res.ModulePx); got != "hello" {
		t.Errorf("it reads %q", got)
	}
	png, err := c.PNG(ctx, zero)
	if err != nil || png.Size != d.Size || png.Format != api.FormatPNG {
		t.Errorf("its PNG: %v, %+v", err, png)
	}
	if _, err := c.Batch(ctx, []BatchItem{{Request: zero}, {Request: api.Request{Payload: payload.Request{URL: "example.com"}}}}); err != nil {
		t.Errorf("a batch of them: %v", err)
	}
}

// TestCodeHeaders: each answer says what its headers say beside the bytes (payload type, the
// public payload percent-decoded, version, level, size, logo, format, warnings, the budget and
// the request id), the same as the JSON response and the raw headers say. Before, the methods
// returned the bytes alone.
func TestCodeHeaders(t *testing.T) {
	svc := newService(t, ratelimit.NewMemory(60, time.Minute, nil))
	rec := &recorder{id: "order-1234"}
	c := newClient(t, svc.URL, WithHTTPClient(rec.client()))
	ctx := context.Background()

	r := api.NewRequest()
	r.Payload.Text = " Grüße, 100% Köln " // not printable ASCII, and spaces at its ends: percent-encoded
	r.Size, r.Margin, r.Logo = 512, 1, api.LogoBanana
	js, err := c.JSON(ctx, r)
	if err != nil {
		t.Fatal(err)
	}
	png, err := c.PNG(ctx, r)
	if err != nil {
		t.Fatal(err)
	}
	h := *rec.last.Load()
	res := js.Response
	if h.Get("X-QR-Payload-Encoding") != "percent" || png.Payload == nil || *png.Payload != r.Payload.Text || *js.Payload != *res.Payload {
		t.Errorf("payload %v (header %q, %s)", png.Payload, h.Get("X-QR-Payload"), h.Get("X-QR-Payload-Encoding"))
	}
	for _, code := range []*Code{js, png} {
		if code.PayloadType != "text" || code.Version != res.Version || code.ECC != res.ECC || code.ECC == "" ||
			code.Size != 512 || code.Logo != "banana" || !slices.Equal(code.Warnings, []string{api.ReasonSmallQuietZone}) {
			t.Errorf("%s: %+v; the JSON response says version %d, level %s", code.Format, code, res.Version, res.ECC)
		}
		if code.RequestID != "order-1234" {
			t.Errorf("%s: request id %q", code.Format, code.RequestID)
		}
	}
	if js.Format != api.FormatJSON || png.Format != api.FormatPNG || len(png.Bytes) == 0 {
		t.Errorf("formats %s and %s", js.Format, png.Format)
	}
	if js.RateLimit.Limit != 60 || js.RateLimit.Remaining != 59 || png.RateLimit.Remaining != 58 ||
		png.RateLimit.Reset <= 0 || png.RateLimit.Reset > time.Minute || h.Get("RateLimit-Remaining") != "58" {
		t.Errorf("budgets %+v then %+v; headers %v", js.RateLimit, png.RateLimit, h)
	}

	// A private payload is not echoed; a service-made request id is reported as sent.
	rec.id = ""
	wifi := api.NewRequest()
	wifi.Payload = payload.Request{Type: payload.WiFi, SSID: "Lab", Password: "hunter22"}
	svg, err := c.SVG(ctx, wifi)
	if err != nil {
		t.Fatal(err)
	}
	if svg.Payload != nil || svg.PayloadType != "wifi" || svg.Warnings != nil || svg.RequestID == "" ||
		svg.RequestID != rec.last.Load().Get("X-Request-Id") {
		t.Errorf("a Wi-Fi code: %+v", svg)
	}
	archive, err := c.Batch(ctx, []BatchItem{{Request: wifi}, {Request: r}})
	if err != nil || archive.RateLimit.Remaining != 55 || archive.RequestID == "" {
		t.Errorf("a batch of 2: %v, %+v", err, archive)
	}
}

// TestBusyRetried: a 503 with Retry-After (the service's OVERLOADED, as the service writes it) is
// waited out and retried as a 429 is, within the same bounds; a second 503 is returned with
// its request id, and a 503 without Retry-After is returned at once. Before, the first 503 was
// returned.
func TestBusyRetried(t *testing.T) {
	free := httpapi.New(httpapi.Config{OpenAPI: api.OpenAPI, Logger: slog.New(slog.DiscardHandler)}).Handler()
	var busyFor atomic.Int32 // the next busyFor requests are refused as busy
	retryAfter := "3"
	svc := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if busyFor.Add(-1) < 0 {
			free.ServeHTTP(w, r)
			return
		}
		e := api.NewError(api.ReasonOverloaded, "", "Retry after the seconds Retry-After says.", "too many requests are waiting")
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("X-Request-Id", "busy-1")
		if retryAfter != "" {
			w.Header().Set("Retry-After", retryAfter)
		}
		w.WriteHeader(e.Status)
		json.NewEncoder(w).Encode(e.Body())
	}))
	t.Cleanup(svc.Close)
	var waits []time.Duration
	fakeWait := func(ctx context.Context, d time.Duration) error { waits = append(waits, d); return nil }
	c := newClient(t, svc.URL)
	c.wait = fakeWait
	r := api.Request{Payload: payload.Request{Text: "hello"}}
	ctx := context.Background()

	busyFor.Store(1)
	if code, err := c.PNG(ctx, r); err != nil || !slices.Equal(waits, []time.Duration{3 * time.Second}) || len(code.Bytes) == 0 {
		t.Fatalf("one 503: %v, waits %v; want one wait of 3s and the code", err, waits)
	}
	waits = nil
	busyFor.Store(2)
	_, err := c.PNG(ctx, r)
	var e *APIError
	if !errors.As(err, &e) || e.Status != 503 || e.Reason != api.ReasonOverloaded || e.RetryAfter != 3*time.Second ||
		e.RequestID != "busy-1" || !strings.Contains(err.Error(), "busy-1") || len(waits) != 1 {
		t.Fatalf("two 503s: %v (%+v), waits %v", err, e, waits)
	}
	// The caller's bounds: no retries, a shorter longest wait, a deadline before the wait ends.
	short, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	for name, tc := range map[string]struct {
		ctx context.Context
		opt Option
	}{"no retries": {ctx, WithRateLimitRetries(0)}, "max wait 2s": {ctx, WithMaxWait(2 * time.Second)}, "deadline in 2s": {short, WithMaxWait(time.Hour)}} {
		waits = nil
		busyFor.Store(1)
		bounded := newClient(t, svc.URL, tc.opt)
		bounded.wait = fakeWait
		if _, err := bounded.PNG(tc.ctx, r); !errors.As(err, &e) || e.Status != 503 || len(waits) != 0 {
			t.Errorf("%s: %v, waits %v", name, err, waits)
		}
	}
	// Without Retry-After a 503 promises nothing: it is returned.
	waits, retryAfter = nil, ""
	busyFor.Store(1)
	if _, err := c.PNG(ctx, r); !errors.As(err, &e) || e.Status != 503 || len(waits) != 0 {
		t.Errorf("a 503 without Retry-After: %v, waits %v", err, waits)
	}
}

// TestErrorsKeepRequestID: an *APIError and a *TransportError of a foreign answer keep the
// answer's X-Request-Id, and say it. Before, neither had it.
func TestErrorsKeepRequestID(t *testing.T) {
	svc := newService(t, nil)
	rec := &recorder{id: "trace-42"}
	r := api.NewRequest()
	r.Payload.URL = "javascript:alert(1)"
	_, err := newClient(t, svc.URL, WithHTTPClient(rec.client())).SVG(context.Background(), r)
	var e *APIError
	if !errors.As(err, &e) || e.Status != 400 || e.RequestID != "trace-42" || !strings.Contains(err.Error(), "trace-42") {
		t.Errorf("a 400: %v", err)
	}
	// A gateway's page that passes the service's id on.
	gateway := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("X-Request-Id", "gw-7")
		w.Header().Set("Content-Type", "text/html")
		w.WriteHeader(http.StatusBadGateway)
		io.WriteString(w, "<h1>502 Bad Gateway</h1>")
	}))
	t.Cleanup(gateway.Close)
	r.Payload.URL = "example.com"
	_, err = newClient(t, gateway.URL).SVG(context.Background(), r)
	var te *TransportError
	if !errors.As(err, &te) || te.Failure != FailureForeign || te.RequestID != "gw-7" || !strings.Contains(err.Error(), "gw-7") {
		t.Errorf("a gateway's page: %v", err)
	}
}

// TestContrast: Contrast gives the service's verdict on a pair, as GET /api/contrast answers
// it; the zero colours are the defaults. Before, the client had no such method.
func TestContrast(t *testing.T) {
	svc := newService(t, nil)
	c := newClient(t, svc.URL)
	for _, tc := range []struct {
		fg, bg   color.RGBA
		query    string
		readable bool
	}{
		{color.RGBA{}, color.RGBA{}, "", true},
		{color.RGBA{0xEE, 0xEE, 0xEE, 0xff}, color.RGBA{}, "color=EEEEEE", false},
		{color.RGBA{0xE0, 0x70, 0x1A, 0xff}, color.RGBA{0xFF, 0xF8, 0xE1, 0xff}, "color=E0701A&background=FFF8E1", false},
	} {
		got, err := c.Contrast(context.Background(), tc.fg, tc.bg)
		if err != nil {
			t.Fatalf("%s: %v", tc.query, err)
		}
		resp, err := http.Get(svc.URL + "/api/contrast?" + tc.query)
		if err != nil {
			t.Fatal(err)
		}
		var want api.Contrast
		json.NewDecoder(resp.Body).Decode(&want)
		resp.Body.Close()
		if *got != want || got.Readable != tc.readable {
			t.Errorf("%s: %+v\nthe service answers %+v", tc.query, got, want)
		}
	}
	_, err := newClient(t, svc.URL+"/nowhere").Contrast(context.Background(), color.RGBA{}, color.RGBA{})
	var e *APIError
	if !errors.As(err, &e) || e.Status != 404 || e.RequestID == "" {
		t.Errorf("under a wrong prefix: %v", err)
	}
}

// TestCodeOfHeaders: a percent-encoded payload is decoded as a path is (+ stays +), warnings
// come as one list however the header lines split it, and an unreadable number is 0.
func TestCodeOfHeaders(t *testing.T) {
	h := http.Header{}
	h.Set("X-QR-Payload", url.PathEscape("a+b c"))
	h.Set("X-QR-Payload-Encoding", "percent")
	h.Add("X-QR-Warning", "A, B")
	h.Add("X-QR-Warning", "C")
	h.Set("RateLimit-Limit", "x")
	c := codeOf(nil, h)
	if c.Payload == nil || *c.Payload != "a+b c" || !slices.Equal(c.Warnings, []string{"A", "B", "C"}) || c.RateLimit != (RateLimit{}) {
		t.Errorf("%+v", c)
	}
}

func mustBase64(t *testing.T, s string) []byte {
	t.Helper()
	b, err := base64.StdEncoding.DecodeString(s)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
