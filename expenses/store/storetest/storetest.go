// Package storetest opens expense stores for tests: a SQLite file in the test's
// temporary directory, and a PostgreSQL schema of the test's own when
// BANANAQR_TEST_POSTGRES_URL is set. Under CI (CI set) that variable is required,
// so a PostgreSQL run cannot be skipped silently.
package storetest

import (
	"context"
	"crypto/rand"
	"database/sql"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bananaqr/bananaqr/expenses/store"
	"github.com/bananaqr/bananaqr/internal/testenv"
)

// Engines runs f in parallel subtests "sqlite" and "postgres", each on a fresh store.
func Engines(t *testing.T, f func(t *testing.T, st *store.Store)) {
	t.Helper()
	t.Run("sqlite", func(t *testing.T) {
		t.Parallel()
		f(t, Open(t, SQLitePath(t)))
	})
	t.Run("postgres", func(t *testing.T) {
		t.Parallel()
		f(t, Open(t, PostgresURL(t)))
	})
}

// Open opens the store at dsn and closes it when the test ends (before a schema
// made by PostgresURL is dropped, since cleanups run last-in first-out).
func Open(t *testing.T, dsn string) *store.Store {
	t.Helper()
	st, err := store.Open(context.Background(), dsn)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}

// SQLitePath returns a SQLite file path in the test's temporary directory.
func SQLitePath(t *testing.T) string {
	return filepath.Join(t.TempDir(), "expenses.db")
}

// PostgresURL creates a schema for this test and returns BANANAQR_TEST_POSTGRES_URL
// with search_path set to it; the schema is dropped when the test ends. Without the
// variable the test is skipped, or fails under CI.
func PostgresURL(t *testing.T) string {
	t.Helper()
	base := testenv.PostgresURL(t)
	admin, err := sql.Open("pgx", base)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { admin.Close() })
	schema := "t_" + strings.ToLower(rand.Text())
	if _, err := admin.ExecContext(context.Background(), "CREATE SCHEMA "+schema); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if _, err := admin.ExecContext(context.Background(), "DROP SCHEMA "+schema+" CASCADE"); err != nil {
			t.Error(err)
		}
	})
	sep := "?"
	if strings.Contains(base, "?") {
		sep = "&"
	}
	return base + sep + "search_path=" + schema
}
