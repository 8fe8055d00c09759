package main

import (
	"archive/zip"
	"bytes"
	"image/png"
	"io"
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
	zr, err := zip.OpenReader(out)
	if err != nil {
		t.Fatal(err)
	}
	defer zr.Close()
	var names []string
	files := map[string][]byte{}
	for _, f := range zr.File {
		rc, err := f.Open()
		if err != nil {
			t.Fatal(err)
		}
		files[f.Name], err = io.ReadAll(rc)
		rc.Close()
		if err != nil {
			t.Fatalf("%s: %v", f.Name, err)
		}
		names = append(names, f.Name)
	}
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
