package ledger_test

import (
	"fmt"

	"github.com/bananaqr/bananaqr/expenses/ledger"
	"github.com/bananaqr/bananaqr/expenses/money"
)

func ExampleBalances() {
	eur := money.MustCurrency("EUR")
	total, _ := money.Parse("10.00", eur)
	// I paid 10.00 for three, split equally; the extra cent falls to the first listed.
	shares, _ := ledger.EqualShares(total, []ledger.PersonID{"ann", "bob", "me"})
	dinner := ledger.Expense{ID: "dinner", PaidBy: "me", Amount: total, Shares: shares}
	// Bob paid me 5.00: he now owes nothing, and I owe him what he paid too much.
	five, _ := money.Parse("5.00", eur)
	back := ledger.Payment{From: "bob", To: "me", Amount: five}

	owed, owedToYou := ledger.Balances("me", []ledger.Expense{dinner}, []ledger.Payment{back})
	for _, b := range owed {
		fmt.Println("I owe", b.Person, b.Amount, b.Amount.Currency())
	}
	for _, b := range owedToYou {
		fmt.Println(b.Person, "owes me", b.Amount, b.Amount.Currency())
	}
	// Output:
	// I owe bob 1.67 EUR
	// ann owes me 3.34 EUR
}

func ExampleCheckShares() {
	eur := money.MustCurrency("EUR")
	total, _ := money.Parse("10.00", eur)
	third, _ := money.Parse("3.33", eur)
	err := ledger.CheckShares(total, map[ledger.PersonID]money.Amount{
		"ann": third, "bob": third, "me": third})
	fmt.Println(err)
	// Output: ledger: invalid: the shares add up to 9.99 EUR, 0.01 less than the amount of 10.00 EUR
}
