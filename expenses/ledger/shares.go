package ledger

import (
	"fmt"

	"github.com/bananaqr/bananaqr/expenses/money"
)

// EqualShares splits amount equally among people (an expense without explicit splits, with a
// group's default equal split): every share is a whole number of minor units, they add up to
// amount exactly, and the units left over go one each to the first people in the list
// (money.Split). Pass people in a stable order, such as the order they joined the group, so
// the same expense always splits the same way: 10.00 EUR among [ann, bob, cy] is 3.34 for ann
// and 3.33 for bob and cy.
func EqualShares(amount money.Amount, people []PersonID) (map[PersonID]money.Amount, error) {
	if err := checkPeople(people); err != nil {
		return nil, err
	}
	return zip(people, money.Split(amount, len(people))), nil
}

// WeightedShares splits amount among people in proportion to weights (a group's default split
// with weights: 2, 1, 1 gives the first person half) by the largest remainder method
// (money.SplitByWeights): exact sum, ties to the earlier person in the list.
func WeightedShares(amount money.Amount, people []PersonID, weights []int64) (map[PersonID]money.Amount, error) {
	if err := checkPeople(people); err != nil {
		return nil, err
	}
	if len(weights) != len(people) {
		return nil, invalid("%d weights for %d people", len(weights), len(people))
	}
	shares, err := money.SplitByWeights(amount, weights)
	if err != nil {
		return nil, fmt.Errorf("ledger: %w: %w", ErrInvalid, err)
	}
	return zip(people, shares), nil
}

// checkPeople requires at least one person, none empty and none twice.
func checkPeople(people []PersonID) error {
	if len(people) == 0 {
		return invalid("there is nobody to split the expense among")
	}
	seen := make(map[PersonID]bool, len(people))
	for _, p := range people {
		switch {
		case p == "":
			return invalid("a person to split the expense among has no name")
		case seen[p]:
			return invalid("%s is listed twice in the split", p)
		}
		seen[p] = true
	}
	return nil
}

// zip pairs people with their shares.
func zip(people []PersonID, shares []money.Amount) map[PersonID]money.Amount {
	m := make(map[PersonID]money.Amount, len(people))
	for i, p := range people {
		m[p] = shares[i]
	}
	return m
}
