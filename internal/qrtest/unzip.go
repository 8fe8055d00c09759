package qrtest

import (
	"archive/zip"
	"bytes"
	"io"
	"testing"
)

// Unzip returns the names of the files of a ZIP archive (a batch of codes) in their order, and
// their contents by name, read with the standard library's archive/zip; any fault fails tb.
func Unzip(tb testing.TB, archive []byte) (names []string, files map[string][]byte) {
	tb.Helper()
	zr, err := zip.NewReader(bytes.NewReader(archive), int64(len(archive)))
	if err != nil {
		tb.Fatalf("not a ZIP archive: %v", err)
	}
	files = map[string][]byte{}
	for _, f := range zr.File {
		rc, err := f.Open()
		if err != nil {
			tb.Fatal(err)
		}
		b, err := io.ReadAll(rc)
		rc.Close()
		if err != nil {
			tb.Fatalf("%s: %v", f.Name, err)
		}
		names = append(names, f.Name)
		files[f.Name] = b
	}
	return names, files
}
