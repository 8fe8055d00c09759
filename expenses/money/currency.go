// Package money is exact money for the shared-expenses application: an Amount is a whole
// number of a currency's minor units (cents, fils, yen), never a floating-point value.
//
// A Currency is an ISO 4217 alphabetic code together with its minor unit, the number of
// decimal digits of its smallest unit (ISO 4217 List One: EUR 2, JPY 0, KWD 3). Amounts are
// read from decimal text (Parse, ParsePositive) or from the text of a JSON number
// (FromJSONNumber), digit by digit, and written back as decimal strings with exactly the
// currency's digits (Amount.String): "12.50", "1000", "0.005", "-3.20".
//
// Arithmetic (Add, Sub, Sum) refuses to mix currencies and to overflow; a Total sums any number
// of amounts exactly, in 128 bits that no ledger can exhaust (balances). Split and
// SplitByWeights share a total out in whole minor units whose sum is always exactly the total.
//
// The package does no I/O and keeps no state besides the read-only ISO 4217 table.
package money

import (
	"errors"
	"fmt"
	"sort"
)

// Errors that callers branch on; the errors returned wrap one of them with the details.
// All but ErrOverflow and ErrCurrencyMismatch describe bad input from a caller.
var (
	ErrUnknownCurrency  = errors.New("not an ISO 4217 currency code")
	ErrSyntax           = errors.New("not a decimal number")
	ErrPrecision        = errors.New("too many decimals")
	ErrRange            = errors.New("amount out of range")
	ErrNotPositive      = errors.New("amount not greater than zero")
	ErrCurrencyMismatch = errors.New("currencies differ")
	ErrOverflow         = errors.New("arithmetic overflow")
)

// Currency is a currency of ISO 4217 List One: its three-letter alphabetic code and its minor
// unit. Two Currency values are equal (==) exactly when their codes are. The zero Currency is
// no currency: its Code is empty and Valid reports false.
type Currency struct {
	code  string
	minor uint8
}

// byAlphabetic indexes the ISO 4217 table by alphabetic code.
var byAlphabetic = func() map[string]Currency {
	m := make(map[string]Currency, len(iso4217))
	for _, c := range iso4217 {
		m[c.code] = Currency{code: c.code, minor: c.minor}
	}
	return m
}()

// ParseCurrency returns the currency whose ISO 4217 alphabetic code is code, in any letter
// case ("eur", "Eur" and "EUR" are the euro). Anything else, including codes that ISO 4217
// gives no minor unit (XAU, XDR, XXX) and withdrawn codes, is an error wrapping
// ErrUnknownCurrency.
func ParseCurrency(code string) (Currency, error) {
	if len(code) == 3 {
		var up [3]byte
		ok := true
		for i := range 3 {
			b := code[i]
			switch {
			case 'A' <= b && b <= 'Z':
				up[i] = b
			case 'a' <= b && b <= 'z':
				up[i] = b - 'a' + 'A'
			default:
				ok = false
			}
		}
		if c, found := byAlphabetic[string(up[:])]; ok && found {
			return c, nil
		}
	}
	return Currency{}, fmt.Errorf("money: currency %q: %w; the currency must be an ISO 4217 "+
		"alphabetic code such as EUR, USD or JPY", code, ErrUnknownCurrency)
}

// MustCurrency is ParseCurrency for codes known when the program is written; it panics on an
// unknown code.
func MustCurrency(code string) Currency {
	c, err := ParseCurrency(code)
	if err != nil {
		panic(err)
	}
	return c
}

// Currencies returns every currency of the table, sorted by code.
func Currencies() []Currency {
	cs := make([]Currency, len(iso4217))
	for i, c := range iso4217 { // the table is sorted
		cs[i] = Currency{code: c.code, minor: c.minor}
	}
	return cs
}

// Code returns the ISO 4217 alphabetic code in upper case, e.g. "EUR"; "" for the zero Currency.
func (c Currency) Code() string { return c.code }

// String returns the code, as Code does.
func (c Currency) String() string { return c.code }

// MinorUnits returns the ISO 4217 minor unit of c: how many decimal digits follow the point
// in its amounts (EUR 2, JPY 0, KWD 3, CLF 4).
func (c Currency) MinorUnits() int { return int(c.minor) }

// Name returns the currency's English name as ISO 4217 lists it, e.g. "Kuwaiti Dinar".
func (c Currency) Name() string {
	i := sort.Search(len(iso4217), func(i int) bool { return iso4217[i].code >= c.code })
	if i < len(iso4217) && iso4217[i].code == c.code {
		return iso4217[i].name
	}
	return ""
}

// Valid reports whether c is a currency of the table (not the zero Currency).
func (c Currency) Valid() bool { return c.code != "" }

// MarshalText encodes c as its code, so that a Currency is a JSON string such as "EUR".
func (c Currency) MarshalText() ([]byte, error) {
	if !c.Valid() {
		return nil, fmt.Errorf("money: marshal the zero Currency: %w", ErrUnknownCurrency)
	}
	return []byte(c.code), nil
}

// UnmarshalText decodes a code in any letter case, as ParseCurrency does.
func (c *Currency) UnmarshalText(text []byte) error {
	v, err := ParseCurrency(string(text))
	if err != nil {
		return err
	}
	*c = v
	return nil
}
