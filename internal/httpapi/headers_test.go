package httpapi

import (
	"net/http"
	"testing"
)

// TestHeaderNamesCanonical: the header names set without Header.Set are in the canonical form
// Header.Get and net/http look them up by.
func TestHeaderNamesCanonical(t *testing.T) {
	for _, k := range append(codeHeaders, headerCacheControl, headerContentType, headerRetryAfter, headerRequestID,
		headerRateLimitLimit, headerRateLimitRemaining, headerRateLimitReset) {
		if c := http.CanonicalHeaderKey(k); c != k {
			t.Errorf("%q is not canonical: %q", k, c)
		}
	}
}
