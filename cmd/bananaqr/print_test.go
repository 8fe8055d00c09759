package main

import (
	"bytes"
	"log/slog"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bananaqr/bananaqr/api"
	"github.com/bananaqr/bananaqr/internal/httpapi"
)

// TestEncodePrintFiles: "encode -o file.pdf" and "-o file.eps" (any case) write the print
// formats, the same bytes offline and with -remote; another extension is a usage error that
// names the four.
func TestEncodePrintFiles(t *testing.T) {
	svc := httptest.NewServer(httpapi.New(httpapi.Config{OpenAPI: api.OpenAPI, Logger: slog.New(slog.DiscardHandler)}).Handler())
	t.Cleanup(svc.Close)
	dir := t.TempDir()
	for _, c := range []struct{ name, head string }{{"a.pdf", "%PDF-1.4\n"}, {"b.EPS", "%!PS-Adobe-3.0 EPSF-3.0\n"}} {
		var files [2][]byte
		for i, remote := range [][]string{nil, {"-remote", svc.URL}} {
			out := filepath.Join(dir, []string{"offline-", "remote-"}[i]+c.name)
			args := append(append([]string{"encode"}, remote...), "-o", out, "-corners", "rounded", "-logo", "banana", "-size", "600", "Grüße")
			var stdout, stderr bytes.Buffer
			if code := run(args, strings.NewReader(""), &stdout, &stderr); code != 0 {
				t.Fatalf("%q: exit %d: %s", args, code, stderr.String())
			}
			b, err := os.ReadFile(out)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.HasPrefix(b, []byte(c.head)) {
				t.Errorf("%s: starts %.30q", out, b)
			}
			files[i] = b
		}
		if !bytes.Equal(files[0], files[1]) {
			t.Errorf("%s: offline and remote differ", c.name)
		}
	}
	var stderr bytes.Buffer
	if code := run([]string{"encode", "-o", filepath.Join(dir, "c.ps"), "x"}, strings.NewReader(""), &bytes.Buffer{}, &stderr); code != 2 ||
		!strings.Contains(stderr.String(), ".svg, .png, .pdf or .eps") {
		t.Errorf("-o c.ps: exit %d: %s", code, stderr.String())
	}
}
