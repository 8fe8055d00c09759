package store

import (
	"context"
	"database/sql"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pressly/goose/v3"

	"github.com/bananaqr/bananaqr/internal/must"
)

// TestMigrateInvitations: migration 3 turns the memberships an older version let a creator
// make of users who were not their friends into invitations, and keeps the others. It runs
// the migrations up to 2 by hand, writes such a group, and opens the store.
func TestMigrateInvitations(t *testing.T) {
	dsns := map[string]string{"sqlite": filepath.Join(t.TempDir(), "old.db")}
	if base := os.Getenv("BANANAQR_TEST_POSTGRES_URL"); base != "" {
		dsns["postgres"] = postgresSchema(t, base)
	}
	for engine, dsn := range dsns {
		t.Run(engine, func(t *testing.T) {
			ctx := context.Background()
			s := openAt(t, dsn, 2)
			alice := must.Get(s.CreateUser(ctx, "alice"))(t)
			bob := must.Get(s.CreateUser(ctx, "bob"))(t)
			dave := must.Get(s.CreateUser(ctx, "dave"))(t)
			if err := s.Befriend(ctx, dave, alice); err != nil {
				t.Fatal(err)
			}
			trip := must.Get(s.CreateGroup(ctx, dave.ID, "Trip", "EUR", "", []string{alice.PersonID, bob.PersonID}))(t)
			scam := must.Get(s.CreateGroup(ctx, alice.ID, "Scam", "EUR", "", []string{bob.PersonID}))(t)
			s.Close()

			s, err := Open(ctx, dsn)
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			for _, c := range []struct {
				user, group string
				member      bool
			}{{alice.ID, trip.ID, true}, {bob.ID, trip.ID, false}, {bob.ID, scam.ID, false}, {alice.ID, scam.ID, true}} {
				member := must.Get(s.IsMember(ctx, c.user, c.group))(t)
				invited := must.Get(s.IsInvited(ctx, c.user, c.group))(t)
				if member != c.member || invited == c.member {
					t.Errorf("user %s in group %s: member %v, invited %v; want member %v", c.user, c.group, member, invited, c.member)
				}
			}
		})
	}
}

// openAt opens the store at dsn with its schema at version (and not beyond).
func openAt(t *testing.T, dsn string, version int64) *Store {
	t.Helper()
	var (
		s   *Store
		err error
		d   = goose.DialectSQLite3
	)
	if strings.HasPrefix(dsn, "postgres://") {
		s, err = openPostgres(dsn)
		d = goose.DialectPostgres
	} else {
		s, err = openSQLite(dsn)
	}
	if err != nil {
		t.Fatal(err)
	}
	dir, _ := fs.Sub(migrations, "migrations")
	p, err := goose.NewProvider(d, s.w, dir)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.UpTo(context.Background(), version); err != nil {
		t.Fatal(err)
	}
	return s
}

// postgresSchema makes a schema of the test's own on base and returns base with its
// search_path; the schema goes when the test ends. (storetest.PostgresURL, which imports this
// package.)
func postgresSchema(t *testing.T, base string) string {
	admin, err := sql.Open("pgx", base)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { admin.Close() })
	schema := "t_migrate_" + newID()
	if _, err := admin.Exec("CREATE SCHEMA " + schema); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { admin.Exec("DROP SCHEMA " + schema + " CASCADE") })
	sep := "?"
	if strings.Contains(base, "?") {
		sep = "&"
	}
	return base + sep + "search_path=" + schema
}
