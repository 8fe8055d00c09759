package httpapi

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestArchitectureWalk holds docs/architecture.md's walk of one request to the code: each step
// names a file that exists and functions or types declared in it (or in an earlier step's file),
// and the walk names at most 20 files.
func TestArchitectureWalk(t *testing.T) {
	root := filepath.Join("..", "..")
	doc, err := os.ReadFile(filepath.Join(root, "docs", "architecture.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, section, ok := strings.Cut(string(doc), "\n## The walk of one request")
	section, _, _ = strings.Cut(section, "\n## ")
	if !ok {
		t.Fatal("docs/architecture.md has no section \"The walk of one request\"")
	}
	step := regexp.MustCompile("(?m)^\\d+\\. `([^`]+)`: (.*)$")
	ident := regexp.MustCompile("`([A-Za-z_][A-Za-z0-9_]*)`")
	var sources []string // the files of the steps so far
	for _, m := range step.FindAllStringSubmatch(section, -1) {
		src, err := os.ReadFile(filepath.Join(root, m[1]))
		if err != nil {
			t.Errorf("the walk names %s: %v", m[1], err)
			continue
		}
		sources = append(sources, string(src))
		for _, id := range ident.FindAllStringSubmatch(m[2], -1) {
			decl := regexp.MustCompile(`(?m)^(func (\([^)]*\) )?|type )` + id[1] + `\b`)
			if !decl.MatchString(strings.Join(sources, "\n")) {
				t.Errorf("step %s names %s, which neither it nor an earlier step declares", m[1], id[1])
			}
		}
	}
	if n := len(sources); n == 0 || n > 20 {
		t.Errorf("the walk names %d files, want 1 to 20", n)
	}
}
