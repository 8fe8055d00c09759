package render

import (
	"bytes"
	"encoding/xml"
	"testing"
)

// FuzzAppendEscaped: appendEscaped escapes as encoding/xml's EscapeText does, byte for byte.
func FuzzAppendEscaped(f *testing.F) {
	for _, s := range []string{"", "QR code: https://example.com/?a=1&b=<2>", "\"'\t\n\r", "\x00\x1f\x7f", "\xff\xfe", "\uFFFD",
		"\uFFFE", "\U0001F34C", "\xed\xa0\x80"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		var want bytes.Buffer
		xml.EscapeText(&want, []byte(s))
		if got := appendEscaped([]byte("x"), s); string(got) != "x"+want.String() {
			t.Fatalf("appendEscaped(%q) = %q, want %q", s, got[1:], want.String())
		}
	})
}
