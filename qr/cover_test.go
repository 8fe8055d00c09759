package qr

import (
	"errors"
	"math/rand/v2"
	"testing"

	"github.com/bananaqr/bananaqr/internal/qrtest"
)

// logoSquare is the cover the renderer's logo pad uses: the largest odd side within a fifth of
// the symbol, centred (render.LogoPad, which this package cannot import).
func logoSquare(n int) (first, side int) {
	side = n / 5
	if side%2 == 0 {
		side--
	}
	return (n - side) / 2, side
}

// TestBlockOf tags every data and error correction codeword with its block, interleaves them
// as appendCodewords does, and checks that blockOf finds each tag's block.
func TestBlockOf(t *testing.T) {
	for v := minVersion; v <= maxVersion; v++ {
		for _, l := range levelsByStrength {
			r := l.rank()
			blocks := int(eccBlocks[r][v])
			eccLen := int(eccPerBlock[r][v])
			total, data := totalCodewords(v), dataCodewords(v, l)
			short := blocks - total%blocks
			var want []int // block of each codeword in the final sequence
			for i := range total/blocks - eccLen + 1 {
				for b := range blocks {
					if i < total/blocks-eccLen || b >= short {
						want = append(want, b)
					}
				}
			}
			if len(want) != data {
				t.Fatalf("%d-%s: %d data codewords, want %d", v, l, len(want), data)
			}
			for range eccLen {
				for b := range blocks {
					want = append(want, b)
				}
			}
			for k, b := range want {
				if got := blockOf(k, v, l); got != b {
					t.Fatalf("%d-%s: codeword %d in block %d, want %d", v, l, k, got, b)
				}
			}
		}
	}
}

// TestCorrectable checks the correction capacity against ISO/IEC 18004:2015 Table 9, where it
// is given as (c, k, r): r errors per block, the misdecode protection already taken off.
func TestCorrectable(t *testing.T) {
	for _, c := range []struct {
		v    int
		l    Level
		want int
	}{
		{1, L, 2}, {1, M, 4}, {1, Q, 6}, {1, H, 8}, {2, L, 4}, {3, L, 7}, {3, M, 13}, {4, M, 9},
		{5, H, 11}, {10, Q, 12}, {40, L, 15}, {40, H, 15},
	} {
		if got := correctable(c.v, c.l); got != c.want {
			t.Errorf("%d-%s: %d, want %d", c.v, c.l, got, c.want)
		}
	}
}

// damage counts, for each block, the codewords that differ between s and s with its cover
// drawn light: read module by module from both, unmasked, along the placement order.
func damage(s *Symbol) []int {
	first, side := s.Cover()
	return drawnDamage(s, func(x, y int) bool {
		in := x >= first && x < first+side && y >= first && y < first+side
		return s.Dark(x, y) && !in
	})
}

// drawnDamage counts, for each block, the codewords that differ between s and s as drawn (dark
// says each module's colour): read module by module from both, unmasked, along the placement
// order.
func drawnDamage(s *Symbol, drawn func(x, y int) bool) []int {
	p := planFor(s.version)
	counts := make([]int, eccBlocks[s.level.rank()][s.version])
	for k := range totalCodewords(s.version) {
		var plain, covered byte
		for _, idx := range p.order[8*k : 8*k+8] {
			word := int(idx) >> 6
			x, y := word/p.rows*64+int(idx)&63, word%p.rows-pad
			plain = plain<<1 | b2u(s.Dark(x, y))
			covered = covered<<1 | b2u(drawn(x, y))
		}
		if plain != covered {
			counts[blockOf(k, s.version, s.level)]++
		}
	}
	return counts
}

func b2u(b bool) byte {
	if b {
		return 1
	}
	return 0
}

// TestCover encodes texts of every class and many lengths with the logo's cover at each level:
// every block keeps at least half its correction capacity, the symbol with the cover drawn
// light decodes (gozxing) to the text, the level is never below the one asked for, and the
// symbol grows only when the smaller one could not spare the cover.
func TestCover(t *testing.T) {
	r := rand.New(rand.NewPCG(15, 18004))
	grew, tooCostly := 0, 0
	for _, class := range textClasses {
		for _, n := range []int{1, 5, 17, 40, 90, 200, 450, 900} {
			text := randomClassText(r, class.set, n)
			for _, l := range levelsByStrength {
				plain, err := Encode(text, Options{Level: l})
				if err != nil {
					continue // too long at this level
				}
				s, err := Encode(text, Options{Level: l, Cover: logoSquare})
				if errors.Is(err, ErrCoverTooCostly) {
					// Right only when no version from the plain one up spares the cover.
					for v := plain.version; v <= maxVersion; v++ {
						if spares(text, l, v) {
							t.Fatalf("%s %d at %s: %v, but version %d spares the cover", class.name, n, l, err, v)
						}
					}
					tooCostly++
					continue
				}
				if err != nil {
					t.Fatalf("%s %d at %s: %v", class.name, n, l, err)
				}
				first, side := s.Cover()
				if wantFirst, wantSide := logoSquare(s.Size()); first != wantFirst || side != wantSide {
					t.Fatalf("%s %d at %s: cover %d+%d, want %d+%d", class.name, n, l, first, side, wantFirst, wantSide)
				}
				if s.level.rank() < l.rank() || s.version < plain.version {
					t.Fatalf("%s %d at %s: %d-%s, without the cover %d-%s", class.name, n, l, s.version, s.level, plain.version, plain.level)
				}
				budget := int(maxCoverShare * float64(correctable(s.version, s.level)))
				for b, d := range damage(s) {
					if d > budget {
						t.Fatalf("%s %d at %s: %d-%s mask %d: block %d has %d damaged codewords, budget %d",
							class.name, n, l, s.version, s.level, s.mask, b, d, budget)
					}
				}
				got, err := decodeCovered(s, first, side)
				if err != nil || got != text {
					t.Fatalf("%s %d at %s: the covered symbol reads %q, %v", class.name, n, l, got, err)
				}
				for v := plain.version; v < s.version; v++ {
					if spares(text, l, v) {
						t.Fatalf("%s %d at %s: version %d, though version %d spares the cover", class.name, n, l, s.version, v)
					}
				}
				if s.version > plain.version {
					grew++
				}
			}
		}
	}
	t.Logf("%d symbols grew for the cover, %d found none to spare it", grew, tooCostly)
}

// spares reports whether text at level l (raised for free) in a version v symbol has a mask
// under which the logo's cover damages no block beyond the budget.
func spares(text string, l Level, v int) bool {
	e := new(encoder)
	got, bits := e.segment(text, isASCII(text), l, v)
	if got != v {
		return false // it does not fit version v
	}
	lvl := strongest(bits, v, l)
	e.data = appendDataCodewords(nil, e.segs, v, lvl)
	var c square
	c.first, c.side = logoSquare(symbolSize(v))
	return e.symbol(v, lvl, -1, c) != nil
}

// decodeCovered decodes s with the square from (first, first), side modules wide, light.
func decodeCovered(s *Symbol, first, side int) (string, error) {
	return qrtest.Decode(s.Size(), func(x, y int) bool {
		in := x >= first && x < first+side && y >= first && y < first+side
		return s.Dark(x, y) && !in
	})
}

// TestCoverWhereNoneFits checks the error of a cover that no symbol can spare.
func TestCoverWhereNoneFits(t *testing.T) {
	half := func(n int) (int, int) { return n / 4, n / 2 }
	if _, err := Encode("https://example.com", Options{Cover: half}); !errors.Is(err, ErrCoverTooCostly) {
		t.Fatalf("a cover of a quarter of the symbol: %v", err)
	}
	none := func(int) (int, int) { return 0, 0 }
	a, _ := Encode("https://example.com", Options{Cover: none})
	b, _ := Encode("https://example.com", Options{})
	if a.version != b.version || a.level != b.level || a.mask != b.mask {
		t.Fatalf("an empty cover changed the symbol")
	}
}

// TestCoverDeterministic checks that the same text and cover always give the same symbol.
func TestCoverDeterministic(t *testing.T) {
	a, _ := Encode("WIFI:T:WPA;S:Banana Lab;P:correct horse;;", Options{Cover: logoSquare})
	for range 20 {
		b, _ := Encode("WIFI:T:WPA;S:Banana Lab;P:correct horse;;", Options{Cover: logoSquare})
		if a.mask != b.mask || a.version != b.version || a.level != b.level {
			t.Fatal("different symbols")
		}
	}
}

// TestCoverPaint encodes texts with a cover that the renderer paints with a picture of its own
// (Options.CoverPaint): a dark ring, a light inside and a split centre. Read with the picture
// drawn in its worst form (a split module the opposite of what it holds), every block keeps
// half its correction capacity and every symbol decodes (gozxing) to its text; and the encoder chose another mask or version than a light pad's when
// the picture would have broken that one.
func TestCoverPaint(t *testing.T) {
	paint := func(n, x, y int) (light, dark bool) {
		first, side := logoSquare(n)
		ring := x == first || y == first || x == first+side-1 || y == first+side-1
		centre := x == n/2 && y == n/2
		return !ring || centre, ring || centre
	}
	r := rand.New(rand.NewPCG(31, 18004))
	differs := 0
	for _, n := range []int{20, 60, 120, 300, 500} {
		for range 4 {
			text := randomClassText(r, textClasses[2].set, n) // bytes
			s, err := Encode(text, Options{Level: M, Cover: logoSquare, CoverPaint: paint})
			if err != nil {
				t.Fatalf("%d: %v", n, err)
			}
			pad, _ := Encode(text, Options{Level: M, Cover: logoSquare})
			if pad.mask != s.mask || pad.version != s.version {
				differs++
			}
			first, side := s.Cover()
			drawn := func(x, y int) bool {
				if x < first || x >= first+side || y < first || y >= first+side {
					return s.Dark(x, y)
				}
				light, dark := paint(s.Size(), x, y)
				if light && dark {
					return !s.Dark(x, y)
				}
				return dark || !light && s.Dark(x, y)
			}
			budget := int(maxCoverShare * float64(correctable(s.version, s.level)))
			for b, d := range drawnDamage(s, drawn) {
				if d > budget {
					t.Fatalf("%d bytes, %d-%s: block %d has %d damaged codewords, budget %d", n, s.version, s.level, b, d, budget)
				}
			}
			got, err := qrtest.Decode(s.Size(), drawn)
			if err != nil || got != text {
				t.Fatalf("%d bytes, %d-%s: the painted symbol reads %q, %v", n, s.version, s.level, got, err)
			}
		}
	}
	if differs == 0 {
		t.Error("the picture never changed the encoder's choice: CoverPaint is not read")
	}
}
