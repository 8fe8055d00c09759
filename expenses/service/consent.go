package service

// This file holds the trust model's rule on debts: nobody is put in a debt they did not
// accept. A registered user accepts debts with their friends (add_friend, asked by both) and,
// by joining a group (join_group), with its members; a person without an account has no say
// and is named only by people who know them.

import (
	"context"
	"errors"

	"github.com/bananaqr/bananaqr/expenses/ledger"
	"github.com/bananaqr/bananaqr/expenses/money"
	"github.com/bananaqr/bananaqr/expenses/store"
)

// errNotAgreed is the reason checkConsent refuses an expense whose people never agreed to
// its debts.
var errNotAgreed = errors.New("not agreed")

// checkConsent checks the debts an expense makes when recorder records it: in a group, the
// recorder, the payer and everyone with a share are members (each joined by consent, or made
// it, or has no account); outside a group, every debt is between the recorder and one other
// person (checkOwnDebts), and every registered person in it is the recorder's friend or a
// member of one of the recorder's groups. The names the caller gave were resolved among
// exactly those people, so for add_expense this holds already; restore_expense checks a stored
// expense with it again, since it may predate the rule.
func (s *Service) checkConsent(ctx context.Context, recorder Caller, groupID *string, payer string,
	shares map[ledger.PersonID]money.Amount) error {
	parties := []string{payer}
	for p := range shares {
		parties = append(parties, string(p))
	}
	if groupID != nil {
		members, err := s.store.Members(ctx, *groupID)
		if err != nil {
			return err
		}
		in := map[string]bool{}
		for _, m := range members {
			in[m.ID] = true
		}
		for _, p := range append(parties, recorder.PersonID) {
			if !in[p] {
				return errNotAgreed
			}
		}
		return nil
	}
	if err := checkOwnDebts(recorder, payer, shares); err != nil {
		return err
	}
	for _, p := range parties {
		if p == recorder.PersonID {
			continue
		}
		person, err := s.store.PersonByID(ctx, p)
		if err != nil {
			return err
		}
		if person.UserID == nil {
			continue
		}
		ok, err := s.store.Knows(ctx, recorder.UserID, p)
		if err != nil {
			return err
		}
		if !ok {
			return errNotAgreed
		}
	}
	return nil
}

// checkRestore checks that a deleted expense may count again: its debts satisfy checkConsent
// as recorded by its creator today.
func (s *Service) checkRestore(ctx context.Context, e store.Expense) error {
	creator, err := s.store.UserByID(ctx, e.CreatedBy)
	if err != nil {
		return err
	}
	le, err := ledgerExpense(e)
	if err != nil {
		return err
	}
	err = s.checkConsent(ctx, Caller{UserID: creator.ID, Name: creator.Name, PersonID: creator.PersonID}, e.GroupID,
		string(le.PaidBy), le.Shares)
	var te *Error
	if errors.Is(err, errNotAgreed) || errors.As(err, &te) {
		return errorf(ReasonForbidden, "expense %s cannot be restored: it makes debts between people who did not all agree "+
			"to them (a member who never joined its group, or people who are not friends); it stays deleted", e.ID)
	}
	return err
}
