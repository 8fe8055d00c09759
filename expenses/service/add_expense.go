package service

// add_expense: its input, its checks (dates, amounts, who may owe whom) and the write.

import (
	"context"
	"encoding/json"
	"errors"
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
			return errorf(ReasonForbidden, "outside a group an expense may only make debts between you and others: "+
				"someone else paid, so only your own share may be owed; name a group you share with them instead")
		}
	}
	if !involved {
		return errorf(ReasonForbidden, "you can only record expenses you paid or share in outside a group: paidBy or splits must include \"me\", or name a group you are in")
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

// addExpense is AddExpense after the write limit and the text checks: it reads the title,
// the group, the amount, the date, the payer and the shares, checks who may owe whom, and
// stores the expense.
func (s *Service) addExpense(ctx context.Context, c Caller, in AddExpenseInput) (Expense, error) {
	title := strings.TrimSpace(in.Title)
	if title == "" {
		return Expense{}, invalid("title is required, e.g. \"Dinner\"")
	}
	g, members, err := s.expenseGroup(ctx, c, in.Group)
	if err != nil {
		return Expense{}, err
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
	payer, err := d.payer(ctx, in.PaidBy, members)
	if err != nil {
		return Expense{}, err
	}
	shares, order, err := expenseShares(ctx, d, in.Splits, g, members, cur, amount)
	if err != nil {
		return Expense{}, err
	}
	var groupID *string
	if g != nil {
		groupID = &g.ID
	}
	if err := s.checkConsent(ctx, c, groupID, payer.ID, shares); errors.Is(err, errNotAgreed) {
		return Expense{}, errorf(ReasonForbidden, "every debt needs the people in it to have agreed: your friends, "+
			"or members of a group you all joined")
	} else if err != nil {
		return Expense{}, err
	}
	e := store.Expense{Title: title, Currency: cur.Code(), AmountMinor: amount.Minor(), PaidBy: payer.ID,
		Date: date, Recurring: in.Recurring, CreatedBy: c.UserID, CreatedAt: s.now(), Shares: storeShares(shares, order)}
	e.GroupID = groupID
	return s.storeExpense(ctx, d, e)
}

// payer resolves who paid an expense: paidBy, or "me" when it is blank.
func (d *directory) payer(ctx context.Context, paidBy string, members []store.Member) (store.Person, error) {
	if strings.TrimSpace(paidBy) == "" {
		paidBy = "me"
	}
	return d.resolve(ctx, "paidBy", paidBy, members)
}

// expenseGroup returns the group an expense names (by name or id) and its members, or nil
// and no members when the expense names no group.
func (s *Service) expenseGroup(ctx context.Context, c Caller, nameOrID string) (*store.Group, []store.Member, error) {
	if strings.TrimSpace(nameOrID) == "" {
		return nil, nil, nil
	}
	g, err := s.group(ctx, c, nameOrID, false)
	if err != nil {
		return nil, nil, err
	}
	members, err := s.store.Members(ctx, g.ID)
	if err != nil {
		return nil, nil, err
	}
	return &g, members, nil
}

// expenseShares returns what each person owes of amount, and the person ids in the order the
// shares are stored: the splits as given, or without splits the group's default split.
func expenseShares(ctx context.Context, d *directory, splits map[string]json.Number, g *store.Group, members []store.Member,
	cur money.Currency, amount money.Amount) (map[ledger.PersonID]money.Amount, []string, error) {
	if len(splits) > 0 {
		return givenShares(ctx, d, splits, members, cur, amount)
	}
	if g == nil {
		return nil, nil, invalid("splits are required for an expense outside a group: give the amount per person, e.g. {\"me\": 5, \"Ben\": 5}, or name a group to use its default split")
	}
	return defaultShares(amount, members)
}

// givenShares reads the splits, in the order of their names: each name one person with one
// share, no share negative, and the shares adding up to amount.
func givenShares(ctx context.Context, d *directory, splits map[string]json.Number, members []store.Member,
	cur money.Currency, amount money.Amount) (map[ledger.PersonID]money.Amount, []string, error) {
	shares := map[ledger.PersonID]money.Amount{}
	var order []string // person ids in the order the shares are stored
	names := make([]string, 0, len(splits))
	for n := range splits {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		p, err := d.resolve(ctx, "splits", n, members)
		if err != nil {
			return nil, nil, err
		}
		if _, dup := shares[ledger.PersonID(p.ID)]; dup {
			return nil, nil, invalid("splits: %q names a person who already has a share; give each person one share", n)
		}
		a, err := parseAmount("splits."+n, splits[n], cur)
		if err != nil {
			return nil, nil, err
		}
		if a.Sign() < 0 {
			// Checked here rather than by ledger.CheckShares, whose messages name people by id.
			return nil, nil, invalid("splits: %s's share is %s %s; shares cannot be negative", n, a, cur)
		}
		shares[ledger.PersonID(p.ID)] = a
		order = append(order, p.ID)
	}
	if err := ledger.CheckShares(amount, shares); err != nil {
		return nil, nil, invalid("splits: %v", err)
	}
	return shares, order, nil
}

// defaultShares splits amount among the group's members by their weights (the group's
// default split), in the members' order.
func defaultShares(amount money.Amount, members []store.Member) (map[ledger.PersonID]money.Amount, []string, error) {
	var ids []ledger.PersonID
	var weights []int64
	var order []string // person ids in the order the shares are stored
	for _, m := range members {
		ids = append(ids, ledger.PersonID(m.ID))
		weights = append(weights, m.Weight)
		order = append(order, m.ID)
	}
	shares, err := ledger.WeightedShares(amount, ids, weights)
	if err != nil {
		return nil, nil, err
	}
	return shares, order, nil
}

// storeShares returns the shares as the store keeps them, in order (person ids).
func storeShares(shares map[ledger.PersonID]money.Amount, order []string) []store.Share {
	var out []store.Share
	for _, id := range order {
		out = append(out, store.Share{PersonID: id, AmountMinor: shares[ledger.PersonID(id)].Minor()})
	}
	return out
}

// storeExpense writes e with its shares and returns it as add_expense answers it, read back
// from the store.
func (s *Service) storeExpense(ctx context.Context, d *directory, e store.Expense) (Expense, error) {
	e, err := s.store.AddExpense(ctx, e)
	if err != nil {
		return Expense{}, err
	}
	if e, err = s.store.ExpenseByID(ctx, e.ID); err != nil {
		return Expense{}, err
	}
	return s.expenseOut(ctx, d, e)
}
