package money

import (
	"errors"
	"math"
	"slices"
	"testing"
)

// amounts parses decimal strings in c, for expectations.
func amounts(t *testing.T, c Currency, ss ...string) []Amount {
	t.Helper()
	out := make([]Amount, len(ss))
	for i, s := range ss {
		a, err := Parse(s, c)
		if err != nil {
			t.Fatal(err)
		}
		out[i] = a
	}
	return out
}

func TestSplit(t *testing.T) {
	tests := []struct {
		total string
		c     Currency
		n     int
		want  []string
	}{
		{"10.00", eur, 3, []string{"3.34", "3.33", "3.33"}},
		{"100", jpy, 3, []string{"34", "33", "33"}},
		{"0.010", kwd, 3, []string{"0.004", "0.003", "0.003"}},
		{"0.02", eur, 3, []string{"0.01", "0.01", "0.00"}},
		{"12.00", eur, 4, []string{"3.00", "3.00", "3.00", "3.00"}},
		{"5", jpy, 1, []string{"5"}},
		{"0", jpy, 2, []string{"0", "0"}},
		{"-10.00", eur, 3, []string{"-3.34", "-3.33", "-3.33"}},
	}
	for _, tt := range tests {
		total := amounts(t, tt.c, tt.total)[0]
		got := Split(total, tt.n)
		if want := amounts(t, tt.c, tt.want...); !slices.Equal(got, want) {
			t.Errorf("Split(%s %s, %d) = %v, want %v", tt.total, tt.c, tt.n, got, want)
		}
	}
}

func TestSplitPanics(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error("Split into 0 shares did not panic")
		}
	}()
	Split(Zero(eur), 0)
}

func TestSplitByWeights(t *testing.T) {
	tests := []struct {
		total   string
		c       Currency
		weights []int64
		want    []string
	}{
		{"10.00", eur, []int64{1, 1, 1}, []string{"3.34", "3.33", "3.33"}},
		{"100", jpy, []int64{2, 1, 1}, []string{"50", "25", "25"}},
		{"101", jpy, []int64{2, 1, 1}, []string{"51", "25", "25"}},
		{"102", jpy, []int64{2, 1, 1}, []string{"51", "26", "25"}},
		{"10.00", eur, []int64{0, 1, 0, 1}, []string{"0.00", "5.00", "0.00", "5.00"}},
		{"0.01", eur, []int64{0, 3}, []string{"0.00", "0.01"}},
		// Largest remainder, not first index: 1 × 1/6 = 0.1667 and 1 × 5/6 = 0.8333 cents.
		{"0.01", eur, []int64{1, 5}, []string{"0.00", "0.01"}},
		{"0.010", kwd, []int64{1, 2, 3, 4}, []string{"0.001", "0.002", "0.003", "0.004"}},
		{"0.007", kwd, []int64{1, 1, 1, 1}, []string{"0.002", "0.002", "0.002", "0.001"}},
		{"-101", jpy, []int64{2, 1, 1}, []string{"-51", "-25", "-25"}},
		{"10000000000000.00", eur, []int64{math.MaxInt64 - 1, 1},
			[]string{"10000000000000.00", "0.00"}},
	}
	for _, tt := range tests {
		total := amounts(t, tt.c, tt.total)[0]
		got, err := SplitByWeights(total, tt.weights)
		if want := amounts(t, tt.c, tt.want...); err != nil || !slices.Equal(got, want) {
			t.Errorf("SplitByWeights(%s %s, %v) = %v, %v; want %v", tt.total, tt.c,
				tt.weights, got, err, want)
		}
	}
}

func TestSplitByWeightsRefuses(t *testing.T) {
	for _, w := range [][]int64{nil, {}, {0}, {0, 0}, {1, -1}, {math.MaxInt64, 1}} {
		if _, err := SplitByWeights(Zero(eur), w); !errors.Is(err, ErrWeights) {
			t.Errorf("SplitByWeights(%v): %v; want ErrWeights", w, err)
		}
	}
}
