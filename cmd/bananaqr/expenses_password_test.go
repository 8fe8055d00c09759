package main

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bananaqr/bananaqr/expenses/password"
	"github.com/bananaqr/bananaqr/expenses/store"
	"github.com/bananaqr/bananaqr/expenses/store/storetest"
)

// passwordCommand is expensesUserAdd or expensesUserPassword.
type passwordCommand func(args []string, getenv func(string) string, stdin io.Reader, stdout, stderr io.Writer) int

// fakeTerminal is a standard input that is a terminal, on which lines are typed unseen.
type fakeTerminal struct {
	io.Reader
	typed []string
	asked int
}

// typedOn is a terminal on which lines will be typed unseen; read as a file, it is empty.
func typedOn(lines ...string) *fakeTerminal {
	return &fakeTerminal{Reader: strings.NewReader(""), typed: lines}
}

func (f *fakeTerminal) readSecret() (string, error) {
	if f.asked == len(f.typed) {
		return "", io.EOF
	}
	f.asked++
	return f.typed[f.asked-1], nil
}

// passwordEnv runs the password commands on one database, given by --db or --database-url, and
// reads what they stored.
type passwordEnv struct {
	t    *testing.T
	flag []string // the storage flag and its value
	st   *store.Store
}

// run runs cmd with args and stdin; neither the password nor any hash may appear in what it
// writes.
func (e passwordEnv) run(cmd passwordCommand, stdin io.Reader, secret string, args ...string) (string, string, int) {
	e.t.Helper()
	var stdout, stderr bytes.Buffer
	code := cmd(append(args, e.flag...), func(string) string { return "" }, stdin, &stdout, &stderr)
	for _, out := range []string{stdout.String(), stderr.String()} {
		if secret != "" && strings.Contains(out, secret) || strings.Contains(out, "$argon2id") {
			e.t.Errorf("%q wrote the password or its hash: %q", args, out)
		}
	}
	return stdout.String(), stderr.String(), code
}

// hash is the stored password hash of the user name ("" for none).
func (e passwordEnv) hash(name string) string {
	e.t.Helper()
	si, err := e.st.SignInByName(context.Background(), name)
	if err != nil {
		e.t.Fatalf("SignInByName(%q): %v", name, err)
	}
	return si.Hash
}

// signsIn says whether pw verifies against the user's stored hash.
func (e passwordEnv) signsIn(name, pw string) bool {
	e.t.Helper()
	ok, err := password.Verify(e.hash(name), pw)
	if err != nil {
		e.t.Fatalf("the stored hash of %s: %v", name, err)
	}
	return ok
}

// TestExpensesUserPassword: user add --password-stdin and user password store a hash that
// verifies for the password given and no other, on SQLite and PostgreSQL; a password the
// policy refuses, an unknown user, or no way to read a password changes nothing.
func TestExpensesUserPassword(t *testing.T) {
	t.Run("sqlite", func(t *testing.T) {
		testUserPassword(t, []string{"--db", filepath.Join(t.TempDir(), "e.db")})
	})
	t.Run("postgres", func(t *testing.T) {
		testUserPassword(t, []string{"--database-url", storetest.PostgresURL(t)})
	})
}

func testUserPassword(t *testing.T, storage []string) {
	const first, second = "correct horse battery staple", "a new password, long enough"
	e := passwordEnv{t: t, flag: storage}
	out, errOut, code := e.run(expensesUserAdd, strings.NewReader(first+"\n"), first, "Anna", "--password-stdin")
	if code != 0 || !strings.Contains(out, "added user Anna") || !strings.Contains(out, "with a password") {
		t.Fatalf("user add --password-stdin: %d %q %q", code, out, errOut)
	}
	e.st = storetest.Open(t, storage[1])
	if !e.signsIn("Anna", first) || e.signsIn("Anna", "correct horse battery stapler") || e.signsIn("Anna", first+"\n") {
		t.Fatal("after user add, the stored hash does not verify the password and it alone")
	}

	// Replaced, from a line ending in CRLF; what follows the first line is not read.
	if out, errOut, code := e.run(expensesUserPassword, strings.NewReader(second+"\r\nsecond line\n"), second, "anna", "--password-stdin"); code != 0 || !strings.Contains(out, "Anna") {
		t.Fatalf("user password: %d %q %q", code, out, errOut)
	}
	if !e.signsIn("Anna", second) || e.signsIn("Anna", first) || e.signsIn("Anna", second+"\r") {
		t.Fatal("user password did not replace the password")
	}

	stored := e.hash("Anna")
	for _, c := range []struct {
		name  string
		cmd   passwordCommand
		stdin io.Reader
		args  []string
		code  int
		want  string // in stderr
	}{
		{"short", expensesUserPassword, strings.NewReader("too short\n"), []string{"Anna", "--password-stdin"}, 2, "has 9 characters; it needs at least 12"},
		{"white space", expensesUserPassword, strings.NewReader(strings.Repeat(" ", 20) + "\n"), []string{"Anna", "--password-stdin"}, 2, "white space"},
		{"long", expensesUserPassword, strings.NewReader(strings.Repeat("x", 2000)), []string{"Anna", "--password-stdin"}, 2, "at most 1024"},
		{"empty", expensesUserPassword, strings.NewReader(""), []string{"Anna", "--password-stdin"}, 2, "standard input is empty"},
		{"not a terminal", expensesUserPassword, strings.NewReader(first + "\n"), []string{"Anna"}, 2, "pass --password-stdin"},
		{"unknown user", expensesUserPassword, strings.NewReader(first + "\n"), []string{"Nobody", "--password-stdin"}, 1, `no user named "Nobody"`},
		{"no name", expensesUserPassword, strings.NewReader(first + "\n"), []string{"--password-stdin"}, 2, "want 1 argument"},
		{"terminal, differing", expensesUserPassword, typedOn(first, first+"!"), []string{"Anna"}, 2, "differ"},
		{"terminal, short", expensesUserPassword, typedOn("short", "short"), []string{"Anna"}, 2, "at least 12"},
		{"terminal, closed", expensesUserPassword, typedOn(), []string{"Anna"}, 2, "EOF"},
	} {
		_, errOut, code := e.run(c.cmd, c.stdin, first, c.args...)
		if code != c.code || !strings.Contains(errOut, c.want) {
			t.Errorf("%s: exit %d %q, want %d and %q", c.name, code, errOut, c.code, c.want)
		}
		if e.hash("Anna") != stored {
			t.Errorf("%s: the stored hash changed", c.name)
		}
		if tty, ok := c.stdin.(*fakeTerminal); ok && c.name == "terminal, short" && tty.asked != 1 {
			t.Errorf("%s: asked %d times; a refused password is not asked again", c.name, tty.asked)
		}
	}

	// Typed twice on a terminal, the prompts on stderr.
	tty := typedOn("typed on a terminal", "typed on a terminal")
	_, errOut, code = e.run(expensesUserPassword, tty, "typed on a terminal", "Anna")
	if code != 0 || tty.asked != 2 || !strings.Contains(errOut, "New password for Anna") {
		t.Fatalf("user password on a terminal: %d, asked %d times, %q", code, tty.asked, errOut)
	}
	if !e.signsIn("Anna", "typed on a terminal") || e.signsIn("Anna", second) {
		t.Fatal("the password typed on the terminal is not the one stored")
	}

	// user add refuses a bad password before adding anyone; without --password-stdin it adds a
	// user without a password, as before, whatever stdin is.
	if _, errOut, code := e.run(expensesUserAdd, strings.NewReader("too short\n"), "", "Ben", "--password-stdin"); code != 2 || !strings.Contains(errOut, "at least 12") {
		t.Errorf("user add with a short password: %d %q", code, errOut)
	}
	if _, err := e.st.UserByName(context.Background(), "Ben"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("user add with a short password added the user: %v", err)
	}
	for _, stdin := range []io.Reader{strings.NewReader(first + "\n"), typedOn(first, first)} {
		name := "Carl"
		if _, ok := stdin.(*fakeTerminal); ok {
			name = "Dora"
		}
		if _, errOut, code := e.run(expensesUserAdd, stdin, first, name); code != 0 {
			t.Fatalf("user add %s: %d %q", name, code, errOut)
		}
		if h := e.hash(name); h != "" {
			t.Errorf("user add %s without --password-stdin stored a password", name)
		}
	}
}

// TestExpensesPasswordBinary runs the built binary, whose standard input is a pipe: the
// commands read it with --password-stdin and refuse to go on without it.
func TestExpensesPasswordBinary(t *testing.T) {
	bin := buildBinary(t)
	db := filepath.Join(t.TempDir(), "e.db")
	const pw = "correct horse battery staple"
	command := func(stdin string, args ...string) (string, int) {
		cmd := exec.Command(bin, append([]string{"expenses", "user"}, append(args, "--db", db)...)...)
		cmd.Stdin = strings.NewReader(stdin)
		out, err := cmd.CombinedOutput()
		var exit *exec.ExitError
		if err != nil && !errors.As(err, &exit) {
			t.Fatal(err)
		}
		if strings.Contains(string(out), pw) || strings.Contains(string(out), "$argon2id") {
			t.Errorf("%q wrote the password or its hash: %s", args, out)
		}
		return string(out), cmd.ProcessState.ExitCode()
	}
	if out, code := command(pw+"\n", "add", "Anna", "--password-stdin"); code != 0 {
		t.Fatalf("user add: %d %s", code, out)
	}
	if out, code := command(pw+"\n", "password", "Anna"); code != 2 || !strings.Contains(out, "--password-stdin") {
		t.Errorf("user password without --password-stdin, stdin a pipe: %d %s", code, out)
	}
	if out, code := command("another password, long enough\n", "password", "Anna", "--password-stdin"); code != 0 {
		t.Fatalf("user password: %d %s", code, out)
	}
	st := storetest.Open(t, db)
	si, err := st.SignInByName(context.Background(), "Anna")
	if err != nil {
		t.Fatal(err)
	}
	if ok, err := password.Verify(si.Hash, "another password, long enough"); !ok || err != nil {
		t.Errorf("the stored hash does not verify the password set last: %v %v", ok, err)
	}
	if out, code := command("", "frobnicate"); code != 2 || !strings.Contains(out, "user password") {
		t.Errorf("unknown user command: %d %s", code, out)
	}
}
