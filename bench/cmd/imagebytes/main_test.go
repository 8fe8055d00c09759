package main

import (
	"bytes"
	"image"
	"image/color"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bananaqr/bananaqr/bench"
	"github.com/bananaqr/bananaqr/qr"
)

// TestAppendMatrix checks the matrix that segno redraws: the header, and every module as the
// symbol has it.
func TestAppendMatrix(t *testing.T) {
	s, err := qr.Encode(bench.URL, qr.Options{})
	if err != nil {
		t.Fatal(err)
	}
	fg, bg := color.RGBA{0x7b, 0x26, 0x0f, 0xff}, color.RGBA{0xff, 0xff, 0xff, 0xff}
	lines := strings.Split(strings.TrimSuffix(string(appendMatrix(nil, s, 4, fg, bg)), "\n"), "\n")
	if want := "version 4 margin 4 dark #7B260F light #FFFFFF"; lines[0] != want || s.Version() != 4 {
		t.Fatalf("header %q, version %d; want %q", lines[0], s.Version(), want)
	}
	if len(lines)-1 != s.Size() {
		t.Fatalf("%d rows, want %d", len(lines)-1, s.Size())
	}
	for y, line := range lines[1:] {
		if len(line) != s.Size() {
			t.Fatalf("row %d has %d modules, want %d", y, len(line), s.Size())
		}
		for x, c := range line {
			if want := s.Dark(x, y); (c == '1') != want || (c != '0' && c != '1') {
				t.Fatalf("module (%d, %d) is %q, dark %v", x, y, c, want)
			}
		}
	}
}

// TestTargets checks issue 33's targets at their boundaries.
func TestTargets(t *testing.T) {
	square, rounded, banana := styles[0], styles[1], styles[2]
	for _, tc := range []struct {
		name     string
		r        row
		svg, png bool
	}{
		{"square equal", row{imageCase: imageCase{style: square}, svg: 900, svgGz: 500, segnoMin: 900, segnoMinGz: 500, png: 1050, zopfli: 1000}, true, true},
		{"square bytes over", row{imageCase: imageCase{style: square}, svg: 901, svgGz: 400, segnoMin: 900, segnoMinGz: 500, png: 1051, zopfli: 1000}, false, false},
		{"square gzip over", row{imageCase: imageCase{style: square}, svg: 800, svgGz: 501, segnoMin: 900, segnoMinGz: 500, png: 100, zopfli: 1000}, false, true},
		{"rounded at 1.05 and 1.3", row{imageCase: imageCase{style: rounded}, svg: 1050, svgo: 1000, png: 1300, zopfli: 1000}, true, true},
		{"rounded over", row{imageCase: imageCase{style: rounded}, svg: 1051, svgo: 1000, png: 1301, zopfli: 1000}, false, false},
		{"banana ignores segno", row{imageCase: imageCase{style: banana}, svg: 1000, svgo: 1000, png: 1200, zopfli: 1000}, true, true},
	} {
		if got := svgTarget(tc.r).met; got != tc.svg {
			t.Errorf("%s: SVG target met %v, want %v", tc.name, got, tc.svg)
		}
		if got := pngTarget(tc.r).met; got != tc.png {
			t.Errorf("%s: PNG target met %v, want %v", tc.name, got, tc.png)
		}
	}

	// A row that misses both: the report counts and marks both.
	r := row{imageCase: imageCase{input: inputs[0], style: rounded, size: 1024, colours: colourSets[0]},
		version: 4, svg: 1051, svgo: 1000, png: 1301, zopfli: 1000, pngDepth: "8-bit palette", zopfliDepth: "2-bit palette"}
	var b strings.Builder
	if missed := printReport(&b, []row{r}, "-m"); missed != 2 {
		t.Errorf("%d missed, want 2", missed)
	}
	for _, want := range []string{"≤ 1.05× svgo bytes: **missed**", "| 1.301 | ≤ 1.3× zopflipng: **missed** |", "- PNG ≤ 1.3× zopflipng: 0 of 1\n", "- all: 0 of 2\n"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("report lacks %q:\n%s", want, b.String())
		}
	}
}

// TestPNGDepth checks the IHDR reader on images whose depth image/png decides.
func TestPNGDepth(t *testing.T) {
	dir := t.TempDir()
	two := image.NewPaletted(image.Rect(0, 0, 8, 8), color.Palette{color.Black, color.White})
	grey := image.NewGray(image.Rect(0, 0, 8, 8))
	for name, tc := range map[string]struct {
		img  image.Image
		want string
	}{"two.png": {two, "1-bit palette"}, "grey.png": {grey, "8-bit grey"}} {
		var b bytes.Buffer
		if err := png.Encode(&b, tc.img); err != nil {
			t.Fatal(err)
		}
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		if got, err := pngDepth(path); err != nil || got != tc.want {
			t.Errorf("%s: %q, %v; want %q", name, got, err, tc.want)
		}
	}
	bad := filepath.Join(dir, "bad.png")
	os.WriteFile(bad, bytes.Repeat([]byte("x"), 40), 0o644)
	if _, err := pngDepth(bad); err == nil {
		t.Error("a file that is not a PNG was read")
	}
}

// TestWriteReport writes two cases, one too small for its size, stands in for the tools with
// copies of our own files, and reads the report back.
func TestWriteReport(t *testing.T) {
	root := t.TempDir()
	ascii := inputs[2]
	if ascii.Name != "ascii2000" {
		t.Fatalf("inputs[2] is %s", ascii.Name)
	}
	cs := []imageCase{
		{inputs[0], styles[0], 1024, colourSets[0]},
		{ascii, styles[2], 256, colourSets[1]},
	}
	if err := writeAll(root, cs); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(cs[1].dir(root), "toosmall.txt")); err != nil {
		t.Fatalf("ascii2000 at 256 px: %v", err)
	}
	dir := cs[0].dir(root)
	if _, err := readRows(root, cs); err == nil {
		t.Fatal("read a case without the tools' files")
	}
	for from, to := range map[string][]string{
		"ours.svg": {"ours.svg.gz", "segno.svg", "segno.svg.gz", "segno-min.svg", "segno-min.svg.gz", "svgo.svg", "svgo.svg.gz"},
		"ours.png": {"zopfli.png"},
	} {
		data, err := os.ReadFile(filepath.Join(dir, from))
		if err != nil {
			t.Fatal(err)
		}
		for _, name := range to {
			os.WriteFile(filepath.Join(dir, name), data, 0o644)
		}
	}
	rows, err := readRows(root, casesOf(false))
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 2 || rows[0].version != 4 || rows[0].svg != rows[0].segnoMin || rows[0].png != rows[0].zopfli || !rows[1].tooSmall {
		t.Fatalf("rows %+v", rows)
	}
	var b strings.Builder
	if missed := printReport(&b, rows, "-m"); missed != 0 {
		t.Errorf("%d targets missed by a copy of ourselves:\n%s", missed, b.String())
	}
	for _, want := range []string{
		"| url | square | 1024 | black | 4 |",
		"| ascii2000 | banana | 256 | 7B260F | – | – | – | – | – | – | – | too small |",
		"zopflipng -m",
		"- SVG ≤ segno min, bytes and gz: 1 of 1\n",
		"- PNG ≤ 1.05× zopflipng: 1 of 1\n",
		"- all: 2 of 2\n",
	} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("report lacks %q:\n%s", want, b.String())
		}
	}
}
