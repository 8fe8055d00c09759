package render

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/bananaqr/bananaqr/internal/qrtest"
	"github.com/bananaqr/bananaqr/internal/testenv"
)

// TestExternalDecoders writes every combination as PNG and as SVG (rasterised by rsvg-convert)
// and reads each file with two decoders independent of this project, zbarimg (zbar) and
// zxing-cpp; pngcheck validates every PNG. It runs a quarter of the combinations by default,
// every style, level and size among them (the size kept turns with each group of sizes), and
// all of them with BANANAQR_FULL=1 (testenv.Sampled).
func TestExternalDecoders(t *testing.T) {
	qrtest.NeedTools(t, "zbarimg", "rsvg-convert", "pngcheck")
	qrtest.NeedZXingCPP(t)
	dir := t.TempDir()
	want := map[string]string{} // file → text
	var pngs, svgs []string
	sizes := []int{128, 256, 1024, 2048}
	cases, ran := renderCases(sizes), 0
	for i, c := range cases {
		if !testenv.Sampled(i + i/len(sizes)) {
			continue
		}
		ran++
		pngData, svgData, err := c.render(t)
		if err != nil {
			continue
		}
		name := filepath.Join(dir, fmt.Sprintf("%03d", i))
		if err := os.WriteFile(name+".png", pngData, 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(name+".svg", svgData, 0o644); err != nil {
			t.Fatal(err)
		}
		want[name+".png"], want[name+"-svg.png"] = c.text, c.text
		pngs, svgs = append(pngs, name+".png"), append(svgs, name)
	}
	if out, err := exec.Command("pngcheck", append([]string{"-q"}, pngs...)...).CombinedOutput(); err != nil {
		t.Fatalf("pngcheck: %v\n%s", err, out)
	}
	files := pngs
	for _, name := range svgs {
		size := "1024"
		if data, err := os.ReadFile(name + ".svg"); err == nil {
			if i := bytes.Index(data, []byte(`width="`)); i >= 0 {
				size = string(data[i+7 : i+7+bytes.IndexByte(data[i+7:], '"')])
			}
		}
		if out, err := exec.Command("rsvg-convert", "-w", size, "-h", size, "-o", name+"-svg.png", name+".svg").CombinedOutput(); err != nil {
			t.Fatalf("rsvg-convert %s: %v\n%s", name, err, out)
		}
		files = append(files, name+"-svg.png")
	}
	for decoder, got := range map[string]map[string]string{"zbarimg": qrtest.Zbarimg(t, files), "zxing-cpp": qrtest.ZXingCPP(t, files)} {
		for _, f := range files {
			if got[f] != want[f] {
				t.Errorf("%s: %s decoded %.40q, want %.40q", decoder, filepath.Base(f), got[f], want[f])
			}
		}
	}
	t.Logf("%d images read by zbarimg and zxing-cpp", len(files))
	testenv.SampleNote(t, ran, len(cases))
}
