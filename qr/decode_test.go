package qr

import (
	"errors"
	"math/rand/v2"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/bananaqr/bananaqr/internal/qrtest"
	"github.com/bananaqr/bananaqr/internal/testenv"
)

// decode reads s back with an independent decoder.
func decode(s *Symbol) (string, error) { return qrtest.Decode(s.Size(), s.Dark) }

// Character classes of the decode tests.
var textClasses = []struct {
	name string
	set  []string // the characters to draw from
}{
	{"numeric", strings.Split("0123456789", "")},
	{"alphanumeric", strings.Split("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ $%*+-./:", "")},
	{"byte", strings.Split("abcdefghijklmnopqrstuvwxyz!\"#&'()<>?@[\\]^_`{|}~;,=\t\n", "")},
	{"mixed", []string{"0123456789", "2026-11-21", "ABC", "SKU-42 ", "hello ", "world", "? ", "https://", "x=1&y=2", "31415926535897932384", "ORDER NO. "}},
	{"utf8", []string{"é", "ü", "ß", "Ω", "Ж", "你好", "世界", "😀", "🍌", "ñ", "12345678", "ABC", "abc", " "}},
}

// randomClassText returns n characters drawn from set.
func randomClassText(r *rand.Rand, set []string, n int) string {
	var b strings.Builder
	for range n {
		b.WriteString(set[r.IntN(len(set))])
	}
	return b.String()
}

// prefixForVersion returns the longest prefix of text (at a character boundary) that Encode
// puts in a symbol no larger than version v at level l, with boosting off.
func prefixForVersion(t *testing.T, text string, v int, l Level) string {
	lo, hi := 0, len(text) // the prefix of length lo fits, text[:hi+1] is unknown
	for lo < hi {
		mid := (lo + hi + 1) / 2
		for mid > lo && !utf8.RuneStart(text[mid%len(text)]) && mid < len(text) {
			mid--
		}
		if mid == lo {
			break
		}
		s, err := Encode(text[:mid], Options{Level: l, NoBoost: true})
		if err == nil && s.Version() <= v {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	return text[:lo]
}

// TestDecodeEveryVersionAndLevel encodes thousands of texts of every character class, filling
// every version at every level completely and partly, and decodes each symbol with gozxing.
func TestDecodeEveryVersionAndLevel(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	decoded, versions := 0, 0
	for ci, class := range textClasses {
		long := randomClassText(r, class.set, maxTextLen)
		for v := minVersion; v <= maxVersion; v++ {
			// A sample of the versions, the first and the last always (BANANAQR_FULL=1: all).
			if v != minVersion && v != maxVersion && !testenv.Sampled(v+ci) {
				continue
			}
			versions++
			for _, l := range levelsByStrength {
				full := prefixForVersion(t, long, v, l)
				texts := []string{full, full[:len(prefixForVersion(t, full, v-1, l))]}
				if v > 1 {
					// Somewhere between the previous version's capacity and this one's.
					prev := len(texts[1])
					texts[1] = prefixForVersion(t, long[:prev+1+r.IntN(len(full)-prev)], v, l)
				}
				for _, text := range texts {
					s, err := Encode(text, Options{Level: l, NoBoost: true})
					if err != nil {
						t.Fatalf("%s %d-%s: %v", class.name, v, l, err)
					}
					if text == full && s.Version() != v {
						t.Errorf("%s: %d bytes at level %s: version %d, want %d", class.name, len(text), l, s.Version(), v)
					}
					got, err := decode(s)
					if err != nil || got != text {
						t.Fatalf("%s %d-%s mask %d, %d bytes: decoded %q, %v", class.name, s.Version(), s.Level(), s.Mask(), len(text), got, err)
					}
					decoded++
				}
			}
		}
	}
	t.Logf("%d symbols decoded", decoded)
	testenv.SampleNote(t, versions, len(textClasses)*(maxVersion-minVersion+1))
}

func TestTooLong(t *testing.T) {
	for _, tc := range []struct {
		text  string
		level Level
		max   int
	}{
		{strings.Repeat("a", 2954), L, 2953},
		{strings.Repeat("a", 2332), M, 2331},
		{strings.Repeat("a", 1664), Q, 1663},
		{strings.Repeat("a", 1274), H, 1273},
		{strings.Repeat("ä", 1200), Q, 1662}, // the ECI designator takes 12 bits
		{strings.Repeat("7", 7090), L, 2953},
		{strings.Repeat("7", 1_000_000), M, 2331},
	} {
		_, err := Encode(tc.text, Options{Level: tc.level})
		var tl *TooLongError
		if !errors.As(err, &tl) || tl.Max != tc.max || tl.Len != len(tc.text) || tl.Level != tc.level {
			t.Errorf("%d bytes at %s: got %v, want TooLongError with Max %d", len(tc.text), tc.level, err, tc.max)
		}
		// Max bytes do fit.
		fit := strings.Repeat("a", tc.max)
		if strings.HasPrefix(tc.text, "ä") {
			fit = "ä" + strings.Repeat("a", tc.max-2)
		}
		if s, err := Encode(fit, Options{Level: tc.level, NoBoost: true}); err != nil || s.Version() != maxVersion {
			t.Errorf("%d bytes at %s: %v", len(fit), tc.level, err)
		}
	}
	// The largest numeric and alphanumeric texts fit.
	for text, l := range map[string]Level{strings.Repeat("9", 7089): L, strings.Repeat("Z", 4296): L, strings.Repeat("9", 3057): H} {
		if _, err := Encode(text, Options{Level: l}); err != nil {
			t.Errorf("%d characters at %s: %v", len(text), l, err)
		}
	}
}

func TestInvalidInput(t *testing.T) {
	if _, err := Encode("ab\xffcd", Options{}); !errors.Is(err, ErrInvalidUTF8) {
		t.Errorf("invalid UTF-8: got %v", err)
	}
	if _, err := Encode("ab", Options{Level: 4}); err == nil {
		t.Error("level 4: no error")
	}
}
