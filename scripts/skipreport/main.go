// Command skipreport reads the events of `go test -json` (cmd/test2json) on standard input and
// prints what a plain `go test` would: each package's result line, and the output of the tests
// that failed. It also notes every skipped test with the reason it gave, so that test.sh can end
// with a summary of what did not run: a green local run must not hide untested parts.
//
//	go test -json ./... 2>&1 | go run ./scripts/skipreport -o skipped.txt
//
// Lines that are not JSON events (build errors, which go test writes to standard error) are
// printed as they come. The -o file gets one line per skipped test, "package Test: reason".
package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
)

// event is the part of a test2json event this command reads.
type event struct {
	Action  string
	Package string
	Test    string
	Output  string
}

func main() {
	out := flag.String("o", "", "append the skipped tests to this `file`")
	flag.Parse()
	skips, err := report(os.Stdin, os.Stdout)
	if err == nil && *out != "" {
		err = appendLines(*out, skips)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "skipreport:", err)
		os.Exit(2)
	}
}

// report copies the plain test output of the events on r to w and returns the skipped tests,
// "package Test: reason", in the order they ended.
func report(r io.Reader, w io.Writer) ([]string, error) {
	outputs := map[string][]string{} // the output of each running test, by package and name
	var skips []string
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), 16*1024*1024)
	for sc.Scan() {
		line := sc.Bytes()
		var e event
		if len(line) == 0 || line[0] != '{' || json.Unmarshal(line, &e) != nil {
			fmt.Fprintf(w, "%s\n", line)
			continue
		}
		if e.Test == "" { // the package's own lines: its result, build errors, panics
			if (e.Action == "output" || e.Action == "build-output") && e.Output != "PASS\n" {
				io.WriteString(w, e.Output)
			}
			continue
		}
		key := e.Package + " " + e.Test
		switch e.Action {
		case "output":
			outputs[key] = append(outputs[key], e.Output)
		case "fail":
			io.WriteString(w, strings.Join(outputs[key], ""))
			delete(outputs, key)
		case "skip":
			skips = append(skips, key+": "+skipReason(outputs[key]))
			delete(outputs, key)
		case "pass":
			delete(outputs, key)
		}
	}
	return skips, sc.Err()
}

// skipReason returns what a skipped test logged, on one line, without the framework's own lines
// (=== RUN, --- SKIP) and the file:line prefixes.
func skipReason(output []string) string {
	var parts []string
	for _, o := range output {
		o = strings.TrimSpace(o)
		if o == "" || strings.HasPrefix(o, "=== ") || strings.HasPrefix(o, "--- ") {
			continue
		}
		if file, rest, ok := strings.Cut(o, ": "); ok && strings.Contains(file, ".go:") && !strings.Contains(file, " ") {
			o = rest
		}
		parts = append(parts, o)
	}
	if len(parts) == 0 {
		return "(no reason given)"
	}
	return strings.Join(parts, " ")
}

// appendLines appends lines to the file at path, creating it if need be.
func appendLines(path string, lines []string) error {
	f, err := os.OpenFile(path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		return err
	}
	for _, l := range lines {
		fmt.Fprintln(f, l)
	}
	return f.Close()
}
