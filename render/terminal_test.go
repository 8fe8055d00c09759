package render

import (
	"bytes"
	"strings"
	"testing"

	"github.com/bananaqr/bananaqr/qr"
)

func TestTerminalShape(t *testing.T) {
	s, err := qr.Encode("shape", qr.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, margin := range []int{0, 1, 4, MaxMargin} {
		for _, invert := range []bool{false, true} {
			var out bytes.Buffer
			if err := Terminal(&out, s, margin, invert); err != nil {
				t.Fatal(err)
			}
			lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
			n := s.Size() + 2*margin
			if len(lines) != (n+1)/2 {
				t.Errorf("margin %d: %d lines, want %d", margin, len(lines), (n+1)/2)
			}
			for _, line := range lines {
				if got := len([]rune(line)); got != n {
					t.Fatalf("margin %d: line of %d characters, want %d", margin, got, n)
				}
			}
			// The quiet zone is light: blocks on a dark terminal, blank on a light one.
			if margin >= 2 { // the first line is two rows of quiet zone
				want := strings.Repeat("█", n)
				if invert {
					want = strings.Repeat(" ", n)
				}
				if lines[0] != want {
					t.Errorf("margin %d invert %v: first line %q", margin, invert, lines[0])
				}
			}
		}
	}
}

func TestTerminalMarginRange(t *testing.T) {
	s, err := qr.Encode("x", qr.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, margin := range []int{-1, MaxMargin + 1} {
		if err := Terminal(&bytes.Buffer{}, s, margin, false); err == nil {
			t.Errorf("margin %d: no error", margin)
		}
	}
}
