package service

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

// Money is an amount in a response: a decimal string with the currency's digits.
type Money struct {
	Amount   string `json:"amount"`
	Currency string `json:"currency"`
}

// BalanceItem is what is owed between the caller and one person in one currency.
type BalanceItem struct {
	Name     string `json:"name" jsonschema:"The other person: the name the caller knows them by."`
	Amount   string `json:"amount" jsonschema:"The net amount, positive, a decimal string with the currency's minor-unit digits."`
	Currency string `json:"currency" jsonschema:"ISO 4217 code; each currency is balanced on its own."`
}

// Balances is the result of get_balances: owed, what the caller owes each person;
// owedToYou, what each person owes the caller.
type Balances struct {
	Owed      []BalanceItem `json:"owed" jsonschema:"What the caller owes each person, per currency."`
	OwedToYou []BalanceItem `json:"owedToYou" jsonschema:"What each person owes the caller, per currency."`
	LeftOut   []string      `json:"leftOut,omitempty" jsonschema:"Ids of stored expenses or payments whose amount or currency cannot be read, left out of the balances; absent when there are none."`
}

// GroupRef names a group in an expense.
type GroupRef struct {
	ID   string `json:"id" jsonschema:"The group's id."`
	Name string `json:"name" jsonschema:"The group's name."`
}

// Split is one person's share of an expense.
type Split struct {
	Name   string `json:"name" jsonschema:"The person who bears this share: \"me\" or a name."`
	Amount string `json:"amount" jsonschema:"The share, a decimal string with the currency's minor-unit digits; the shares add up to the amount exactly."`
}

// Expense is an expense as the tools return it.
type Expense struct {
	ID        string    `json:"id" jsonschema:"The expense's id: 32 hexadecimal digits, random."`
	Title     string    `json:"title" jsonschema:"What the expense was for."`
	Amount    string    `json:"amount" jsonschema:"The total, a decimal string with the currency's minor-unit digits, such as 12.50 (EUR), 1200 (JPY), 1.250 (KWD)."`
	Currency  string    `json:"currency" jsonschema:"ISO 4217 code."`
	PaidBy    string    `json:"paidBy" jsonschema:"Who paid: \"me\" or the name the caller knows them by."`
	Group     *GroupRef `json:"group,omitempty" jsonschema:"The group the expense belongs to; absent for an expense between friends."`
	Splits    []Split   `json:"splits" jsonschema:"Each person's share."`
	Date      string    `json:"date" jsonschema:"The day of the expense, YYYY-MM-DD."`
	Recurring bool      `json:"recurring" jsonschema:"Whether it is a recurring expense (rent, subscriptions)."`
	CreatedBy string    `json:"createdBy" jsonschema:"Who recorded it: \"me\" or a name."`
	CreatedAt string    `json:"createdAt" jsonschema:"When it was recorded, RFC 3339 in UTC."`
	Deleted   bool      `json:"deleted" jsonschema:"Whether it is deleted (soft: restore_expense brings it back)."`
	DeletedAt string    `json:"deletedAt,omitempty" jsonschema:"When it was deleted, RFC 3339 in UTC; absent when not deleted."`
	DeletedBy string    `json:"deletedBy,omitempty" jsonschema:"Who deleted it; absent when not deleted."`
}

func rfc3339(t time.Time) string { return t.UTC().Format(time.RFC3339) }

func amountString(minor int64, code string) (string, error) {
	a, err := storedAmount(minor, code)
	if err != nil {
		return "", err
	}
	return a.String(), nil
}

func (s *Service) expenseOut(ctx context.Context, d *directory, e store.Expense) (Expense, error) {
	amt, err := amountString(e.AmountMinor, e.Currency)
	if err != nil {
		return Expense{}, err
	}
	out := Expense{ID: e.ID, Title: e.Title, Amount: amt, Currency: e.Currency, Date: e.Date,
		Recurring: e.Recurring, CreatedAt: rfc3339(e.CreatedAt), Deleted: e.DeletedAt != nil, Splits: []Split{}}
	if out.PaidBy, err = d.name(ctx, e.PaidBy); err != nil {
		return Expense{}, err
	}
	if out.CreatedBy, err = d.userName(ctx, e.CreatedBy); err != nil {
		return Expense{}, err
	}
	if e.GroupID != nil {
		g, err := d.groupRef(ctx, *e.GroupID)
		if err != nil {
			return Expense{}, err
		}
		out.Group = &g
	}
	for _, sh := range e.Shares {
		n, err := d.name(ctx, sh.PersonID)
		if err != nil {
			return Expense{}, err
		}
		a, err := amountString(sh.AmountMinor, e.Currency)
		if err != nil {
			return Expense{}, err
		}
		out.Splits = append(out.Splits, Split{Name: n, Amount: a})
	}
	if e.DeletedAt != nil {
		out.DeletedAt = rfc3339(*e.DeletedAt)
		if e.DeletedBy != nil {
			if out.DeletedBy, err = d.userName(ctx, *e.DeletedBy); err != nil {
				return Expense{}, err
			}
		}
	}
	return out, nil
}

// ListExpensesInput is the parameters of list_expenses.
type ListExpensesInput struct {
	Limit     int    `json:"limit,omitempty"`
	Cursor    string `json:"cursor,omitempty"`
	Group     string `json:"group,omitempty"`
	Recurring *bool  `json:"recurring,omitempty"`
}

// ExpensePage is a page of expenses; NextCursor is "" after the last page.
type ExpensePage struct {
	Expenses   []Expense `json:"expenses" jsonschema:"The expenses on this page, newest first."`
	NextCursor string    `json:"nextCursor,omitempty" jsonschema:"Pass as cursor for the next page; absent on the last page."`
}

func checkLimit(limit int) (int, error) {
	if limit < 0 {
		return 0, invalid("limit must be between 1 and %d (default %d)", store.MaxLimit, store.DefaultLimit)
	}
	if limit == 0 {
		return store.DefaultLimit, nil
	}
	return min(limit, store.MaxLimit), nil
}

// ListExpenses is list_expenses: the expenses the caller may see that are not deleted,
// newest first. A limit above 100 is cut to 100.
func (s *Service) ListExpenses(ctx context.Context, c Caller, in ListExpensesInput) (ExpensePage, error) {
	if err := checkInput(in); err != nil {
		return ExpensePage{}, err
	}
	limit, err := checkLimit(in.Limit)
	if err != nil {
		return ExpensePage{}, err
	}
	f := store.ExpenseFilter{Recurring: in.Recurring}
	if strings.TrimSpace(in.Group) != "" {
		g, err := s.group(ctx, c, in.Group)
		if err != nil {
			return ExpensePage{}, toolError(err)
		}
		f.GroupID = &g.ID
	}
	es, next, err := s.store.ListExpenses(ctx, c.UserID, f, limit, in.Cursor)
	if err != nil {
		return ExpensePage{}, toolError(err)
	}
	d := s.directory(c)
	out := ExpensePage{Expenses: []Expense{}, NextCursor: next}
	for _, e := range es {
		o, err := s.expenseOut(ctx, d, e)
		if err != nil {
			return ExpensePage{}, toolError(err)
		}
		out.Expenses = append(out.Expenses, o)
	}
	return out, nil
}

// IDInput is the parameters of get_expense, delete_expense and restore_expense.
type IDInput struct {
	ID string `json:"id"`
}

// expense returns an expense the caller is part of; see the package comment.
func (s *Service) expense(ctx context.Context, c Caller, id string) (store.Expense, error) {
	id = strings.TrimSpace(id)
	if id == "" {
		return store.Expense{}, invalid("id is required: the id of an expense (see list_expenses)")
	}
	e, err := s.store.ExpenseForUser(ctx, c.UserID, id)
	if errors.Is(err, store.ErrNotFound) {
		if _, err2 := s.store.ExpenseByID(ctx, id); err2 == nil {
			return store.Expense{}, errorf(CodeForbidden, "expense %s is not shared with you", id)
		} else if !errors.Is(err2, store.ErrNotFound) {
			return store.Expense{}, err2
		}
		return store.Expense{}, errorf(CodeNotFound, "no expense %s; list_expenses shows your expenses", id)
	}
	return e, err
}

// GetExpense is get_expense: one expense, deleted or not.
func (s *Service) GetExpense(ctx context.Context, c Caller, in IDInput) (Expense, error) {
	if err := checkInput(in); err != nil {
		return Expense{}, err
	}
	e, err := s.expense(ctx, c, in.ID)
	if err != nil {
		return Expense{}, toolError(err)
	}
	out, err := s.expenseOut(ctx, s.directory(c), e)
	return out, toolError(err)
}

// DeleteExpense is delete_expense: a soft delete, undone by RestoreExpense.
func (s *Service) DeleteExpense(ctx context.Context, c Caller, in IDInput) (Expense, error) {
	if err := s.allowWrite(c); err != nil {
		return Expense{}, err
	}
	if err := checkInput(in); err != nil {
		return Expense{}, err
	}
	e, err := s.expense(ctx, c, in.ID)
	if err != nil {
		return Expense{}, toolError(err)
	}
	if e.DeletedAt != nil {
		return Expense{}, invalid("expense %s is already deleted; restore_expense brings it back", e.ID)
	}
	if err := s.store.SoftDelete(ctx, e.ID, c.UserID, s.now()); err != nil {
		return Expense{}, toolError(err)
	}
	return s.GetExpense(ctx, c, in)
}

// RestoreExpense is restore_expense: it undoes DeleteExpense.
func (s *Service) RestoreExpense(ctx context.Context, c Caller, in IDInput) (Expense, error) {
	if err := s.allowWrite(c); err != nil {
		return Expense{}, err
	}
	if err := checkInput(in); err != nil {
		return Expense{}, err
	}
	e, err := s.expense(ctx, c, in.ID)
	if err != nil {
		return Expense{}, toolError(err)
	}
	if e.DeletedAt == nil {
		return Expense{}, invalid("expense %s is not deleted", e.ID)
	}
	if err := s.store.Restore(ctx, e.ID); err != nil {
		return Expense{}, toolError(err)
	}
	return s.GetExpense(ctx, c, in)
}

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
	if code == "" {
		return Expense{}, invalid("currency is required: an ISO 4217 code such as EUR")
	}
	cur, err := money.ParseCurrency(code)
	if err != nil {
		return Expense{}, invalid("currency %q is not an ISO 4217 code such as EUR, USD, JPY", code)
	}
	amount, err := parseAmount("amount", in.Amount, cur)
	if err != nil {
		return Expense{}, err
	}
	if err := amount.CheckPositive(); err != nil {
		return Expense{}, invalid("amount must be greater than zero")
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
