package store

import (
	"context"
	"database/sql"
	"time"
)

// Payment is money one person gave another to settle up, in minor units of Currency.
type Payment struct {
	ID          string // made by AddPayment when empty
	GroupID     *string
	From, To    string // person ids
	Currency    string
	AmountMinor int64
	Date        string // YYYY-MM-DD
	Description string
	CreatedBy   string    // user id
	CreatedAt   time.Time // set by AddPayment when zero
}

// AddPayment stores a payment and returns it with its id and creation time. Unknown people,
// groups or users give ErrNotFound.
func (s *Store) AddPayment(ctx context.Context, p Payment) (Payment, error) {
	if p.ID == "" {
		p.ID = newID()
	}
	if p.CreatedAt.IsZero() {
		p.CreatedAt = now()
	}
	p.CreatedAt = p.CreatedAt.UTC().Truncate(time.Millisecond)
	err := s.write(ctx, func(t tx) error {
		_, err := t.exec(ctx, `INSERT INTO payments (id, group_id, from_person, to_person, currency, amount_minor,
			date, description, created_by, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
			p.ID, p.GroupID, p.From, p.To, p.Currency, p.AmountMinor, p.Date, p.Description, p.CreatedBy,
			millis(p.CreatedAt))
		return err
	})
	if err != nil {
		return Payment{}, wrap(err, "add payment")
	}
	return p, nil
}

// Ledger is everything that moves money to or from one person: the input of package ledger's
// balances.
type Ledger struct {
	PersonID string
	Expenses []Expense // not deleted, with shares; by date, creation time, id
	Payments []Payment // by date, creation time, id
}

// LedgerFor returns, read in one snapshot, every expense that is not deleted in which the
// user's person paid or has a share, outside a group or in a group of which they are a member
// (an expense of a group they never joined binds them to nothing), and every payment from or
// to them.
func (s *Store) LedgerFor(ctx context.Context, userID string) (Ledger, error) {
	var l Ledger
	err := s.read(ctx, func(t tx) error {
		if err := t.queryRow(ctx, `SELECT id FROM people WHERE user_id = ?`, userID).Scan(&l.PersonID); err != nil {
			return err
		}
		rows, err := t.query(ctx, `SELECT `+expenseColumns+` FROM expenses e WHERE e.deleted_at IS NULL
			AND (e.paid_by = ?1 OR EXISTS (SELECT 1 FROM expense_shares s WHERE s.expense_id = e.id AND s.person_id = ?1))
			AND (e.group_id IS NULL
			     OR EXISTS (SELECT 1 FROM group_members m WHERE m.group_id = e.group_id AND m.person_id = ?1))
			ORDER BY e.date, e.created_at, e.id`, l.PersonID)
		if err != nil {
			return err
		}
		for rows.Next() {
			e, err := scanExpense(rows)
			if err != nil {
				rows.Close()
				return err
			}
			l.Expenses = append(l.Expenses, e)
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return err
		}
		// Shares in chunks, to stay under the engines' parameter limits.
		for i := 0; i < len(l.Expenses); i += 500 {
			if err := loadShares(ctx, t, l.Expenses[i:min(i+500, len(l.Expenses))]); err != nil {
				return err
			}
		}
		l.Payments, err = scanPayments(t.query(ctx, `SELECT id, group_id, from_person, to_person, currency, amount_minor,
			date, description, created_by, created_at FROM payments WHERE from_person = ?1 OR to_person = ?1
			ORDER BY date, created_at, id`, l.PersonID))
		return err
	})
	if err != nil {
		return Ledger{}, wrap(err, "ledger of user %s", userID)
	}
	return l, nil
}

func scanPayments(rows *sql.Rows, err error) ([]Payment, error) {
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var ps []Payment
	for rows.Next() {
		var (
			p     Payment
			group sql.NullString
			ms    int64
		)
		if err := rows.Scan(&p.ID, &group, &p.From, &p.To, &p.Currency, &p.AmountMinor, &p.Date, &p.Description,
			&p.CreatedBy, &ms); err != nil {
			return nil, err
		}
		p.GroupID, p.CreatedAt = nullString(group), fromMillis(ms)
		ps = append(ps, p)
	}
	return ps, rows.Err()
}
