package payload

import (
	"regexp"
	"strconv"
	"strings"
)

// decimal is an exact decimal number as a request writes it, never through a float: the
// coordinates of a geo: URI and the amount of an EPC code are written back digit for digit.
type decimal struct {
	negative bool
	whole    string // the integer part without leading zeros ("" for 0)
	fraction string // the fraction's digits without trailing zeros
}

// decimalSyntax is the one form a decimal may have: an optional minus, digits, and a dot with
// digits. No + sign, exponent, thousands separator, comma or bare dot (".5", "5."): a number in
// a JSON body (RFC 8259 6) has no + and no bare dot either, and an exponent would hide the
// number of decimal places.
var decimalSyntax = regexp.MustCompile(`^(-?)([0-9]+)(?:\.([0-9]+))?$`)

// parseDecimal parses s, white space around it ignored; ok is false when s is not a decimal.
// Negative zero is zero.
func parseDecimal(s string) (d decimal, ok bool) {
	m := decimalSyntax.FindStringSubmatch(strings.TrimSpace(s))
	if m == nil {
		return decimal{}, false
	}
	d = decimal{whole: strings.TrimLeft(m[2], "0"), fraction: strings.TrimRight(m[3], "0")}
	d.negative = m[1] == "-" && !d.zero()
	return d, true
}

// zero reports whether d is 0.
func (d decimal) zero() bool { return d.whole == "" && d.fraction == "" }

// places returns the number of decimal places d needs.
func (d decimal) places() int { return len(d.fraction) }

// exceeds reports whether the magnitude of d is more than limit.
func (d decimal) exceeds(limit int) bool {
	if len(d.whole) > 12 {
		return true
	}
	n, _ := strconv.Atoi(d.whole) // "" is 0
	return n > limit || n == limit && d.fraction != ""
}

// String returns d in its shortest form: no leading or trailing zeros, no dot without a
// fraction, no minus on zero ("007.50" is 7.5, "-0.0" is 0).
func (d decimal) String() string {
	s := d.whole
	if s == "" {
		s = "0"
	}
	if d.fraction != "" {
		s += "." + d.fraction
	}
	if d.negative {
		s = "-" + s
	}
	return s
}
