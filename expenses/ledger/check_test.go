package ledger

import (
	"errors"
	"strings"
	"testing"

	"github.com/bananaqr/bananaqr/expenses/money"
)

func TestCheckShares(t *testing.T) {
	ten := amt("10.00", eur)
	tests := []struct {
		name   string
		amount money.Amount
		shares map[PersonID]money.Amount
		msg    string // "" for valid
	}{
		{"exact", ten, map[PersonID]money.Amount{"ann": amt("3.34", eur),
			"bob": amt("3.33", eur), "cy": amt("3.33", eur)}, ""},
		{"one person", ten, map[PersonID]money.Amount{"ann": ten}, ""},
		{"a zero share", ten, map[PersonID]money.Amount{"ann": ten, "bob": money.Zero(eur)},
			""},
		{"short", ten, map[PersonID]money.Amount{"ann": amt("3.33", eur),
			"bob": amt("3.33", eur), "cy": amt("3.33", eur)},
			"the shares add up to 9.99 EUR, 0.01 less than the amount of 10.00 EUR"},
		{"over", ten, map[PersonID]money.Amount{"ann": amt("5.01", eur),
			"bob": amt("5.01", eur)},
			"the shares add up to 10.02 EUR, 0.02 more than the amount of 10.00 EUR"},
		{"KWD off by a fils", amt("0.010", kwd), map[PersonID]money.Amount{
			"ann": amt("0.003", kwd), "bob": amt("0.006", kwd)}, "0.001 less than"},
		{"JPY over", amt("100", jpy), map[PersonID]money.Amount{"ann": amt("101", jpy)},
			"1 more than the amount of 100 JPY"},
		{"nobody", ten, nil, "at least one participant"},
		{"no currency", money.Amount{}, map[PersonID]money.Amount{"ann": {}}, "no currency"},
		{"empty person", ten, map[PersonID]money.Amount{"": ten}, "a share has no person"},
		{"other currency", ten, map[PersonID]money.Amount{"ann": amt("10.000", kwd)},
			"ann's share is in KWD; it must be in EUR"},
		{"negative", ten, map[PersonID]money.Amount{"ann": amt("11.00", eur),
			"bob": amt("-1.00", eur)}, "bob's share is -1.00 EUR; shares cannot be negative"},
	}
	for _, tt := range tests {
		err := CheckShares(tt.amount, tt.shares)
		if tt.msg == "" {
			if err != nil {
				t.Errorf("%s: %v", tt.name, err)
			}
			continue
		}
		if !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), tt.msg) {
			t.Errorf("%s: %v; want ErrInvalid with %q", tt.name, err, tt.msg)
		}
	}
}

func TestCheckExpense(t *testing.T) {
	ok := exp("e", "ann", "10.00", eur, "ann", "5.00", "bob", "5.00")
	tests := []struct {
		name string
		edit func(*Expense)
		msg  string
	}{
		{"valid", func(*Expense) {}, ""},
		{"deleted is still valid", func(e *Expense) { e.Deleted = true }, ""},
		{"no payer", func(e *Expense) { e.PaidBy = "" }, "no payer"},
		{"zero", func(e *Expense) { e.Amount = money.Zero(eur) }, "must be more than zero"},
		{"negative", func(e *Expense) { e.Amount = e.Amount.Neg() }, "is -10.00 EUR"},
		{"no currency", func(e *Expense) { e.Amount = money.Amount{} }, "no currency"},
		{"bad shares", func(e *Expense) { e.Shares["bob"] = amt("4.00", eur) },
			"1.00 less than"},
	}
	for _, tt := range tests {
		e := ok
		e.Shares = map[PersonID]money.Amount{}
		for p, s := range ok.Shares {
			e.Shares[p] = s
		}
		tt.edit(&e)
		checkErr(t, tt.name, CheckExpense(e), tt.msg)
	}
}

func TestCheckPayment(t *testing.T) {
	tests := []struct {
		name string
		p    Payment
		msg  string
	}{
		{"valid", pay("ann", "bob", "0.01", eur), ""},
		{"to self", pay("ann", "ann", "1.00", eur), "ann cannot pay themselves"},
		{"no from", pay("", "bob", "1.00", eur), "needs the person who paid"},
		{"no to", pay("ann", "", "1.00", eur), "needs the person who paid"},
		{"zero", pay("ann", "bob", "0", jpy), "is 0 JPY; it must be more than zero"},
		{"negative", pay("ann", "bob", "-0.001", kwd), "is -0.001 KWD"},
		{"no currency", Payment{From: "ann", To: "bob"}, "no currency"},
	}
	for _, tt := range tests {
		checkErr(t, tt.name, CheckPayment(tt.p), tt.msg)
	}
}

// checkErr requires err to be nil when msg is empty, else ErrInvalid with msg in its text.
func checkErr(t *testing.T, name string, err error, msg string) {
	t.Helper()
	if msg == "" {
		if err != nil {
			t.Errorf("%s: %v", name, err)
		}
		return
	}
	if !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), msg) {
		t.Errorf("%s: %v; want ErrInvalid with %q", name, err, msg)
	}
}
