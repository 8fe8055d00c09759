// Package store keeps the shared-expenses application's data: users and their bearer-token
// hashes, people (registered users and named placeholders), friends, groups, expenses with their
// shares, and payments. It is the persistence layer only: it checks no sums (package ledger
// does) and formats no money (amounts are int64 minor units beside an ISO 4217 code string).
//
// Two engines run the same schema: SQLite, embedded (modernc.org/sqlite, no cgo) in WAL mode, and
// PostgreSQL through pgx for deployments that outgrow one machine. The schema lives in versioned
// migrations (migrations/*.sql, embedded in the binary) that Open applies with goose.
//
// Crash safety: every write is exactly one transaction. An expense and its shares, a user and
// its person, a group and its members are committed together or not at all, so a crash or a
// failed statement never leaves half a record behind.
//
// Names (of users, friends, people and groups) are compared case-insensitively: each table keeps
// a name_key, the name lowered with strings.ToLower, beside the name as written. User names are
// unique, a user's friends' names are unique for that user, and a group's name is unique among
// the groups made by the same creator.
package store

import (
	"context"
	"crypto/rand"
	"database/sql"
	"embed"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5/pgconn"
	_ "github.com/jackc/pgx/v5/stdlib" // registers the "pgx" database/sql driver
	"github.com/pressly/goose/v3"
	"github.com/pressly/goose/v3/lock"
	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"
)

// Errors a caller branches on; the store wraps them with context.
var (
	// ErrNotFound: the record does not exist (or a record it refers to does not).
	ErrNotFound = errors.New("store: not found")
	// ErrConflict: the write breaks a uniqueness rule (a taken name, a duplicate id), or the
	// record is not in the state the operation needs (deleting a deleted expense).
	ErrConflict = errors.New("store: conflict")
	// ErrBadCursor: a pagination cursor that no list method of this store made.
	ErrBadCursor = errors.New("store: invalid cursor")
)

// Page sizes of the list methods: a limit of 0 or less means DefaultLimit, and limits above
// MaxLimit are cut to MaxLimit.
const (
	DefaultLimit = 20
	MaxLimit     = 100
)

//go:embed migrations/*.sql
var migrations embed.FS

// dialect is the SQL engine behind a Store.
type dialect int

const (
	sqliteDialect dialect = iota
	postgresDialect
)

// Store is the shared-expenses database. It is safe for concurrent use.
type Store struct {
	dialect dialect
	// w runs every write. For SQLite it holds a single connection whose transactions begin
	// IMMEDIATE, so writers queue in Go instead of failing with SQLITE_BUSY; r is a separate
	// pool of read-only connections that WAL lets run beside the writer. For PostgreSQL both
	// are the same pool.
	w, r *sql.DB
}

// Open connects to the database named by dsn and brings its schema up to date.
//
// dsn is "postgres://…" or "postgresql://…" for PostgreSQL (any pgx connection string; a
// search_path parameter selects the schema), or "sqlite:<path>" or a plain file path for
// SQLite. SQLite runs in WAL mode with foreign keys on and a 5 s busy timeout; it needs a file
// (":memory:" does not work, since readers and the writer use separate connections).
func Open(ctx context.Context, dsn string) (*Store, error) {
	var (
		s   *Store
		err error
	)
	if strings.HasPrefix(dsn, "postgres://") || strings.HasPrefix(dsn, "postgresql://") {
		s, err = openPostgres(dsn)
	} else {
		s, err = openSQLite(strings.TrimPrefix(dsn, "sqlite:"))
	}
	if err != nil {
		return nil, err
	}
	if err := s.migrate(ctx); err != nil {
		s.Close()
		return nil, err
	}
	return s, nil
}

func openPostgres(dsn string) (*Store, error) {
	db, err := sql.Open("pgx", dsn)
	if err != nil {
		return nil, fmt.Errorf("store: open postgres: %w", err)
	}
	db.SetMaxOpenConns(20)
	db.SetMaxIdleConns(5)
	db.SetConnMaxIdleTime(5 * time.Minute)
	return &Store{dialect: postgresDialect, w: db, r: db}, nil
}

func openSQLite(path string) (*Store, error) {
	if path == "" || strings.Contains(path, ":memory:") {
		return nil, fmt.Errorf("store: sqlite needs a file path, got %q", path)
	}
	params := url.Values{}
	params.Add("_pragma", "foreign_keys(1)")
	params.Add("_pragma", "busy_timeout(5000)")
	params.Add("_pragma", "journal_mode(WAL)")
	params.Add("_pragma", "synchronous(NORMAL)")
	wparams := url.Values{"_txlock": {"immediate"}}
	for k, v := range params {
		wparams[k] = v
	}
	w, err := sql.Open("sqlite", "file:"+path+"?"+wparams.Encode())
	if err != nil {
		return nil, fmt.Errorf("store: open sqlite: %w", err)
	}
	w.SetMaxOpenConns(1) // one writer: SQLite allows no more
	w.SetMaxIdleConns(1)
	w.SetConnMaxLifetime(0)
	// Create the file and switch it to WAL before readers open it read-only.
	if err := w.Ping(); err != nil {
		w.Close()
		return nil, fmt.Errorf("store: open sqlite %s: %w", path, err)
	}
	params.Add("_pragma", "query_only(1)")
	r, err := sql.Open("sqlite", "file:"+path+"?"+params.Encode())
	if err != nil {
		w.Close()
		return nil, fmt.Errorf("store: open sqlite: %w", err)
	}
	r.SetMaxOpenConns(8)
	r.SetMaxIdleConns(8)
	return &Store{dialect: sqliteDialect, w: w, r: r}, nil
}

// migrate applies the embedded migrations that the database has not seen yet. On PostgreSQL
// an advisory lock keeps replicas that start together from migrating at the same time.
func (s *Store) migrate(ctx context.Context) error {
	var (
		d    goose.Dialect
		opts []goose.ProviderOption
	)
	switch s.dialect {
	case postgresDialect:
		d = goose.DialectPostgres
		locker, err := lock.NewPostgresSessionLocker()
		if err != nil {
			return fmt.Errorf("store: migrate: %w", err)
		}
		opts = append(opts, goose.WithSessionLocker(locker))
	default:
		d = goose.DialectSQLite3
	}
	dir, err := fs.Sub(migrations, "migrations")
	if err != nil {
		return fmt.Errorf("store: migrate: %w", err)
	}
	p, err := goose.NewProvider(d, s.w, dir, opts...)
	if err != nil {
		return fmt.Errorf("store: migrate: %w", err)
	}
	if _, err := p.Up(ctx); err != nil {
		return fmt.Errorf("store: migrate: %w", err)
	}
	return nil
}

// Close closes the database.
func (s *Store) Close() error {
	err := s.w.Close()
	if s.r != s.w {
		err = errors.Join(err, s.r.Close())
	}
	return err
}

// tx is a transaction with the store's placeholder rewriting: queries are written with ?.
type tx struct {
	d  dialect
	tx *sql.Tx
}

func (t tx) exec(ctx context.Context, q string, args ...any) (sql.Result, error) {
	return t.tx.ExecContext(ctx, rebind(t.d, q), args...)
}

func (t tx) query(ctx context.Context, q string, args ...any) (*sql.Rows, error) {
	return t.tx.QueryContext(ctx, rebind(t.d, q), args...)
}

func (t tx) queryRow(ctx context.Context, q string, args ...any) *sql.Row {
	return t.tx.QueryRowContext(ctx, rebind(t.d, q), args...)
}

// write runs f in one write transaction and commits it if f succeeds.
func (s *Store) write(ctx context.Context, f func(tx) error) error {
	t, err := s.w.BeginTx(ctx, nil)
	if err != nil {
		return classify(err)
	}
	if err := f(tx{s.dialect, t}); err != nil {
		t.Rollback()
		return err
	}
	return classify(t.Commit())
}

// read runs f in one read-only transaction, so that the queries it makes see one snapshot.
func (s *Store) read(ctx context.Context, f func(tx) error) error {
	opts := &sql.TxOptions{ReadOnly: true}
	if s.dialect == postgresDialect {
		opts.Isolation = sql.LevelRepeatableRead
	}
	t, err := s.r.BeginTx(ctx, opts)
	if err != nil {
		return classify(err)
	}
	defer t.Rollback()
	return f(tx{s.dialect, t})
}

// rebind turns the placeholders of q into PostgreSQL's $1, $2, …: a plain ? takes the next
// number, and ?N (a numbered parameter, which SQLite understands as is) becomes $N. A query
// uses one style or the other, and the store's queries hold no ? inside string literals.
func rebind(d dialect, q string) string {
	if d != postgresDialect || !strings.Contains(q, "?") {
		return q
	}
	var b strings.Builder
	n := 0
	for i := 0; i < len(q); i++ {
		if q[i] != '?' {
			b.WriteByte(q[i])
			continue
		}
		b.WriteByte('$')
		if i+1 < len(q) && q[i+1] >= '0' && q[i+1] <= '9' {
			continue // ?N: keep the number
		}
		n++
		b.WriteString(strconv.Itoa(n))
	}
	return b.String()
}

// itoa formats a parameter number.
func itoa(n int) string { return strconv.Itoa(n) }

// placeholders returns "?, ?, …" with n marks.
func placeholders(n int) string {
	return strings.TrimSuffix(strings.Repeat("?, ", n), ", ")
}

// classify maps the engines' constraint errors onto ErrConflict (unique keys) and ErrNotFound
// (a foreign key that points nowhere), keeping the original error in the chain.
func classify(err error) error {
	if err == nil {
		return nil
	}
	if errors.Is(err, sql.ErrNoRows) {
		return fmt.Errorf("%w: %w", ErrNotFound, err)
	}
	var se *sqlite.Error
	if errors.As(err, &se) {
		switch se.Code() {
		case sqlite3.SQLITE_CONSTRAINT_UNIQUE, sqlite3.SQLITE_CONSTRAINT_PRIMARYKEY:
			return fmt.Errorf("%w: %w", ErrConflict, err)
		case sqlite3.SQLITE_CONSTRAINT_FOREIGNKEY:
			return fmt.Errorf("%w: %w", ErrNotFound, err)
		}
	}
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		switch pe.Code {
		case "23505":
			return fmt.Errorf("%w: %w", ErrConflict, err)
		case "23503":
			return fmt.Errorf("%w: %w", ErrNotFound, err)
		}
	}
	return err
}

// wrap classifies err and prefixes what the store was doing.
func wrap(err error, format string, args ...any) error {
	if err == nil {
		return nil
	}
	return fmt.Errorf("store: %s: %w", fmt.Sprintf(format, args...), classify(err))
}

// newID returns a random id: 16 bytes from crypto/rand in hex.
func newID() string {
	var b [16]byte
	rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// nameKey is the form in which names are compared: lowered, so Alice and alice are one name.
func nameKey(name string) string { return strings.ToLower(name) }

// millis stores t as Unix milliseconds.
func millis(t time.Time) int64 { return t.UnixMilli() }

// fromMillis reads Unix milliseconds back as a UTC time.
func fromMillis(ms int64) time.Time { return time.UnixMilli(ms).UTC() }

// now is the current time at the store's millisecond precision.
func now() time.Time { return time.Now().UTC().Truncate(time.Millisecond) }

// nullMillis turns a nullable column of Unix milliseconds into a *time.Time.
func nullMillis(v sql.NullInt64) *time.Time {
	if !v.Valid {
		return nil
	}
	t := fromMillis(v.Int64)
	return &t
}

// nullString turns a nullable text column into a *string.
func nullString(v sql.NullString) *string {
	if !v.Valid {
		return nil
	}
	return &v.String
}

// Ready checks that the database answers a query within ctx's deadline: the reading pool's, which
// for SQLite runs beside a long write (WAL) and for PostgreSQL is the one pool. A closed store or
// an unreachable server is an error.
func (s *Store) Ready(ctx context.Context) error {
	var one int
	if err := s.r.QueryRowContext(ctx, "SELECT 1").Scan(&one); err != nil {
		return fmt.Errorf("store: not ready: %w", err)
	}
	return nil
}
