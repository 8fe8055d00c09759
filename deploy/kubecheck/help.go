package main

import (
	"context"
	"fmt"
	"os/exec"
	"regexp"
	"strings"
	"time"
)

// serverHelp is what a server's -h says: its flags, their environment twins and the default
// shutdown timeout.
type serverHelp struct {
	// Command is the server's subcommand: ["serve"] or ["expenses", "serve"].
	Command []string
	// Flags are the flag names without dashes; Env the environment variables named (the flags'
	// BANANAQR_* twins, and the OpenTelemetry variables -h says the server reads).
	Flags map[string]bool
	Env   map[string]bool
	// Text is the whole -h text, for the flags' defaults.
	Text string
}

// Each server's subcommand, by the name -server takes.
var serverCommands = map[string][]string{
	"serve":    {"serve"},
	"expenses": {"expenses", "serve"},
}

var (
	helpFlagLine = regexp.MustCompile(`(?m)^\s+--?([a-z][a-z0-9-]*)\b`)
	helpEnvName  = regexp.MustCompile(`\b(?:BANANAQR|OTEL)_[A-Z0-9_]+\b`)
)

// readHelp runs BIN <server's command> -h and parses what it prints.
func readHelp(ctx context.Context, bin, server string) (*serverHelp, error) {
	command, ok := serverCommands[server]
	if !ok {
		return nil, fmt.Errorf("unknown -server %q (want serve or expenses)", server)
	}
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	// -h exits 0 (serve) or 2 (the flag package's default); the text is what matters.
	out, _ := exec.CommandContext(ctx, bin, append(append([]string{}, command...), "-h")...).CombinedOutput()
	h, err := parseHelp(string(out))
	if err != nil {
		return nil, fmt.Errorf("%s %s -h: %w", bin, strings.Join(command, " "), err)
	}
	h.Command = command
	return h, nil
}

// parseHelp reads the flags (lines that start, indented, with -name or --name) and every
// BANANAQR_* and OTEL_* name out of a -h text.
func parseHelp(text string) (*serverHelp, error) {
	h := &serverHelp{Flags: map[string]bool{}, Env: map[string]bool{}, Text: text}
	for _, m := range helpFlagLine.FindAllStringSubmatch(text, -1) {
		h.Flags[m[1]] = true
	}
	for _, name := range helpEnvName.FindAllString(text, -1) {
		h.Env[name] = true
	}
	if len(h.Flags) == 0 {
		return nil, fmt.Errorf("no flags found in:\n%s", text)
	}
	return h, nil
}

// durationDefault returns a duration flag's default as -h states it (on the line below the
// flag's: "(default 30s)"), 0 when -h states none or the binary has no such flag.
func (h *serverHelp) durationDefault(flag string) (time.Duration, error) {
	if !h.Flags[flag] {
		return 0, nil
	}
	re := regexp.MustCompile(`(?m)^\s+--?` + regexp.QuoteMeta(flag) + `\b[^\n]*\n[^\n]*\(default ([0-9a-zµ.]+)\)`)
	m := re.FindStringSubmatch(h.Text)
	if m == nil {
		return 0, nil
	}
	d, err := time.ParseDuration(m[1])
	if err != nil {
		return 0, fmt.Errorf("--%s's default %q: %w", flag, m[1], err)
	}
	return d, nil
}
