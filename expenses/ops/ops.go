// Package ops gives bananaqr expenses serve the signals an operator reads, under the names the
// QR service uses: its Prometheus metrics (metrics.go) and its Kubernetes probes, /healthz
// (liveness) and /readyz (readiness: the database answers).
package ops

import (
	"context"
	"encoding/json"
	"log/slog"
	"net/http"
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
// ReadyTimeout, else not (503), since every tool reads or writes it.
type Readiness struct {
	OK       bool   `json:"ok"`
	Database string `json:"database"` // up or down
}

// Healthz answers GET /healthz: 200 {"ok":true} while the process serves.
func Healthz() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		writeJSON(w, http.StatusOK, Health{OK: true})
	})
}

// Readyz answers GET /readyz: 200 {"ok":true,"database":"up"} when ready (ReadyTimeout) answers
// nil, else 503 {"ok":false,"database":"down"}, logging why at WARN on logger (the body never
// says: a database error may name hosts).
func Readyz(ready func(context.Context) error, logger *slog.Logger) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ctx, cancel := context.WithTimeout(r.Context(), ReadyTimeout)
		err := ready(ctx)
		cancel()
		if err != nil {
			logger.Warn("not ready", "error", err.Error())
			writeJSON(w, http.StatusServiceUnavailable, Readiness{OK: false, Database: "down"})
			return
		}
		writeJSON(w, http.StatusOK, Readiness{OK: true, Database: "up"})
	})
}

// writeJSON answers v as JSON with status, not to be cached: a probe's answer is of its moment.
func writeJSON(w http.ResponseWriter, status int, v any) {
	body, _ := json.Marshal(v)
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	w.Write(append(body, '\n'))
}
