package batch

import (
	"archive/zip"
	"bytes"
	"context"
	"encoding/binary"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bananaqr/bananaqr/api"
	"github.com/bananaqr/bananaqr/internal/testenv"
)

// planNames plans a batch of text codes with the file names given, one an item, as a JSON batch
// asks for them (ReadJSON, then Plan: the API's way, which bananaqr encode -batch shares).
func planNames(t *testing.T, names ...string) ([]Entry, Errors) {
	t.Helper()
	var items []Item
	for i, name := range names {
		items = append(items, Item{Request: request(t, `{"text":"`+string(rune('a'+i))+`"}`), Filename: name})
	}
	return Plan(items, 2)
}

// TestFileNameRefused: names that Windows or macOS cannot make, or make as another name, or
// that hide or reorder what they show, are refused with the API's error on filename and a hint
// naming the rule; none of them was before.
func TestFileNameRefused(t *testing.T) {
	const (
		device    = "Windows keeps CON, PRN, AUX, NUL, COM0 to COM9 and LPT0 to LPT9 for devices"
		reserved  = `Remove < > : " | ? *`
		invisible = "Remove invisible characters"
		trailing  = "Remove the dot or space at the end"
	)
	for name, hint := range map[string]string{
		"CON": device, "nul": device, "CON.svg": device, "com1": device, "LPT9.png": device, "Aux.menu": device,
		"prn .svg": device, "COM¹": device, "lpt³": device, "COM0": device,
		"C:evil": reserved, "a:b": reserved, `a*b?c<d>e|f"g`: reserved, "menu?": reserved,
		"menu.": trailing, "menu ": trailing, "menu.svg.": trailing,
		"pay\u202Egpj.svg": invisible, "a\u202Ab": invisible, "a\u2066b": invisible, "a\u2069b": invisible, "a\u200Eb": invisible,
		"a\u200Fb": invisible, "a\u061Cb": invisible, "a\u200Bb": invisible, "a\u200Db": invisible, "\uFEFFmenu": invisible,
		"a\u00ADb": invisible, "a\u2060b": invisible, "a\u3164b": invisible, "a\u2028b": invisible, "a\uFFFDb": invisible,
	} {
		_, errs := planNames(t, name)
		if len(errs) != 1 {
			t.Errorf("%+q: accepted", name)
			continue
		}
		e := errs[0].Err
		if e.Reason != api.ReasonInvalidValue || e.Field != "filename" || !strings.Contains(e.Hint, hint) {
			t.Errorf("%+q: %s %s %q (%s), want INVALID_VALUE filename and the hint %q", name, e.Reason, e.Field, e.Message, e.Hint, hint)
		}
		if strings.ContainsFunc(e.Message, invisibleRune) {
			t.Errorf("%+q: the message shows the invisible character as it is: %q", name, e.Message)
		}
	}
}

// invisibleRune is invisible, for the test: the message quotes names with them escaped.
func invisibleRune(r rune) bool { return r != '\uFFFD' && invisible(r) }

// TestFileNameAccepted: names near the rules are still names: a device name as part of a longer
// word, COM10, a no-break space, emoji with a variation selector, letters of any script.
func TestFileNameAccepted(t *testing.T) {
	entries, errs := planNames(t, "CONSOLE", "console-2.svg", "com10", "LPT", "auxiliary", "Café menu", "a\u00A0b", "🍕 menu ❤️",
		"Ωμέγα", "東京", " leading space", "a.b.c", "fullwidth：colon")
	if errs != nil {
		t.Fatal(errs)
	}
	if entries[7].Name != "🍕 menu ❤️.svg" || entries[8].Name != "Ωμέγα.svg" {
		t.Errorf("names %q, %q", entries[7].Name, entries[8].Name)
	}
}

// TestFileNameNFC: a name is stored in Unicode's NFC form, however it came (macOS gives NFD),
// and two names the same after NFC, or after NFC and in any case, or with a letter of two
// lower-case forms (ς and σ, both Σ), are one name, refused the second time: macOS, Windows
// and their archivers would write one file over the other.
func TestFileNameNFC(t *testing.T) {
	entries, errs := planNames(t, "Cafe\u0301 menu", "Ä\u0308x") // é decomposed; Ä is NFC already, Ä̈ is not one letter
	if errs != nil {
		t.Fatal(errs)
	}
	if entries[0].Name != "Caf\u00e9 menu.svg" || entries[1].Name != "Ä\u0308x.svg" {
		t.Errorf("names %+q, %+q: want NFC", entries[0].Name, entries[1].Name)
	}
	for _, pair := range [][2]string{
		{"Caf\u00e9", "Cafe\u0301"}, {"CAF\u00c9.svg", "cafe\u0301"}, {"\u212Bngstr\u00f6m", "\u00c5ngstro\u0308m"}, // Ångström with Å as the angstrom sign
		{"\u03c3.svg", "\u03c2.svg"}, {"Menu", "mENU.SVG"},
	} {
		_, errs := planNames(t, pair[0], pair[1])
		if len(errs) != 1 || errs[0].Index != 1 || errs[0].Err.Field != "filename" || !strings.Contains(errs[0].Err.Message, "is item 0's too") {
			t.Errorf("%+q and %+q: %v, want the second refused as the first's", pair[0], pair[1], errs)
		}
	}
}

// TestFileNameJSON: a JSON batch's filename with a lone UTF-16 surrogate (\ud800), which
// encoding/json reads as U+FFFD, is refused like the API's other text, not stored as U+FFFD.
func TestFileNameJSON(t *testing.T) {
	items, err := ReadJSON([]byte(`[{"text":"a","filename":"\ud800menu"},{"text":"b","filename":"CON"},{"text":"c","filename":"ok"}]`))
	if err != nil {
		t.Fatal(err)
	}
	_, errs := Plan(items, 1)
	if len(errs) != 2 || errs[0].Index != 0 || errs[1].Index != 1 || errs[0].Err.Field != "filename" || errs[1].Err.Field != "filename" {
		t.Errorf("errors %v", errs)
	}
}

// TestZipUTF8Names: an entry whose name is not ASCII is marked UTF-8 (general purpose bit 11,
// APPNOTE 4.4.4) in its local header and in the central directory, and an ASCII name is not
// (its headers as before, byte for byte); Go's reader, Python's zipfile and Info-ZIP's unzip
// read the names back. Before, Python read Café as Caf├⌐ (code page 437).
func TestZipUTF8Names(t *testing.T) {
	names := []string{"Café menü.svg", "plain.svg", "東京.svg", "qr-4-text.svg"}
	entries, errs := planNames(t, "Cafe\u0301 menü", "plain", "東京", "")
	if errs != nil {
		t.Fatal(errs)
	}
	var b bytes.Buffer
	if err := WriteZip(context.Background(), &b, entries, 2, Local, nil); err != nil {
		t.Fatal(err)
	}
	archive := b.Bytes()
	local := localFlags(t, archive)
	zr, err := zip.NewReader(bytes.NewReader(archive), int64(len(archive)))
	if err != nil {
		t.Fatal(err)
	}
	for i, f := range zr.File {
		want := uint16(0)
		if i%2 == 0 {
			want = 1 << 11
		}
		if f.Name != names[i] || f.Flags != want || local[f.Name] != want || f.NonUTF8 {
			t.Errorf("%q: central flags %#x, local %#x, NonUTF8 %v; want %q with flags %#x", f.Name, f.Flags, local[f.Name], f.NonUTF8, names[i], want)
		}
	}
	path := filepath.Join(t.TempDir(), "codes.zip")
	if err := os.WriteFile(path, archive, 0o644); err != nil {
		t.Fatal(err)
	}
	want := strings.Join(names, "\n") + "\n"
	python := "import sys, zipfile\nfor n in zipfile.ZipFile(sys.argv[1]).namelist(): print(n)"
	if out, err := consumer(t, "/usr/bin/python3", "-c", python, path); err == nil && out != want {
		t.Errorf("Python's zipfile reads\n%s, want\n%s", out, want)
	}
	if out, err := consumer(t, "unzip", "-Z1", path); err == nil && out != want {
		t.Errorf("unzip -Z1 reads\n%s, want\n%s", out, want)
	}
	if out, err := consumer(t, "unzip", "-l", path); err == nil && !strings.Contains(out, "   Café menü.svg\n") {
		t.Errorf("unzip -l:\n%s", out)
	}
}

// consumer runs a reader of ZIP archives in a UTF-8 locale and returns what it writes; when
// the program is not installed, it says so and returns an error (CI has both).
func consumer(t *testing.T, program string, args ...string) (string, error) {
	t.Helper()
	if _, err := exec.LookPath(program); !testenv.Optional(t, err == nil, program+" is not installed: the archive's names are not read with it") {
		return "", err
	}
	cmd := exec.Command(program, args...)
	cmd.Env = append(os.Environ(), "LC_ALL=C.UTF-8", "PYTHONIOENCODING=utf-8")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Errorf("%s: %v\n%s", program, err, out)
	}
	return string(out), err
}

// localFlags returns the general purpose flags of each local file header of a ZIP archive, by
// name, walking the headers (APPNOTE 4.3.7: the signature PK\3\4, the flags at byte 6, the
// compressed size at 18, the lengths of the name and the extra field at 26 and 28, the name
// from byte 30, then the extra field and the file's data; Add writes no data descriptor).
func localFlags(t *testing.T, archive []byte) map[string]uint16 {
	t.Helper()
	flags := map[string]uint16{}
	for at := 0; len(archive) >= at+30 && string(archive[at:at+4]) == "PK\x03\x04"; {
		h := archive[at:]
		n, m := int(binary.LittleEndian.Uint16(h[26:])), int(binary.LittleEndian.Uint16(h[28:]))
		flags[string(h[30:30+n])] = binary.LittleEndian.Uint16(h[6:])
		at += 30 + n + m + int(binary.LittleEndian.Uint32(h[18:]))
	}
	if len(flags) == 0 {
		t.Fatal("no local file header")
	}
	return flags
}
