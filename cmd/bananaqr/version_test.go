package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/bananaqr/bananaqr/internal/buildinfo"
)

// TestVersionCommands: version, --version, -version and -v print the same line, the
// version of package buildinfo.
func TestVersionCommands(t *testing.T) {
	want := "bananaqr " + buildinfo.Version() + "\n"
	for _, arg := range []string{"version", "--version", "-version", "-v"} {
		var stdout, stderr bytes.Buffer
		if code := run([]string{arg}, nil, &stdout, &stderr); code != 0 || stdout.String() != want || stderr.Len() != 0 {
			t.Errorf("bananaqr %s: exit %d, stdout %q, stderr %q; want 0, %q", arg, code, stdout.String(), stderr.String(), want)
		}
	}
}

// TestVersionFromLinker builds the binary as a release is built, with the version set by
// -ldflags -X, and checks that every place that reports the binary's version reports that one:
// the version commands, the MCP server's serverInfo and its server card (both addresses), the
// expenses server's serverInfo and the User-Agent of encode -remote.
func TestVersionFromLinker(t *testing.T) {
	const want = "v9.8.7-test"
	dir := t.TempDir()
	bin := filepath.Join(dir, "bananaqr")
	build := exec.Command("go", "build", "-ldflags", "-X github.com/bananaqr/bananaqr/internal/buildinfo.version="+want, "-o", bin, ".")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	for _, arg := range []string{"version", "--version", "-version", "-v"} {
		if out, err := exec.Command(bin, arg).Output(); err != nil || string(out) != "bananaqr "+want+"\n" {
			t.Errorf("bananaqr %s: %q, %v; want %q", arg, out, err, "bananaqr "+want)
		}
	}

	_, addr := startCommand(t, exec.Command(bin, "serve", "--addr", "127.0.0.1:0"))
	if got := serverInfoVersion(t, "http://"+addr+"/mcp", nil); got != want {
		t.Errorf("serve: serverInfo.version = %q, want %q", got, want)
	}
	for _, path := range []string{"/mcp/server-card", "/.well-known/mcp.json"} {
		if got := cardVersion(t, "http://"+addr+path); got != want {
			t.Errorf("serve: %s's version = %q, want %q", path, got, want)
		}
	}

	db := filepath.Join(dir, "expenses.db")
	if out, err := exec.Command(bin, "expenses", "user", "add", "Anna", "--db", db).CombinedOutput(); err != nil {
		t.Fatalf("expenses user add: %v\n%s", err, out)
	}
	token, err := exec.Command(bin, "expenses", "token", "Anna", "--db", db).Output()
	if err != nil {
		t.Fatalf("expenses token: %v", err)
	}
	_, eaddr := startExpenses(t, bin, db)
	if got := serverInfoVersion(t, "http://"+eaddr+"/mcp", crashBearer{strings.TrimSpace(string(token))}); got != want {
		t.Errorf("expenses serve: serverInfo.version = %q, want %q", got, want)
	}

	var mu sync.Mutex
	var agents []string
	remote := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		agents = append(agents, r.UserAgent())
		mu.Unlock()
		http.Error(w, "no", http.StatusInternalServerError)
	}))
	defer remote.Close()
	exec.Command(bin, "encode", "-remote", remote.URL, "x").Run() // fails: the server answers 500
	mu.Lock()
	defer mu.Unlock()
	if len(agents) == 0 || agents[0] != "bananaqr-cli/"+want {
		t.Errorf("encode -remote: User-Agent %q, want bananaqr-cli/%s", agents, want)
	}
}

// serverInfoVersion connects to the MCP endpoint (through transport, when not nil) and returns
// the version in the server's initialize result.
func serverInfoVersion(t *testing.T, endpoint string, transport http.RoundTripper) string {
	t.Helper()
	client := mcp.NewClient(&mcp.Implementation{Name: "version-test", Version: "1"}, nil)
	cs, err := client.Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: endpoint,
		HTTPClient: &http.Client{Transport: transport, Timeout: 30 * time.Second}, DisableStandaloneSSE: true, MaxRetries: -1}, nil)
	if err != nil {
		t.Fatalf("%s: %v", endpoint, err)
	}
	defer cs.Close()
	return cs.InitializeResult().ServerInfo.Version
}

// cardVersion returns the version of the server card at url.
func cardVersion(t *testing.T, url string) string {
	t.Helper()
	res, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	body, _ := io.ReadAll(res.Body)
	var card struct {
		Version string `json:"version"`
	}
	if err := json.Unmarshal(body, &card); err != nil {
		t.Fatalf("%s: %v\n%s", url, err, body)
	}
	return card.Version
}
