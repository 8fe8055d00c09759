package client

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/bananaqr/bananaqr/api"
)

// APIError is an answer of the API that is not a code: its HTTP status and error object
// (spec 2.3). The service has said no; the request, not the network, needs to change (or, for
// 429 and 503, the time it is sent).
type APIError struct {
	Status  int        // HTTP status: 400, 413, 415, 422, 429, 503, ...
	Reason  api.Reason // stable code, such as INVALID_URL or RATE_LIMITED (api.Reasons lists them)
	Message string     // what is wrong
	Hint    string     // how to correct it
	// RetryAfter is the wait the Retry-After header asked for (429 and 503); 0 without one.
	RetryAfter time.Duration
	// RateLimit is the caller's budget as the answer's RateLimit-* headers say (a 429's
	// Remaining is 0); the zero value when there were none.
	RateLimit RateLimit
	// RequestID is the answer's X-Request-Id, the id the service's logs know the request by:
	// the one to quote when asking its operators why.
	RequestID string
	// Items are, for BATCH_INVALID, the batch's failing requests (Client.Batch).
	Items []ItemError
}

func (e *APIError) Error() string {
	s := fmt.Sprintf("bananaqr API: %d %s: %s", e.Status, e.Reason, e.Message)
	if e.Hint != "" {
		s += " (" + e.Hint + ")"
	}
	if e.RequestID != "" {
		s += " [request " + e.RequestID + "]"
	}
	return s
}

// Failure is how a request failed to reach the API.
type Failure string

// The failures of a TransportError.
const (
	FailureDNS     Failure = "dns"        // the host name did not resolve
	FailureConnect Failure = "connection" // refused, reset, unreachable, or closed before the answer was read
	FailureTLS     Failure = "tls"        // the TLS handshake failed (certificate, protocol, not TLS at all)
	FailureTimeout Failure = "timeout"    // the HTTP client's or the network's timeout (not the caller's context)
	// FailureForeign is an answer that is not the API's: a proxy's error page, a captive
	// portal, an unexpected content type.
	FailureForeign Failure = "foreign answer"
)

// TransportError is a request that never got an answer from the API (spec 7.2, rule 4). Liveness
// says what the liveness check, run right after, found: if it answered, the service is up and the
// failure lies on this request's way (a proxy, a filter on POST, a timeout); if it failed too,
// the service cannot be reached from here at all.
type TransportError struct {
	Op       string  // the request, such as "POST https://qr.example.com/api/qr-code"
	Failure  Failure // how it failed
	Err      error   // the underlying error
	Liveness Liveness
	// RequestID is the X-Request-Id of the foreign answer, when it had one (a proxy that
	// passes the service's id on, or the service's own answer that could not be read); "" when
	// no answer came.
	RequestID string
}

// Liveness is the result of the liveness check (GET /healthz) run after a transport failure.
type Liveness struct {
	Checked bool  // false when the caller's context ended before it could run
	OK      bool  // the service answered {"ok": true}
	Err     error // why not, when not OK
}

// Error says what failed and what the liveness check found, such as "POST
// https://qr.example.com/api/qr-code: connection: dial tcp 192.0.2.1:443: connect: connection
// refused; the liveness check failed too (connection: ...): the service is not reachable from
// here".
func (e *TransportError) Error() string {
	s := fmt.Sprintf("%s: %s: %v", e.Op, e.Failure, e.Err)
	if e.RequestID != "" {
		s += " [request " + e.RequestID + "]"
	}
	var inner *TransportError
	switch l := e.Liveness; {
	case l.OK:
		s += "; the liveness check answered: the service is up, and this request's way to it failed"
	case l.Checked && errors.As(l.Err, &inner):
		s += fmt.Sprintf("; the liveness check failed too (%s: %v): the service is not reachable from here", inner.Failure, inner.Err)
	case l.Checked:
		s += fmt.Sprintf("; the liveness check failed too (%v)", l.Err)
	}
	return s
}

func (e *TransportError) Unwrap() error { return e.Err }

// transportError classifies err, an error of sending a request or reading its answer; when the
// context ended, the context's error is returned instead (the caller gave up; nothing failed).
func transportError(ctx context.Context, op string, err error) error {
	if ctx.Err() != nil {
		return fmt.Errorf("%s: %w", op, ctx.Err())
	}
	var ue *url.Error
	if errors.As(err, &ue) {
		err = ue.Err // its method and URL are the Op
	}
	return &TransportError{Op: op, Failure: failureOf(err), Err: err}
}

func failureOf(err error) Failure {
	var (
		dns       *net.DNSError
		netErr    net.Error
		record    tls.RecordHeaderError
		alert     tls.AlertError
		verify    *tls.CertificateVerificationError
		unknownCA x509.UnknownAuthorityError
		hostname  x509.HostnameError
		invalid   x509.CertificateInvalidError
	)
	switch {
	case errors.As(err, &dns):
		return FailureDNS
	case errors.As(err, &record), errors.As(err, &alert), errors.As(err, &verify),
		errors.As(err, &unknownCA), errors.As(err, &hostname), errors.As(err, &invalid),
		// net/http reports some handshake failures as text only: alerts it received, and a
		// server that answered in plain HTTP.
		strings.Contains(err.Error(), "tls: "), strings.Contains(err.Error(), "server gave HTTP response to HTTPS client"):
		return FailureTLS
	case errors.As(err, &netErr) && netErr.Timeout():
		return FailureTimeout
	}
	return FailureConnect
}

// retryAfter reads a Retry-After header (RFC 9110, 10.2.3): seconds, or an HTTP date; 0 when
// absent or unreadable.
func retryAfter(h string, now time.Time) time.Duration {
	if h == "" {
		return 0
	}
	if s, err := strconv.ParseUint(h, 10, 31); err == nil {
		return time.Duration(s) * time.Second
	}
	if t, err := http.ParseTime(h); err == nil && t.After(now) {
		return t.Sub(now).Round(time.Second)
	}
	return 0
}
