package payload

import (
	"strings"
	"testing"
)

// TestToASCIIShortcut: toASCII's shortcut for plain hosts answers as the IDNA profile does, for
// every host of up to six characters of a, x, n, 0, -, . and A (where the shortcut's rules
// about hyphens, dots, "xn--" and case all matter).
func TestToASCIIShortcut(t *testing.T) {
	const alphabet = "axn0-.A"
	var walk func(host string)
	walk = func(host string) {
		want, wantErr := hostProfile.ToASCII(host)
		if got, err := toASCII(host); got != want || (err == nil) != (wantErr == nil) {
			t.Fatalf("toASCII(%q) = %q, %v; the profile says %q, %v", host, got, err, want, wantErr)
		}
		if len(host) < 6 {
			for i := range len(alphabet) {
				walk(host + alphabet[i:i+1])
			}
		}
	}
	walk("")
}

// TestContainsUpper: containsUpper answers as strings.Contains(strings.ToUpper(s), upper).
func TestContainsUpper(t *testing.T) {
	for _, s := range []string{"", "begin:vevent", "xBeGiN:vEvEnTx", "BEGIN:VEVEN", "begin:vevent ſ", "BEGıN:VEVENT",
		"beǵin:vevent", "BEGIN:VEVENT\x00", "https://example.com/BEGIN:VEVENT"} {
		if got, want := containsUpper(s, "BEGIN:VEVENT"), strings.Contains(strings.ToUpper(s), "BEGIN:VEVENT"); got != want {
			t.Errorf("containsUpper(%q) = %v, want %v", s, got, want)
		}
	}
}
