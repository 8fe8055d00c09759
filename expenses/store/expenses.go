package store

import (
	"context"
	"database/sql"
	"time"
)

// Expense is money one person paid that several people share. Amounts are minor units of
// Currency (an ISO 4217 code); Date is "YYYY-MM-DD". DeletedAt is set while the expense is
// soft-deleted.
type Expense struct {
	ID          string // made by AddExpense when empty
	GroupID     *string
	Title       string
	Currency    string
	AmountMinor int64
	PaidBy      string // person id
	Date        string
	Recurring   bool
	CreatedBy   string    // user id
	CreatedAt   time.Time // set by AddExpense when zero
	DeletedAt   *time.Time
	DeletedBy   *string // user id
	Shares      []Share
}

// Share is what one person owes of an expense.
type Share struct {
	PersonID    string
	AmountMinor int64
}

// ExpenseFilter narrows ListExpenses; nil fields do not filter.
type ExpenseFilter struct {
	GroupID   *string
	Recurring *bool
}

const expenseColumns = `e.id, e.group_id, e.title, e.currency, e.amount_minor, e.paid_by, e.date, e.recurring,
	e.created_by, e.created_at, e.deleted_at, e.deleted_by`

func scanExpense(row interface{ Scan(...any) error }) (Expense, error) {
	var (
		e                Expense
		group, deletedBy sql.NullString
		created          int64
		deleted          sql.NullInt64
	)
	err := row.Scan(&e.ID, &group, &e.Title, &e.Currency, &e.AmountMinor, &e.PaidBy, &e.Date, &e.Recurring,
		&e.CreatedBy, &created, &deleted, &deletedBy)
	if err != nil {
		return Expense{}, err
	}
	e.GroupID, e.DeletedBy = nullString(group), nullString(deletedBy)
	e.CreatedAt, e.DeletedAt = fromMillis(created), nullMillis(deleted)
	return e, nil
}

// visibleTo is the condition "the user may see expense e": the user's person paid or has a
// share, the user is a member of its group, or the user recorded it. Its two arguments are
// the user's person id and the user id.
const visibleTo = `(e.paid_by = ?1
	OR EXISTS (SELECT 1 FROM expense_shares s WHERE s.expense_id = e.id AND s.person_id = ?1)
	OR EXISTS (SELECT 1 FROM group_members m WHERE m.group_id = e.group_id AND m.person_id = ?1)
	OR e.created_by = ?2)`

// AddExpense stores an expense and its shares in one transaction and returns it with its id
// and creation time. It does not check that the shares add up: package ledger does. Unknown
// people, groups or users give ErrNotFound; a taken id ErrConflict.
func (s *Store) AddExpense(ctx context.Context, e Expense) (Expense, error) {
	if e.ID == "" {
		e.ID = newID()
	}
	if e.CreatedAt.IsZero() {
		e.CreatedAt = now()
	}
	e.CreatedAt = e.CreatedAt.UTC().Truncate(time.Millisecond)
	e.DeletedAt, e.DeletedBy = nil, nil
	err := s.write(ctx, func(t tx) error {
		if _, err := t.exec(ctx, `INSERT INTO expenses (id, group_id, title, currency, amount_minor, paid_by, date,
			recurring, created_by, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
			e.ID, e.GroupID, e.Title, e.Currency, e.AmountMinor, e.PaidBy, e.Date, e.Recurring,
			e.CreatedBy, millis(e.CreatedAt)); err != nil {
			return err
		}
		for _, sh := range e.Shares {
			if _, err := t.exec(ctx, `INSERT INTO expense_shares (expense_id, person_id, amount_minor) VALUES (?, ?, ?)`,
				e.ID, sh.PersonID, sh.AmountMinor); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return Expense{}, wrap(err, "add expense %q", e.Title)
	}
	return e, nil
}

// ExpenseByID returns an expense with its shares, deleted or not.
func (s *Store) ExpenseByID(ctx context.Context, id string) (Expense, error) {
	var e Expense
	err := s.read(ctx, func(t tx) error {
		var err error
		if e, err = scanExpense(t.queryRow(ctx, `SELECT `+expenseColumns+` FROM expenses e WHERE e.id = ?`, id)); err != nil {
			return err
		}
		es := []Expense{e}
		err = loadShares(ctx, t, es)
		e = es[0]
		return err
	})
	return e, wrap(err, "expense %s", id)
}

// ExpenseForUser returns an expense (deleted or not) if the user may see it, and ErrNotFound
// both when it does not exist and when it is hidden from the user (the service tells the two
// apart with ExpenseByID, to answer FORBIDDEN).
func (s *Store) ExpenseForUser(ctx context.Context, userID, id string) (Expense, error) {
	var e Expense
	err := s.read(ctx, func(t tx) error {
		var me string
		if err := t.queryRow(ctx, `SELECT id FROM people WHERE user_id = ?`, userID).Scan(&me); err != nil {
			return err
		}
		var err error
		if e, err = scanExpense(t.queryRow(ctx, `SELECT `+expenseColumns+` FROM expenses e WHERE e.id = ?3 AND `+visibleTo,
			me, userID, id)); err != nil {
			return err
		}
		es := []Expense{e}
		err = loadShares(ctx, t, es)
		e = es[0]
		return err
	})
	return e, wrap(err, "expense %s", id)
}

// ListExpenses returns a page of the expenses the user may see that are not deleted, newest
// first by (date, creation time, id), and the cursor of the next page ("" after the last).
func (s *Store) ListExpenses(ctx context.Context, userID string, f ExpenseFilter, limit int, cursor string) ([]Expense, string, error) {
	limit = clampLimit(limit)
	var (
		es   []Expense
		next string // the cursor of the next page; "" after the last
	)
	err := s.read(ctx, func(t tx) error {
		var me string
		if err := t.queryRow(ctx, `SELECT id FROM people WHERE user_id = ?`, userID).Scan(&me); err != nil {
			return err
		}
		q, args, err := listExpensesQuery(me, userID, f, limit, cursor)
		if err != nil {
			return err
		}
		if es, err = queryExpenses(ctx, t, q, args); err != nil {
			return err
		}
		if len(es) > limit { // the row after the page only tells that there is a next page
			es = es[:limit]
			last := es[limit-1]
			next = encodeCursor(last.Date, millis(last.CreatedAt), last.ID)
		}
		return loadShares(ctx, t, es)
	})
	if err != nil {
		return nil, "", wrap(err, "list expenses of user %s", userID)
	}
	return es, next, nil
}

// listExpensesQuery returns the query of ListExpenses and its arguments: the expenses visible
// to person me (of user userID) that are not deleted, narrowed by f, after the cursor's
// expense when there is one, newest first, limit+1 rows so that a next page shows.
func listExpensesQuery(me, userID string, f ExpenseFilter, limit int, cursor string) (string, []any, error) {
	q := `SELECT ` + expenseColumns + ` FROM expenses e WHERE e.deleted_at IS NULL AND ` + visibleTo
	args := []any{me, userID}
	if f.GroupID != nil {
		q += ` AND e.group_id = ?` + itoa(len(args)+1)
		args = append(args, *f.GroupID)
	}
	if f.Recurring != nil {
		q += ` AND e.recurring = ?` + itoa(len(args)+1)
		args = append(args, *f.Recurring)
	}
	if cursor != "" {
		var (
			date    string
			created int64
			id      string
		)
		if err := decodeCursor(cursor, &date, &created, &id); err != nil {
			return "", nil, err
		}
		n := len(args)
		q += ` AND (e.date < ?` + itoa(n+1) + ` OR (e.date = ?` + itoa(n+1) + ` AND (e.created_at < ?` + itoa(n+2) +
			` OR (e.created_at = ?` + itoa(n+2) + ` AND e.id < ?` + itoa(n+3) + `))))`
		args = append(args, date, created, id)
	}
	q += ` ORDER BY e.date DESC, e.created_at DESC, e.id DESC LIMIT ?` + itoa(len(args)+1)
	args = append(args, limit+1)
	return q, args, nil
}

// queryExpenses runs q, a query of expenseColumns, and returns the expenses it reads, without
// their shares.
func queryExpenses(ctx context.Context, t tx, q string, args []any) ([]Expense, error) {
	rows, err := t.query(ctx, q, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var es []Expense
	for rows.Next() {
		e, err := scanExpense(rows)
		if err != nil {
			return nil, err
		}
		es = append(es, e)
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	return es, nil
}

// loadShares fills in the shares of es, by person id, with one query.
func loadShares(ctx context.Context, t tx, es []Expense) error {
	if len(es) == 0 {
		return nil
	}
	index := make(map[string]int, len(es))
	args := make([]any, len(es))
	for i, e := range es {
		index[e.ID] = i
		args[i] = e.ID
		es[i].Shares = nil
	}
	rows, err := t.query(ctx, `SELECT expense_id, person_id, amount_minor FROM expense_shares
		WHERE expense_id IN (`+placeholders(len(es))+`) ORDER BY expense_id, person_id`, args...)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var (
			id string
			sh Share
		)
		if err := rows.Scan(&id, &sh.PersonID, &sh.AmountMinor); err != nil {
			return err
		}
		i := index[id]
		es[i].Shares = append(es[i].Shares, sh)
	}
	return rows.Err()
}

// SoftDelete marks an expense deleted by the user at the given time; Restore undoes it.
// Deleting a deleted expense gives ErrConflict, an unknown one ErrNotFound.
func (s *Store) SoftDelete(ctx context.Context, expenseID, byUserID string, at time.Time) error {
	err := s.write(ctx, func(t tx) error {
		res, err := t.exec(ctx, `UPDATE expenses SET deleted_at = ?, deleted_by = ? WHERE id = ? AND deleted_at IS NULL`,
			millis(at), byUserID, expenseID)
		return changedOne(ctx, t, res, err, expenseID)
	})
	return wrap(err, "delete expense %s", expenseID)
}

// Restore brings back a soft-deleted expense. Restoring one that is not deleted gives
// ErrConflict, an unknown one ErrNotFound.
func (s *Store) Restore(ctx context.Context, expenseID string) error {
	err := s.write(ctx, func(t tx) error {
		res, err := t.exec(ctx, `UPDATE expenses SET deleted_at = NULL, deleted_by = NULL WHERE id = ? AND deleted_at IS NOT NULL`,
			expenseID)
		return changedOne(ctx, t, res, err, expenseID)
	})
	return wrap(err, "restore expense %s", expenseID)
}

// changedOne tells, after an update of expense id guarded by its state, whether it changed a
// row, and if not whether the expense is missing (ErrNotFound) or in the wrong state
// (ErrConflict).
func changedOne(ctx context.Context, t tx, res sql.Result, err error, id string) error {
	if err != nil {
		return err
	}
	n, err := res.RowsAffected()
	if err != nil || n == 1 {
		return err
	}
	var one int
	if err := t.queryRow(ctx, `SELECT 1 FROM expenses WHERE id = ?`, id).Scan(&one); err != nil {
		return err
	}
	return ErrConflict
}
