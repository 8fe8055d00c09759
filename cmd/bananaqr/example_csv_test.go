package main

import (
	"bytes"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bananaqr/bananaqr/internal/qrtest"
)

// TestExampleCSV runs the README's batch command on the sample it points at,
// `bananaqr encode -batch examples/codes.csv -o codes.zip`: the archive holds a file a row, named
// by the filename column in row order, each PNG reading back as its row's payload and the SVG
// titled with its text.
func TestExampleCSV(t *testing.T) {
	out := filepath.Join(t.TempDir(), "codes.zip")
	code, stderr := encodeArgs(t, "", "-batch", filepath.Join("..", "..", "examples", "codes.csv"), "-o", out)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	archive, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	names, files := qrtest.Unzip(t, archive)
	if got := strings.Join(names, " "); got != "menu.png table-12.svg wifi.png call.png" {
		t.Fatalf("the archive holds %s", got)
	}
	for name, want := range map[string]string{
		"menu.png": "https://example.com/menu",
		"wifi.png": "WIFI:T:WPA;S:Cafe Guest;P:hunter22;;",
		"call.png": "tel:+15551234567",
	} {
		img, err := png.Decode(bytes.NewReader(files[name]))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if text, err := qrtest.DecodeImage(img, false); err != nil || text != want {
			t.Errorf("%s reads %q (%v), want %q", name, text, err, want)
		}
	}
	if svg := string(files["table-12.svg"]); !strings.HasPrefix(svg, "<svg") || !strings.Contains(svg, "Table 12: ask for the daily special") {
		t.Errorf("table-12.svg is not the text's SVG: %.200s", svg)
	}
}
