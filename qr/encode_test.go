package qr

import (
	"bytes"
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"unicode/utf8"
)

// TestAnnexExample encodes the worked example of ISO/IEC 18004 (Annex I): "01234567" in a
// version 1-M symbol, whose data and error correction codewords the standard lists.
func TestAnnexExample(t *testing.T) {
	segs := appendOptimalSegments(nil, "01234567", 1, make([]byte, 24))
	if len(segs) != 1 || segs[0].mode != modeNumeric {
		t.Fatalf("segments %v, want one numeric segment", segs)
	}
	data := appendDataCodewords(nil, segs, 1, M)
	want := []byte{
		0b00010000, 0b00100000, 0b00001100, 0b01010110, 0b01100001, 0b10000000, 0b11101100, 0b00010001,
		0b11101100, 0b00010001, 0b11101100, 0b00010001, 0b11101100, 0b00010001, 0b11101100, 0b00010001,
	}
	if !bytes.Equal(data, want) {
		t.Errorf("data codewords\n%08b\nwant\n%08b", data, want)
	}
	ecc := appendECC(nil, data, 10)
	wantECC := []byte{0b10100101, 0b00100100, 0b11010100, 0b11000001, 0b11101101, 0b00110110, 0b11000111, 0b10000111, 0b00101100, 0b01010101}
	if !bytes.Equal(ecc, wantECC) {
		t.Errorf("error correction codewords\n%08b\nwant\n%08b", ecc, wantECC)
	}
}

// TestCapacity checks the data capacity derived from the block tables against ISO/IEC 18004
// Table 7 (data codewords) for a sample of versions.
func TestCapacity(t *testing.T) {
	for _, tc := range []struct {
		version    int
		l, m, q, h int
	}{
		{1, 19, 16, 13, 9}, {2, 34, 28, 22, 16}, {5, 108, 86, 62, 46}, {7, 156, 124, 88, 66},
		{10, 274, 216, 154, 122}, {27, 1468, 1128, 808, 628}, {40, 2956, 2334, 1666, 1276},
	} {
		for l, want := range map[Level]int{L: tc.l, M: tc.m, Q: tc.q, H: tc.h} {
			if got := dataCodewords(tc.version, l); got != want {
				t.Errorf("version %d-%s: %d data codewords, want %d", tc.version, l, got, want)
			}
		}
	}
	for v := minVersion; v <= maxVersion; v++ {
		// Every block structure adds up: the blocks hold all codewords, short blocks differ
		// from long ones by one data codeword.
		for _, l := range levelsByStrength {
			blocks := int(eccBlocks[l.rank()][v])
			if data := dataCodewords(v, l); data < blocks || totalCodewords(v)-data != blocks*int(eccPerBlock[l.rank()][v]) {
				t.Errorf("version %d-%s: inconsistent blocks", v, l)
			}
		}
	}
}

// TestFormatAndVersionBits checks BCH-coded information against the tables of ISO/IEC 18004
// Annex C (format information) and Annex D (version information).
func TestFormatAndVersionBits(t *testing.T) {
	for _, tc := range []struct {
		l    Level
		mask int
		want uint32
	}{
		{M, 0, 0b101010000010010}, {L, 0, 0b111011111000100}, {L, 1, 0b111001011110011},
		{Q, 0, 0b011010101011111}, {H, 0, 0b001011010001001}, {H, 7, 0b000100000111011},
		{M, 5, 0b100000011001110},
	} {
		if got := formatBits[tc.l][tc.mask]; got != tc.want {
			t.Errorf("format %s/%d: %015b, want %015b", tc.l, tc.mask, got, tc.want)
		}
	}
	for v, want := range map[int]uint32{7: 0x07c94, 8: 0x085bc, 21: 0x15683, 40: 0x28c69} {
		if got := versionBits(v); got != want {
			t.Errorf("version %d: %#05x, want %#05x", v, got, want)
		}
	}
}

// TestOptimalSegmentation compares the dynamic program with an exhaustive search over every
// assignment of modes to the bytes of short texts.
func TestOptimalSegmentation(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	const alphabet = "0123456789ABCZ $:%abz~é"
	for range 3000 {
		var b strings.Builder
		for b.Len() < 1+r.IntN(9) {
			b.WriteByte(alphabet[r.IntN(len(alphabet))])
		}
		text := b.String()
		for _, v := range []int{1, 10, 27} {
			segs := appendOptimalSegments(nil, text, v, make([]byte, 3*len(text)))
			var joined strings.Builder
			for i, s := range segs {
				joined.WriteString(s.data)
				if i > 0 && segs[i-1].mode == s.mode {
					t.Errorf("%q: adjacent segments in one mode: %v", text, segs)
				}
				for j := 0; j < len(s.data); j++ {
					c := s.data[j]
					if s.mode == modeNumeric && !isDigit(c) || s.mode == modeAlphanumeric && alphanumericValue[c] < 0 {
						t.Fatalf("%q: %q cannot be in mode %d", text, s.data, s.mode)
					}
				}
			}
			if joined.String() != text {
				t.Fatalf("%q: segments %v", text, segs)
			}
			if got, want := streamBits(segs, v), bruteForceBits(text, v); got != want {
				t.Errorf("%q version %d: %d bits (%v), the shortest is %d", text, v, got, segs, want)
			}
		}
	}
}

// bruteForceBits returns the length of the shortest bit stream of text over all assignments
// of modes to its bytes.
func bruteForceBits(text string, v int) int {
	best := -1
	modes := make([]mode, len(text))
	var try func(i int)
	try = func(i int) {
		if i == len(text) {
			var segs []segment
			start := 0
			for j := 1; j <= len(text); j++ {
				if j == len(text) || modes[j] != modes[start] {
					segs = append(segs, segment{modes[start], text[start:j]})
					start = j
				}
			}
			if bits := streamBits(segs, v); best < 0 || bits < best {
				best = bits
			}
			return
		}
		for m := modeByte; m <= modeNumeric; m++ {
			if m == modeNumeric && !isDigit(text[i]) || m == modeAlphanumeric && alphanumericValue[text[i]] < 0 {
				continue
			}
			modes[i] = m
			try(i + 1)
		}
	}
	try(0)
	return best
}

// TestECI checks that non-ASCII text, and only such text, begins with the ECI designator of
// UTF-8: the bits 0111 00011010, then a mode indicator.
func TestECI(t *testing.T) {
	for text, eci := range map[string]bool{"Müller": true, "你好": true, "😀 2026": true, "Muller": false, "HELLO 123": false, "": false} {
		e := new(encoder)
		v, _ := e.segment(text, isASCII(text), M, minVersion)
		data := appendDataCodewords(nil, e.segs, v, M)
		hasECI := data[0] == 0b01110001 && data[1]>>4 == 0b1010
		if hasECI != eci {
			t.Errorf("%q: starts %08b, ECI %v, want %v", text, data[:2], hasECI, eci)
		}
		if eci && data[1]&0xf != 0b0100 && data[1]&0xf != 0b0001 && data[1]&0xf != 0b0010 {
			t.Errorf("%q: no mode indicator after the ECI designator: %08b", text, data[:2])
		}
	}
}

// TestBoost checks that the level is raised exactly as far as the same version allows.
func TestBoost(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	for range 300 {
		text := randomText(r, 1+r.IntN(300))
		for _, l := range levelsByStrength {
			plain, err1 := Encode(text, Options{Level: l, NoBoost: true})
			boosted, err2 := Encode(text, Options{Level: l})
			if err1 != nil || err2 != nil {
				t.Fatal(err1, err2)
			}
			if plain.Level() != l || boosted.Version() != plain.Version() || boosted.Level().rank() < l.rank() {
				t.Fatalf("%q at %s: plain %d-%s, boosted %d-%s", text, l, plain.Version(), plain.Level(), boosted.Version(), boosted.Level())
			}
			if next := boosted.Level().rank() + 1; next < 4 {
				stronger := levelsByStrength[next]
				if s, err := Encode(text, Options{Level: stronger, NoBoost: true}); err == nil && s.Version() == boosted.Version() {
					t.Errorf("%q at %s: boosted only to %s, but %s fits version %d", text, l, boosted.Level(), stronger, s.Version())
				}
			}
		}
	}
}

// TestDeterministic checks that an encode does not depend on earlier ones, whose scratch
// memory the encoder reuses.
func TestDeterministic(t *testing.T) {
	texts := []string{"small", strings.Repeat("large text 1234567890 ", 100), "Grüße", strings.Repeat("9", 3000), "small"}
	first := map[string]string{}
	for range 3 {
		for _, text := range texts {
			s, err := Encode(text, Options{})
			if err != nil {
				t.Fatal(err)
			}
			if h, ok := first[text]; ok && h != matrixHash(s) {
				t.Errorf("%.20q: encoded differently the second time", text)
			}
			first[text] = matrixHash(s)
		}
	}
}

func TestDarkOutside(t *testing.T) {
	s, err := Encode("x", Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range [][2]int{{-1, 0}, {0, -1}, {s.Size(), 0}, {0, s.Size()}, {-100, 1000}} {
		if s.Dark(p[0], p[1]) {
			t.Errorf("Dark(%d, %d) outside the symbol", p[0], p[1])
		}
	}
	if !s.Dark(0, 0) || s.Dark(7, 7) || !s.Dark(8, s.Size()-8) {
		t.Error("finder pattern or dark module missing")
	}
}

// levelNamed returns the level whose letter is s, for the reference vectors' levels; the
// service's edges parse levels with package api's table.
func levelNamed(t *testing.T, s string) Level {
	t.Helper()
	for _, l := range levelsByStrength {
		if s == l.String() {
			return l
		}
	}
	t.Fatalf("no level %q", s)
	return 0
}

// FuzzEncode checks that Encode never panics, that every symbol decodes to its text, and
// that an error is one of the documented ones, and right.
func FuzzEncode(f *testing.F) {
	for _, seed := range []string{"", "0", "HELLO WORLD", "https://example.com/?q=1", "Grüße 😀", "\x00\x01\t\n", strings.Repeat("7", 7089), strings.Repeat("z", 2954), "\xff"} {
		f.Add(seed, uint8(0), false)
	}
	f.Fuzz(func(t *testing.T, text string, level uint8, noBoost bool) {
		l := Level(level % 4)
		s, err := Encode(text, Options{Level: l, NoBoost: noBoost})
		var tl *TooLongError
		switch {
		case !utf8.ValidString(text):
			if !errors.Is(err, ErrInvalidUTF8) {
				t.Fatalf("invalid UTF-8: got %v", err)
			}
		case errors.As(err, &tl):
			// It really does not fit: its shortest segmentation exceeds version 40's capacity.
			var segs []segment
			if !isASCII(text) {
				segs = append(segs, segment{mode: modeECI})
			}
			segs = appendOptimalSegments(segs, text, maxVersion, make([]byte, 3*len(text)))
			if bits := streamBits(segs, maxVersion); bits >= 0 && bits <= dataCodewords(maxVersion, l)*8 {
				t.Fatalf("%d bytes of %d bits: TooLongError, but they fit", len(text), bits)
			}
			if tl.Len != len(text) || tl.Level != l {
				t.Fatalf("%d bytes at %s: %v", len(text), l, tl)
			}
		case err != nil:
			t.Fatal(err)
		default:
			if s.Level().rank() < l.rank() || noBoost && s.Level() != l {
				t.Fatalf("level %s, asked for %s (no boost: %v)", s.Level(), l, noBoost)
			}
			got, err := decode(s)
			if err != nil || got != text {
				t.Fatalf("version %d-%s: decoded %q, %v", s.Version(), s.Level(), got, err)
			}
		}
	})
}

func ExampleEncode() {
	s, err := Encode("https://example.com", Options{Level: M})
	if err != nil {
		panic(err)
	}
	fmt.Println(s.Version(), s.Size(), s.Level())
	// Output: 2 25 Q
}

// TestConcurrentEncode checks that encodes running at once, sharing the plans and the pool of
// scratch memory, give the symbols they give alone (run with -race).
func TestConcurrentEncode(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	texts := make([]string, 64)
	want := make([]string, len(texts))
	for i := range texts {
		texts[i] = randomText(r, 1+r.IntN(1500))
		s, err := Encode(texts[i], Options{})
		if err != nil {
			t.Fatal(err)
		}
		want[i] = matrixHash(s)
	}
	errs := make(chan error, 8)
	for g := range 8 {
		go func() {
			for k := range 4 * len(texts) {
				i := (g*7 + k) % len(texts)
				s, err := Encode(texts[i], Options{})
				if err == nil && matrixHash(s) != want[i] {
					err = fmt.Errorf("text %d encoded differently", i)
				}
				if err != nil {
					errs <- err
					return
				}
			}
			errs <- nil
		}()
	}
	for range 8 {
		if err := <-errs; err != nil {
			t.Error(err)
		}
	}
}
