package client

import (
	"os/exec"
	"strings"
	"testing"
)

// TestLightDependencies: what a user of the client compiles is the standard library, the wire
// (package api) and the payload's types, with the payload's own dependencies (golang.org/x's
// IDNA); never the encoder, the renderers or the contrast rule.
func TestLightDependencies(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", "-f", "{{.ImportPath}} {{.Standard}}", ".").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	allowed := map[string]bool{
		"github.com/bananaqr/bananaqr/client":  true,
		"github.com/bananaqr/bananaqr/api":     true,
		"github.com/bananaqr/bananaqr/payload": true,
	}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		path, standard, _ := strings.Cut(line, " ")
		if standard == "true" || allowed[path] || strings.HasPrefix(path, "golang.org/x/") {
			continue
		}
		t.Errorf("package client depends on %s", path)
	}
}
