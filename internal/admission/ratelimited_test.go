package admission

import (
	"testing"
	"time"

	"github.com/bananaqr/bananaqr/api"
	"github.com/bananaqr/bananaqr/internal/ratelimit"
)

// TestRateLimited checks the one rule of the rate limit's refusal: the spec's 60 seconds for one
// code whatever the limiter says, the seconds until they fit (rounded up, at least 1) for a
// batch, and a hint that says the same seconds, or, for a batch larger than the budget, to send
// fewer.
func TestRateLimited(t *testing.T) {
	tests := []struct {
		d       ratelimit.Decision
		n       int
		seconds int
		message string
		hint    string
	}{
		{ratelimit.Decision{Limit: 60, RetryAfter: time.Second}, 1, 60, "more than 60 codes a minute",
			"Wait 60 seconds before asking again; do not retry in a tight loop."},
		{ratelimit.Decision{Limit: 10, RetryAfter: 6 * time.Second}, 1, 60, "more than 10 codes a minute",
			"Wait 60 seconds before asking again; do not retry in a tight loop."},
		{ratelimit.Decision{Limit: 60, Remaining: 10, RetryAfter: 9*time.Second + time.Millisecond}, 20, 10,
			"20 codes would exceed the 60 codes a minute (10 left now)",
			"Wait 10 seconds before asking again; do not retry in a tight loop."},
		{ratelimit.Decision{Limit: 60, Remaining: 59, RetryAfter: time.Millisecond}, 60, 1,
			"60 codes would exceed the 60 codes a minute (59 left now)",
			"Wait 1 second before asking again; do not retry in a tight loop."},
		{ratelimit.Decision{Limit: 10, Remaining: 10, RetryAfter: 6 * time.Second}, 11, 6,
			"11 codes would exceed the 10 codes a minute (10 left now)", "Send at most 10 requests a batch."},
	}
	for _, tt := range tests {
		err, seconds := RateLimited(tt.d, tt.n)
		if err.Reason != api.ReasonRateLimited || seconds != tt.seconds || err.Message != tt.message || err.Hint != tt.hint {
			t.Errorf("RateLimited(%+v, %d) = %+v, %d; want %q, %q, %d", tt.d, tt.n, err, seconds, tt.message, tt.hint, tt.seconds)
		}
	}
}
