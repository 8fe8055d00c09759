package qrtest

import (
	"bufio"
	"bytes"
	_ "embed"
	"encoding/json"
	"encoding/xml"
	"os"
	"os/exec"
	"strconv"
	"testing"
)

// The decoders outside Go: zbarimg (Debian's zbar-tools) and zxing-cpp (python3-zxing-cpp, with
// python3-pil), both independent of this project. .ci/run installs them.

//go:embed zxing_decode.py
var zxingScript string

// python is the interpreter that has Debian's zxingcpp module.
const python = "/usr/bin/python3"

// NeedTools skips the test when one of the programs is not installed, or fails it in CI (the
// CI environment variable set), where they must be.
func NeedTools(t testing.TB, names ...string) {
	t.Helper()
	for _, name := range names {
		if _, err := exec.LookPath(name); err != nil {
			missing(t, name)
		}
	}
}

// NeedZXingCPP is NeedTools for zxing-cpp's Python module and PIL.
func NeedZXingCPP(t testing.TB) {
	t.Helper()
	if err := exec.Command(python, "-c", "import zxingcpp, PIL").Run(); err != nil {
		missing(t, "python3-zxing-cpp and python3-pil")
	}
}

func missing(t testing.TB, what string) {
	t.Helper()
	if os.Getenv("CI") != "" {
		t.Fatalf("%s is not installed, and CI must run this test", what)
	}
	t.Skipf("SKIPPED: %s is not installed (see .ci/run)", what)
}

// Zbarimg decodes image files with zbar and returns the text found in each (of those with
// exactly one QR code).
func Zbarimg(t testing.TB, files []string) map[string]string {
	t.Helper()
	out, err := exec.Command("zbarimg", append([]string{"-q", "--xml", "-Sdisable", "-Sqrcode.enable"}, files...)...).Output()
	if err != nil && len(out) == 0 {
		t.Fatalf("zbarimg: %v", err)
	}
	var doc struct {
		Sources []struct {
			Href    string `xml:"href,attr"`
			Symbols []struct {
				Data string `xml:"data"`
			} `xml:"index>symbol"`
		} `xml:"source"`
	}
	if err := xml.Unmarshal(out, &doc); err != nil {
		t.Fatalf("zbarimg output: %v", err)
	}
	got := map[string]string{}
	for _, s := range doc.Sources {
		if len(s.Symbols) == 1 {
			got[s.Href] = s.Symbols[0].Data
		}
	}
	return got
}

// A Read is what zxing-cpp read in a file: the text, or "error: " and why; and the symbology
// identifier (ISO/IEC 18004 Annex F: "]Q1" for a QR Code without ECI, "]Q2" with one).
type Read struct {
	Text, Symbology string
}

// ZXingCPP decodes image files with zxing-cpp and returns what it read in each.
func ZXingCPP(t testing.TB, files []string) map[string]Read {
	t.Helper()
	out, err := exec.Command(python, append([]string{"-c", zxingScript}, files...)...).Output()
	if err != nil {
		t.Fatalf("zxing-cpp: %v", err)
	}
	got := map[string]Read{}
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var r struct {
			File      string  `json:"file"`
			Text      *string `json:"text"`
			Symbology *string `json:"symbology"`
			Error     *string `json:"error"`
		}
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatal(err)
		}
		if r.Text != nil {
			got[r.File] = Read{*r.Text, *r.Symbology}
		} else {
			got[r.File] = Read{Text: "error: " + strconv.Quote(*r.Error)}
		}
	}
	return got
}
