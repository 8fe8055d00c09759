package ledger

import (
	"cmp"
	"slices"

	"github.com/bananaqr/bananaqr/expenses/money"
)

// Net returns each person's net position in each currency: what others owe them minus what
// they owe, counting every expense that is not deleted and every payment. Positive means the
// person is owed money. People whose position is zero are left out, and so are currencies in
// which everyone is even, so equal ledgers give equal maps.
//
// In every currency the positions add up to zero exactly: each debt adds its amount to the
// creditor and takes it from the debtor. Positions are money.Totals, exact at any number of
// expenses and payments.
func Net(expenses []Expense, payments []Payment) map[money.Currency]map[PersonID]money.Total {
	var t tally
	debts(expenses, payments, func(d debt) {
		t.add(d.creditor, d.amount)
		t.add(d.debtor, d.amount.Neg())
	})
	net := make(map[money.Currency]map[PersonID]money.Total)
	for k, a := range t {
		if a.IsZero() {
			continue
		}
		if net[k.cur] == nil {
			net[k.cur] = make(map[PersonID]money.Total)
		}
		net[k.cur][k.person] = a
	}
	return net
}

// Balances returns, from the point of view of me, what is owed between me and each other
// person in each currency, netting all the debts between the two of them: the shares of
// expenses one paid for the other, and the payments between them. Expenses and payments
// between other people do not count; deleted expenses do not count.
//
// owed lists the people me owes (me's debts to them exceed theirs to me), owedToYou the
// people who owe me; each Balance has a positive Amount, and people who are even with me are
// in neither. Both lists are sorted by currency code, then person. In each currency, the
// total of owedToYou minus the total of owed is me's Net position. Balances are exact at any
// number of expenses and payments.
func Balances(me PersonID, expenses []Expense, payments []Payment) (owed, owedToYou []Balance) {
	// t holds, per currency and other person, what me owes them (negative: they owe me).
	var t tally
	debts(expenses, payments, func(d debt) {
		switch me {
		case d.debtor:
			t.add(d.creditor, d.amount)
		case d.creditor:
			t.add(d.debtor, d.amount.Neg())
		}
	})
	for k, a := range t {
		switch a.Sign() {
		case 1:
			owed = append(owed, Balance{Person: k.person, Amount: a})
		case -1:
			owedToYou = append(owedToYou, Balance{Person: k.person, Amount: a.Neg()})
		}
	}
	slices.SortFunc(owed, compareBalances)
	slices.SortFunc(owedToYou, compareBalances)
	return owed, owedToYou
}

// compareBalances orders balances by currency code, then person.
func compareBalances(a, b Balance) int {
	return cmp.Or(cmp.Compare(a.Amount.Currency().Code(), b.Amount.Currency().Code()),
		cmp.Compare(a.Person, b.Person))
}

// key is a person in one currency.
type key struct {
	cur    money.Currency
	person PersonID
}

// tally sums amounts per person and currency. Its zero value is ready to use.
type tally map[key]money.Total

// add adds a to p's sum in a's currency; the currency is part of the key, so they match.
func (t *tally) add(p PersonID, a money.Amount) {
	if *t == nil {
		*t = make(tally)
	}
	k := key{cur: a.Currency(), person: p}
	sum, ok := (*t)[k]
	if !ok {
		sum = money.ZeroTotal(k.cur)
	}
	(*t)[k], _ = sum.Add(a.Total())
}
