package money

import (
	"fmt"
	"math/big"
	"math/bits"
)

// Total is an exact sum of any number of amounts of one currency, such as a balance that nets
// every expense and payment between two people. Two Totals are equal (==) when they have the
// same currency and value.
//
// It counts minor units in 128 bits (two's complement), and no sum of Amounts can leave
// that range: every Amount is less than 2^63 minor units in absolute value (its int64), and a
// ledger holds fewer than 2^63 records (no database row id goes further), so a sum of one
// term per record stays below 2^63 × 2^63 = 2^126 < 2^127. Add therefore never overflows;
// MaxMinor bounds each amount a caller enters, not how many there are.
type Total struct {
	hi  int64 // the upper 64 bits, with the sign
	lo  uint64
	cur Currency
}

// ZeroTotal returns a sum of no money in currency c.
func ZeroTotal(c Currency) Total { return Total{cur: c} }

// Total returns a as a Total.
func (a Amount) Total() Total {
	t := Total{lo: uint64(a.minor), cur: a.cur}
	if a.minor < 0 {
		t.hi = -1
	}
	return t
}

// Add returns t+u, exactly. It fails only with ErrCurrencyMismatch, when the currencies
// differ.
func (t Total) Add(u Total) (Total, error) {
	if t.cur != u.cur {
		return Total{}, mismatchTotal(t, u)
	}
	lo, carry := bits.Add64(t.lo, u.lo, 0)
	hi, _ := bits.Add64(uint64(t.hi), uint64(u.hi), carry)
	return Total{hi: int64(hi), lo: lo, cur: t.cur}, nil
}

// Neg returns -t.
func (t Total) Neg() Total {
	lo, borrow := bits.Sub64(0, t.lo, 0)
	hi, _ := bits.Sub64(0, uint64(t.hi), borrow)
	return Total{hi: int64(hi), lo: lo, cur: t.cur}
}

// Sign returns -1, 0 or +1 as t is negative, zero or positive.
func (t Total) Sign() int {
	switch {
	case t.hi < 0:
		return -1
	case t.hi == 0 && t.lo == 0:
		return 0
	}
	return 1
}

// IsZero reports whether t is no money.
func (t Total) IsZero() bool { return t.Sign() == 0 }

// Currency returns the currency of t.
func (t Total) Currency() Currency { return t.cur }

// Minor returns the number of minor units of t.
func (t Total) Minor() *big.Int {
	n := new(big.Int).Lsh(big.NewInt(t.hi), 64)
	return n.Add(n, new(big.Int).SetUint64(t.lo))
}

// String returns t as a decimal string with exactly the currency's minor-unit digits, as
// Amount.String does: "12.50", "-3.20", "1679000000000000000" (JPY).
func (t Total) String() string {
	n := t.Minor()
	return format(n.Sign() < 0, new(big.Int).Abs(n).String(), t.cur.MinorUnits())
}

// mismatchTotal is the error of adding totals of two currencies.
func mismatchTotal(t, u Total) error {
	return fmt.Errorf("money: add a total in %s to one in %s: %w", u.cur.code, t.cur.code, ErrCurrencyMismatch)
}
