package main

import (
	"context"
	"fmt"
	"net/http"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/bananaqr/bananaqr/expenses/service"
	"github.com/bananaqr/bananaqr/internal/mcptest"
)

type crashBearer struct{ token string }

func (b crashBearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.token)
	return http.DefaultTransport.RoundTrip(r)
}

// startExpenses starts `bin expenses serve` on db and returns the process and its address,
// read from its log.
func startExpenses(t *testing.T, bin, db string) (*exec.Cmd, string) {
	t.Helper()
	return startCommand(t, exec.Command(bin, "expenses", "serve", "--addr", "127.0.0.1:0", "--db", db, "--write-limit", "0"))
}

func expensesSession(t *testing.T, addr, token string) *mcp.ClientSession {
	t.Helper()
	client := mcp.NewClient(&mcp.Implementation{Name: "crash-test", Version: "1"}, nil)
	cs, err := client.Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: "http://" + addr + "/mcp",
		HTTPClient: &http.Client{Transport: crashBearer{token}, Timeout: 30 * time.Second}, DisableStandaloneSSE: true, MaxRetries: -1}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

// sumMinor adds decimal amounts of one currency as integers of minor units.
func sumMinor(t *testing.T, amounts ...string) int64 {
	t.Helper()
	var sum int64
	for _, a := range amounts {
		var n int64
		if _, err := fmt.Sscan(strings.Replace(a, ".", "", 1), &n); err != nil {
			t.Fatalf("amount %q: %v", a, err)
		}
		sum += n
	}
	return sum
}

// TestExpensesCrash SIGKILLs `bananaqr expenses serve` on SQLite while a client adds
// expenses, restarts it on the same file and checks that every acknowledged expense is
// there with all its shares, and that no expense lacks any.
func TestExpensesCrash(t *testing.T) {
	dir := t.TempDir()
	bin := buildBinary(t)
	db := filepath.Join(dir, "expenses.db")
	for _, name := range []string{"Anna", "Ben"} {
		if out, err := exec.Command(bin, "expenses", "user", "add", name, "--db", db).CombinedOutput(); err != nil {
			t.Fatalf("user add %s: %v\n%s", name, err, out)
		}
	}
	out, err := exec.Command(bin, "expenses", "token", "Anna", "--db", db).Output()
	if err != nil {
		t.Fatalf("token: %v", err)
	}
	token := strings.TrimSpace(string(out))

	server, addr := startExpenses(t, bin, db)
	setup := expensesSession(t, addr, token)
	var g service.GroupDetails
	if err := mcptest.Call(context.Background(), setup, "create_group", map[string]any{"name": "Trip", "currency": "EUR", "members": []string{"Ben", "Carl"}}, &g); err != nil {
		t.Fatal(err)
	}

	// Writers add expenses (by the group's default split of three, or two explicit
	// splits) until the server dies, recording each acknowledged one.
	var mu sync.Mutex
	acked := map[string]service.Expense{}
	var wg sync.WaitGroup
	for w := range 4 {
		cs := expensesSession(t, addr, token)
		wg.Go(func() {
			for i := 0; ; i++ {
				args := map[string]any{"title": fmt.Sprintf("w%d-%d", w, i), "amount": 10, "currency": "EUR", "group": "Trip"}
				if i%2 == 1 {
					args = map[string]any{"title": fmt.Sprintf("w%d-%d", w, i), "amount": 7.5, "currency": "EUR",
						"splits": map[string]any{"me": 2.5, "Ben": 5}}
				}
				var e service.Expense
				if err := mcptest.Call(context.Background(), cs, "add_expense", args, &e); err != nil {
					return // the server is gone
				}
				mu.Lock()
				acked[e.ID] = e
				mu.Unlock()
			}
		})
	}
	time.Sleep(time.Second)
	if err := server.Process.Kill(); err != nil { // SIGKILL
		t.Fatal(err)
	}
	server.Wait()
	wg.Wait()
	t.Logf("%d expenses acknowledged before the kill", len(acked))
	if len(acked) == 0 {
		t.Fatal("no expense was acknowledged in a second")
	}

	_, addr = startExpenses(t, bin, db)
	cs := expensesSession(t, addr, token)
	for id, want := range acked {
		var got service.Expense
		if err := mcptest.Call(context.Background(), cs, "get_expense", map[string]any{"id": id}, &got); err != nil {
			t.Fatalf("acknowledged expense %s: %v", id, err)
		}
		if got.Amount != want.Amount || !reflect.DeepEqual(got.Splits, want.Splits) || got.Deleted {
			t.Fatalf("expense %s after the restart %+v, acknowledged as %+v", id, got, want)
		}
	}
	listed := 0
	args := map[string]any{"limit": 100}
	for {
		var page service.ExpensePage
		if err := mcptest.Call(context.Background(), cs, "list_expenses", args, &page); err != nil {
			t.Fatal(err)
		}
		for _, e := range page.Expenses {
			listed++
			var shares []string
			for _, s := range e.Splits {
				shares = append(shares, s.Amount)
			}
			wantShares := 2
			if e.Group != nil {
				wantShares = 3
			}
			if len(e.Splits) != wantShares || sumMinor(t, shares...) != sumMinor(t, e.Amount) {
				t.Fatalf("expense with missing shares after the crash: %+v", e)
			}
		}
		if page.NextCursor == "" {
			break
		}
		args["cursor"] = page.NextCursor
	}
	// At most one write per writer may have committed without its answer arriving.
	if listed < len(acked) || listed > len(acked)+4 {
		t.Fatalf("%d expenses listed, %d acknowledged", listed, len(acked))
	}
}
