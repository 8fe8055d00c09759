package telemetry

import (
	"math/rand/v2"
	"net/http"
)

// RequestID returns the id of r: the client's X-Request-Id when it is short and plain enough to
// log as it is, else a new one.
func RequestID(r *http.Request) string {
	if id := r.Header.Get(HeaderRequestID); plainID(id) {
		return id
	}
	return newRequestID()
}

// newRequestID returns a new request id: 16 hexadecimal digits from the runtime's random
// source (ChaCha8, per thread: no system call and no lock), unique enough to find a request's
// lines in the logs of every replica.
func newRequestID() string {
	const digits = "0123456789abcdef"
	var b [16]byte
	n := rand.Uint64()
	for i := range b {
		b[i] = digits[n>>60]
		n <<= 4
	}
	return string(b[:])
}

// plainID reports whether a client's request id can be logged as it is: 1 to 64 letters,
// digits, hyphens, underscores and dots.
func plainID(id string) bool {
	if id == "" || len(id) > 64 {
		return false
	}
	for _, c := range []byte(id) {
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '-' || c == '_' || c == '.') {
			return false
		}
	}
	return true
}
