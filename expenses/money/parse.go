package money

import (
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// Parse reads a decimal string as an amount of currency c, exactly: an optional leading "-",
// one or more digits, and optionally "." and one or more digits ("12.5", "12.50", "0.005",
// "1000", "-3.20"). Leading zeros are allowed. Nothing else is: no "+", spaces, thousands
// separators, exponents, NaN or Inf (ErrSyntax).
//
// The digits after the point may not be more precise than c's ISO 4217 minor unit: "12.345"
// EUR is refused (ErrPrecision), naming the 2 decimals the euro allows. Extra zeros that do
// not change the value are accepted ("12.500" EUR is 12.50, "1000.0" JPY is 1000). Beyond
// MaxMinor minor units either way the amount is refused (ErrRange).
func Parse(s string, c Currency) (Amount, error) {
	d, err := scan(s, false)
	if err != nil {
		return Amount{}, fmt.Errorf("money: amount %q: %w: write digits with an optional "+
			"\".\" and decimals, such as 12.50, without spaces, separators or exponents",
			s, ErrSyntax)
	}
	return d.amount(s, c)
}

// ParsePositive is Parse for amounts that callers enter, which must be greater than zero
// (ErrNotPositive): the amount of an expense or a payment.
func ParsePositive(s string, c Currency) (Amount, error) {
	a, err := Parse(s, c)
	if err != nil {
		return Amount{}, err
	}
	if err := a.CheckPositive(); err != nil {
		return Amount{}, err
	}
	return a, nil
}

// FromJSONNumber reads the text of a JSON number (RFC 8259, section 6) as an amount of
// currency c, exactly, without floating point: 12.1 and 12.10 are both 1210 euro cents. Tools
// receive amounts as JSON numbers (spec 4.8: "amount (number)"); decode them into a
// json.Number (or keep their raw text) rather than a float64, which cannot hold 0.1.
//
// Exponent form is accepted and read exactly: 1e2 is 100, 1.25E+1 is 12.5 and 5e-3 KWD is
// 0.005. The rules on precision and range are those of Parse: 12.345 EUR is refused
// (ErrPrecision), 12.500 is 12.50. Text that is not a JSON number (leading "+", leading zeros,
// ".5", spaces, NaN, Infinity) wraps ErrSyntax. Negative numbers are read; call
// Amount.CheckPositive where only positive amounts make sense.
func FromJSONNumber(n json.Number, c Currency) (Amount, error) {
	s := string(n)
	d, err := scan(s, true)
	if err != nil {
		if err == errExponent {
			return Amount{}, fmt.Errorf("money: amount %s: %w: its exponent is beyond "+
				"±%d", s, ErrRange, maxExponent)
		}
		return Amount{}, fmt.Errorf("money: amount %q: %w: a JSON number is expected, such as "+
			"12.5", s, ErrSyntax)
	}
	return d.amount(s, c)
}

// decimal is a number as read, before it meets a currency: its value is coef × 10^-scale,
// negated when neg is set. coef is its significant digits, without leading zeros ("" for
// zero).
type decimal struct {
	neg   bool
	coef  string
	scale int
}

// maxExponent bounds the exponent of a JSON number; anything larger in magnitude is out of
// range for any amount (only zero could be written with it, and nobody does).
const maxExponent = 1000

// The errors of scan, worded by its callers.
var (
	errScan     = errors.New("syntax")
	errExponent = errors.New("exponent out of range")
)

// scan reads s as [-]digits[.digits], or with number set as a JSON number:
// -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?. It fails with errScan or errExponent.
func scan(s string, number bool) (decimal, error) {
	var d decimal
	i := 0
	if i < len(s) && s[i] == '-' {
		d.neg = true
		i++
	}
	intStart := i
	i = skipDigits(s, i)
	intPart := s[intStart:i]
	if intPart == "" || (number && len(intPart) > 1 && intPart[0] == '0') {
		return d, errScan
	}
	var frac string
	if i < len(s) && s[i] == '.' {
		fracStart := i + 1
		i = skipDigits(s, fracStart)
		frac = s[fracStart:i]
		if frac == "" {
			return d, errScan
		}
	}
	exp := 0
	if number && i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		expStart := i
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		digitsStart := i
		i = skipDigits(s, i)
		if i == digitsStart || i != len(s) {
			return d, errScan
		}
		e, err := strconv.Atoi(s[expStart:i])
		if err != nil || e > maxExponent || e < -maxExponent {
			return d, errExponent
		}
		exp = e
	}
	if i != len(s) {
		return d, errScan
	}
	d.coef = strings.TrimLeft(intPart+frac, "0")
	d.scale = len(frac) - exp
	return d, nil
}

// skipDigits returns the index of the first byte at or after i that is not an ASCII digit.
func skipDigits(s string, i int) int {
	for i < len(s) && '0' <= s[i] && s[i] <= '9' {
		i++
	}
	return i
}

// amount converts d into minor units of c: d × 10^(minor unit), which must be a whole number
// (else ErrPrecision) of at most MaxMinor (else ErrRange). s is the text, for messages.
func (d decimal) amount(s string, c Currency) (Amount, error) {
	if !c.Valid() {
		return Amount{}, fmt.Errorf("money: amount %s without a currency: %w", s,
			ErrUnknownCurrency)
	}
	minor := int(c.minor)
	coef, scale := d.coef, d.scale
	// Zeros at the end past the minor unit do not change the value: "12.500" EUR is 12.50.
	for scale > minor && coef != "" && coef[len(coef)-1] == '0' {
		coef, scale = coef[:len(coef)-1], scale-1
	}
	if coef == "" {
		return Zero(c), nil
	}
	if scale > minor {
		if minor == 0 {
			return Amount{}, fmt.Errorf("money: amount %s: %w: %s (%s) has no minor unit in "+
				"ISO 4217, so amounts are whole numbers", s, ErrPrecision, c.code, c.Name())
		}
		return Amount{}, fmt.Errorf("money: amount %s: %w: %s allows at most %d decimals "+
			"(its ISO 4217 minor unit)", s, ErrPrecision, c.code, minor)
	}
	// MaxMinor, 10^15, has 16 digits: more significant digits are out of range, fewer fit an
	// int64 with room to spare.
	shift := minor - scale
	if len(coef)+shift > 16 {
		return Amount{}, outOfRange(s, c)
	}
	var n int64
	for i := range len(coef) {
		n = n*10 + int64(coef[i]-'0')
	}
	for range shift {
		n *= 10
	}
	if n > MaxMinor {
		return Amount{}, outOfRange(s, c)
	}
	if d.neg {
		n = -n
	}
	return Amount{minor: n, cur: c}, nil
}

// outOfRange is the error of an amount beyond MaxMinor minor units.
func outOfRange(s string, c Currency) error {
	return fmt.Errorf("money: amount %s %s: %w: at most %s", s, c.code, ErrRange,
		Amount{minor: MaxMinor, cur: c})
}
