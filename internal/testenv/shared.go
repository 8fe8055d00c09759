package testenv

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
)

// SameAsShared checks that copy, a file in the repository (a path from its root), holds
// exactly what shared, a path under ../shared (the design notes beside the repository), holds.
// Tests read such copies so that they need nothing outside the repository; this keeps each
// copy equal to the file it was taken from. Where ../shared or the file is absent, the check
// stops as Missing does.
func SameAsShared(t testing.TB, copy, shared string) {
	t.Helper()
	root := ModuleRoot(t)
	want, err := os.ReadFile(filepath.Join(root, "..", "shared", shared))
	if errors.Is(err, fs.ErrNotExist) {
		Missing(t, "../shared/"+shared+" is not beside the repository",
			"check out the design notes beside it to compare "+copy+" with them")
	}
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(filepath.Join(root, copy))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from ../shared/%s, which it copies: cp ../shared/%s %s", copy, shared, shared, copy)
	}
}

// ModuleRoot returns the folder of the go.mod nearest above the test's working directory: the
// root of the module under test.
func ModuleRoot(t testing.TB) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatal("no go.mod above the test's folder")
		}
		dir = parent
	}
}
