package main

import (
	"archive/zip"
	"bytes"
	"fmt"
	"image/png"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bananaqr/bananaqr/internal/qrtest"
)

// encodeArgs runs bananaqr encode with args and stdin, and returns the exit status and stderr.
func encodeArgs(t *testing.T, stdin string, args ...string) (int, string) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	code := run(append([]string{"encode"}, args...), strings.NewReader(stdin), &stdout, &stderr)
	if stdout.Len() > 0 {
		t.Errorf("stdout: %q", stdout.String())
	}
	return code, stderr.String()
}

// batchCSV is a file with a byte-order mark, quoted cells holding a comma, quotes and a line
// break, a Wi-Fi row, a name asked for and style cells; and the payload each file holds.
const batchCSV = "\uFEFFtype,url,text,ssid,password,hidden,format,size,filename\r\n" +
	"url,https://example.com/menu,,,,,png,,menu\r\n" +
	"text,,\"Hello, \"\"world\"\"\nsecond line\",,,,png,512,\r\n" +
	"wifi,,,Café,correct horse,1,png,,\r\n" +
	"url,https://example.com/svg,,,,,,,\r\n"

var batchPayloads = map[string]string{
	"menu.png":      "https://example.com/menu",
	"qr-2-text.png": "Hello, \"world\"\nsecond line",
	"qr-3-wifi.png": "WIFI:T:WPA;S:Café;P:correct horse;H:true;;",
}

// readPNGs checks that the PNG files decode (gozxing) to their payloads.
func readPNGs(t *testing.T, files map[string][]byte) {
	t.Helper()
	for name, want := range batchPayloads {
		img, err := png.Decode(bytes.NewReader(files[name]))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if text, err := qrtest.DecodeImage(img, false); err != nil || text != want {
			t.Errorf("%s reads %q (%v), want %q", name, text, err, want)
		}
	}
}

// TestEncodeBatchZip writes a CSV file's codes to a ZIP archive: its files in row order, the
// PNGs reading back to their payloads, the style flags filling the empty cells, the same bytes
// a second time; the summary gives the codes a second.
func TestEncodeBatchZip(t *testing.T) {
	dir := t.TempDir()
	csvPath := filepath.Join(dir, "codes.csv")
	os.WriteFile(csvPath, []byte(batchCSV), 0o644)
	out := filepath.Join(dir, "codes.zip")
	code, stderr := encodeArgs(t, "", "-batch", csvPath, "-o", out, "-corners", "rounded", "-size", "300")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if !strings.Contains(stderr, "4 codes in ") || !strings.Contains(stderr, "codes a second") || strings.Contains(stderr, "\r") {
		t.Errorf("stderr %q", stderr)
	}
	first, _ := os.ReadFile(out)
	names, files := qrtest.Unzip(t, first)
	if got := strings.Join(names, " "); got != "menu.png qr-2-text.png qr-3-wifi.png qr-4-url.svg" {
		t.Errorf("files %s", got)
	}
	readPNGs(t, files)
	if svg := string(files["qr-4-url.svg"]); !strings.Contains(svg, `width="300"`) || !strings.Contains(svg, "https://example.com/svg") {
		t.Errorf("the SVG is not 300 px or lacks its title: %.200s", svg)
	}
	os.Remove(out)
	if code, stderr := encodeArgs(t, "", "-batch", csvPath, "-o", out, "-corners", "rounded", "-size", "300"); code != 0 {
		t.Fatalf("again: exit %d: %s", code, stderr)
	}
	if again, _ := os.ReadFile(out); !bytes.Equal(again, first) {
		t.Error("the same file gave another archive")
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 2 {
		t.Errorf("the folder holds %d files, want codes.csv and codes.zip (no temporary file left)", len(entries))
	}
}

// TestEncodeBatchFolder writes the codes as files in a new folder, from standard input; a
// second run refuses to overwrite them and writes nothing.
func TestEncodeBatchFolder(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "codes") + "/"
	code, stderr := encodeArgs(t, batchCSV, "-batch", "-", "-o", dir)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	files := map[string][]byte{}
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		files[e.Name()], _ = os.ReadFile(filepath.Join(dir, e.Name()))
		if info, _ := e.Info(); info.Mode().Perm() != 0o644 {
			t.Errorf("%s: mode %v", e.Name(), info.Mode())
		}
	}
	if len(files) != 4 {
		t.Fatalf("%d files", len(files))
	}
	readPNGs(t, files)
	os.Remove(filepath.Join(dir, "menu.png"))
	code, stderr = encodeArgs(t, batchCSV, "-batch", "-", "-o", dir)
	if code != 1 || !strings.Contains(stderr, "exist already") {
		t.Errorf("exit %d: %s", code, stderr)
	}
	if _, err := os.Stat(filepath.Join(dir, "menu.png")); err == nil {
		t.Error("a refused batch wrote menu.png")
	}
}

// TestEncodeBatchErrors: every failing row is reported with its line (as the file counts
// lines), field, the API's code and hint; the exit status is 2 and nothing is written.
func TestEncodeBatchErrors(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "codes.zip")
	file := "url,text,size,filename\n" +
		"https://example.com,,,\n" +
		",\"two\nlines\",99999,\n" + // line 3
		"https://user:pw@example.com,,,\n" + // line 5
		"https://example.com,,,../up\n" + // line 6
		"https://example.com,,,\n"
	code, stderr := encodeArgs(t, file, "-batch", "-", "-o", out)
	if code != 2 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, want := range []string{"-: 3 rows are invalid; nothing was written", "-:3: size: size 99999 is out of range 128..2048 (INVALID_VALUE)\n\tGive size",
		"-:5: url: ", "(INVALID_URL)", "-:6: filename: ", "(INVALID_VALUE)"} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, stderr)
		}
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("written: %v", entries)
	}
	code, stderr = encodeArgs(t, "url,colour\nhttps://example.com,000000\n", "-batch", "-", "-o", out)
	if code != 2 || !strings.Contains(stderr, `-:1: colour: the column "colour" is not a field of the request (UNKNOWN_FIELD)`) {
		t.Errorf("unknown column: exit %d: %s", code, stderr)
	}
	for _, args := range [][]string{
		{"-batch", "-"}, {"-batch", "-", "-o", filepath.Join(dir, "x.png")}, {"-batch", "-", "-o", out, "text"},
		{"-batch", "-", "-o", out, "-remote", "http://127.0.0.1:1"}, {"-batch", "-", "-o", out, "-size", "5"},
	} {
		if code, stderr := encodeArgs(t, "url\nhttps://example.com\n", args...); code != 2 || stderr == "" {
			t.Errorf("%q: exit %d: %s", args, code, stderr)
		}
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("written: %v", entries)
	}
}

// TestEncodeBatchNotUTF8: a file that is not UTF-8 (Windows-1252: Caf\xe9) is refused whole,
// as the same bytes given to encode alone are (INVALID_TEXT): exit 2, nothing written, its first
// such byte reported by line, character and column, with how to convert the file, and no cell
// quoted. Before, its codes carried U+FFFD, the Wi-Fi password's too.
func TestEncodeBatchNotUTF8(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "codes.csv")
	os.WriteFile(in, []byte("type,ssid,password\r\nwifi,Home,correct horse\r\nwifi,Caf\xe9 M\xfcller,p\xe4ssw\xf6rd\r\n"), 0o644)
	out := filepath.Join(dir, "codes.zip")
	code, stderr := encodeArgs(t, "", "-batch", in, "-o", out)
	if code != 2 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, want := range []string{in + `:3: ssid: the CSV file is not UTF-8: line 3, character 9 (in the column "ssid")`, "(INVALID_TEXT)",
		"\tSave the file as UTF-8", "iconv -f WINDOWS-1252 -t UTF-8 in.csv > out.csv"} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, stderr)
		}
	}
	for _, secret := range []string{"Caf", "ller", "p\xe4", "\ufffd"} {
		if strings.Contains(stderr, secret) {
			t.Errorf("stderr quotes a cell (%q):\n%s", secret, stderr)
		}
	}
	if _, err := os.Stat(out); err == nil {
		t.Error("a refused file was written")
	}
	if code, stderr := encodeArgs(t, "", "-type", "wifi", "-ssid", "Caf\xe9", "-password", "correct horse", "-o", filepath.Join(dir, "one.png")); code != 2 || !strings.Contains(stderr, "INVALID_TEXT") {
		t.Errorf("encode alone: exit %d: %s", code, stderr)
	}
}

// TestEncodeBatchNames: the file names the API refuses are refused here by the same rules
// (package batch): a Windows device name, a colon, a bidirectional control (shown escaped,
// never sent to the terminal as it is), a trailing dot, and a name the same as another's after
// NFC. A decomposed name is written in NFC, in a folder and in a ZIP archive marked UTF-8.
func TestEncodeBatchNames(t *testing.T) {
	dir := t.TempDir()
	file := "text,filename\n" +
		"a,CON\n" + // line 2
		"b,C:evil\n" +
		"c,pay\u202Egpj.svg\n" +
		"d,menu.\n" +
		"e,Caf\u00e9\n" + // line 6: fine
		"f,Cafe\u0301\n" // line 7: line 6's name after NFC
	code, stderr := encodeArgs(t, file, "-batch", "-", "-o", filepath.Join(dir, "codes.zip"))
	if code != 2 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, want := range []string{"-: 5 rows are invalid; nothing was written", "-:2: filename: ", "a Windows device name", "-:3: filename: ",
		"Windows does not allow", "-:4: filename: filename \"pay\\u202egpj.svg\" holds U+202E", "-:5: filename: ", "ends with a dot",
		"-:7: filename: the file name \"Caf\u00e9.svg\" is item 4's too"} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, stderr)
		}
	}
	if strings.Contains(stderr, "\u202e") {
		t.Errorf("stderr holds U+202E as it is:\n%s", stderr)
	}
	good := "text,filename\nhello,Cafe\u0301 menu\u0308\n"
	folder := filepath.Join(dir, "codes") + "/"
	if code, stderr := encodeArgs(t, good, "-batch", "-", "-o", folder); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if entries, _ := os.ReadDir(folder); len(entries) != 1 || entries[0].Name() != "Caf\u00e9 men\u00fc.svg" {
		t.Errorf("the folder holds %v, want the name in NFC", entries)
	}
	out := filepath.Join(dir, "codes.zip")
	if code, stderr := encodeArgs(t, good, "-batch", "-", "-o", out); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	zr, err := zip.OpenReader(out)
	if err != nil {
		t.Fatal(err)
	}
	defer zr.Close()
	if f := zr.File[0]; f.Name != "Caf\u00e9 men\u00fc.svg" || f.Flags&(1<<11) == 0 || f.NonUTF8 {
		t.Errorf("entry %+q, flags %#x: want the name in NFC, marked UTF-8", f.Name, f.Flags)
	}
}

// BenchmarkEncodeBatch makes batches of 1,000 URL codes (1024 px, the defaults) into a ZIP
// archive through bananaqr encode -batch, as SVG and as PNG, and reports codes a second. Run
// with -benchtime=1x for one batch, or a 10,000-row file with BANANAQR_BATCH_ROWS=10000.
func BenchmarkEncodeBatch(b *testing.B) {
	rows := 1000
	if n := os.Getenv("BANANAQR_BATCH_ROWS"); n != "" {
		fmt.Sscan(n, &rows)
	}
	for _, format := range []string{"svg", "png"} {
		b.Run(fmt.Sprintf("%s/%d", format, rows), func(b *testing.B) {
			var csv strings.Builder
			csv.WriteString("url,format\n")
			for i := range rows {
				fmt.Fprintf(&csv, "https://example.com/product/%06d?ref=batch,%s\n", i, format)
			}
			dir := b.TempDir()
			in := filepath.Join(dir, "codes.csv")
			os.WriteFile(in, []byte(csv.String()), 0o644)
			out := filepath.Join(dir, "codes.zip")
			b.ResetTimer()
			for b.Loop() {
				var stderr bytes.Buffer
				if code := run([]string{"encode", "-batch", in, "-o", out}, nil, io.Discard, &stderr); code != 0 {
					b.Fatal(stderr.String())
				}
			}
			b.ReportMetric(float64(rows*b.N)/b.Elapsed().Seconds(), "codes/s")
		})
	}
}

// TestProgressBar: the bar is drawn only on a terminal (never into a buffer, a file or a pipe),
// redrawn on one line, and always at the end.
func TestProgressBar(t *testing.T) {
	file, err := os.Create(filepath.Join(t.TempDir(), "stderr"))
	if err != nil {
		t.Fatal(err)
	}
	defer file.Close()
	r, w, _ := os.Pipe()
	defer r.Close()
	defer w.Close()
	for name, out := range map[string]io.Writer{"buffer": &bytes.Buffer{}, "file": file, "pipe": w} {
		if p := newProgressBar(out, 10); p.w != nil {
			t.Errorf("a bar on a %s", name)
		}
	}
	var b bytes.Buffer
	p := &progressBar{w: &b, total: 10}
	p.update(1)
	p.update(2) // within 100 ms of the first: not drawn
	p.update(10)
	p.done()
	if got := b.String(); got != "\r[###                           ] 1/10 codes\r[##############################] 10/10 codes\r\x1b[K" {
		t.Errorf("bar %q", got)
	}
}
