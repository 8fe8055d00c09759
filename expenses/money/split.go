package money

import (
	"errors"
	"fmt"
	"math/bits"
	"sort"
)

// Split divides total into n equal shares of whole minor units whose sum is exactly total.
// The minor units left over by the division go one each to the first shares, so the order of
// shares is the order of precedence: 10.00 EUR / 3 is 3.34, 3.33, 3.33; 100 JPY / 3 is 34, 33,
// 33; 0.010 KWD / 3 is 0.004, 0.003, 0.003. A negative total splits as its opposite, negated.
// Split panics if n < 1.
func Split(total Amount, n int) []Amount {
	if n < 1 {
		panic(fmt.Sprintf("money: Split into %d shares", n))
	}
	neg := total.minor < 0
	abs := total.Abs().minor
	q, r := abs/int64(n), abs%int64(n)
	shares := make([]Amount, n)
	for i := range shares {
		m := q
		if int64(i) < r {
			m++
		}
		if neg {
			m = -m
		}
		shares[i] = Amount{minor: m, cur: total.cur}
	}
	return shares
}

// ErrWeights is wrapped by the errors of SplitByWeights: no weights, a negative weight, only
// zero weights, or weights whose sum overflows an int64.
var ErrWeights = errors.New("invalid split weights")

// SplitByWeights divides total into shares proportional to weights (a group's default split:
// 2, 1, 1 gives the first person half), in whole minor units whose sum is exactly total.
//
// It is the largest remainder method (Hamilton's): share i is first total × weights[i] / sum
// of weights, rounded down; the minor units left over go one each to the shares with the
// largest remainders, ties to the earlier index. So equal weights split as Split does, each
// share is within one minor unit of its exact proportion, and a zero weight gets nothing.
// A negative total splits as its opposite, negated. The products are computed in 128 bits:
// no weights within int64 overflow.
func SplitByWeights(total Amount, weights []int64) ([]Amount, error) {
	if len(weights) == 0 {
		return nil, fmt.Errorf("money: split %s %s: %w: no weights", total, total.cur.code,
			ErrWeights)
	}
	var sum uint64
	for i, w := range weights {
		if w < 0 {
			return nil, fmt.Errorf("money: split %s %s: %w: weight %d is %d, below zero",
				total, total.cur.code, ErrWeights, i, w)
		}
		var carry uint64
		sum, carry = bits.Add64(sum, uint64(w), 0)
		if carry != 0 || sum > 1<<63-1 {
			return nil, fmt.Errorf("money: split %s %s: %w: the weights add up to more "+
				"than %d", total, total.cur.code, ErrWeights, int64(1<<63-1))
		}
	}
	if sum == 0 {
		return nil, fmt.Errorf("money: split %s %s: %w: all weights are zero", total,
			total.cur.code, ErrWeights)
	}

	neg := total.minor < 0
	abs := uint64(total.Abs().minor)
	minor := make([]uint64, len(weights))
	rem := make([]uint64, len(weights))
	var given uint64
	for i, w := range weights {
		// abs × w / sum: abs × w < 2^126 and the quotient is at most abs < 2^63, so hi < sum
		// as bits.Div64 requires.
		hi, lo := bits.Mul64(abs, uint64(w))
		minor[i], rem[i] = bits.Div64(hi, lo, sum)
		given += minor[i]
	}
	// The remainders add up to (abs - given) × sum, each below sum: fewer than len(weights)
	// units are left, and they all go to shares with a remainder above zero.
	order := make([]int, len(weights))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return rem[order[a]] > rem[order[b]] })
	for _, i := range order[:abs-given] {
		minor[i]++
	}

	shares := make([]Amount, len(weights))
	for i, m := range minor {
		v := int64(m)
		if neg {
			v = -v
		}
		shares[i] = Amount{minor: v, cur: total.cur}
	}
	return shares, nil
}
