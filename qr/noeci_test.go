package qr

import "testing"

// TestNoECI: with Options.NoECI, non-ASCII text is UTF-8 bytes with no ECI designator (the data
// stream starts with a mode indicator), reads back with an independent decoder (which guesses
// UTF-8 from the bytes), and with NoBoost keeps the level asked for.
func TestNoECI(t *testing.T) {
	for _, text := range []string{"BCD\n002\n1\nSCT\n\nFranz Mustermänn\nDE89370400440532013000", "Müller", "你好 😀"} {
		s, err := Encode(text, Options{Level: M, NoBoost: true, NoECI: true})
		if err != nil {
			t.Fatal(err)
		}
		if s.Level() != M {
			t.Errorf("%q: level %s, want M", text, s.Level())
		}
		e := new(encoder)
		v, _ := e.segment(text, true, M, minVersion)
		data := appendDataCodewords(nil, e.segs, v, M)
		if data[0]>>4 == 0b0111 {
			t.Errorf("%q: starts with an ECI designator %08b", text, data[0])
		}
		if got, err := decode(s); err != nil || got != text {
			t.Errorf("%q decoded as %q, %v", text, got, err)
		}
		with, err := Encode(text, Options{Level: M, NoBoost: true})
		if err != nil || with.Version() < s.Version() {
			t.Errorf("%q: version %d without ECI, %d with, %v", text, s.Version(), with.Version(), err)
		}
	}
}
