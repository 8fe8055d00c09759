package render

import (
	"bufio"
	"bytes"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"
)

// needTools returns the paths of the external programs, or skips the test when one is missing
// outside CI (CI installs them: zbar-tools, python3-zxing-cpp, python3-pil, librsvg2-bin,
// pngcheck).
func needTools(t *testing.T, names ...string) {
	t.Helper()
	for _, name := range names {
		if _, err := exec.LookPath(name); err != nil {
			if os.Getenv("CI") != "" {
				t.Fatalf("%s is not installed, and CI must run this test", name)
			}
			t.Skipf("SKIPPED: %s is not installed (see .ci/run)", name)
		}
	}
}

// TestExternalDecoders writes every combination as PNG and as SVG (rasterised by rsvg-convert)
// and reads each file with two decoders independent of this project, zbarimg (zbar) and
// zxing-cpp; pngcheck validates every PNG.
func TestExternalDecoders(t *testing.T) {
	needTools(t, "zbarimg", "rsvg-convert", "pngcheck", "/usr/bin/python3")
	if err := exec.Command("/usr/bin/python3", "-c", "import zxingcpp, PIL").Run(); err != nil {
		needTools(t, "python3-zxing-cpp and python3-pil")
	}
	dir := t.TempDir()
	want := map[string]string{} // file → text
	var pngs, svgs []string
	for i, c := range renderCases([]int{128, 256, 1024, 2048}) {
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
	for decoder, got := range map[string]map[string]string{"zbarimg": zbarimg(t, files), "zxing-cpp": zxingCPP(t, files)} {
		for _, f := range files {
			if got[f] != want[f] {
				t.Errorf("%s: %s decoded %.40q, want %.40q", decoder, filepath.Base(f), got[f], want[f])
			}
		}
	}
	t.Logf("%d images read by zbarimg and zxing-cpp", len(files))
}

// zbarimg decodes files with zbar and returns the text found in each.
func zbarimg(t *testing.T, files []string) map[string]string {
	out, err := exec.Command("zbarimg", append([]string{"-q", "--xml", "-Sdisable", "-Sqrcode.enable"}, files...)...).Output()
	if err != nil && len(out) == 0 {
		t.Fatalf("zbarimg: %v", err)
	}
	var doc struct {
		Sources []struct {
			Href    string `xml:"href,attr"`
			Symbols []struct {
				Data string `xml:"data"`
			} `xml:"index>symbol"`
		} `xml:"source"`
	}
	if err := xml.Unmarshal(out, &doc); err != nil {
		t.Fatalf("zbarimg output: %v", err)
	}
	got := map[string]string{}
	for _, s := range doc.Sources {
		if len(s.Symbols) == 1 {
			got[s.Href] = s.Symbols[0].Data
		}
	}
	return got
}

// zxingCPP decodes files with zxing-cpp (testdata/zxing_decode.py) and returns the text found
// in each.
func zxingCPP(t *testing.T, files []string) map[string]string {
	out, err := exec.Command("/usr/bin/python3", append([]string{"testdata/zxing_decode.py"}, files...)...).Output()
	if err != nil {
		t.Fatalf("zxing_decode.py: %v", err)
	}
	got := map[string]string{}
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var r struct {
			File  string  `json:"file"`
			Text  *string `json:"text"`
			Error *string `json:"error"`
		}
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatal(err)
		}
		if r.Text != nil {
			got[r.File] = *r.Text
		} else {
			got[r.File] = "error: " + strconv.Quote(*r.Error)
		}
	}
	return got
}
