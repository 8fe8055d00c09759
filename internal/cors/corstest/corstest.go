// Package corstest reads CORS answers as a browser's CORS check does (WHATWG Fetch, "CORS
// check" and "CORS-preflight fetch"), for the tests of the servers that send them. It is
// imported by tests only.
package corstest

import (
	"net/http"
	"strings"
)

// List returns the values of h's header name, a comma-separated list
// (Access-Control-Allow-Headers, -Allow-Methods, -Expose-Headers), trimmed and lower-cased:
// Fetch compares header names without regard to case (RFC 9110 section 5.1).
func List(h http.Header, name string) []string {
	var out []string
	for _, v := range strings.Split(h.Get(name), ",") {
		if v = strings.TrimSpace(v); v != "" {
			out = append(out, strings.ToLower(v))
		}
	}
	return out
}
