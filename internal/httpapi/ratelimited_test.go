package httpapi

import (
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/bananaqr/bananaqr/api"
	"github.com/bananaqr/bananaqr/internal/mcpserver"
	"github.com/bananaqr/bananaqr/internal/mcptest"
	"github.com/bananaqr/bananaqr/internal/ratelimit"
)

// TestRateLimitedEverywhere checks that the rate limit refuses a single code, a batch and an MCP
// tool call with one error by one rule (admission.RateLimited): RATE_LIMITED; Retry-After 60
// for one code (the spec's) and the seconds until a batch fits for a batch; a hint that says
// the same seconds as Retry-After; and for the tool call, which has no Retry-After, the very
// error of a single code.
func TestRateLimitedEverywhere(t *testing.T) {
	now := time.Unix(1_700_000_000, 0)
	ts := newTestServer(t, Config{Limiter: ratelimit.NewMemory(10, time.Minute, func() time.Time { return now }), RateLimit: 10})
	batch := func(n int) string {
		return "[" + strings.TrimSuffix(strings.Repeat(`{"url":"https://example.com","size":128},`, n), ",") + "]"
	}
	// refused checks a 429 RATE_LIMITED whose Retry-After is retry and whose hint says so, and
	// returns its error object.
	refused := func(what string, r *result, retry int) api.ErrorBody {
		t.Helper()
		e := r.wantError(t, http.StatusTooManyRequests, api.ReasonRateLimited)
		if got := r.header.Get("Retry-After"); got != strconv.Itoa(retry) {
			t.Errorf("%s: Retry-After %q, want %d", what, got, retry)
		}
		if !strings.Contains(e.Hint, "Wait "+strconv.Itoa(retry)+" seconds") {
			t.Errorf("%s: hint %q does not say the %d seconds of Retry-After", what, e.Hint, retry)
		}
		return e
	}

	if r := ts.postBatch(t, batch(6), nil); r.status != http.StatusOK || r.header.Get("RateLimit-Remaining") != "4" {
		t.Fatalf("batch of 6: %d, remaining %s", r.status, r.header.Get("RateLimit-Remaining"))
	}
	// Four left, one every 6 seconds: a batch of 5 fits in 6 seconds.
	refused("batch of 5", ts.postBatch(t, batch(5), nil), 6)
	// A batch of 11 never fits a budget of 10: its hint says so, and Retry-After still follows
	// the rule.
	r := ts.postBatch(t, batch(11), nil)
	if e := r.wantError(t, http.StatusTooManyRequests, api.ReasonRateLimited); e.Hint != "Send at most 10 requests a batch." {
		t.Errorf("batch of 11: hint %q", e.Hint)
	}
	for i := range 4 {
		if r := ts.get(t, "/api/qr-code.svg?text=x"); r.status != http.StatusOK {
			t.Fatalf("single %d: %d", i+1, r.status)
		}
	}
	single := refused("single code", ts.get(t, "/api/qr-code.svg?text=x"), 60)
	if single.Message != "more than 10 codes a minute" {
		t.Errorf("single code: message %q", single.Message)
	}
	tool := toolErrorBody(t, mcptest.CallTool(t, mcpSession(t, ts), mcpserver.ToolName, map[string]any{"type": "text", "text": "x"}))
	if tool != single {
		t.Errorf("the tool's refusal differs from a single code's:\ntool   %+v\nsingle %+v", tool, single)
	}
}
