package httpapi

import (
	"bytes"
	"encoding/json"
	"fmt"
	"image/png"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/bananaqr/bananaqr/api"
	"github.com/bananaqr/bananaqr/internal/qrtest"
	"github.com/bananaqr/bananaqr/internal/ratelimit"
)

// postBatch sends a batch body (checked against the OpenAPI document, as every response is).
func (ts *testServer) postBatch(t *testing.T, body string, header map[string]string) *result {
	t.Helper()
	return ts.do(t, http.MethodPost, "/api/qr-code/batch", body, header)
}

// batchCaller returns a caller address no other test uses.
func batchCaller() map[string]string {
	n := time.Now().UnixNano()
	return map[string]string{"X-Forwarded-For": fmt.Sprintf("10.%d.%d.%d", n>>16&255, n>>8&255, n&255)}
}

// TestBatch makes a batch of URL, Wi-Fi and text codes as SVG and PNG: one ZIP archive, its
// files in the array's order under the names asked for or the defaults, the PNGs reading back
// (gozxing) to their payloads, the same bytes for the same batch; the access log and metrics
// name the route.
func TestBatch(t *testing.T) {
	ts := newTestServer(t, Config{Limiter: ratelimit.NewMemory(60, time.Minute, nil), RateLimit: 60, TrustedProxies: loopback})
	body := `[{"url":"https://example.com/menu","filename":"menu","format":"png"},
		{"type":"wifi","ssid":"Café","password":"correct horse","format":"png","size":512},
		{"text":"Hello, world","corners":"rounded"},
		{"url":"example.com/wine","format":"png","download":true,"filename":"Wine List.png"}]`
	caller := batchCaller()
	r := ts.postBatch(t, body, caller)
	if r.status != http.StatusOK {
		t.Fatalf("%d %s", r.status, r.body)
	}
	for k, want := range map[string]string{"Content-Type": "application/zip", "Content-Disposition": `attachment; filename="qr-codes.zip"`,
		"Cache-Control": "private, no-store", "RateLimit-Limit": "60", "RateLimit-Remaining": "56"} {
		if got := r.header.Get(k); got != want {
			t.Errorf("%s: %q, want %q", k, got, want)
		}
	}
	names, files := qrtest.Unzip(t, r.body)
	if want := []string{"menu.png", "qr-2-wifi.png", "qr-3-text.svg", "Wine List.png"}; strings.Join(names, "|") != strings.Join(want, "|") {
		t.Errorf("files %q, want %q", names, want)
	}
	for name, payload := range map[string]string{"menu.png": "https://example.com/menu", "qr-2-wifi.png": "WIFI:T:WPA;S:Café;P:correct horse;;",
		"Wine List.png": "https://example.com/wine"} {
		img, err := png.Decode(bytes.NewReader(files[name]))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if text, err := qrtest.DecodeImage(img, false); err != nil || text != payload {
			t.Errorf("%s reads %q (%v), want %q", name, text, err, payload)
		}
	}
	// The SVG is the one POST /api/qr-code makes of the same request.
	single := ts.post(t, `{"text":"Hello, world","corners":"rounded"}`)
	if !bytes.Equal(single.body, files["qr-3-text.svg"]) {
		t.Error("the batch's SVG differs from POST /api/qr-code's")
	}
	if again := ts.postBatch(t, body, caller); !bytes.Equal(again.body, r.body) {
		t.Error("the same batch gave another archive")
	}
	if log := ts.log.String(); !strings.Contains(log, `"route":"/api/qr-code/batch"`) {
		t.Errorf("the access log does not name the route:\n%s", log)
	}
	metrics := ts.get(t, "/metrics")
	if !strings.Contains(string(metrics.body), `bananaqr_http_requests_total{format="",route="/api/qr-code/batch",status="200"} 2`) {
		t.Errorf("metrics lack the batch route's requests")
	}
}

// batchErrorBody decodes a batch's error object.
func batchErrorBody(t *testing.T, r *result) batchError {
	t.Helper()
	var e batchError
	dec := json.NewDecoder(bytes.NewReader(r.body))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&e); err != nil {
		t.Fatalf("%s: %v", r.body, err)
	}
	return e
}

// TestBatchAllOrNothing: a batch with failing requests makes no code; its error lists every
// failing request by index, with the error it gets alone, whatever step refuses it.
func TestBatchAllOrNothing(t *testing.T) {
	ts := newTestServer(t, Config{})
	long := strings.Repeat("x", 2100)
	r := ts.postBatch(t, `[{"url":"https://example.com"},{"type":"wifi"},{"text":"x","colour":"000000"},{"text":"ok"},
		{"text":"x","format":"json"},{"text":"`+long+`"},{"text":"a","filename":"../x"},{"text":"b","filename":"A"},{"text":"c","filename":"a.svg"}]`, nil)
	if r.status != http.StatusBadRequest {
		t.Fatalf("%d %s", r.status, r.body)
	}
	e := batchErrorBody(t, r)
	if e.Reason != string(api.ReasonBatchInvalid) || e.Error != e.Message || !strings.Contains(e.Message, "6 of the 9") || e.Hint == "" {
		t.Errorf("%+v", e.ErrorBody)
	}
	var got []string
	for _, it := range e.Items {
		got = append(got, fmt.Sprintf("%d %s %s", it.Index, it.Reason, it.Field))
		if it.Message == "" || it.Hint == "" {
			t.Errorf("item %d without message or hint", it.Index)
		}
	}
	want := "1 MISSING_FIELD ssid|2 UNKNOWN_FIELD colour|4 INVALID_VALUE format|5 PAYLOAD_TOO_LARGE text|6 INVALID_VALUE filename|8 INVALID_VALUE filename"
	if strings.Join(got, "|") != want {
		t.Errorf("items\n got %s\nwant %s", strings.Join(got, "|"), want)
	}
	// Each item's error is the one POST /api/qr-code gives the same request.
	alone := ts.post(t, `{"type":"wifi"}`).errorBody(t)
	if alone.Reason != e.Items[0].Reason || alone.Message != e.Items[0].Message || alone.Hint != e.Items[0].Hint {
		t.Errorf("item 1: %+v, alone %+v", e.Items[0], alone)
	}
}

// TestBatchLimits: the array's own faults, more than 60 requests, a body over 256 KiB, another
// media type, another method.
func TestBatchLimits(t *testing.T) {
	ts := newTestServer(t, Config{})
	many := "[" + strings.Repeat(`{"text":"a"},`, 60) + `{"text":"a"}]`
	ts.postBatch(t, many, nil).wantError(t, http.StatusBadRequest, api.ReasonInvalidValue)
	ts.postBatch(t, `[]`, nil).wantError(t, http.StatusBadRequest, api.ReasonInvalidValue)
	ts.postBatch(t, `{"text":"a"}`, nil).wantError(t, http.StatusBadRequest, api.ReasonInvalidJSON)
	ts.postBatch(t, `[{"text":"a"}`, nil).wantError(t, http.StatusBadRequest, api.ReasonInvalidJSON)
	huge := `[{"text":"` + strings.Repeat("a", 257<<10) + `"}]`
	ts.postBatch(t, huge, nil).wantError(t, http.StatusRequestEntityTooLarge, api.ReasonBodyTooLarge)
	ts.postBatch(t, `[{"text":"a"}]`, map[string]string{"Content-Type": "text/csv"}).wantError(t, http.StatusUnsupportedMediaType, api.ReasonUnsupportedMedia)
	ts.get(t, "/api/qr-code/batch").wantError(t, http.StatusMethodNotAllowed, api.ReasonMethodNotAllowed)
	// A body larger than a single request's 64 KiB is a batch's right.
	var items []string
	for i := range 60 {
		items = append(items, fmt.Sprintf(`{"text":"%d %s","size":512,"ecc":"L"}`, i, strings.Repeat(`\u00e9`, 300)))
	}
	if body := "[" + strings.Join(items, ",") + "]"; len(body) <= api.MaxBody {
		t.Fatalf("the body is %d bytes, not over 64 KiB", len(body))
	} else if r := ts.postBatch(t, body, nil); r.status != http.StatusOK {
		t.Fatalf("60 requests in %d bytes: %d %s", len(body), r.status, r.body)
	}
}

// TestBatchRateLimit: a batch counts each of its codes; one larger than what is left is refused
// whole with Retry-After, making nothing and counting nothing, in memory and (when
// BANANAQR_TEST_REDIS_URL is set) in Redis.
func TestBatchRateLimit(t *testing.T) {
	limiters := map[string]func(t *testing.T) ratelimit.Limiter{
		"memory": func(*testing.T) ratelimit.Limiter { return ratelimit.NewMemory(60, time.Minute, nil) },
		"redis":  func(t *testing.T) ratelimit.Limiter { return redisLimiter(t, "", 60) },
	}
	for name, limiter := range limiters {
		t.Run(name, func(t *testing.T) {
			ts := newTestServer(t, Config{Limiter: limiter(t), RateLimit: 60, TrustedProxies: loopback})
			caller := batchCaller()
			start := time.Now()
			batch := func(n int) string {
				return "[" + strings.TrimSuffix(strings.Repeat(`{"url":"https://example.com","size":128},`, n), ",") + "]"
			}
			if r := ts.postBatch(t, batch(50), caller); r.status != http.StatusOK || r.header.Get("RateLimit-Remaining") != "10" {
				t.Fatalf("50: %d, remaining %s", r.status, r.header.Get("RateLimit-Remaining"))
			}
			made := func() string {
				return metricValue(t, ts, `bananaqr_generation_seconds_count`)
			}
			before := made()
			r := ts.postBatch(t, batch(20), caller)
			r.wantError(t, http.StatusTooManyRequests, api.ReasonRateLimited)
			if retry, _ := strconv.Atoi(r.header.Get("Retry-After")); retry < 9 || retry > 11 {
				t.Errorf("Retry-After %q, want about 10 (ten more places)", r.header.Get("Retry-After"))
			}
			if after := made(); after != before {
				t.Errorf("codes made by a refused batch: %s → %s", before, after)
			}
			for i := range 10 {
				if r := ts.do(t, http.MethodGet, "/api/qr-code.svg?text=x", "", caller); r.status != http.StatusOK {
					t.Fatalf("single %d after the refused batch: %d", i+1, r.status)
				}
			}
			// The budget is spent; it regains a code a second, so on a slow machine (the race
			// detector, a loaded CI) the seconds gone since the first batch may have added some.
			for range int(time.Since(start) / time.Second) {
				if ts.do(t, http.MethodGet, "/api/qr-code.svg?text=x", "", caller).status == http.StatusTooManyRequests {
					return
				}
			}
			ts.do(t, http.MethodGet, "/api/qr-code.svg?text=x", "", caller).wantError(t, http.StatusTooManyRequests, api.ReasonRateLimited)
		})
	}
}

// metricValue returns the sum of the samples of a metric family in /metrics, as text.
func metricValue(t *testing.T, ts *testServer, family string) string {
	t.Helper()
	var sum float64
	for line := range strings.SplitSeq(string(ts.get(t, "/metrics").body), "\n") {
		if strings.HasPrefix(line, family+"{") || strings.HasPrefix(line, family+" ") {
			f := strings.Fields(line)
			v, _ := strconv.ParseFloat(f[len(f)-1], 64)
			sum += v
		}
	}
	return strconv.FormatFloat(sum, 'f', -1, 64)
}
