// The refusal of the rate limit: one error, with one rule for how long to wait, for a single
// code, a batch and a tool call alike.

package admission

import (
	"fmt"
	"time"

	"github.com/bananaqr/bananaqr/api"
	"github.com/bananaqr/bananaqr/internal/ratelimit"
)

// SingleRetryAfter is the seconds a caller refused one code is told to wait: the spec's
// ("429 ... Retry-After is 60 seconds", spec 7.1 and 8), the rate limit's window, after which a
// caller has a place again whatever its limit. It is never less than the limiter's own figure
// for one code (one interval, Window/Limit).
const SingleRetryAfter = 60

// RateLimited returns the error of a request for n codes that the rate limit refused with
// decision d, the API's RATE_LIMITED, and the seconds to wait, which an HTTP answer sends as
// Retry-After (RFC 9110 10.2.3; RFC 6585 4) and the hint repeats, so that every edge says the
// same. The rule:
//
//   - a request for one code (GET or POST of one, a batch of one, an MCP tool call) waits
//     SingleRetryAfter, the spec's 60 seconds;
//   - a batch of several waits until all of its codes fit the budget, the limiter's RetryAfter
//     rounded up to whole seconds and at least 1 (a bananaqr extension: the batch is counted all
//     or none, so the exact figure is the useful one; it is never more than the window);
//   - a batch larger than the whole budget (d.Limit) never fits: its hint says to send fewer.
func RateLimited(d ratelimit.Decision, n int) (*api.Error, int) {
	if n <= 1 {
		return api.NewError(api.ReasonRateLimited, "", waitHint(SingleRetryAfter),
			"more than %d codes a minute", d.Limit), SingleRetryAfter
	}
	seconds := max(1, int((d.RetryAfter+time.Second-1)/time.Second))
	hint := waitHint(seconds)
	if n > d.Limit {
		hint = fmt.Sprintf("Send at most %d requests a batch.", d.Limit)
	}
	return api.NewError(api.ReasonRateLimited, "", hint,
		"%d codes would exceed the %d codes a minute (%d left now)", n, d.Limit, d.Remaining), seconds
}

// waitHint is the hint of a refusal that passes after seconds.
func waitHint(seconds int) string {
	unit := "seconds"
	if seconds == 1 {
		unit = "second"
	}
	return fmt.Sprintf("Wait %d %s before asking again; do not retry in a tight loop.", seconds, unit)
}
