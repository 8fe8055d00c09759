package mcpserver

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/bananaqr/bananaqr/expenses/service"
	"github.com/bananaqr/bananaqr/expenses/store/storetest"
)

// TestAmountsNotRounded sends amounts whose digits a float64 cannot hold: they are refused
// with the digits as sent, never rounded to the currency.
func TestAmountsNotRounded(t *testing.T) {
	f := newFixture(t, storetest.Open(t, storetest.SQLitePath(t)))
	anna := f.session(t, "Anna")
	for _, n := range []string{"12.3400000000000001", "1.0000000000000001"} {
		msg := wantError(t, anna, "add_expense", map[string]any{"title": "Tea", "amount": json.Number(n),
			"currency": "EUR", "splits": map[string]any{"me": json.Number(n)}}, service.ReasonInvalidInput)
		if !strings.Contains(msg, n) || !strings.Contains(msg, "at most 2 decimals") {
			t.Errorf("add_expense %s: %s", n, msg)
		}
		msg = wantError(t, anna, "add_payment", map[string]any{"amount": json.Number(n), "currency": "EUR",
			"to": "Ben"}, service.ReasonInvalidInput)
		if !strings.Contains(msg, n) {
			t.Errorf("add_payment %s: %s", n, msg)
		}
	}
	big := "123456789012345678901234567890"
	msg := wantError(t, anna, "add_expense", map[string]any{"title": "Tea", "amount": json.Number(big),
		"currency": "EUR", "splits": map[string]any{"me": json.Number(big)}}, service.ReasonInvalidInput)
	if !strings.Contains(msg, big) || strings.Contains(msg, "e+") {
		t.Errorf("add_expense %s: %s", big, msg)
	}
	// Digits a float64 keeps exactly still work, and trailing zeros are not extra precision.
	e := call[service.Expense](t, anna, "add_expense", map[string]any{"title": "Tea", "amount": json.Number("12.3400"),
		"currency": "EUR", "splits": map[string]any{"me": json.Number("12.34")}})
	if e.Amount != "12.34" {
		t.Fatalf("amount %s", e.Amount)
	}
}
