package ops

import (
	"bytes"
	"encoding/json"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/bananaqr/bananaqr/expenses/store"
	"github.com/bananaqr/bananaqr/expenses/store/storetest"
)

// TestReadyz: /readyz is 200 {"ok":true,"database":"up"} while the store answers, 503 with
// "draining":true once Drain is called, and 503 {"ok":false,"database":"down"}, at once and not
// cached, once the store is closed; the cause is logged, not answered. /healthz stays 200.
func TestReadyz(t *testing.T) {
	storetest.Engines(t, func(t *testing.T, st *store.Store) {
		var log bytes.Buffer
		ready := NewReadyz(st.Ready, slog.New(slog.NewTextHandler(&log, nil)))
		probe := func(h http.Handler) (int, Readiness, string) {
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, httptest.NewRequest("GET", "/readyz", nil))
			var r Readiness
			if err := json.Unmarshal(rec.Body.Bytes(), &r); err != nil || rec.Header().Get("Content-Type") != "application/json" {
				t.Errorf("not a JSON answer: %q %v", rec.Body, err)
			}
			return rec.Code, r, rec.Header().Get("Cache-Control")
		}
		if code, r, cache := probe(ready); code != 200 || r != (Readiness{OK: true, Database: "up"}) || cache != "no-store" {
			t.Errorf("open: %d %+v %q", code, r, cache)
		}
		ready.Drain()
		if code, r, _ := probe(ready); code != 503 || r != (Readiness{OK: false, Database: "up", Draining: true}) {
			t.Errorf("draining: %d %+v", code, r)
		}
		ready = NewReadyz(st.Ready, slog.New(slog.NewTextHandler(&log, nil)))
		st.Close()
		start := time.Now()
		if code, r, cache := probe(ready); code != 503 || r != (Readiness{OK: false, Database: "down"}) || cache != "no-store" {
			t.Errorf("closed: %d %+v %q", code, r, cache)
		}
		if d := time.Since(start); d > 100*time.Millisecond {
			t.Errorf("closed: answered in %v", d)
		}
		if !strings.Contains(log.String(), "not ready") {
			t.Errorf("the cause is not logged: %q", log.String())
		}
		if code, _, _ := probe(Healthz()); code != 200 {
			t.Errorf("/healthz: %d", code)
		}
	})
}
