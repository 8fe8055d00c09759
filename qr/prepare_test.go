package qr

import (
	"errors"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// TestPrepareEncodes checks that Prepare and Prepared.Encode give what Encode gives, module for
// module, or Encode's error: texts of every class and many lengths, at each level, without and
// with the logo's cover, boosted or not; and that Prepare's Version and Size are the symbol's.
func TestPrepareEncodes(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 18004))
	for _, class := range textClasses {
		for _, n := range []int{0, 1, 17, 90, 450, 1500, 3000} {
			text := randomClassText(r, class.set, n)
			for _, l := range levelsByStrength {
				for _, opts := range []Options{{Level: l}, {Level: l, Cover: logoSquare}, {Level: l, NoBoost: true, NoECI: true}} {
					want, werr := Encode(text, opts)
					p, perr := Prepare(text, opts)
					if werr != nil || perr != nil {
						if werr == nil || perr == nil || werr.Error() != perr.Error() {
							t.Fatalf("%s %d at %s: Prepare's error %v, Encode's %v", class.name, n, l, perr, werr)
						}
						continue
					}
					got, err := p.Encode(text)
					if err != nil {
						t.Fatalf("%s %d at %s: %v", class.name, n, l, err)
					}
					if p.Version() != want.Version() || p.Size() != want.Size() || got.version != want.version ||
						got.level != want.level || got.mask != want.mask || got.cover != want.cover ||
						!slices.Equal(got.modules, want.modules) {
						t.Fatalf("%s %d at %s (cover %v): prepared %d-%s mask %d, encoded %d-%s mask %d",
							class.name, n, l, opts.Cover != nil, got.version, got.level, got.mask, want.version, want.level, want.mask)
					}
				}
			}
		}
	}
}

// TestPreparedRefusesOtherText checks that a Prepared encodes only a text that fills its version
// as the prepared one did, and that the zero Prepared encodes nothing.
func TestPreparedRefusesOtherText(t *testing.T) {
	p, err := Prepare("https://example.com/a", Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, other := range []string{"https://example.com/ab", strings.Repeat("x", 500), "1234"} {
		if _, err := p.Encode(other); !errors.Is(err, errNotPrepared) {
			t.Errorf("%q: %v, want errNotPrepared", other, err)
		}
	}
	if _, err := (Prepared{}).Encode(""); !errors.Is(err, errNotPrepared) {
		t.Errorf("zero Prepared: %v, want errNotPrepared", err)
	}
}
