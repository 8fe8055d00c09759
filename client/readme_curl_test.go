package client

import (
	"archive/zip"
	"bytes"
	"encoding/json"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/bananaqr/bananaqr/internal/qrtest"
	"github.com/bananaqr/bananaqr/internal/ratelimit"
	"github.com/bananaqr/bananaqr/internal/testenv"
)

// readmeHost is the address the README's shell commands call.
const readmeHost = "http://localhost:8080"

// readmeCurls returns the curl commands of README.md's shell blocks that call readmeHost, each
// on one line (a line ending in a backslash joined to the next).
func readmeCurls(t *testing.T) []string {
	t.Helper()
	readme, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	var cmds []string
	for _, m := range regexp.MustCompile("(?s)\n```sh\n(.*?)\n```\n").FindAllStringSubmatch(string(readme), -1) {
		block := strings.ReplaceAll(m[1], "\\\n", "")
		for line := range strings.SplitSeq(block, "\n") {
			line = strings.TrimSpace(line)
			if strings.HasPrefix(line, "curl ") && strings.Contains(line, readmeHost) {
				cmds = append(cmds, line)
			}
		}
	}
	return cmds
}

// outputFile returns the file a curl command writes with -o, or "".
func outputFile(cmd string) string {
	if m := regexp.MustCompile(`\s-o\s+(\S+)`).FindStringSubmatch(cmd); m != nil {
		return m[1]
	}
	return ""
}

// fileMagic is how each file the README's commands write begins.
var fileMagic = map[string]string{".png": "\x89PNG\r\n\x1a\n", ".svg": "<svg", ".pdf": "%PDF-", ".eps": "%!PS-Adobe", ".zip": "PK\x03\x04"}

// TestREADMECurl runs every curl command of the README's shell blocks, as bash runs it, against
// a fresh service (its address in place of localhost:8080): each is answered 2xx (curl
// --fail-with-body), each file it writes is of the format its name says (a PNG also reads
// back as a QR code, a ZIP lists its codes), and what it prints is the SVG, the JSON or (through
// jq) the link to the service that it asks for.
func TestREADMECurl(t *testing.T) {
	if testing.Short() {
		t.Skip("runs curl: skipped with -short")
	}
	bash := testenv.Program(t, "bash", "it runs the README's commands")
	testenv.Program(t, "curl", "apt-get install curl")
	cmds := readmeCurls(t)
	if len(cmds) < 15 {
		t.Fatalf("the README has %d curl commands against %s, want the API's and the extensions' (15 or more):\n%s",
			len(cmds), readmeHost, strings.Join(cmds, "\n"))
	}
	svc := newService(t, ratelimit.NewMemory(60, time.Minute, nil))
	for _, readmeCmd := range cmds {
		t.Run(readmeCmd, func(t *testing.T) {
			if strings.Contains(readmeCmd, "| jq") && !testenv.Optional(t, hasProgram("jq"), "jq is not installed") {
				return
			}
			line := strings.Replace(readmeCmd, "curl ", "curl -sS --fail-with-body ", 1)
			line = strings.ReplaceAll(line, readmeHost, svc.URL)
			cmd := exec.Command(bash, "-e", "-o", "pipefail", "-c", line)
			cmd.Dir = t.TempDir()
			var stdout, stderr bytes.Buffer
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			if err := cmd.Run(); err != nil {
				t.Fatalf("%v: %s%s", err, stderr.Bytes(), stdout.Bytes())
			}
			if name := outputFile(readmeCmd); name != "" {
				checkOutputFile(t, filepath.Join(cmd.Dir, name))
				return
			}
			out := bytes.TrimSpace(stdout.Bytes())
			if strings.Contains(readmeCmd, "| jq") {
				if !bytes.HasPrefix(out, []byte(svc.URL+"/api/")) {
					t.Errorf("printed %q, want a link to the service", out)
				}
			} else if strings.Contains(readmeCmd, "/api/qr-code.svg?") {
				if !bytes.HasPrefix(out, []byte("<svg")) || !bytes.HasSuffix(out, []byte("</svg>")) {
					t.Errorf("printed %.200q, not an SVG", out)
				}
			} else if !json.Valid(out) {
				t.Errorf("printed %.200q, not JSON", out)
			}
		})
	}
}

// checkOutputFile checks that the file path begins as its extension says, and that a PNG
// reads back as a QR code.
func checkOutputFile(t *testing.T, path string) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	magic, ok := fileMagic[filepath.Ext(path)]
	if !ok {
		t.Fatalf("%s: no format known for its extension", path)
	}
	if !bytes.HasPrefix(b, []byte(magic)) && !(magic == "<svg" && bytes.Contains(b[:min(len(b), 200)], []byte(magic))) {
		t.Fatalf("%s begins %.40q, want %q", filepath.Base(path), b, magic)
	}
	switch filepath.Ext(path) {
	case ".zip":
		if zr, err := zip.NewReader(bytes.NewReader(b), int64(len(b))); err != nil || len(zr.File) == 0 {
			t.Errorf("%s is no archive of codes (%v)", filepath.Base(path), err)
		}
		return
	case ".png":
	default:
		return
	}
	img, err := png.Decode(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	if text, err := qrtest.DecodeImage(img, false); err != nil || text == "" {
		t.Errorf("%s reads %q (%v)", filepath.Base(path), text, err)
	}
}

// hasProgram reports whether name is on PATH.
func hasProgram(name string) bool {
	_, err := exec.LookPath(name)
	return err == nil
}
