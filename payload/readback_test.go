package payload

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bananaqr/bananaqr/qr"
	"github.com/bananaqr/bananaqr/render"
)

// pngFiles draws each symbol as a PNG of size pixels, in the default style, in a folder of t's,
// for the external readers; it returns the files, in order.
func pngFiles(t *testing.T, symbols []*qr.Symbol, size int) []string {
	t.Helper()
	dir := t.TempDir()
	files := make([]string, len(symbols))
	for i, s := range symbols {
		o := render.Defaults()
		o.Size = size
		png, err := render.PNG(s, o)
		if err != nil {
			t.Fatal(err)
		}
		files[i] = filepath.Join(dir, fmt.Sprintf("%02d.png", i))
		if err := os.WriteFile(files[i], png, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return files
}

// zxingBytes returns, for each file, zxing-cpp's raw bytes of the QR code in it, in lower-case
// hexadecimal (zxingBytesScript): what a banking app reads, whatever character set it guesses.
func zxingBytes(t *testing.T, files []string) []string {
	t.Helper()
	out, err := exec.Command(python, append([]string{"-c", zxingBytesScript}, files...)...).Output()
	if err != nil {
		t.Fatal(err)
	}
	return strings.Split(strings.TrimSpace(string(out)), "\n")
}
