package money

import (
	"encoding/json"
	"errors"
	"fmt"
	"math/big"
	"math/rand/v2"
	"strings"
	"testing"
)

// randMinor returns minor units up to MaxMinor either way, small values as often as large.
func randMinor(r *rand.Rand) int64 {
	limit := []int64{10, 1000, 1_000_000, MaxMinor}[r.IntN(4)]
	return r.Int64N(2*limit+1) - limit
}

// TestRoundTrip: Parse(a.String()) == a, and FromJSONNumber reads the same value however it
// is written: the string, with zeros appended, or as an integer with a negative exponent.
func TestRoundTrip(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 4217))
	for _, c := range Currencies() {
		for range 200 {
			a := Amount{minor: randMinor(r), cur: c}
			s := a.String()
			if got, err := Parse(s, c); err != nil || got != a {
				t.Fatalf("Parse(%q, %s) = %v, %v; want %d", s, c, got, err, a.Minor())
			}
			forms := []string{s, fmt.Sprintf("%de-%d", a.Minor(), c.MinorUnits())}
			if c.MinorUnits() > 0 {
				forms = append(forms, s+"000")
			}
			for _, f := range forms {
				if got, err := FromJSONNumber(json.Number(f), c); err != nil || got != a {
					t.Fatalf("FromJSONNumber(%q, %s) = %v, %v; want %d", f, c, got, err,
						a.Minor())
				}
			}
		}
	}
}

// TestFromJSONNumberOracle compares FromJSONNumber with exact rational arithmetic (math/big)
// on random JSON numbers: it must give the value × 10^minor when that is a whole number within
// MaxMinor, and the right error otherwise. No floating point is involved on either side.
func TestFromJSONNumberOracle(t *testing.T) {
	r := rand.New(rand.NewPCG(2, 4217))
	digits := func(n int) string {
		var b strings.Builder
		for range n {
			b.WriteByte(byte('0' + r.IntN(10)))
		}
		return b.String()
	}
	bound := new(big.Rat).SetInt64(MaxMinor)
	for _, c := range []Currency{eur, jpy, kwd, clf} {
		scale := new(big.Rat).SetInt(new(big.Int).Exp(big.NewInt(10),
			big.NewInt(int64(c.MinorUnits())), nil))
		for range 5000 {
			s := ""
			if r.IntN(4) == 0 {
				s = "-"
			}
			if r.IntN(3) == 0 {
				s += "0"
			} else {
				s += string(byte('1'+r.IntN(9))) + digits(r.IntN(12))
			}
			if r.IntN(2) == 0 {
				s += "." + digits(1+r.IntN(6))
			}
			if r.IntN(4) == 0 {
				s += fmt.Sprintf("e%d", r.IntN(21)-10)
			}
			want, ok := new(big.Rat).SetString(s)
			if !ok {
				t.Fatalf("big.Rat cannot read %q", s)
			}
			want.Mul(want, scale)
			got, err := FromJSONNumber(json.Number(s), c)
			switch {
			case !want.IsInt():
				if !errors.Is(err, ErrPrecision) {
					t.Fatalf("%s %s: %v, %v; want ErrPrecision", s, c, got, err)
				}
			case new(big.Rat).Abs(want).Cmp(bound) > 0:
				if !errors.Is(err, ErrRange) {
					t.Fatalf("%s %s: %v, %v; want ErrRange", s, c, got, err)
				}
			case err != nil || got.Minor() != want.Num().Int64():
				t.Fatalf("%s %s: %d, %v; want %s", s, c, got.Minor(), err, want.Num())
			}
		}
	}
}

// TestSplitProperties: for random totals and counts, the shares add up to the total exactly,
// differ by at most one minor unit, and the larger ones come first.
func TestSplitProperties(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4217))
	for _, c := range []Currency{eur, jpy, kwd} {
		for range 3000 {
			total := Amount{minor: randMinor(r), cur: c}
			n := 1 + r.IntN(12)
			shares := Split(total, n)
			sum, err := Sum(c, shares...)
			if err != nil || sum != total || len(shares) != n {
				t.Fatalf("Split(%v, %d) = %v, sum %v, %v", total, n, shares, sum, err)
			}
			for i := 1; i < n; i++ {
				d := shares[i-1].Abs().Minor() - shares[i].Abs().Minor()
				if d != 0 && d != 1 {
					t.Fatalf("Split(%v, %d) = %v: uneven or out of order", total, n, shares)
				}
			}
		}
	}
}

// TestSplitByWeightsProperties: for random totals and weights, the shares add up to the total
// exactly, each is within one minor unit of its exact proportion, zero weights get nothing,
// and equal weights split as Split does.
func TestSplitByWeightsProperties(t *testing.T) {
	r := rand.New(rand.NewPCG(4, 4217))
	for _, c := range []Currency{eur, jpy, kwd} {
		for range 3000 {
			total := Amount{minor: randMinor(r), cur: c}
			weights := make([]int64, 1+r.IntN(8))
			var w big.Int
			for i := range weights {
				if r.IntN(5) > 0 {
					weights[i] = r.Int64N([]int64{4, 100, 1 << 40}[r.IntN(3)])
				}
				w.Add(&w, big.NewInt(weights[i]))
			}
			shares, err := SplitByWeights(total, weights)
			if w.Sign() == 0 {
				if !errors.Is(err, ErrWeights) {
					t.Fatalf("all-zero weights %v: %v", weights, err)
				}
				continue
			}
			sum, serr := Sum(c, shares...)
			if err != nil || serr != nil || sum != total {
				t.Fatalf("SplitByWeights(%v, %v) = %v, %v, sum %v", total, weights, shares,
					err, sum)
			}
			for i, s := range shares {
				// |share × W − total × w| < W
				var lhs, rhs big.Int
				lhs.Mul(big.NewInt(s.Minor()), &w)
				rhs.Mul(big.NewInt(total.Minor()), big.NewInt(weights[i]))
				if lhs.Sub(&lhs, &rhs).Abs(&lhs).Cmp(&w) >= 0 ||
					(weights[i] == 0 && !s.IsZero()) {
					t.Fatalf("SplitByWeights(%v, %v) = %v: share %d off", total, weights,
						shares, i)
				}
			}
			ones := make([]int64, len(weights))
			for i := range ones {
				ones[i] = 1
			}
			eq, _ := SplitByWeights(total, ones)
			if fmt.Sprint(eq) != fmt.Sprint(Split(total, len(ones))) {
				t.Fatalf("equal weights %v vs Split %v", eq, Split(total, len(ones)))
			}
		}
	}
}

// TestAddSubProperties: addition commutes and subtraction undoes it, for random amounts.
func TestAddSubProperties(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 4217))
	for range 5000 {
		c := []Currency{eur, jpy, kwd}[r.IntN(3)]
		a, b := Amount{minor: randMinor(r), cur: c}, Amount{minor: randMinor(r), cur: c}
		ab, err1 := a.Add(b)
		ba, err2 := b.Add(a)
		back, err3 := ab.Sub(b)
		if err1 != nil || err2 != nil || err3 != nil || ab != ba || back != a {
			t.Fatalf("%v, %v: a+b %v, b+a %v, a+b-b %v", a, b, ab, ba, back)
		}
	}
}
