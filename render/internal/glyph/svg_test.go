package glyph

import (
	"bytes"
	"fmt"
	"image"
	"image/png"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"testing"
)

// TestAppendNumber checks the number format of the path data.
func TestAppendNumber(t *testing.T) {
	for v, want := range map[float64]string{
		0: "0", 12: "12", -3: "-3", 1.5: "1.5", 0.25: ".25", -0.5: "-.5", 2.004: "2", 2.006: "2.01",
		-0.001: "0", 1234.5678: "1234.57", 0.1: ".1", -12.3: "-12.3",
	} {
		if got := string(appendNumber([]byte("x"), v)); got != "x"+want {
			t.Errorf("appendNumber(%v) = %q, want %q", v, got, "x"+want)
		}
	}
}

// TestSVGPath parses the path data of a line back into segments and compares them with what
// Walk hands a pen, rounded as the path rounds.
func TestSVGPath(t *testing.T) {
	tr := Transform{X: -20.5, Y: 20, Scale: 0.05} // numbers of both signs
	for _, f := range faces {
		run := f.Shape("Ag Жé Ω")
		d := f.AppendSVGPath(nil, run, tr)
		got, err := parsePath(string(d))
		if err != nil {
			t.Fatalf("%s: path %q: %v", f, d, err)
		}
		var want recorder
		f.Walk(run, tr, &want)
		var moves, closes int
		for _, s := range want.steps {
			switch s.cmd {
			case 'M':
				moves++
			case 'Z':
				closes++
			}
		}
		if moves == 0 || closes != moves || want.steps[len(want.steps)-1].cmd != 'Z' {
			t.Errorf("%s: Walk made %d contours and closed %d, the last step is %c", f, moves, closes, want.steps[len(want.steps)-1].cmd)
		}
		if bytes.Contains(d, []byte(" -")) || bytes.Contains(d, []byte(" 0.")) || bytes.Count(d, []byte("L")) >= len(want.steps)/3 {
			t.Errorf("%s: the path data is longer than needed: %s", f, d)
		}
		for i := range want.steps {
			for j, v := range want.steps[i].args {
				want.steps[i].args[j] = math.Round(v*100) / 100
			}
		}
		if !reflect.DeepEqual(got, want.steps) {
			t.Errorf("%s: path %s\nparses as %v\nwant %v", f, d, got, want.steps)
		}
	}
}

// A step is one pen call: its command letter and numbers.
type step struct {
	cmd  byte
	args []float64
}

// recorder is a Pen that records its calls as steps.
type recorder struct{ steps []step }

func (r *recorder) MoveTo(x, y float64) { r.steps = append(r.steps, step{'M', []float64{x, y}}) }
func (r *recorder) LineTo(x, y float64) { r.steps = append(r.steps, step{'L', []float64{x, y}}) }
func (r *recorder) QuadTo(cx, cy, x, y float64) {
	r.steps = append(r.steps, step{'Q', []float64{cx, cy, x, y}})
}
func (r *recorder) Close() { r.steps = append(r.steps, step{'Z', nil}) }

// parsePath reads SVG path data of M, L, Q and Z commands, absolute or relative (m, l, q, z),
// into absolute steps (SVG 1.1, 8.3.9 "The grammar for path data": numbers separated by spaces
// or signs, a repeated command's letter left out; after M the repeat is L, after m it is l).
func parsePath(d string) ([]step, error) {
	arity := map[byte]int{'M': 2, 'L': 2, 'Q': 4, 'Z': 0}
	var steps []step
	var cmd byte
	var relative bool
	var cur, start [2]float64
	for i := 0; i < len(d); {
		c := d[i]
		upper := c &^ 0x20
		switch _, isCmd := arity[upper]; {
		case c == ' ':
			i++
			continue
		case isCmd:
			cmd, relative = upper, c != upper
			i++
			if cmd == 'Z' {
				steps = append(steps, step{'Z', nil})
				cur = start
				continue
			}
		case cmd == 0 || cmd == 'Z':
			return nil, fmt.Errorf("number without a command at %d", i)
		case cmd == 'M':
			cmd = 'L'
		}
		s := step{cmd: cmd}
		for k := range arity[cmd] {
			for i < len(d) && d[i] == ' ' {
				i++
			}
			j := i
			if j < len(d) && d[j] == '-' {
				j++
			}
			for j < len(d) && (d[j] >= '0' && d[j] <= '9' || d[j] == '.') {
				j++
			}
			v, err := strconv.ParseFloat(d[i:j], 64)
			if err != nil {
				return nil, fmt.Errorf("at %d: %v", i, err)
			}
			if relative {
				v += cur[k%2]
			}
			s.args = append(s.args, v)
			i = j
		}
		cur = [2]float64{s.args[len(s.args)-2], s.args[len(s.args)-1]}
		if cmd == 'M' {
			start = cur
		}
		steps = append(steps, s)
	}
	return steps, nil
}

// withoutClosingLines returns steps without each line that returns to its contour's start just
// before Z, which draws that line anyway.
func withoutClosingLines(steps []step) []step {
	var out []step
	var start []float64
	for i, s := range steps {
		if s.cmd == 'M' {
			start = s.args
		}
		if s.cmd == 'L' && i+1 < len(steps) && steps[i+1].cmd == 'Z' && slices.Equal(s.args, start) {
			continue
		}
		out = append(out, s)
	}
	return out
}

// TestSVGPathFontUnits parses the font-unit path data of a line back into absolute segments and
// compares them with what Walk hands a pen at scale 1, y up; and checks the glyphs' cached data
// is reused, not formatted again.
func TestSVGPathFontUnits(t *testing.T) {
	for _, f := range faces {
		run := f.Shape("Ag Жé Ω, AVATAR")
		d := f.AppendSVGPathFontUnits(nil, run)
		got, err := parsePath(string(d))
		if err != nil {
			t.Fatalf("%s: path %q: %v", f, d, err)
		}
		var want recorder
		f.Walk(run, Transform{Scale: 1, YUp: true}, &want)
		if w := withoutClosingLines(want.steps); !reflect.DeepEqual(withoutClosingLines(got), w) {
			t.Errorf("%s: path %s\nparses as %v\nwant %v", f, d, got, w)
		}
		if bytes.Contains(d, []byte(" -")) || bytes.Contains(d, []byte(".")) || len(withoutClosingLines(got)) != len(got) {
			t.Errorf("%s: the path data is longer than needed: %s", f, d)
		}
		if again := f.AppendSVGPathFontUnits(nil, run); !bytes.Equal(again, d) {
			t.Errorf("%s: the second path differs from the first", f)
		}
		if allocs := testing.AllocsPerRun(10, func() { f.AppendSVGPathFontUnits(d[:0], run) }); allocs != 0 {
			t.Errorf("%s: AppendSVGPathFontUnits made %v allocations into a large enough buffer", f, allocs)
		}
	}
}

// TestMaskMatchesSVG draws the path data, in both forms, with librsvg (rsvg-convert) and
// compares it with the mask of the same run: the same ink, give or take anti-aliasing.
func TestMaskMatchesSVG(t *testing.T) {
	rsvg, err := exec.LookPath("rsvg-convert")
	if err != nil {
		t.Skip("rsvg-convert not installed")
	}
	const w, h = 400, 60
	tr := Transform{X: 4, Y: 44, Scale: 0.04}
	run := Bold.Shape("Scan for the menu — Меню")
	mask := Bold.Mask(run, tr)
	for name, path := range map[string]string{
		"absolute": fmt.Sprintf(`<path d="%s"/>`, Bold.AppendSVGPath(nil, run, tr)),
		"font units": fmt.Sprintf(`<path transform="matrix(%v 0 0 %v %v %v)" d="%s"/>`,
			tr.Scale, -tr.Scale, tr.X, tr.Y, Bold.AppendSVGPathFontUnits(nil, run)),
	} {
		svg := fmt.Sprintf(`<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d">%s</svg>`, w, h, path)
		file := filepath.Join(t.TempDir(), "caption.svg")
		if err := os.WriteFile(file, []byte(svg), 0o600); err != nil {
			t.Fatal(err)
		}
		out, err := exec.Command(rsvg, file).Output()
		if err != nil {
			t.Fatalf("rsvg-convert: %v", err)
		}
		img, err := png.Decode(bytes.NewReader(out))
		if err != nil {
			t.Fatal(err)
		}
		var diff, ink float64
		for y := range h {
			for x := range w {
				_, _, _, a := img.At(x, y).RGBA()
				var m uint8
				if (image.Point{x, y}).In(mask.Rect) {
					m = mask.AlphaAt(x, y).A
				}
				diff += math.Abs(float64(a>>8) - float64(m))
				ink += float64(m)
			}
		}
		t.Logf("%s: the mask and librsvg's drawing differ by %.2f%% of the ink", name, 100*diff/ink)
		if ink == 0 || diff/ink > 0.05 {
			t.Errorf("%s: the mask and librsvg's drawing differ by %.1f%% of the ink", name, 100*diff/ink)
		}
	}
}
