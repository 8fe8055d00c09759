// Package graceful runs HTTP servers until a context is done, then stops them without cutting
// off the requests in flight: the lifecycle of bananaqr serve and bananaqr expenses serve,
// written once.
//
// The caller opens the listeners (so that a busy port fails the start before anything is
// announced or answered) and builds the servers; Serve serves them, and when the context is
// done (SIGINT or SIGTERM, in the commands) shuts the main server down as net/http's
// Server.Shutdown does: its listener closes at once, idle connections are closed, and the
// requests in flight get the shutdown timeout to finish.
package graceful

import (
	"context"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"time"
)

// Server is an HTTP server and the listener it serves.
type Server struct {
	HTTP     *http.Server
	Listener net.Listener
	// Drain, for the main server, is how long it goes on serving once ctx is done, before its
	// listener closes; Draining, when set, is called as it starts: a server turns its readiness
	// to 503 there, so that load balancers (a Kubernetes Service's endpoints) stop sending it
	// requests while it still answers those already on their way.
	Drain    time.Duration
	Draining func()
}

// Serve serves main, and each of aux, on its listener until ctx is done. Then, with a Drain
// delay, it logs "draining", calls main's Draining and goes on serving for that long; then it
// logs "shutting down" with the timeout, gives main's requests in flight timeout to finish
// (http.Server.Shutdown), and closes aux only once main is through, so that the metrics of a
// draining server can still be read; aux servers (metrics, profiles) are never drained, for a
// 30-second profile must not hold the stop.
//
// When a server stops before ctx is done (its listener failed), every server is closed and
// that server's error is returned. A shutdown that runs out of time returns an error that
// wraps context.DeadlineExceeded; a clean one returns nil.
func Serve(ctx context.Context, logger *slog.Logger, timeout time.Duration, main Server, aux ...Server) error {
	all := append([]Server{main}, aux...)
	stopped := make(chan error, len(all))
	for _, s := range all {
		go func() { stopped <- s.HTTP.Serve(s.Listener) }()
	}
	select {
	case err := <-stopped:
		for _, s := range all {
			s.HTTP.Close()
		}
		return err
	case <-ctx.Done():
	}
	if main.Drain > 0 {
		logger.Info("draining", "delay", main.Drain.String())
		if main.Draining != nil {
			main.Draining()
		}
		time.Sleep(main.Drain)
	}
	logger.Info("shutting down", "timeout", timeout.String())
	shutdownCtx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	err := main.HTTP.Shutdown(shutdownCtx)
	for _, s := range aux {
		s.HTTP.Close()
	}
	if err != nil {
		return fmt.Errorf("shutdown: %w", err)
	}
	return nil
}
