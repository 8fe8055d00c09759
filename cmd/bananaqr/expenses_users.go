package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"golang.org/x/term"

	"github.com/bananaqr/bananaqr/expenses/password"
	"github.com/bananaqr/bananaqr/expenses/service"
	"github.com/bananaqr/bananaqr/expenses/store"
)

// This file is "bananaqr expenses user add" and "user password": users, and the passwords they
// sign in with on the authorization server's page, read from stdin or typed unseen.

// expensesUserAdd adds a user, with a password when --password-stdin is given (without it,
// the user has none, as before passwords: user password sets one).
func expensesUserAdd(args []string, getenv func(string) string, stdin io.Reader, stdout, stderr io.Writer) int {
	f := newExpensesFlags("user add", getenv, stderr)
	fromStdin := passwordStdinFlag(f)
	st, pos, code := f.open(args, 1, stderr)
	if st == nil {
		return code
	}
	defer st.Close()
	if err := service.CheckText("name", pos[0], service.MaxNameLength); err != nil {
		fmt.Fprintf(stderr, "%s: %v\n", f.Name(), err)
		return 2
	}
	var hash string
	if *fromStdin { // read and hashed before the user is made, so that a refused one adds nobody
		if hash, code = newPasswordHash(f.Name(), pos[0], true, stdin, stderr); code != 0 {
			return code
		}
	}
	ctx := context.Background()
	u, err := st.CreateUser(ctx, pos[0])
	if err != nil {
		fmt.Fprintf(stderr, "%s: %v\n", f.Name(), err)
		return 1
	}
	if hash != "" {
		if err := st.SetPassword(ctx, u.ID, hash); err != nil {
			fmt.Fprintf(stderr, "%s: added user %s (id %s), but not their password (set it with user password): %v\n", f.Name(), u.Name, u.ID, err)
			return 1
		}
		fmt.Fprintf(stdout, "added user %s (id %s) with a password\n", u.Name, u.ID)
		return 0
	}
	fmt.Fprintf(stdout, "added user %s (id %s)\n", u.Name, u.ID)
	return 0
}

// expensesUserPassword sets or replaces the password a user signs in with.
func expensesUserPassword(args []string, getenv func(string) string, stdin io.Reader, stdout, stderr io.Writer) int {
	f := newExpensesFlags("user password", getenv, stderr)
	fromStdin := passwordStdinFlag(f)
	st, pos, code := f.open(args, 1, stderr)
	if st == nil {
		return code
	}
	defer st.Close()
	ctx := context.Background()
	u, err := st.UserByName(ctx, pos[0]) // before asking for a password it could not set
	if errors.Is(err, store.ErrNotFound) {
		fmt.Fprintf(stderr, "%s: there is no user named %q (user list lists them, user add adds one)\n", f.Name(), pos[0])
		return 1
	}
	if err != nil {
		fmt.Fprintf(stderr, "%s: %v\n", f.Name(), err)
		return 1
	}
	hash, code := newPasswordHash(f.Name(), u.Name, *fromStdin, stdin, stderr)
	if code != 0 {
		return code
	}
	if err := st.SetPassword(ctx, u.ID, hash); err != nil {
		fmt.Fprintf(stderr, "%s: %v\n", f.Name(), err)
		return 1
	}
	fmt.Fprintf(stdout, "set the password of %s\n", u.Name)
	return 0
}

// passwordStdinFlag defines --password-stdin on f.
func passwordStdinFlag(f expensesFlags) *bool {
	return f.Bool("password-stdin", false, "read the password from the first line of standard input (without its line ending)")
}

// newPasswordHash reads a new password for the user name (readNewPassword), checks it against
// the policy (password.Check) and returns its hash; on failure it reports to stderr and
// returns the exit status. Neither the password nor its hash is ever written out.
func newPasswordHash(command, name string, fromStdin bool, stdin io.Reader, stderr io.Writer) (string, int) {
	pw, err := readNewPassword(name, fromStdin, stdin, stderr)
	if err != nil {
		fmt.Fprintf(stderr, "%s: %v\n", command, err)
		return "", 2
	}
	hash, err := password.Hash(pw)
	if err != nil {
		fmt.Fprintf(stderr, "%s: %v\n", command, err)
		return "", 1
	}
	return hash, 0
}

// maxPasswordLine bounds what --password-stdin reads: far past password.MaxBytes, so that a
// long password is refused for its length by password.Check, but never unbounded.
const maxPasswordLine = 64 << 10

// readNewPassword reads a new password and checks it (password.Check): with fromStdin the first
// line of stdin, without its line ending; else, when stdin is a terminal, typed twice without
// echo, prompts on stderr; else it is an error asking for --password-stdin.
func readNewPassword(name string, fromStdin bool, stdin io.Reader, stderr io.Writer) (string, error) {
	if fromStdin {
		line, err := bufio.NewReader(io.LimitReader(stdin, maxPasswordLine)).ReadString('\n')
		if err != nil && err != io.EOF {
			return "", fmt.Errorf("--password-stdin: %w", err)
		}
		if line == "" {
			return "", errors.New("--password-stdin: standard input is empty; write the password on its first line")
		}
		pw := strings.TrimSuffix(strings.TrimSuffix(line, "\n"), "\r")
		return pw, password.Check(pw)
	}
	tty, ok := stdin.(terminal)
	if !ok {
		return "", errors.New("standard input is not a terminal to type the password on; pass --password-stdin and write the password on standard input's first line")
	}
	fmt.Fprintf(stderr, "New password for %s (at least %d characters): ", name, password.MinLength)
	pw, err := tty.readSecret()
	fmt.Fprintln(stderr)
	if err != nil {
		return "", fmt.Errorf("reading the password from the terminal: %w", err)
	}
	if err := password.Check(pw); err != nil {
		return "", err
	}
	fmt.Fprint(stderr, "The same again: ")
	again, err := tty.readSecret()
	fmt.Fprintln(stderr)
	if err != nil {
		return "", fmt.Errorf("reading the password from the terminal: %w", err)
	}
	if again != pw {
		return "", errors.New("the two passwords differ; nothing was changed")
	}
	return pw, nil
}

// terminal is a standard input that is a terminal, on which a line can be typed unseen.
type terminal interface {
	readSecret() (string, error)
}

// ttyStdin is standard input when it is a terminal.
type ttyStdin struct{ *os.File }

// readSecret reads a line with echo off (term.ReadPassword). An interrupt while it waits turns
// echo back on before the program ends, as the default action of SIGINT would not.
func (t ttyStdin) readSecret() (string, error) {
	fd := int(t.Fd())
	state, err := term.GetState(fd)
	if err != nil {
		return "", err
	}
	interrupt := make(chan os.Signal, 1)
	signal.Notify(interrupt, os.Interrupt, syscall.SIGTERM)
	done := make(chan struct{})
	defer close(done)
	defer signal.Stop(interrupt)
	go func() {
		select {
		case <-interrupt:
			term.Restore(fd, state)
			os.Exit(130)
		case <-done:
		}
	}()
	b, err := term.ReadPassword(fd)
	return string(b), err
}

// commandStdin is f as the command's standard input: a terminal (ttyStdin) when it is one.
func commandStdin(f *os.File) io.Reader {
	if term.IsTerminal(int(f.Fd())) {
		return ttyStdin{f}
	}
	return f
}
