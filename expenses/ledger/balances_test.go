package ledger

import (
	"fmt"
	"strings"
	"testing"

	"github.com/bananaqr/bananaqr/expenses/money"
)

var (
	eur = money.MustCurrency("EUR")
	jpy = money.MustCurrency("JPY")
	kwd = money.MustCurrency("KWD")
)

// amt parses s in c; it panics on a mistake in a test.
func amt(s string, c money.Currency) money.Amount {
	a, err := money.Parse(s, c)
	if err != nil {
		panic(err)
	}
	return a
}

// exp builds an expense: pairs are person, share, person, share, ...
func exp(id string, paidBy PersonID, total string, c money.Currency, pairs ...string) Expense {
	e := Expense{ID: id, PaidBy: paidBy, Amount: amt(total, c),
		Shares: map[PersonID]money.Amount{}}
	for i := 0; i < len(pairs); i += 2 {
		e.Shares[PersonID(pairs[i])] = amt(pairs[i+1], c)
	}
	return e
}

// pay builds a payment.
func pay(from, to PersonID, a string, c money.Currency) Payment {
	return Payment{From: from, To: to, Amount: amt(a, c)}
}

// show writes balances as "person amount CUR" items, for comparing with expectations.
func show(bs []Balance) string {
	var s []string
	for _, b := range bs {
		s = append(s, fmt.Sprintf("%s %s %s", b.Person, b.Amount, b.Amount.Currency()))
	}
	return strings.Join(s, ", ")
}

func TestBalances(t *testing.T) {
	dinner := exp("dinner", "me", "30.00", eur, "me", "10.00", "ann", "10.00", "bob", "10.00")
	taxi := exp("taxi", "ann", "9.00", eur, "ann", "4.50", "me", "4.50")
	sushi := exp("sushi", "bob", "9000", jpy, "me", "4500", "bob", "4500")
	tests := []struct {
		name      string
		expenses  []Expense
		payments  []Payment
		owed      string
		owedToYou string
	}{
		{name: "nothing"},
		{name: "I paid dinner for three", expenses: []Expense{dinner},
			owedToYou: "ann 10.00 EUR, bob 10.00 EUR"},
		{name: "ann paid a taxi for two", expenses: []Expense{dinner, taxi},
			owedToYou: "ann 5.50 EUR, bob 10.00 EUR"},
		{name: "ann paid me back", expenses: []Expense{dinner, taxi},
			payments: []Payment{pay("ann", "me", "5.50", eur)}, owedToYou: "bob 10.00 EUR"},
		{name: "ann paid me too much", expenses: []Expense{dinner, taxi},
			payments: []Payment{pay("ann", "me", "6.00", eur)},
			owed:     "ann 0.50 EUR", owedToYou: "bob 10.00 EUR"},
		{name: "I paid bob, who owed me", expenses: []Expense{dinner},
			payments:  []Payment{pay("me", "bob", "20.00", eur)},
			owedToYou: "ann 10.00 EUR, bob 30.00 EUR"},
		{name: "currencies are kept apart", expenses: []Expense{dinner, sushi},
			owed: "bob 4500 JPY", owedToYou: "ann 10.00 EUR, bob 10.00 EUR"},
		{name: "a payment in another currency does not settle", expenses: []Expense{sushi},
			payments: []Payment{pay("me", "bob", "30.00", eur)},
			owed:     "bob 4500 JPY", owedToYou: "bob 30.00 EUR"},
		{name: "deleted expenses do not count",
			expenses:  []Expense{dinner, func() Expense { e := taxi; e.Deleted = true; return e }()},
			owedToYou: "ann 10.00 EUR, bob 10.00 EUR"},
		{name: "others' expenses and payments do not count",
			expenses: []Expense{exp("x", "ann", "8.000", kwd, "bob", "8.000")},
			payments: []Payment{pay("bob", "ann", "1.000", kwd)}},
		{name: "a payer without a share", expenses: []Expense{
			exp("gift", "me", "0.010", kwd, "ann", "0.004", "bob", "0.003", "cy", "0.003")},
			owedToYou: "ann 0.004 KWD, bob 0.003 KWD, cy 0.003 KWD"},
		{name: "sorted by currency, then person", expenses: []Expense{
			exp("a", "zed", "3", jpy, "me", "3"), exp("b", "amy", "0.010", kwd, "me", "0.010"),
			exp("c", "bob", "1.00", eur, "me", "1.00"), exp("d", "amy", "1.00", eur, "me", "1.00")},
			owed: "amy 1.00 EUR, bob 1.00 EUR, zed 3 JPY, amy 0.010 KWD"},
	}
	for _, tt := range tests {
		owed, owedToYou := Balances("me", tt.expenses, tt.payments)
		if show(owed) != tt.owed || show(owedToYou) != tt.owedToYou {
			t.Errorf("%s:\n owed %q, owedToYou %q\n want %q, %q", tt.name, show(owed),
				show(owedToYou), tt.owed, tt.owedToYou)
		}
	}
}

func TestNet(t *testing.T) {
	expenses := []Expense{
		exp("dinner", "me", "30.00", eur, "me", "10.00", "ann", "10.00", "bob", "10.00"),
		exp("taxi", "ann", "9.00", eur, "ann", "4.50", "me", "4.50"),
		exp("sushi", "bob", "9000", jpy, "me", "4500", "bob", "4500"),
		exp("gone", "bob", "1000", jpy, "me", "1000"),
	}
	expenses[3].Deleted = true
	payments := []Payment{pay("bob", "me", "10.00", eur), pay("me", "bob", "4500", jpy)}
	net := Net(expenses, payments)
	want := map[money.Currency]map[PersonID]string{
		eur: {"me": "5.50", "ann": "-5.50"}, // bob is even in EUR and left out
	}
	if len(net) != len(want) || len(net[eur]) != len(want[eur]) {
		t.Fatalf("Net = %v, want %v", net, want)
	}
	for p, s := range want[eur] {
		if got := net[eur][p]; got != amt(s, eur).Total() {
			t.Errorf("Net[EUR][%s] = %v, want %s", p, got, s)
		}
	}
}

// TestNoOverflow: positions far beyond the int64 range of minor units are exact, as in the
// attack that broke balances: 1,679 expenses of the largest amount, then payments.
func TestNoOverflow(t *testing.T) {
	huge := amt("1000000000000000", jpy) // money.MaxMinor yen
	var expenses []Expense
	for i := range 1679 {
		expenses = append(expenses, Expense{ID: fmt.Sprint(i), PaidBy: "me", Amount: huge,
			Shares: map[PersonID]money.Amount{"ann": huge}})
	}
	payments := []Payment{{From: "me", To: "ann", Amount: huge}, {From: "ann", To: "me", Amount: amt("1", jpy)}}
	if got := Net(expenses, payments)[jpy]["me"].String(); got != "1679999999999999999" {
		t.Errorf("Net = %s", got)
	}
	owed, owedToYou := Balances("ann", expenses, payments)
	if len(owedToYou) != 0 || show(owed) != "me 1679999999999999999 JPY" {
		t.Errorf("Balances(ann) = %q, %q", show(owed), show(owedToYou))
	}
	for range 5 { // 53,728 × 10^15 yen, beyond math.MaxInt64 (about 9.2 × 10^18)
		expenses = append(expenses, expenses...)
	}
	if _, theirs := Balances("me", expenses, nil); show(theirs) != "ann 53728000000000000000 JPY" {
		t.Errorf("Balances(me) of %d expenses = %q", len(expenses), show(theirs))
	}
}
