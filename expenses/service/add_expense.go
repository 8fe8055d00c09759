package service

// add_expense: its input, its checks (dates, amounts, who may owe whom) and the write.

import (
	"context"
	"encoding/json"
	"sort"
	"strings"
	"time"

	"github.com/bananaqr/bananaqr/expenses/ledger"
	"github.com/bananaqr/bananaqr/expenses/money"
	"github.com/bananaqr/bananaqr/expenses/store"
)

// AddExpenseInput is the parameters of add_expense. Recurring is an addition to spec 4.8,
// so that list_expenses' recurring filter has something to find.
type AddExpenseInput struct {
	Title     string                 `json:"title"`
	Amount    json.Number            `json:"amount"`
	Currency  string                 `json:"currency,omitempty"`
	PaidBy    string                 `json:"paidBy,omitempty"`
	Group     string                 `json:"group,omitempty"`
	Splits    map[string]json.Number `json:"splits,omitempty"`
	Date      string                 `json:"date,omitempty"`
	Recurring bool                   `json:"recurring,omitempty"`
}

func (s *Service) date(d string) (string, error) {
	d = strings.TrimSpace(d)
	if d == "" {
		return s.now().UTC().Format(time.DateOnly), nil
	}
	if _, err := time.Parse(time.DateOnly, d); err != nil {
		return "", invalid("date %q is not a date YYYY-MM-DD, e.g. 2026-03-31", d)
	}
	return d, checkDate(d, s.now())
}

// positiveAmount reads a tool's currency code and amount: a known ISO 4217 code, and an
// amount greater than zero with no more decimals than the currency has.
func positiveAmount(code string, n json.Number) (money.Currency, money.Amount, error) {
	if code == "" {
		return money.Currency{}, money.Amount{}, invalid("currency is required: an ISO 4217 code such as EUR")
	}
	cur, err := money.ParseCurrency(code)
	if err != nil {
		return money.Currency{}, money.Amount{}, invalid("currency %q is not an ISO 4217 code such as EUR, USD, JPY", code)
	}
	amount, err := parseAmount("amount", n, cur)
	if err != nil {
		return cur, money.Amount{}, err
	}
	if err := amount.CheckPositive(); err != nil {
		return cur, money.Amount{}, invalid("amount must be greater than zero")
	}
	return cur, amount, nil
}

func parseAmount(field string, n json.Number, c money.Currency) (money.Amount, error) {
	if n == "" {
		return money.Amount{}, invalid("%s is required: a number such as 12.50", field)
	}
	a, err := money.FromJSONNumber(n, c)
	if err != nil {
		return money.Amount{}, invalid("%s: %v", field, err)
	}
	return a, nil
}

// checkOwnDebts is the rule outside a group: every debt the expense makes is between the
// caller and one other person (the caller paid, or only the caller's share is owed to the
// payer), so nobody can put a debt between two other people who never shared a group.
func checkOwnDebts(c Caller, payer string, shares map[ledger.PersonID]money.Amount) error {
	involved := payer == c.PersonID
	for p, a := range shares {
		switch {
		case string(p) == c.PersonID:
			involved = true
		case string(p) != payer && !a.IsZero() && payer != c.PersonID:
			return errorf(CodeForbidden, "outside a group an expense may only make debts between you and others: "+
				"someone else paid, so only your own share may be owed; name a group you share with them instead")
		}
	}
	if !involved {
		return errorf(CodeForbidden, "you can only record expenses you paid or share in outside a group: paidBy or splits must include \"me\", or name a group you are in")
	}
	return nil
}

// AddExpense is add_expense. The currency defaults to the group's, paidBy to "me", the date to
// today (UTC). Without splits the group's default split applies; without a group splits are
// required.
func (s *Service) AddExpense(ctx context.Context, c Caller, in AddExpenseInput) (Expense, error) {
	if err := s.allowWrite(c); err != nil {
		return Expense{}, err
	}
	if err := checkInput(in); err != nil {
		return Expense{}, err
	}
	out, err := s.addExpense(ctx, c, in)
	return out, toolError(err)
}

func (s *Service) addExpense(ctx context.Context, c Caller, in AddExpenseInput) (Expense, error) {
	title := strings.TrimSpace(in.Title)
	if title == "" {
		return Expense{}, invalid("title is required, e.g. \"Dinner\"")
	}
	var g *store.Group
	var members []store.Member
	if strings.TrimSpace(in.Group) != "" {
		gr, err := s.group(ctx, c, in.Group)
		if err != nil {
			return Expense{}, err
		}
		g = &gr
		if members, err = s.store.Members(ctx, g.ID); err != nil {
			return Expense{}, err
		}
	}
	code := strings.TrimSpace(in.Currency)
	if code == "" && g != nil {
		code = g.Currency
	}
	cur, amount, err := positiveAmount(code, in.Amount)
	if err != nil {
		return Expense{}, err
	}
	date, err := s.date(in.Date)
	if err != nil {
		return Expense{}, err
	}
	d := s.directory(c)
	paidBy := in.PaidBy
	if strings.TrimSpace(paidBy) == "" {
		paidBy = "me"
	}
	payer, err := d.resolve(ctx, "paidBy", paidBy, members)
	if err != nil {
		return Expense{}, err
	}
	var shares map[ledger.PersonID]money.Amount
	var order []string // person ids in the order the shares are stored
	if len(in.Splits) > 0 {
		shares = map[ledger.PersonID]money.Amount{}
		names := make([]string, 0, len(in.Splits))
		for n := range in.Splits {
			names = append(names, n)
		}
		sort.Strings(names)
		for _, n := range names {
			p, err := d.resolve(ctx, "splits", n, members)
			if err != nil {
				return Expense{}, err
			}
			if _, dup := shares[ledger.PersonID(p.ID)]; dup {
				return Expense{}, invalid("splits: %q names a person who already has a share; give each person one share", n)
			}
			a, err := parseAmount("splits."+n, in.Splits[n], cur)
			if err != nil {
				return Expense{}, err
			}
			if a.Sign() < 0 {
				// Checked here rather than by ledger.CheckShares, whose messages name people by id.
				return Expense{}, invalid("splits: %s's share is %s %s; shares cannot be negative", n, a, cur)
			}
			shares[ledger.PersonID(p.ID)] = a
			order = append(order, p.ID)
		}
		if err := ledger.CheckShares(amount, shares); err != nil {
			return Expense{}, invalid("splits: %v", err)
		}
	} else {
		if g == nil {
			return Expense{}, invalid("splits are required for an expense outside a group: give the amount per person, e.g. {\"me\": 5, \"Ben\": 5}, or name a group to use its default split")
		}
		var ids []ledger.PersonID
		var weights []int64
		for _, m := range members {
			ids = append(ids, ledger.PersonID(m.ID))
			weights = append(weights, m.Weight)
			order = append(order, m.ID)
		}
		if shares, err = ledger.WeightedShares(amount, ids, weights); err != nil {
			return Expense{}, err
		}
	}
	if g == nil {
		if err := checkOwnDebts(c, payer.ID, shares); err != nil {
			return Expense{}, err
		}
	}
	e := store.Expense{Title: title, Currency: cur.Code(), AmountMinor: amount.Minor(), PaidBy: payer.ID,
		Date: date, Recurring: in.Recurring, CreatedBy: c.UserID, CreatedAt: s.now()}
	if g != nil {
		e.GroupID = &g.ID
	}
	for _, id := range order {
		e.Shares = append(e.Shares, store.Share{PersonID: id, AmountMinor: shares[ledger.PersonID(id)].Minor()})
	}
	if e, err = s.store.AddExpense(ctx, e); err != nil {
		return Expense{}, err
	}
	e, err = s.store.ExpenseByID(ctx, e.ID)
	if err != nil {
		return Expense{}, err
	}
	return s.expenseOut(ctx, d, e)
}
