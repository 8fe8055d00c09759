package money

import (
	"errors"
	"math"
	"testing"
)

func TestString(t *testing.T) {
	tests := []struct {
		minor int64
		c     Currency
		want  string
	}{
		{1250, eur, "12.50"}, {1210, eur, "12.10"}, {5, eur, "0.05"}, {0, eur, "0.00"},
		{-320, eur, "-3.20"}, {-1, eur, "-0.01"}, {1000, jpy, "1000"}, {0, jpy, "0"},
		{-7, jpy, "-7"}, {5, kwd, "0.005"}, {1234, kwd, "1.234"}, {-10, kwd, "-0.010"},
		{1, clf, "0.0001"}, {MaxMinor, eur, "10000000000000.00"},
		{math.MaxInt64, eur, "92233720368547758.07"},
		{-math.MaxInt64, kwd, "-9223372036854775.807"},
	}
	for _, tt := range tests {
		if got := (Amount{minor: tt.minor, cur: tt.c}).String(); got != tt.want {
			t.Errorf("%d %s: String() = %q, want %q", tt.minor, tt.c, got, tt.want)
		}
	}
}

func TestFromMinor(t *testing.T) {
	tests := []struct {
		minor int64
		c     Currency
		err   error
	}{
		{1250, eur, nil}, {-MaxMinor, jpy, nil}, {MaxMinor, kwd, nil},
		{MaxMinor + 1, eur, ErrRange}, {math.MinInt64, eur, ErrRange},
		{1, Currency{}, ErrUnknownCurrency},
	}
	for _, tt := range tests {
		a, err := FromMinor(tt.minor, tt.c)
		if !errors.Is(err, tt.err) || (tt.err == nil) != (err == nil) {
			t.Errorf("FromMinor(%d, %s): %v; want %v", tt.minor, tt.c, err, tt.err)
		}
		if err == nil && (a.Minor() != tt.minor || a.Currency() != tt.c) {
			t.Errorf("FromMinor(%d, %s) = %d %s", tt.minor, tt.c, a.Minor(), a.Currency())
		}
	}
}

func TestArithmetic(t *testing.T) {
	e := func(minor int64) Amount { return Amount{minor: minor, cur: eur} }
	big := Amount{minor: math.MaxInt64, cur: eur}
	tests := []struct {
		name string
		got  func() (Amount, error)
		want Amount
		err  error
	}{
		{"add", func() (Amount, error) { return e(1250).Add(e(-1300)) }, e(-50), nil},
		{"sub", func() (Amount, error) { return e(1250).Sub(e(1300)) }, e(-50), nil},
		{"sum", func() (Amount, error) { return Sum(eur, e(1), e(2), e(3)) }, e(6), nil},
		{"empty sum", func() (Amount, error) { return Sum(jpy) }, Zero(jpy), nil},
		{"add mismatch", func() (Amount, error) { return e(1).Add(Zero(jpy)) }, Amount{},
			ErrCurrencyMismatch},
		{"sub mismatch", func() (Amount, error) { return e(1).Sub(Zero(kwd)) }, Amount{},
			ErrCurrencyMismatch},
		{"sum mismatch", func() (Amount, error) { return Sum(eur, e(1), Zero(jpy)) },
			Amount{}, ErrCurrencyMismatch},
		{"overflow", func() (Amount, error) { return big.Add(e(1)) }, Amount{}, ErrOverflow},
		{"to MinInt64", func() (Amount, error) { return big.Neg().Sub(e(1)) }, Amount{},
			ErrOverflow},
		{"below MinInt64", func() (Amount, error) { return big.Neg().Sub(e(2)) }, Amount{},
			ErrOverflow},
		{"at MaxInt64", func() (Amount, error) { return big.Sub(e(0)) }, big, nil},
	}
	for _, tt := range tests {
		got, err := tt.got()
		if got != tt.want || !errors.Is(err, tt.err) || (tt.err == nil) != (err == nil) {
			t.Errorf("%s: %v, %v; want %v, %v", tt.name, got, err, tt.want, tt.err)
		}
	}
}

func TestSignNegAbs(t *testing.T) {
	for _, m := range []int64{-5, 0, 5, math.MaxInt64, -math.MaxInt64} {
		a := Amount{minor: m, cur: eur}
		want := 0
		if m < 0 {
			want = -1
		} else if m > 0 {
			want = 1
		}
		if a.Sign() != want || a.Neg().Sign() != -want || a.Abs().Sign() != want*want ||
			a.IsZero() != (m == 0) || a.Neg().Neg() != a {
			t.Errorf("%d: Sign %d, Neg %v, Abs %v", m, a.Sign(), a.Neg(), a.Abs())
		}
	}
	if err := (Amount{minor: 1, cur: eur}).CheckPositive(); err != nil {
		t.Errorf("0.01 EUR: %v", err)
	}
	if err := Zero(eur).CheckPositive(); !errors.Is(err, ErrNotPositive) {
		t.Errorf("0 EUR: %v", err)
	}
}
