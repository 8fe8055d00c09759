package main

import (
	"bytes"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/bananaqr/bananaqr/api"
	"github.com/bananaqr/bananaqr/payload"
)

// TestEncodeHelpFromAPI holds bananaqr encode's flags and help to the API's rules, so that they
// cannot drift: every style field is a flag with the API's default and allowed values, size and
// margin give the API's ranges, -type lists every payload type, and every payload field the API
// reads (less its older aliases) is a flag.
func TestEncodeHelpFromAPI(t *testing.T) {
	var stderr bytes.Buffer
	if code := run([]string{"encode", "-h"}, nil, &bytes.Buffer{}, &stderr); code != 0 {
		t.Fatalf("encode -h: exit %d", code)
	}
	help := stderr.String()
	flags := flagUsages(help)

	for name, value := range api.StyleDefaults() {
		if name == "format" {
			continue // the format is the -o file's extension
		}
		usage, ok := flags[styleFlag(name)]
		if !ok {
			t.Errorf("no -%s flag", styleFlag(name))
			continue
		}
		want := fmt.Sprintf("(default %q)", value)
		if name == "size" || name == "margin" {
			want = "(default " + value + ")"
		}
		if value == "" || value == "false" { // the flag package states no empty or false default
			want = ""
		}
		if !strings.Contains(usage, want) {
			t.Errorf("-%s: %q does not say %s", name, usage, want)
		}
		for _, v := range api.StyleValues(name) {
			if !strings.Contains(usage, v) {
				t.Errorf("-%s: %q does not list %s", name, usage, v)
			}
		}
	}
	for name, want := range map[string]string{
		"size":   fmt.Sprintf("(%d..%d)", api.MinSize, api.MaxSize),
		"margin": fmt.Sprintf("(0..%d)", api.MaxMargin),
		"remote": fmt.Sprintf("%d,%03d characters", payload.MaxLen/1000, payload.MaxLen%1000),
	} {
		if !strings.Contains(flags[name], want) {
			t.Errorf("-%s: %q does not say %s", name, flags[name], want)
		}
	}

	if want := "-type " + strings.Join(typeNames(), "|"); !strings.Contains(help, want) {
		t.Errorf("the usage line does not say %q:\n%s", want, help)
	}
	if want := payload.JoinWords(payload.Types, "or"); !strings.Contains(flags["type"], want) {
		t.Errorf("-type: %q does not list %q", flags["type"], want)
	}
	for _, field := range api.PayloadFields() {
		if _, ok := flags[flagName(field)]; !ok {
			t.Errorf("the payload field %s has no flag -%s", field, flagName(field))
		}
	}
	if _, ok := flags["hidden"]; !ok {
		t.Error("no -hidden flag")
	}
	for _, typ := range payload.Types {
		f := payload.TypeFields[typ]
		line := regexp.MustCompile(`(?m)^  ` + string(typ) + ` +(.*)$`).FindStringSubmatch(help)
		if line == nil {
			t.Errorf("the help has no line of the fields of %s", typ)
			continue
		}
		required, optional, _ := strings.Cut(line[1], "; optional: ")
		for _, want := range []struct {
			got    string
			fields []string
		}{{required, f.Required}, {optional, f.Optional}} {
			var flags []string
			for _, name := range want.fields {
				flags = append(flags, "-"+flagName(name))
			}
			if got := strings.Fields(want.got); !slices.Equal(got, flags) {
				t.Errorf("%s: the help says %q, want %q", typ, got, flags)
			}
		}
	}
	if want := payload.JoinWords(payload.AcceptedSecurities(), "or"); !strings.Contains(flags["security"], want) {
		t.Errorf("-security: %q does not list %q", flags["security"], want)
	}
}

// flagUsages reads flag.PrintDefaults' output in help: each flag's usage text by name, its lines
// joined by spaces.
func flagUsages(help string) map[string]string {
	usages := map[string]string{}
	name := ""
	for line := range strings.Lines(help) {
		line = strings.TrimRight(line, "\n")
		switch {
		case strings.HasPrefix(line, "  -"):
			name, _, _ = strings.Cut(line[3:], " ")
			usages[name] = ""
		case name != "" && strings.HasPrefix(line, "    \t"):
			usages[name] = strings.TrimSpace(usages[name] + " " + line[5:])
		}
	}
	return usages
}

// TestHelpNamesFileFormats: the top-level help names every format encode -o writes
// (api.FileFormats), so that a format added to the API is in the help too.
func TestHelpNamesFileFormats(t *testing.T) {
	var stdout bytes.Buffer
	if code := run([]string{"help"}, nil, &stdout, &bytes.Buffer{}); code != 0 {
		t.Fatalf("help: exit %d", code)
	}
	var names []string
	for _, f := range api.FileFormats() {
		names = append(names, strings.ToUpper(string(f)))
	}
	if len(names) < 4 {
		t.Fatalf("api.FileFormats() = %v, want at least SVG, PNG, PDF and EPS", names)
	}
	// The help wraps its lines: compare with its words joined by single spaces.
	help := strings.Join(strings.Fields(stdout.String()), " ")
	if want := "written to an " + payload.JoinWords(names, "or") + " file (-o)"; !strings.Contains(help, want) {
		t.Errorf("the help does not say %q:\n%s", want, stdout.String())
	}
}
