package service

// This file holds get_balances and add_payment: the money that moves between people.

import (
	"context"
	"encoding/json"
	"errors"
	"sort"
	"strings"

	"github.com/bananaqr/bananaqr/expenses/ledger"
	"github.com/bananaqr/bananaqr/expenses/money"
	"github.com/bananaqr/bananaqr/expenses/store"
)

// GetBalances is get_balances: per person and currency, netting expenses and payments,
// from the caller's view; each list is sorted by currency code, then name. Sums are exact at
// any count (money.Total). A stored record whose currency or amount cannot be read is left
// out and named in LeftOut, so that one bad record never hides all the balances.
func (s *Service) GetBalances(ctx context.Context, c Caller) (Balances, error) {
	l, err := s.store.LedgerFor(ctx, c.UserID)
	if err != nil {
		return Balances{}, toolError(err)
	}
	var out Balances
	var es []ledger.Expense
	for _, e := range l.Expenses {
		le, err := ledgerExpense(e)
		if err != nil {
			out.LeftOut = append(out.LeftOut, e.ID)
			continue
		}
		es = append(es, le)
	}
	var ps []ledger.Payment
	for _, p := range l.Payments {
		amt, err := storedAmount(p.AmountMinor, p.Currency)
		if err != nil {
			out.LeftOut = append(out.LeftOut, p.ID)
			continue
		}
		ps = append(ps, ledger.Payment{From: ledger.PersonID(p.From), To: ledger.PersonID(p.To), Amount: amt})
	}
	owed, owedToYou := ledger.Balances(ledger.PersonID(c.PersonID), es, ps)
	d := s.directory(c)
	conv := func(bs []ledger.Balance) ([]BalanceItem, error) {
		out := []BalanceItem{}
		for _, b := range bs {
			n, err := d.name(ctx, string(b.Person))
			if err != nil {
				return nil, err
			}
			out = append(out, BalanceItem{Name: n, Amount: b.Amount.String(), Currency: b.Amount.Currency().Code()})
		}
		sort.SliceStable(out, func(i, j int) bool {
			if out[i].Currency != out[j].Currency {
				return out[i].Currency < out[j].Currency
			}
			return strings.ToLower(out[i].Name) < strings.ToLower(out[j].Name)
		})
		return out, nil
	}
	if out.Owed, err = conv(owed); err != nil {
		return Balances{}, toolError(err)
	}
	if out.OwedToYou, err = conv(owedToYou); err != nil {
		return Balances{}, toolError(err)
	}
	return out, nil
}

// storedAmount reads an amount from the store: minor units beside a currency code.
func storedAmount(minor int64, code string) (money.Amount, error) {
	cur, err := money.ParseCurrency(code)
	if err != nil {
		return money.Amount{}, err
	}
	return money.FromMinor(minor, cur)
}

// ledgerExpense reads a stored expense into the ledger's model.
func ledgerExpense(e store.Expense) (ledger.Expense, error) {
	amt, err := storedAmount(e.AmountMinor, e.Currency)
	if err != nil {
		return ledger.Expense{}, err
	}
	le := ledger.Expense{ID: e.ID, PaidBy: ledger.PersonID(e.PaidBy), Amount: amt,
		Shares: map[ledger.PersonID]money.Amount{}, Deleted: e.DeletedAt != nil}
	for _, sh := range e.Shares {
		if le.Shares[ledger.PersonID(sh.PersonID)], err = storedAmount(sh.AmountMinor, e.Currency); err != nil {
			return ledger.Expense{}, err
		}
	}
	return le, nil
}

// AddPaymentInput is the parameters of add_payment.
type AddPaymentInput struct {
	Amount      json.Number `json:"amount"`
	Currency    string      `json:"currency"`
	From        string      `json:"from,omitempty"`
	To          string      `json:"to"`
	Date        string      `json:"date,omitempty"`
	Description string      `json:"description,omitempty"`
}

// Payment is a recorded payment.
type Payment struct {
	ID          string `json:"id" jsonschema:"The payment's id: 32 hexadecimal digits, random."`
	Amount      string `json:"amount" jsonschema:"The amount, a decimal string with the currency's minor-unit digits, such as 12.50."`
	Currency    string `json:"currency" jsonschema:"ISO 4217 code."`
	From        string `json:"from" jsonschema:"Who paid: \"me\" or the name the caller knows them by."`
	To          string `json:"to" jsonschema:"Who received the money: \"me\" or a name."`
	Date        string `json:"date" jsonschema:"The day of the payment, YYYY-MM-DD."`
	Description string `json:"description" jsonschema:"The note given, or empty."`
	CreatedBy   string `json:"createdBy" jsonschema:"Who recorded the payment: \"me\" or a name."`
	CreatedAt   string `json:"createdAt" jsonschema:"When it was recorded, RFC 3339 in UTC."`
}

// AddPayment is add_payment: from (default "me") paid to. One of them must be the caller.
func (s *Service) AddPayment(ctx context.Context, c Caller, in AddPaymentInput) (Payment, error) {
	if err := s.allowWrite(c); err != nil {
		return Payment{}, err
	}
	if err := checkInput(in); err != nil {
		return Payment{}, err
	}
	out, err := s.addPayment(ctx, c, in)
	return out, toolError(err)
}

func (s *Service) addPayment(ctx context.Context, c Caller, in AddPaymentInput) (Payment, error) {
	cur, amount, err := positiveAmount(strings.TrimSpace(in.Currency), in.Amount)
	if err != nil {
		return Payment{}, err
	}
	date, err := s.date(in.Date)
	if err != nil {
		return Payment{}, err
	}
	d := s.directory(c)
	fromName := in.From
	if strings.TrimSpace(fromName) == "" {
		fromName = "me"
	}
	from, err := d.resolve(ctx, "from", fromName, nil)
	if err != nil {
		return Payment{}, err
	}
	to, err := d.resolve(ctx, "to", in.To, nil)
	if err != nil {
		return Payment{}, err
	}
	if from.ID == to.ID {
		return Payment{}, invalid("from and to are the same person; a payment goes from one person to another")
	}
	if from.ID != c.PersonID && to.ID != c.PersonID {
		return Payment{}, errorf(ReasonForbidden, "you can only record payments you made or received: from or to must be \"me\"")
	}
	// The payment is a debt between the caller and the other person (checkConsent).
	other := map[ledger.PersonID]money.Amount{ledger.PersonID(to.ID): amount}
	if err := s.checkConsent(ctx, c, nil, from.ID, other); errors.Is(err, errNotAgreed) {
		return Payment{}, errorf(ReasonForbidden, "a payment needs the other person to be your friend or a member of a group you both joined")
	} else if err != nil {
		return Payment{}, err
	}
	p, err := s.store.AddPayment(ctx, store.Payment{From: from.ID, To: to.ID, Currency: cur.Code(), AmountMinor: amount.Minor(),
		Date: date, Description: strings.TrimSpace(in.Description), CreatedBy: c.UserID, CreatedAt: s.now()})
	if err != nil {
		return Payment{}, err
	}
	out := Payment{ID: p.ID, Amount: amount.String(), Currency: cur.Code(), Date: p.Date, Description: p.Description,
		CreatedBy: "me", CreatedAt: rfc3339(p.CreatedAt)}
	if out.From, err = d.name(ctx, from.ID); err != nil {
		return Payment{}, err
	}
	if out.To, err = d.name(ctx, to.ID); err != nil {
		return Payment{}, err
	}
	return out, nil
}
