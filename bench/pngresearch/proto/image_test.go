package main

import (
	"os"
	"path/filepath"
	"testing"
)

// openImage opens a test image of ../img (see ../README.md for how to make them), or skips the
// test or benchmark when it has not been made.
func openImage(tb testing.TB, name string) *os.File {
	tb.Helper()
	f, err := os.Open(filepath.Join("..", "img", name))
	if err != nil {
		tb.Skipf("%v: make the test images first (bench/pngresearch/README.md)", err)
	}
	tb.Cleanup(func() { f.Close() })
	return f
}
