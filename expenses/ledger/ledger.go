// Package ledger is the pure model of who owes whom in the shared-expenses application:
// expenses split into shares, payments between people, and the balances they leave.
//
// An expense paid by P with a share s for Q means Q owes P s. A payment from A to B of m
// means A paid B back: it lowers what A owes B by m, or, past zero, leaves B owing A. Both are
// debts from a debtor to a creditor in one currency; a person's position in a currency is
// what others owe them minus what they owe (Net), and between two people it is the sum of
// the debts between them, either way (Balances). Currencies are never converted or mixed.
//
// Amounts are exact (package money), so across all people each currency's positions add up to
// zero exactly, and a deleted expense (soft delete, restorable) simply stops counting.
//
// The package does no I/O: storage and the MCP tools build on it.
package ledger

import (
	"cmp"
	"slices"

	"github.com/bananaqr/bananaqr/expenses/money"
)

// PersonID identifies a person (a friend, a group member, or the caller) in the ledger.
type PersonID string

// Expense is money one person paid for several: Amount, paid by PaidBy, split into Shares,
// each participant's part of the cost. The shares add up to Amount exactly and are in its
// currency (CheckExpense); the payer may or may not have a share. A Deleted expense is kept
// (it can be restored) but does not count towards any balance.
type Expense struct {
	ID      string
	PaidBy  PersonID
	Amount  money.Amount
	Shares  map[PersonID]money.Amount
	Deleted bool
}

// Payment is money From paid To outside any expense, normally to settle a debt.
type Payment struct {
	From, To PersonID
	Amount   money.Amount
}

// Balance is what is owed between the caller and Person in one currency. Amount is always
// greater than zero; which way the money is owed is given by the list it is in (see Balances).
type Balance struct {
	Person PersonID
	Amount money.Total
}

// debt is one amount that debtor owes creditor; Amount is never negative.
type debt struct {
	debtor, creditor PersonID
	amount           money.Amount
}

// debts calls f for every debt the expenses and payments create, in a fixed order: expenses
// in order, each one's shares by person, then payments in order. Deleted expenses and debts
// of a person to themselves are skipped.
func debts(expenses []Expense, payments []Payment, f func(debt)) {
	for _, e := range expenses {
		if e.Deleted {
			continue
		}
		people := make([]PersonID, 0, len(e.Shares))
		for p := range e.Shares {
			people = append(people, p)
		}
		slices.SortFunc(people, cmp.Compare)
		for _, p := range people {
			if p == e.PaidBy {
				continue
			}
			f(debt{debtor: p, creditor: e.PaidBy, amount: e.Shares[p]})
		}
	}
	for _, p := range payments {
		if p.From == p.To {
			continue
		}
		// A paid B: B owes A the amount back, which cancels A's debt to B.
		f(debt{debtor: p.To, creditor: p.From, amount: p.Amount})
	}
}
