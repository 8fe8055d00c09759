// Package ops gives bananaqr expenses serve the signals an operator reads, under the names the
// QR service uses: its Prometheus metrics (metrics.go) and its Kubernetes probes, /healthz
// (liveness) and /readyz (readiness: the database answers, and the server is not draining).
package ops

import (
	"context"
	"encoding/json"
	"log/slog"
	"net/http"
	"sync/atomic"
	"time"
)

// ReadyTimeout bounds the database check of /readyz, so that the probe answers within some
// 100 ms whatever the database does (refuses, never answers, answers slowly). A database that
// takes 50 ms to answer SELECT 1 is as good as down for the tools, whose calls make several
// queries each.
const ReadyTimeout = 50 * time.Millisecond

// Health is the answer of /healthz: the process answers.
type Health struct {
	OK bool `json:"ok"`
}

// Readiness is the answer of /readyz: ready (200) when the database answers a query within
// ReadyTimeout and the server is not draining before it stops, else not (503), since every tool
// reads or writes the database.
type Readiness struct {
	OK       bool   `json:"ok"`
	Database string `json:"database"` // up or down
	// Draining is true while the server drains before it stops (then OK is false).
	Draining bool `json:"draining,omitempty"`
}

// Healthz answers GET /healthz: 200 {"ok":true} while the process serves.
func Healthz() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		writeJSON(w, http.StatusOK, Health{OK: true})
	})
}

// Readyz answers GET /readyz.
type Readyz struct {
	ready    func(context.Context) error
	logger   *slog.Logger
	draining atomic.Bool
}

// NewReadyz returns /readyz over ready, the database's check, logging why it is not ready on
// logger.
func NewReadyz(ready func(context.Context) error, logger *slog.Logger) *Readyz {
	return &Readyz{ready: ready, logger: logger}
}

// Drain turns /readyz to 503 for good: the server is about to stop (graceful.Server.Draining).
func (z *Readyz) Drain() { z.draining.Store(true) }

// ServeHTTP answers 200 {"ok":true,"database":"up"} when ready answers nil within ReadyTimeout
// and the server is not draining; else 503 with "database":"down" (the cause logged at WARN:
// the body never says, since a database error may name hosts) or "draining":true.
func (z *Readyz) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	ctx, cancel := context.WithTimeout(r.Context(), ReadyTimeout)
	err := z.ready(ctx)
	cancel()
	out, status := Readiness{OK: true, Database: "up"}, http.StatusOK
	if err != nil {
		z.logger.Warn("not ready", "error", err.Error())
		out, status = Readiness{OK: false, Database: "down"}, http.StatusServiceUnavailable
	}
	if z.draining.Load() {
		out.OK, out.Draining, status = false, true, http.StatusServiceUnavailable
	}
	writeJSON(w, status, out)
}

// writeJSON answers v as JSON with status, not to be cached: a probe's answer is of its moment.
func writeJSON(w http.ResponseWriter, status int, v any) {
	body, _ := json.Marshal(v)
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	w.Write(append(body, '\n'))
}
