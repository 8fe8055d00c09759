package ledger

import (
	"cmp"
	"errors"
	"fmt"
	"slices"

	"github.com/bananaqr/bananaqr/expenses/money"
)

// ErrInvalid is wrapped by every error of CheckShares, CheckExpense, CheckPayment,
// EqualShares and WeightedShares: the input is wrong (a tool answers INVALID_INPUT, spec 7.4),
// and the message says how, for the person who entered it.
var ErrInvalid = errors.New("invalid")

// CheckShares reports whether shares are a valid split of amount: amount has a currency,
// there is at least one participant, no empty person, every share is in amount's currency
// and not negative, and their sum is exactly amount. When the sum is off, the error says by how much, as a decimal string: "the shares
// add up to 9.99 EUR, 0.01 less than the amount of 10.00 EUR".
func CheckShares(amount money.Amount, shares map[PersonID]money.Amount) error {
	cur := amount.Currency()
	if !cur.Valid() {
		return invalid("the amount has no currency")
	}
	if len(shares) == 0 {
		return invalid("an expense needs at least one participant's share")
	}
	people := make([]PersonID, 0, len(shares))
	for p := range shares {
		people = append(people, p)
	}
	slices.SortFunc(people, cmp.Compare) // the first fault found is the same every time
	all := make([]money.Amount, 0, len(shares))
	for _, p := range people {
		s := shares[p]
		switch {
		case p == "":
			return invalid("a share has no person")
		case s.Currency() != cur:
			return invalid("%s's share is in %s; it must be in %s, the expense's currency",
				p, s.Currency(), cur)
		case s.Sign() < 0:
			return invalid("%s's share is %s %s; shares cannot be negative", p, s, cur)
		}
		all = append(all, s)
	}
	sum, err := money.Sum(cur, all...)
	if err != nil {
		return fmt.Errorf("ledger: the shares cannot be added up: %w: %w", ErrInvalid, err)
	}
	diff, err := sum.Sub(amount)
	if err != nil {
		return fmt.Errorf("ledger: the shares cannot be compared: %w: %w", ErrInvalid, err)
	}
	switch diff.Sign() {
	case -1:
		return invalid("the shares add up to %s %s, %s less than the amount of %s %s",
			sum, cur, diff.Neg(), amount, cur)
	case 1:
		return invalid("the shares add up to %s %s, %s more than the amount of %s %s",
			sum, cur, diff, amount, cur)
	}
	return nil
}

// CheckExpense reports whether e can be recorded: it has a payer, its amount is in a currency
// and greater than zero, and its shares pass CheckShares. It does not look at ID or Deleted.
func CheckExpense(e Expense) error {
	if e.PaidBy == "" {
		return invalid("the expense has no payer")
	}
	if !e.Amount.Currency().Valid() {
		return invalid("the expense's amount has no currency")
	}
	if e.Amount.Sign() <= 0 {
		return invalid("the expense's amount is %s %s; it must be more than zero", e.Amount,
			e.Amount.Currency())
	}
	return CheckShares(e.Amount, e.Shares)
}

// CheckPayment reports whether p can be recorded: it is from one person to another and its
// amount is in a currency and greater than zero.
func CheckPayment(p Payment) error {
	switch {
	case p.From == "" || p.To == "":
		return invalid("a payment needs the person who paid and the person paid")
	case p.From == p.To:
		return invalid("%s cannot pay themselves", p.From)
	case !p.Amount.Currency().Valid():
		return invalid("the payment's amount has no currency")
	}
	if p.Amount.Sign() <= 0 {
		return invalid("the payment's amount is %s %s; it must be more than zero", p.Amount,
			p.Amount.Currency())
	}
	return nil
}

// invalid returns an error wrapping ErrInvalid with the formatted message.
func invalid(format string, args ...any) error {
	return fmt.Errorf("ledger: %w: %s", ErrInvalid, fmt.Sprintf(format, args...))
}
