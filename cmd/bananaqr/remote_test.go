package main

import (
	"bytes"
	"log/slog"
	"net"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bananaqr/bananaqr/api"
	"github.com/bananaqr/bananaqr/internal/httpapi"
)

// TestEncodeRemote: "encode -remote" with our own service draws the same terminal code and
// writes the same files as encode offline, for plain text, standard input, the -type fields
// and the style flags.
func TestEncodeRemote(t *testing.T) {
	svc := httptest.NewServer(httpapi.New(httpapi.Config{OpenAPI: api.OpenAPI, Logger: slog.New(slog.DiscardHandler)}).Handler())
	t.Cleanup(svc.Close)
	dir := t.TempDir()
	for i, tc := range []struct {
		args  []string
		stdin string
	}{
		{args: []string{"https://example.com/products/12345?ref=newsletter"}},
		{args: []string{"--invert", "--ecc", "H", "--margin", "1", "Grüße", "aus", "Köln"}},
		{args: []string{"--logo", "banana", "--size", "128", "--color", "1A237E", "x"}}, // the terminal uses neither
		{args: []string{"--logo", "banana", strings.Repeat("banana ", 20)}},             // the logo's outline would read dark
		{args: []string{"-"}, stdin: "line one\nline two\r\n"},
		{args: []string{"-type", "wifi", "-ssid", "Lab Net", "-password", "hunter22", "-hidden"}},
		{args: []string{"-type", "vcard", "-name", "Anna Müller", "-phone", "+49 30 123456", "-job-title", "CTO"}},
		{args: []string{"-o", "{dir}/a.png", "--corners", "rounded", "--logo", "banana", "--size", "512", "--color", "#1A237E", "--background", "FFF8E1", "hello"}},
		{args: []string{"-o", "{dir}/a.svg", "--margin", "2", "-type", "url", "-url", "example.com/menu"}},
	} {
		outputs := [2]string{}
		for j, remote := range []string{"", svc.URL} {
			args := []string{"encode"}
			if remote != "" {
				args = append(args, "--remote", remote)
			}
			file := ""
			for _, a := range tc.args {
				if strings.HasPrefix(a, "{dir}") {
					file = filepath.Join(dir, []string{"offline", "remote"}[j]+strings.TrimPrefix(a, "{dir}/"))
					a = file
				}
				args = append(args, a)
			}
			var stdout, stderr bytes.Buffer
			if code := run(args, strings.NewReader(tc.stdin), &stdout, &stderr); code != 0 {
				t.Fatalf("%d %q: exit %d: %s", i, args, code, stderr.String())
			}
			outputs[j] = stdout.String()
			if file != "" {
				b, err := os.ReadFile(file)
				if err != nil {
					t.Fatal(err)
				}
				outputs[j] = string(b)
			}
		}
		if outputs[0] != outputs[1] || len(outputs[0]) < 100 {
			t.Errorf("%d %q: offline and remote differ:\n%s\n%s", i, tc.args, outputs[0], outputs[1])
		}
	}
}

// TestEncodeRemoteErrors: what the service refuses is reported with its code and hint (exit 2
// for a 400, 1 otherwise), a service that cannot be reached is reported with the liveness
// check's result, and no code is ever made locally instead.
func TestEncodeRemoteErrors(t *testing.T) {
	svc := httptest.NewServer(httpapi.New(httpapi.Config{OpenAPI: api.OpenAPI, Logger: slog.New(slog.DiscardHandler)}).Handler())
	t.Cleanup(svc.Close)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closed := "http://" + ln.Addr().String()
	ln.Close()
	out := filepath.Join(t.TempDir(), "x.png")
	for _, tc := range []struct {
		args []string
		code int
		want []string
	}{
		{[]string{"--remote", svc.URL, "-type", "wifi", "-password", "x"}, 2, []string{"MISSING_FIELD", "HTTP 400, request ", "ssid"}},
		{[]string{"--remote", svc.URL, strings.Repeat("a", 3000)}, 1, []string{"PAYLOAD_TOO_LARGE", "HTTP 413"}},
		{[]string{"--remote", svc.URL, "--color", "EEEEEE", "-o", out, "hi"}, 2, []string{"LOW_CONTRAST"}},
		{[]string{"--remote", closed, "-o", out, "hi"}, 1, []string{"connection", "liveness check failed too"}},
		{[]string{"--remote", "ftp://example.com", "hi"}, 2, []string{"-remote"}},
	} {
		var stdout, stderr bytes.Buffer
		code := run(append([]string{"encode"}, tc.args...), strings.NewReader(""), &stdout, &stderr)
		if code != tc.code || stdout.Len() != 0 {
			t.Errorf("%q: exit %d, stdout %q; want %d", tc.args, code, stdout.String(), tc.code)
		}
		for _, w := range tc.want {
			if !strings.Contains(stderr.String(), w) {
				t.Errorf("%q: %q lacks %q", tc.args, stderr.String(), w)
			}
		}
		if _, err := os.Stat(out); err == nil {
			t.Fatalf("%q: wrote %s", tc.args, out)
		}
	}
}
