package client

import (
	"bytes"
	"go/format"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/bananaqr/bananaqr/internal/qrtest"
	"github.com/bananaqr/bananaqr/internal/ratelimit"
)

// readmeSnippet returns the Go program of README.md's section on the client.
func readmeSnippet(t *testing.T) string {
	t.Helper()
	readme, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, section, ok := strings.Cut(string(readme), "\n## The Go client, package `client`\n")
	if !ok {
		t.Fatal("README.md has no section \"The Go client, package `client`\"")
	}
	section, _, _ = strings.Cut(section, "\n## ")
	m := regexp.MustCompile("(?s)\n```go\n(.*?)\n```\n").FindStringSubmatch(section)
	if m == nil {
		t.Fatal("the client's section of README.md has no Go program")
	}
	return m[1] + "\n"
}

// TestREADMESnippet: the README's client program is gofmt'ed, builds as shown (with its
// imports), and run against our own service (its base URL in place of qr.example.com) prints
// the headers' figures and writes a PNG that reads back as the Wi-Fi payload.
func TestREADMESnippet(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a program: skipped with -short")
	}
	src := readmeSnippet(t)
	if formatted, err := format.Source([]byte(src)); err != nil || string(formatted) != src {
		t.Fatalf("the README's program is not gofmt'ed (%v):\n%s", err, formatted)
	}
	svc := newService(t, ratelimit.NewMemory(60, time.Minute, nil))
	const example = `"https://qr.example.com"`
	if !strings.Contains(src, example) {
		t.Fatalf("the README's program does not use %s", example)
	}
	// Built inside the module, so that it uses this tree's packages; testdata is no package of it.
	if err := os.MkdirAll("testdata", 0o755); err != nil {
		t.Fatal(err)
	}
	dir, err := os.MkdirTemp("testdata", "readme-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir); os.Remove("testdata") }) // testdata only if empty
	run := strings.Replace(src, example, `"`+svc.URL+`"`, 1)
	if err := os.WriteFile(filepath.Join(dir, "main.go"), []byte(run), 0o644); err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(t.TempDir(), "snippet")
	if out, err := exec.Command("go", "build", "-o", bin, "./"+dir).CombinedOutput(); err != nil {
		t.Fatalf("the README's program does not build: %v\n%s", err, out)
	}
	cmd := exec.Command(bin)
	cmd.Dir = t.TempDir()
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("the README's program: %v\n%s", err, out)
	}
	if !regexp.MustCompile(`^version \d+, level [LMQH], warnings \[\]; 59 codes left this minute \(request [0-9a-f]{16}\)\n$`).Match(out) {
		t.Errorf("the README's program printed %q", out)
	}
	b, err := os.ReadFile(filepath.Join(cmd.Dir, "wifi.png"))
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	if text, err := qrtest.DecodeImage(img, false); err != nil || text != "WIFI:T:WPA;S:Lab Net;P:hunter22;;" {
		t.Errorf("wifi.png reads %q (%v)", text, err)
	}
}
