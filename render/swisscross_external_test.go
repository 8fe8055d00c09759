package render

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/bananaqr/bananaqr/internal/qrtest"
	"github.com/bananaqr/bananaqr/qr"
)

// TestSwissExternal draws a Swiss QR Code of each sampled version (2 to 25) in every format and
// reads it back: with gozxing, every image (the PDF and the EPS rasterised at 1200 dpi); the PNG, the SVG (rasterised by rsvg-convert) and the PDF
// and EPS (rasterised by Ghostscript at 300 dpi, the 46 mm symbol 543 pixels) with zxing-cpp and
// OpenCV's WeChat detector; and with zbar those whose cross does not cover the central alignment
// pattern (zbar misses the symbol then: versions 7 to 13).
func TestSwissExternal(t *testing.T) {
	qrtest.NeedTools(t, "gs", "rsvg-convert", "zbarimg")
	qrtest.NeedZXingCPP(t)
	qrtest.NeedWeChat(t)
	dir := t.TempDir()
	want := map[string]string{}
	var files, zbarFiles []string
	for _, v := range swissVersions {
		text, s := swissText(t, v)
		o := swissTestOptions(1024)
		k, _ := ModulePixels(s.Size(), &o)
		base := filepath.Join(dir, fmt.Sprintf("v%02d", v))
		data := map[string][]byte{}
		for ext, draw := range map[string]func(*qr.Symbol, Options) ([]byte, error){".png": PNG, ".svg": SVG, ".pdf": PDF, ".eps": EPS} {
			b, err := draw(s, o)
			if err != nil {
				t.Fatal(err)
			}
			data[ext] = b
			if err := os.WriteFile(base+ext, b, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		if _, got := qrtest.DecodePNG(t, data[".png"], k); got != text {
			t.Errorf("version %d: gozxing read %.40q from the PNG", v, got)
		}
		if out, err := exec.Command("rsvg-convert", "-w", "1024", "-h", "1024", "-o", base+"-svg.png", base+".svg").CombinedOutput(); err != nil {
			t.Fatalf("rsvg-convert: %v\n%s", err, out)
		}
		ghostscript(t, base+".pdf", base+"-pdf.png", "pnggray", PrintDPI, false)
		ghostscript(t, base+".eps", base+"-eps.png", "pnggray", PrintDPI, false)
		mine := []string{base + ".png", base + "-svg.png", base + "-pdf.png", base + "-eps.png"}
		// gozxing misplaces the grid of the larger versions at a few pixels a module that are
		// not whole (versions 13 to 25 at 300 dpi), where zxing-cpp and WeChat do not: it reads
		// the print formats at 1200 dpi.
		ghostscript(t, base+".pdf", base+"-pdf1200.png", "pnggray", 1200, false)
		ghostscript(t, base+".eps", base+"-eps1200.png", "pnggray", 1200, false)
		for f, px := range map[string]int{base + "-svg.png": k, base + "-pdf1200.png": 2173 / s.Size(), base + "-eps1200.png": 2173 / s.Size()} {
			if got, err := qrtest.DecodeRendered(readPNG(t, f), px); got != text {
				t.Errorf("version %d: gozxing read %.40q from %s: %v", v, got, filepath.Base(f), err)
			}
		}
		for _, f := range mine {
			want[f] = text
		}
		files = append(files, mine...)
		if v < 7 || v > 13 {
			zbarFiles = append(zbarFiles, mine...)
		}
	}
	for decoder, got := range map[string]map[string]string{
		"zxing-cpp": qrtest.ZXingCPP(t, files), "WeChat": qrtest.WeChat(t, files), "zbarimg": qrtest.Zbarimg(t, zbarFiles)} {
		for f, text := range got {
			if text != want[f] {
				t.Errorf("%s: %s decoded %.40q, want %.40q", decoder, filepath.Base(f), text, want[f])
			}
		}
		if decoder != "zbarimg" && len(got) != len(files) || decoder == "zbarimg" && len(got) != len(zbarFiles) {
			t.Errorf("%s: %d results", decoder, len(got))
		}
	}
	t.Logf("%d images read by zxing-cpp and WeChat, %d by zbar", len(files), len(zbarFiles))
}
