package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bananaqr/bananaqr/api"
)

// TestEncodeOutputFormats: -o takes a file name ending in the extension of each format that is
// a file (api.FileFormats, in any case) and writes that format; any other ending, json's
// included, is a usage error naming the extensions.
func TestEncodeOutputFormats(t *testing.T) {
	magic := map[api.Format]string{api.FormatSVG: "<svg", api.FormatPNG: "\x89PNG", api.FormatPDF: "%PDF", api.FormatEPS: "%!PS"}
	dir := t.TempDir()
	for _, f := range api.FileFormats() {
		out := filepath.Join(dir, "code."+strings.ToUpper(string(f)))
		if code, stderr := encodeArgs(t, "", "-o", out, "hello"); code != 0 {
			t.Fatalf("%s: exit %d: %s", f, code, stderr)
		}
		b, err := os.ReadFile(out)
		if err != nil || !bytes.Contains(b[:min(len(b), 64)], []byte(magic[f])) {
			t.Errorf("%s: %q… (%v)", f, b[:min(len(b), 16)], err)
		}
	}
	for _, name := range []string{"code.json", "code.txt", "code"} {
		code, stderr := encodeArgs(t, "", "-o", filepath.Join(dir, name), "hello")
		if code != 2 || !strings.Contains(stderr, "the file name must end in .svg, .png, .pdf or .eps") {
			t.Errorf("-o %s: exit %d: %s", name, code, stderr)
		}
	}
}
