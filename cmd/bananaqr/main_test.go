package main

import (
	"bytes"
	"image/png"
	"os"
	"strings"
	"testing"

	"github.com/bananaqr/bananaqr/internal/qrtest"
)

// readTerminal turns half-block art back into modules (dark where the glyphs are unlit,
// or lit with invert) and decodes it.
func readTerminal(t *testing.T, out string, invert bool) string {
	t.Helper()
	var lit [][]bool
	for _, line := range strings.Split(strings.TrimSuffix(out, "\n"), "\n") {
		var top, bottom []bool
		for _, r := range line {
			if !strings.ContainsRune(" ▄▀█", r) {
				t.Fatalf("unexpected character %q in %q", r, line)
			}
			top = append(top, r == '▀' || r == '█')
			bottom = append(bottom, r == '▄' || r == '█')
		}
		lit = append(lit, top, bottom)
	}
	n := len(lit[0])
	text, err := qrtest.Decode(n, func(x, y int) bool { return lit[y][x] == invert })
	if err != nil {
		t.Fatalf("decoding the terminal output: %v\n%s", err, out)
	}
	return text
}

func TestEncode(t *testing.T) {
	for _, tc := range []struct {
		args   []string
		stdin  string
		invert bool
		want   string
	}{
		{args: []string{"encode", "https://example.com/products/12345?ref=newsletter"}, want: "https://example.com/products/12345?ref=newsletter"},
		{args: []string{"encode", "--invert", "--ecc", "H", "Grüße", "aus", "Köln"}, invert: true, want: "Grüße aus Köln"},
		{args: []string{"encode", "--margin", "1"}, stdin: "from standard input\n", want: "from standard input"},
		{args: []string{"encode", "-invert", "-"}, stdin: "line one\nline two\r\n", invert: true, want: "line one\nline two"},
	} {
		var stdout, stderr bytes.Buffer
		if code := run(tc.args, strings.NewReader(tc.stdin), &stdout, &stderr); code != 0 {
			t.Fatalf("%v: exit %d: %s", tc.args, code, stderr.String())
		}
		if got := readTerminal(t, stdout.String(), tc.invert); got != tc.want {
			t.Errorf("%v: decoded %q, want %q", tc.args, got, tc.want)
		}
	}
}

func TestMargin(t *testing.T) {
	var stdout bytes.Buffer
	if code := run([]string{"encode", "--margin", "0", "--invert", "x"}, nil, &stdout, &bytes.Buffer{}); code != 0 {
		t.Fatal(code)
	}
	first := strings.SplitN(stdout.String(), "\n", 2)[0]
	if got := len([]rune(first)); got != 21 { // version 1, no quiet zone
		t.Errorf("line of %d characters, want 21", got)
	}
	if !strings.HasPrefix(first, "█▀▀▀▀▀█") { // the top of a finder pattern, drawn dark
		t.Errorf("first line %q", first)
	}
}

func TestErrors(t *testing.T) {
	for _, tc := range []struct {
		args    []string
		stdin   string
		code    int
		message string
	}{
		{nil, "", 2, "Usage"},
		{[]string{"frobnicate"}, "", 2, `unknown command "frobnicate"`},
		// The flags go through the API's own rules, with its messages, codes and hints.
		{[]string{"encode", "--ecc", "X", "hi"}, "", 2, "-ecc: ecc \"X\" is not L, M, Q or H (upper case) (INVALID_VALUE)"},
		{[]string{"encode", "--margin", "17", "hi"}, "", 2, "-margin: margin 17 is out of range 0..16 (INVALID_VALUE)"},
		{[]string{"encode", "--corners", "oval", "hi"}, "", 2, "-corners: corners \"oval\" is not square or rounded (INVALID_VALUE)"},
		// The service's colour rule, offline too: WCAG 3.04:1, but zxing-cpp cannot read it.
		{[]string{"encode", "--color", "E0701A", "--background", "FFF8E1", "-o", "x.png", "hi"}, "", 2, "LOW_CONTRAST)\nUse a darker color, such as #B75C15."},
		{[]string{"encode", "--bogus"}, "", 2, "flag provided but not defined"},
		// The service's limits hold offline too: one pipeline.
		{[]string{"encode"}, strings.Repeat("a", 3000), 1, "(PAYLOAD_TOO_LARGE)"},
		{[]string{"encode", "--ecc", "H", "-o", "x.png"}, strings.Repeat("a", 2000), 1, "at most 1273 bytes"},
		{[]string{"encode", "\xff"}, "", 2, "(INVALID_TEXT)"},
	} {
		var stdout, stderr bytes.Buffer
		if code := run(tc.args, strings.NewReader(tc.stdin), &stdout, &stderr); code != tc.code || !strings.Contains(stderr.String(), tc.message) {
			t.Errorf("%v: exit %d, stderr %q; want exit %d and %q", tc.args, code, stderr.String(), tc.code, tc.message)
		}
		if stdout.Len() != 0 {
			t.Errorf("%v: wrote %q to stdout", tc.args, stdout.String())
		}
	}
}

func TestVersionAndHelp(t *testing.T) {
	for args, want := range map[string]string{"version": "bananaqr ", "help": "Usage:"} {
		var stdout bytes.Buffer
		if code := run([]string{args}, nil, &stdout, &bytes.Buffer{}); code != 0 || !strings.Contains(stdout.String(), want) {
			t.Errorf("%s: exit %d, %q", args, code, stdout.String())
		}
	}
}

func TestEncodeToFile(t *testing.T) {
	dir := t.TempDir()
	text := "https://example.com/products/12345?ref=newsletter"
	for _, args := range [][]string{
		{"-o", dir + "/a.png"},
		{"-o", dir + "/b.PNG", "--corners", "rounded", "--logo", "banana", "--size", "512", "--color", "#1A237E", "--background", "FFF8E1"},
		{"-o", dir + "/c.svg", "--margin", "2"},
	} {
		var stderr bytes.Buffer
		if code := run(append(append([]string{"encode"}, args...), text), nil, &bytes.Buffer{}, &stderr); code != 0 {
			t.Fatalf("%v: exit %d: %s", args, code, stderr.String())
		}
		data, err := os.ReadFile(args[1])
		if err != nil {
			t.Fatal(err)
		}
		if strings.HasSuffix(args[1], ".svg") {
			if !bytes.HasPrefix(data, []byte("<svg ")) {
				t.Errorf("%s: %.40q", args[1], data)
			}
			continue
		}
		img, err := png.Decode(bytes.NewReader(data))
		if err != nil {
			t.Fatal(err)
		}
		if got, err := qrtest.DecodeRendered(img, 8); err != nil || got != text {
			t.Errorf("%v: decoded %q, %v", args, got, err)
		}
	}
	for _, tc := range []struct{ args []string }{
		{[]string{"-o", dir + "/x.gif"}}, {[]string{"--corners", "round"}}, {[]string{"--logo", "apple"}},
		{[]string{"--color", "red"}}, {[]string{"--background", "#12345"}},
	} {
		if code := run(append(append([]string{"encode"}, tc.args...), text), nil, &bytes.Buffer{}, &bytes.Buffer{}); code != 2 {
			t.Errorf("%v: exit %d, want 2", tc.args, code)
		}
	}
	var stderr bytes.Buffer
	if code := run([]string{"encode", "-o", dir + "/d.png", "--size", "128", strings.Repeat("x", 2000)}, nil, &bytes.Buffer{}, &stderr); code != 1 || !strings.Contains(stderr.String(), "pixels") {
		t.Errorf("too small: exit %d, %s", code, stderr.String())
	}
}

// Flags after the text are flags, never words of the text (issue 19); after "--" every
// argument is text.
func TestEncodeFlagsAfterText(t *testing.T) {
	dir := t.TempDir()
	var stderr bytes.Buffer
	if code := run([]string{"encode", "https://example.com", "-o", dir + "/late.png", "-size", "256"}, nil, &bytes.Buffer{}, &stderr); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	data, err := os.ReadFile(dir + "/late.png")
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	if got, err := qrtest.DecodeRendered(img, 4); err != nil || got != "https://example.com" || img.Bounds().Dx() != 256 {
		t.Errorf("decoded %q, %v, %d pixels; want https://example.com, 256 pixels", got, err, img.Bounds().Dx())
	}

	var stdout bytes.Buffer
	if code := run([]string{"encode", "-invert", "a", "-margin", "2", "b", "--", "-o", "c"}, nil, &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	if got := readTerminal(t, stdout.String(), true); got != "a b -o c" {
		t.Errorf("decoded %q, want %q", got, "a b -o c")
	}

	stderr.Reset()
	if code := run([]string{"encode", "hello", "-x"}, nil, &bytes.Buffer{}, &stderr); code != 2 || !strings.Contains(stderr.String(), "-x") {
		t.Errorf("an unknown flag after the text: exit %d, %q; want 2 naming it", code, stderr.String())
	}
	if code := run([]string{"encode", "-type", "url", "-url", "example.com", "extra"}, nil, &bytes.Buffer{}, &stderr); code != 2 {
		t.Errorf("a text beside -type, after its fields: exit %d, want 2", code)
	}
}

// TestEncodeTypes builds payloads from -type and its fields, as the HTTP API does.
func TestEncodeTypes(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"-type", "wifi", "-ssid", "Lab Net", "-password", "hunter22", "-hidden"}, "WIFI:T:WPA;S:Lab Net;P:hunter22;H:true;;"},
		{[]string{"-type", "vcard", "-name", "Anna Müller", "-job-title", "CEO"}, "BEGIN:VCARD\r\nVERSION:3.0\r\nN:Müller;Anna;;;\r\nFN:Anna Müller\r\nTITLE:CEO\r\nEND:VCARD\r\n"},
		{[]string{"-type", "url", "-url", "example.com"}, "https://example.com"},
		{[]string{"-type", "sms", "-phone", "+1 (555) 123-4567", "-message", "hi"}, "SMSTO:+15551234567:hi"},
	} {
		var stdout, stderr bytes.Buffer
		if code := run(append([]string{"encode", "--invert"}, tc.args...), nil, &stdout, &stderr); code != 0 {
			t.Fatalf("%v: exit %d: %s", tc.args, code, stderr.String())
		}
		if got := readTerminal(t, stdout.String(), true); got != tc.want {
			t.Errorf("%v: decoded %q, want %q", tc.args, got, tc.want)
		}
	}
	for _, tc := range []struct {
		args    []string
		message string
	}{
		{[]string{"-type", "wifi", "-ssid", "x", "-password", "short"}, "INVALID_PASSWORD"},
		{[]string{"-type", "url", "-url", "javascript:alert(1)"}, "INVALID_URL"},
		{[]string{"-type", "text", "-text", "a", "positional"}, "not both"},
		{[]string{"-type", "fax"}, "INVALID_TYPE"},
	} {
		var stderr bytes.Buffer
		if code := run(append([]string{"encode"}, tc.args...), nil, &bytes.Buffer{}, &stderr); code != 2 || !strings.Contains(stderr.String(), tc.message) {
			t.Errorf("%v: exit %d, %q", tc.args, code, stderr.String())
		}
	}
}
