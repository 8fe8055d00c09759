package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// checkCompose runs the compose checks on text, written as compose.yaml in a temporary folder
// with the deploy/nginx.conf it mounts.
func checkCompose(t *testing.T, text string) []string {
	t.Helper()
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "deploy"), 0o755); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(dir, "compose.yaml")
	if err := os.WriteFile(file, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	problems, err := checkComposeFile(context.Background(), bananaqrBin(t), file)
	if err != nil {
		t.Fatal(err)
	}
	return problems
}

// The repository's compose.yaml passes; broken once for each check, it fails.
func TestCompose(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", "..", "compose.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	compose := string(b)
	if problems := checkCompose(t, compose); len(problems) > 0 {
		t.Fatalf("compose.yaml:\n%s", strings.Join(problems, "\n"))
	}
	for _, m := range []mutation{
		{name: "env no flag", old: "BANANAQR_METRICS_ADDR:", new: "BANANAQR_METRIC_ADDR:", want: "environment BANANAQR_METRIC_ADDR is no flag's twin"},
		{name: "grace", old: "stop_grace_period: 25s", new: "stop_grace_period: 20s", want: "stop_grace_period 20s is not above BANANAQR_SHUTDOWN_DELAY + BANANAQR_SHUTDOWN_TIMEOUT, 20s"},
		{name: "schema: unknown key", old: "  restart: unless-stopped\n  environment:", new: "  restart: unless-stopped\n  restart_policy: always\n  environment:", want: ".restart_policy"}, // either replica: the anchor gives both the key, and the loader names the first it meets,
		{name: "schema: wrong type", old: "retries: 3", new: "retries: three", want: "retries"},
		{name: "consistency: unknown network", old: "      bananaqr:\n        ipv4_address: 172.28.53.11", new: "      bananaqr-net:\n        ipv4_address: 172.28.53.11", want: "bananaqr-net"},
		{name: "no replica", old: "image: bananaqr:latest", new: "image: qr:latest", want: "no service runs the image bananaqr"},
	} {
		t.Run(m.name, func(t *testing.T) {
			if !strings.Contains(compose, m.old) {
				t.Fatalf("compose.yaml no longer holds %q: update this mutation", m.old)
			}
			problems := checkCompose(t, strings.ReplaceAll(compose, m.old, m.new))
			for _, p := range problems {
				if strings.Contains(p, m.want) {
					return
				}
			}
			t.Errorf("%q → %q: no problem says %q; got:\n%s", m.old, m.new, m.want, strings.Join(problems, "\n"))
		})
	}
}
