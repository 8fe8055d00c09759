package service

import (
	"context"
	"errors"
	"strings"
	"time"

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
		g, err := s.group(ctx, c, in.Group, false)
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
			return store.Expense{}, errorf(ReasonForbidden, "expense %s is not shared with you", id)
		} else if !errors.Is(err2, store.ErrNotFound) {
			return store.Expense{}, err2
		}
		return store.Expense{}, errorf(ReasonNotFound, "no expense %s; list_expenses shows your expenses", id)
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
	if err := s.checkRestore(ctx, e); err != nil {
		return Expense{}, toolError(err)
	}
	if err := s.store.Restore(ctx, e.ID); err != nil {
		return Expense{}, toolError(err)
	}
	return s.GetExpense(ctx, c, in)
}
