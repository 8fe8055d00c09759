package render

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"os/exec"
	"strings"
	"testing"

	"github.com/bananaqr/bananaqr/api"
	"github.com/bananaqr/bananaqr/internal/qrtest"
	"github.com/bananaqr/bananaqr/qr"
)

// segnoSVG draws each matrix with segno's SVG writer (segno.writers.write_svg, the library's
// smallest form: no XML declaration, no class attributes) at one unit a module, the quiet zone
// border modules wide, dark on light, and returns the documents.
const segnoSVG = `
import io, json, sys
from segno import writers
out = []
for c in json.load(sys.stdin):
    m = tuple(bytearray(1 if ch == '#' else 0 for ch in row) for row in c['rows'])
    b = io.BytesIO()
    writers.write_svg(m, c['version'], b, xmldecl=False, border=c['border'], dark=c['dark'],
                      light=c['light'], svgclass=None, lineclass=None)
    out.append(b.getvalue().decode())
json.dump(out, sys.stdout)
`

// TestSVGAgainstSegno holds the square SVG of issue 33 to segno, the smallest SVG writer we
// know of, which draws each row's runs as strokes: for the same symbol and colours, ours (with
// no title or description, as segno's has none) is no larger. Compressed sizes are logged: ours
// compress less well (a loop's lines carry signs, segno's runs do not), a target still missed.
func TestSVGAgainstSegno(t *testing.T) {
	if err := exec.Command("/usr/bin/python3", "-c", "import segno").Run(); err != nil {
		qrtest.NeedTools(t, "python3-segno")
	}
	texts := append([]string{"https://example.com", "31415926535897932384626433832795028841971693993751"}, renderTexts...)
	var cases []map[string]any
	var ours [][]byte
	for _, text := range texts {
		for _, colours := range [][2]string{{"000000", "FFFFFF"}, {"7B260F", "FFFFFF"}} {
			s, err := qr.Encode(text, qr.Options{Level: qr.M})
			if err != nil {
				t.Fatal(err)
			}
			o := Defaults()
			o.Foreground, _ = api.ParseColor(colours[0])
			o.Background, _ = api.ParseColor(colours[1])
			svg, err := SVG(s, o)
			if err != nil {
				t.Fatal(err)
			}
			ours = append(ours, svg)
			cases = append(cases, map[string]any{"rows": strings.Split(strings.TrimSuffix(paintedModules(s, padding{}), "\n"), "\n"),
				"version": s.Version(), "border": o.Margin, "dark": "#" + colours[0], "light": "#" + colours[1]})
		}
	}
	in, _ := json.Marshal(cases)
	cmd := exec.Command("/usr/bin/python3", "-c", segnoSVG)
	cmd.Stdin = bytes.NewReader(in)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("segno: %v", err)
	}
	var theirs []string
	if err := json.Unmarshal(out, &theirs); err != nil || len(theirs) != len(ours) {
		t.Fatalf("segno: %v, %d documents", err, len(theirs))
	}
	for i, svg := range ours {
		name := cases[i]["dark"].(string) + " " + strings.SplitN(texts[i/2], "?", 2)[0]
		if !strings.Contains(theirs[i], `d="M`) {
			t.Fatalf("%s: segno drew %.200s", name, theirs[i])
		}
		if len(svg) > len(theirs[i]) {
			t.Errorf("%.40s: our SVG has %d bytes, segno's %d", name, len(svg), len(theirs[i]))
		}
		t.Logf("%.40s: %d bytes (segno %d, %.2f×), gzip %d (segno %d, %.2f×)", name, len(svg), len(theirs[i]),
			float64(len(svg))/float64(len(theirs[i])), gzipLen(svg), gzipLen([]byte(theirs[i])),
			float64(gzipLen(svg))/float64(gzipLen([]byte(theirs[i]))))
	}
}

// gzipLen returns the size of data compressed by gzip at its best compression.
func gzipLen(data []byte) int {
	var b bytes.Buffer
	z, _ := gzip.NewWriterLevel(&b, gzip.BestCompression)
	z.Write(data)
	z.Close()
	return b.Len()
}
