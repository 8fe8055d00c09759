package money

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// MaxMinor is the largest number of minor units, in absolute value, that Parse, ParsePositive,
// FromJSONNumber and FromMinor accept: 10^15, so the largest amount depends on the currency's
// minor unit (Currency.MaxAmount): 10000000000000.00 EUR, 1000000000000000 JPY,
// 1000000000000.000 KWD. Larger inputs are mistakes. Results of Add and Sub may exceed it
// (they are only kept in int64 range); sums of any number of amounts are exact as a Total.
const MaxMinor int64 = 1_000_000_000_000_000

// Amount is an exact sum of money: a signed whole number of minor units of a currency (1250
// EUR minor units are 12.50 euros). Amounts are values; two are equal (==) when they have the
// same currency and the same number of minor units. The minor units never equal
// math.MinInt64, so Neg is always exact. The zero Amount is zero with no currency; use Zero(c)
// for zero euros.
type Amount struct {
	minor int64
	cur   Currency
}

// Zero returns no money in currency c.
func Zero(c Currency) Amount { return Amount{cur: c} }

// FromMinor returns the amount of minor units of c, e.g. FromMinor(1250, EUR) is 12.50 EUR.
// It refuses the zero Currency and more than MaxMinor units either way (ErrRange).
func FromMinor(minor int64, c Currency) (Amount, error) {
	if !c.Valid() {
		return Amount{}, fmt.Errorf("money: amount without a currency: %w", ErrUnknownCurrency)
	}
	if minor > MaxMinor || minor < -MaxMinor {
		return Amount{}, fmt.Errorf("money: %d minor units of %s: %w (at most %d)",
			minor, c.code, ErrRange, MaxMinor)
	}
	return Amount{minor: minor, cur: c}, nil
}

// MaxAmount returns the largest amount of c that callers may enter: MaxMinor minor units.
func (c Currency) MaxAmount() Amount { return Amount{minor: MaxMinor, cur: c} }

// Minor returns the number of minor units: 1250 for 12.50 EUR, 1000 for 1000 JPY, 5 for
// 0.005 KWD.
func (a Amount) Minor() int64 { return a.minor }

// Currency returns the currency of a.
func (a Amount) Currency() Currency { return a.cur }

// IsZero reports whether a is no money.
func (a Amount) IsZero() bool { return a.minor == 0 }

// Sign returns -1, 0 or +1 as a is negative, zero or positive.
func (a Amount) Sign() int {
	switch {
	case a.minor < 0:
		return -1
	case a.minor > 0:
		return 1
	}
	return 0
}

// Neg returns -a, exactly.
func (a Amount) Neg() Amount { return Amount{minor: -a.minor, cur: a.cur} }

// Abs returns a without its sign.
func (a Amount) Abs() Amount {
	if a.minor < 0 {
		return a.Neg()
	}
	return a
}

// Add returns a+b. It fails with ErrCurrencyMismatch when the currencies differ and with
// ErrOverflow when the sum leaves the int64 range.
func (a Amount) Add(b Amount) (Amount, error) {
	if a.cur != b.cur {
		return Amount{}, mismatch("add", a, b)
	}
	s, ok := add64(a.minor, b.minor)
	if !ok {
		return Amount{}, fmt.Errorf("money: %s + %s %s: %w", a, b, a.cur.code, ErrOverflow)
	}
	return Amount{minor: s, cur: a.cur}, nil
}

// Sub returns a-b, with the errors of Add.
func (a Amount) Sub(b Amount) (Amount, error) {
	if a.cur != b.cur {
		return Amount{}, mismatch("subtract", a, b)
	}
	return a.Add(b.Neg())
}

// Sum returns the total of amounts, all of which must be in currency c; the sum of none is
// Zero(c). Errors are those of Add.
func Sum(c Currency, amounts ...Amount) (Amount, error) {
	total := Zero(c)
	for _, x := range amounts {
		var err error
		if total, err = total.Add(x); err != nil {
			return Amount{}, err
		}
	}
	return total, nil
}

// CheckPositive returns nil when a is greater than zero, else an error wrapping ErrNotPositive.
// Amounts that callers enter (an expense, a payment) must pass it.
func (a Amount) CheckPositive() error {
	if a.minor > 0 {
		return nil
	}
	return fmt.Errorf("money: amount %s %s: %w; it must be more than zero",
		a, a.cur.code, ErrNotPositive)
}

// String returns a as a decimal string with exactly the currency's minor-unit digits and no
// currency code: "12.50" (EUR), "1000" (JPY), "0.005" (KWD), "-3.20". Parse reads it back.
func (a Amount) String() string {
	u := uint64(a.minor)
	if a.minor < 0 {
		u = -u
	}
	return format(a.minor < 0, strconv.FormatUint(u, 10), int(a.cur.minor))
}

// format writes a number of minor units, given by its sign and its decimal digits, with d
// digits after the point.
func format(neg bool, digits string, d int) string {
	var b strings.Builder
	if neg {
		b.WriteByte('-')
	}
	if d > 0 {
		if len(digits) <= d {
			digits = strings.Repeat("0", d+1-len(digits)) + digits
		}
		b.WriteString(digits[:len(digits)-d])
		b.WriteByte('.')
		b.WriteString(digits[len(digits)-d:])
	} else {
		b.WriteString(digits)
	}
	return b.String()
}

// add64 returns a+b and whether it is exact and not math.MinInt64 (kept out of Amounts so that
// negation never overflows).
func add64(a, b int64) (int64, bool) {
	s := a + b
	if (a > 0 && b > 0 && s < 0) || (a < 0 && b < 0 && s >= 0) || s == math.MinInt64 {
		return 0, false
	}
	return s, true
}

// mismatch is the error of an operation on amounts of two currencies.
func mismatch(op string, a, b Amount) error {
	return fmt.Errorf("money: %s %s %s and %s %s: %w", op, a, a.cur.code, b, b.cur.code,
		ErrCurrencyMismatch)
}
