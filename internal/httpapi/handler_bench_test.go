package httpapi

import (
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/bananaqr/bananaqr/api"
	"github.com/bananaqr/bananaqr/internal/accesslog"
	"github.com/bananaqr/bananaqr/internal/ratelimit"
)

// handlerCases are the requests of the handler benchmarks: one code of each format, as
// bench/http.sh loads them.
var handlerCases = []struct{ name, target string }{
	{"svg", "/api/qr-code.svg?url=https%3A%2F%2Fexample.com%2Fproducts%2F12345%3Fref%3Dnewsletter"},
	{"png", "/api/qr-code.png?url=https%3A%2F%2Fexample.com%2Fproducts%2F12345%3Fref%3Dnewsletter&size=1024"},
	{"json", "/api/qr-code?url=https%3A%2F%2Fexample.com%2Fproducts%2F12345%3Fref%3Dnewsletter&format=json"},
}

// benchHandler returns the whole handler as bananaqr serve runs it: the access log (JSON,
// discarded, written by accesslog.New), metrics, request ids and an in-memory rate limit that
// never refuses.
func benchHandler() http.Handler {
	return New(Config{Logger: slog.New(slog.NewJSONHandler(io.Discard, nil)), AccessLog: accesslog.New(io.Discard, "json"),
		OpenAPI: api.OpenAPI, Limiter: ratelimit.NewMemory(100_000_000, time.Minute, nil), RateLimit: 100_000_000}).Handler()
}

// serveOne answers one request of target on h, as from a client at 192.0.2.1, into a new
// recorder.
func serveOne(h http.Handler, target string) *httptest.ResponseRecorder {
	r := httptest.NewRequest(http.MethodGet, target, nil)
	r.RemoteAddr = "192.0.2.1:40000"
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	return w
}

// BenchmarkHandler is the whole HTTP edge and the code behind it, per format, request and
// recorder included.
func BenchmarkHandler(b *testing.B) {
	h := benchHandler()
	for _, c := range handlerCases {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if w := serveOne(h, c.target); w.Code != http.StatusOK {
					b.Fatalf("%s: %d", c.target, w.Code)
				}
			}
		})
	}
}

// handlerAllocs are the allocation targets of a request, recorder and request included (about
// 15 of them), set from the allocation profile of bench/README.md with a little room for a
// pool emptied by a collection: 87, 83 and 111 before the edge was trimmed; one less each
// since the access log is written by accesslog.New, as serve writes it, not through slog.
var handlerAllocs = map[string]float64{"svg": 44, "png": 45, "json": 67}

// TestHandlerAllocs holds the whole handler to its allocation targets, format by format.
func TestHandlerAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector allocates for itself")
	}
	h := benchHandler()
	for _, c := range handlerCases {
		if n := testing.AllocsPerRun(200, func() { serveOne(h, c.target) }); n > handlerAllocs[c.name] {
			t.Errorf("%s: %.0f allocations a request, target %.0f", c.name, n, handlerAllocs[c.name])
		}
	}
}
