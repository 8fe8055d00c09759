// Health: liveness (/healthz) and readiness (/readyz, with the rate limiter's backend).

package httpapi

import (
	"context"
	"net/http"
	"time"

	"github.com/bananaqr/bananaqr/api"
)

// health answers the liveness checks (spec 4.6).
func (s *Server) health(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Cache-Control", "no-store")
	writeJSON(w, http.StatusOK, api.Health{OK: true})
}

// Readiness is the answer of /readyz: the service is up (ok), and how its rate limiter's
// backend fares. It is 200 even when the backend is down, since requests are then served
// without a limit (fail open).
type Readiness struct {
	OK        bool   `json:"ok"`
	RateLimit string `json:"rate_limit"` // off, memory or redis
	Backend   string `json:"backend"`    // up or down
}

// pinger is a limiter whose backend can be checked.
type pinger interface{ Ping(context.Context) error }

// ready answers /readyz.
func (s *Server) ready(w http.ResponseWriter, r *http.Request) {
	out := Readiness{OK: true, RateLimit: "off", Backend: "up"}
	if s.cfg.Limiter != nil {
		out.RateLimit = "memory"
	}
	if p, ok := s.cfg.Limiter.(pinger); ok {
		out.RateLimit = "redis"
		ctx, cancel := context.WithTimeout(r.Context(), time.Second)
		defer cancel()
		if p.Ping(ctx) != nil {
			out.Backend = "down"
		}
	}
	w.Header().Set("Cache-Control", "no-store")
	writeJSON(w, http.StatusOK, out)
}
