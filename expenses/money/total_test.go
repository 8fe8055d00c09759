package money

import (
	"errors"
	"math"
	"math/big"
	"testing"
)

// TestTotalExact sums far past the int64 range and back, exactly.
func TestTotalExact(t *testing.T) {
	jpy := MustCurrency("JPY")
	huge := Amount{minor: MaxMinor, cur: jpy}
	sum := ZeroTotal(jpy)
	for range 1679 * 10 {
		var err error
		if sum, err = sum.Add(huge.Total()); err != nil {
			t.Fatal(err)
		}
	}
	if got := sum.String(); got != "16790000000000000000" {
		t.Fatalf("16790 × 10^15 JPY = %s", got)
	}
	// The largest int64 amounts, in both directions, 2^20 times each.
	top := Amount{minor: math.MaxInt64, cur: jpy}
	want := new(big.Int).Mul(big.NewInt(math.MaxInt64), big.NewInt(1<<20))
	big2 := ZeroTotal(jpy)
	for range 1 << 20 {
		big2, _ = big2.Add(top.Total())
	}
	if big2.Minor().Cmp(want) != 0 || big2.Sign() != 1 {
		t.Fatalf("2^20 × MaxInt64 = %v, want %v", big2.Minor(), want)
	}
	neg := big2.Neg()
	if neg.Sign() != -1 || neg.String() != "-"+want.String() {
		t.Fatalf("negated: %s", neg)
	}
	if z, _ := neg.Add(big2); !z.IsZero() || z != ZeroTotal(jpy) {
		t.Fatalf("t + -t = %v", z)
	}
	eur := MustCurrency("EUR")
	if got := (Amount{minor: -5, cur: eur}).Total().String(); got != "-0.05" {
		t.Fatalf("-5 cents as a total: %s", got)
	}
	if _, err := sum.Add(ZeroTotal(eur)); !errors.Is(err, ErrCurrencyMismatch) {
		t.Fatalf("JPY + EUR: %v", err)
	}
}
