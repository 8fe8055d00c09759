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

// Readiness is the answer of /readyz. The service is not ready (503) only while it drains
// before stopping (Drain: SIGTERM with --shutdown-delay), so that load balancers stop sending
// it requests while it still answers those on their way; after that, net/http closes the
// listener and probes are refused. The rate limit fails open: with its backend (Redis) down,
// codes are still made, without a limit, so the service stays ready and says so here (Backend
// "down", RateLimitEnforced false) and in the metric bananaqr_rate_limiter_backend_up.
type Readiness struct {
	OK        bool   `json:"ok"`
	RateLimit string `json:"rate_limit"` // off, memory or redis
	Backend   string `json:"backend"`    // up or down
	// RateLimitEnforced is whether callers are held to the configured limit now: false when
	// the limit is off, or its backend is down and requests are let through (fail open).
	RateLimitEnforced bool `json:"rate_limit_enforced"`
	// Draining is true while the service drains before it stops (then OK is false).
	Draining bool `json:"draining,omitempty"`
}

// readyTimeout bounds the backend check of /readyz, so that it answers within 100 ms whatever
// Redis does (refuses, never answers, answers slowly). Decision: a PING bounded by this
// deadline at each probe, rather than a state cached and refreshed in the background: no
// goroutine to start and stop with the server, an answer as fresh as the probe, and one PING a
// probe (every few seconds a replica) costs Redis nothing. A healthy Redis answers a PING in
// well under a millisecond; one that takes 50 ms is as good as down for a limiter whose calls
// time out at 100 ms.
const readyTimeout = 50 * time.Millisecond

// backend is a limiter whose backend can be checked (Ping) and whose last known state is kept
// (Up): the Redis limiter.
type backend interface {
	Ping(context.Context) error
	Up() bool
}

// ready answers /readyz.
func (s *Server) ready(w http.ResponseWriter, r *http.Request) {
	out := s.readiness(r.Context())
	w.Header().Set("Cache-Control", "no-store")
	status := http.StatusOK
	if s.draining.Load() {
		out.OK, out.Draining, status = false, true, http.StatusServiceUnavailable
	}
	writeJSON(w, status, out)
}

// Drain turns /readyz to 503 for good: the service is about to stop (graceful.Server.Draining).
// Everything else is answered as before.
func (s *Server) Drain() { s.draining.Store(true) }

// readiness checks the rate limiter's backend, within readyTimeout.
func (s *Server) readiness(ctx context.Context) Readiness {
	out := Readiness{OK: true, RateLimit: "off", Backend: "up"}
	if s.cfg.Limiter == nil {
		return out
	}
	out.RateLimit = "memory"
	if b, ok := s.cfg.Limiter.(backend); ok {
		out.RateLimit = "redis"
		ctx, cancel := context.WithTimeout(ctx, readyTimeout)
		defer cancel()
		if b.Ping(ctx) != nil {
			out.Backend = "down"
		}
	}
	out.RateLimitEnforced = out.Backend == "up"
	return out
}

// backendUp is the value of bananaqr_rate_limiter_backend_up: 1 when the limiter's backend
// answered the last time it was asked (a request's count or a readiness check), 0 when it did
// not; 1 when the limit is kept in memory or off, which have no backend to fail.
func backendUp(l any) func() float64 {
	return func() float64 {
		if b, ok := l.(backend); ok && !b.Up() {
			return 0
		}
		return 1
	}
}
