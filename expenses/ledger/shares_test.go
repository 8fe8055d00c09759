package ledger

import (
	"testing"

	"github.com/bananaqr/bananaqr/expenses/money"
)

func TestEqualShares(t *testing.T) {
	tests := []struct {
		total  money.Amount
		people []PersonID
		want   []string // shares in the order of people
	}{
		{amt("10.00", eur), []PersonID{"ann", "bob", "cy"}, []string{"3.34", "3.33", "3.33"}},
		{amt("10.00", eur), []PersonID{"cy", "bob", "ann"}, []string{"3.34", "3.33", "3.33"}},
		{amt("100", jpy), []PersonID{"ann", "bob", "cy"}, []string{"34", "33", "33"}},
		{amt("0.010", kwd), []PersonID{"ann", "bob", "cy"},
			[]string{"0.004", "0.003", "0.003"}},
		{amt("7", jpy), []PersonID{"solo"}, []string{"7"}},
	}
	for _, tt := range tests {
		shares, err := EqualShares(tt.total, tt.people)
		if err != nil || len(shares) != len(tt.people) {
			t.Fatalf("EqualShares(%v, %v) = %v, %v", tt.total, tt.people, shares, err)
		}
		for i, p := range tt.people {
			if want := amt(tt.want[i], tt.total.Currency()); shares[p] != want {
				t.Errorf("EqualShares(%v, %v)[%s] = %v, want %v", tt.total, tt.people, p,
					shares[p], want)
			}
		}
		if err := CheckShares(tt.total, shares); err != nil {
			t.Errorf("EqualShares(%v, %v): %v", tt.total, tt.people, err)
		}
	}
}

func TestWeightedShares(t *testing.T) {
	shares, err := WeightedShares(amt("100.01", eur), []PersonID{"ann", "bob", "cy"},
		[]int64{2, 1, 1})
	if err != nil || shares["ann"] != amt("50.01", eur) || shares["bob"] != amt("25.00", eur) ||
		shares["cy"] != amt("25.00", eur) {
		t.Errorf("WeightedShares = %v, %v", shares, err)
	}
}

func TestSharesRefuse(t *testing.T) {
	ten := amt("10.00", eur)
	tests := []struct {
		name    string
		people  []PersonID
		weights []int64
		msg     string
	}{
		{"nobody", nil, nil, "nobody to split"},
		{"twice", []PersonID{"ann", "bob", "ann"}, []int64{1, 1, 1}, "ann is listed twice"},
		{"empty name", []PersonID{"ann", ""}, []int64{1, 1}, "has no name"},
		{"weights count", []PersonID{"ann", "bob"}, []int64{1}, "1 weights for 2 people"},
		{"zero weights", []PersonID{"ann", "bob"}, []int64{0, 0}, "all weights are zero"},
		{"negative weight", []PersonID{"ann", "bob"}, []int64{2, -1}, "below zero"},
	}
	for _, tt := range tests {
		_, err := WeightedShares(ten, tt.people, tt.weights)
		checkErr(t, "WeightedShares "+tt.name, err, tt.msg)
		if tt.name == "nobody" || tt.name == "twice" || tt.name == "empty name" {
			_, err := EqualShares(ten, tt.people)
			checkErr(t, "EqualShares "+tt.name, err, tt.msg)
		}
	}
}
