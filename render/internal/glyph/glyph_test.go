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
	"sync"
	"testing"
)

var faces = []*Face{Regular, Bold}

// TestMetrics checks the vertical metrics against the font's tables, as fontTools reads them
// (hhea.ascender/descender, OS/2.sCapHeight/sxHeight, head.unitsPerEm of each subset), and the
// outlines against them: H stands on the baseline and reaches the cap height, x the x-height.
func TestMetrics(t *testing.T) {
	for f, want := range map[*Face]Metrics{
		Regular: {UnitsPerEm: 1000, Ascent: 1069, Descent: 293, CapHeight: 714, XHeight: 536},
		Bold:    {UnitsPerEm: 1000, Ascent: 1069, Descent: 293, CapHeight: 714, XHeight: 546},
	} {
		if got := f.Metrics(); got != want {
			t.Errorf("%s: Metrics() = %+v, want %+v", f, got, want)
		}
		for _, c := range []struct {
			letter string
			top    int
		}{{"H", want.CapHeight}, {"x", want.XHeight}} {
			b := f.InkBounds(f.Shape(c.letter))
			if b.MinY != 0 || b.MaxY != c.top {
				t.Errorf("%s: %s spans y %d..%d, want 0..%d", f, c.letter, b.MinY, b.MaxY, c.top)
			}
		}
	}
}

// TestKerning checks pair kerning against the GPOS 'kern' PairPos values fontTools reads from the
// subsets (read once with /usr/bin/python3 and fontTools 4.38 walking the kern feature's
// lookups; the same in Regular and Bold).
func TestKerning(t *testing.T) {
	pairs := []struct {
		pair string
		kern int
	}{
		{"AV", -40}, {"To", -70}, {"Ты", -50}, {"ΑΥ", -60}, {"LT", -20}, {"Yo", -50},
		{"Va", -20}, {"ГА", -70}, {"ΤΩ", -30}, {"f'", 60}, {"AW", -40}, {"P.", -130}, {"ab", 0},
	}
	for _, f := range faces {
		for _, p := range pairs {
			run := f.Shape(p.pair)
			if len(run.Glyphs) != 2 {
				t.Fatalf("%s: Shape(%q) has %d glyphs", f, p.pair, len(run.Glyphs))
			}
			first, second := run.Glyphs[0], run.Glyphs[1]
			if got := second.X - first.X - f.Advance(first.ID); got != p.kern {
				t.Errorf("%s: kerning of %q = %d, want %d", f, p.pair, got, p.kern)
			}
			if want := second.X + f.Advance(second.ID); run.Advance != want {
				t.Errorf("%s: Shape(%q).Advance = %d, want %d", f, p.pair, run.Advance, want)
			}
		}
	}
}

// TestAdvance checks whole lines: the sum of hmtx advances and GPOS kerning of consecutive
// pairs, as fontTools computes it for the subsets (values read once with /usr/bin/python3).
func TestAdvance(t *testing.T) {
	lines := []struct {
		text          string
		regular, bold int
	}{
		{"Scan for the menu", 8628, 9135},
		{"Ταχίστη αλεπού", 7509, 8103},
		{"Съешь же ещё этих", 9624, 10265},
		{"AVATAR To Wa", 6557, 6938},
		{"Ș ș Ț ț № € ™ …", 6921, 7109},
	}
	for _, l := range lines {
		for f, want := range map[*Face]int{Regular: l.regular, Bold: l.bold} {
			if got := f.Shape(l.text).Advance; got != want {
				t.Errorf("%s: Shape(%q).Advance = %d, want %d", f, l.text, got, want)
			}
		}
	}
}

// TestMissing checks coverage: Latin, Greek and Cyrillic text is drawable; other scripts and
// emoji are named once each, in order of first appearance.
func TestMissing(t *testing.T) {
	cases := []struct {
		text string
		want []rune
	}{
		{"Scan for the menu", nil},
		{"Ærøskøbing – Łódź, Şırnak, București, Tōkyō, Čížek ß œ € ™ № “…” • ‹›", nil},
		{"Ταχίστη αλεπού ΐΰ ϊ", nil},
		{"Съешь же ещё этих мягких французских булок, да выпей чаю. Ґ ґ Ђ Ѳ", nil},
		{"a\u00a0b c", nil},
		{"e\u0301 q\u0301", nil},      // a combining mark the font has
		{"\u2126 \u212B \u212A", nil}, // ohm, angstrom and kelvin signs: NFC makes them Ω Å K
		{"中", []rune{'中'}},
		{"Menu 😀 中 😀 中", []rune{'😀', '中'}},
		{"שלום", []rune{'ש', 'ל', 'ו', 'ם'}},
		{"مرحبا", []rune{'م', 'ر', 'ح', 'ب', 'ا'}},
		{"a\tb\n", []rune{'\t', '\n'}},
	}
	for _, f := range faces {
		for _, c := range cases {
			if got := f.Missing(c.text); !slices.Equal(got, c.want) {
				t.Errorf("%s: Missing(%q) = %q, want %q", f, c.text, got, c.want)
			}
		}
	}
}

// TestNFC checks that text is normalised before shaping, and that a mark NFC cannot compose
// sits over its base without taking room.
func TestNFC(t *testing.T) {
	for _, f := range faces {
		composed, decomposed := f.Shape("café"), f.Shape("cafe\u0301")
		if !reflect.DeepEqual(composed, decomposed) {
			t.Errorf("%s: Shape(cafe+U+0301) = %v, want %v (as café)", f, decomposed, composed)
		}
		q, qAcute := f.Shape("q"), f.Shape("q\u0301")
		if len(qAcute.Glyphs) != 2 || qAcute.Advance != q.Advance {
			t.Fatalf("%s: Shape(q+U+0301) = %v, want q's advance %d and two glyphs", f, qAcute, q.Advance)
		}
		base, mark := f.Bounds(qAcute.Glyphs[0].ID), f.Bounds(qAcute.Glyphs[1].ID)
		mx := qAcute.Glyphs[1].X
		if baseMid, markMid := (base.MinX+base.MaxX)/2, mx+(mark.MinX+mark.MaxX)/2; abs(baseMid-markMid) > 1 {
			t.Errorf("%s: the acute's centre is at x %d, q's at %d", f, markMid, baseMid)
		}
		if mark.MinY < base.MaxY-200 {
			t.Errorf("%s: the acute (y from %d) is not above q (up to %d)", f, mark.MinY, base.MaxY)
		}
	}
}

func abs(x int) int { return max(x, -x) }

// TestOutlines checks that letters have closed contours within their advance's reach and a
// space has none.
func TestOutlines(t *testing.T) {
	for _, f := range faces {
		for _, r := range "AgÉßΩжё€" {
			run := f.Shape(string(r))
			id := run.Glyphs[0].ID
			o := f.Outline(id)
			if len(o) == 0 || o[0].Op != MoveTo {
				t.Fatalf("%s: Outline(%q) = %v, want contours starting with MoveTo", f, r, o)
			}
			checkClosed(t, fmt.Sprintf("%s %q", f, r), o)
			if b := f.Bounds(id); b.Empty() || b.MaxX > 2*f.Advance(id) {
				t.Errorf("%s: Bounds(%q) = %+v, advance %d", f, r, b, f.Advance(id))
			}
		}
		for _, s := range []string{" ", "\u00a0"} {
			id := f.Shape(s).Glyphs[0].ID
			if id == 0 || len(f.Outline(id)) != 0 || !f.Bounds(id).Empty() || f.Advance(id) <= 0 {
				t.Errorf("%s: %q: glyph %d, outline %v, advance %d; want a glyph without ink that advances", f, s, id, f.Outline(id), f.Advance(id))
			}
		}
	}
}

// checkClosed fails unless every contour of o ends where it started.
func checkClosed(t *testing.T, name string, o Outline) {
	t.Helper()
	var start, end Point
	for i, s := range o {
		if s.Op == MoveTo {
			if i > 0 && end != start {
				t.Errorf("%s: contour ends at %v, started at %v", name, end, start)
			}
			start, end = s.P[0], s.P[0]
			continue
		}
		end = s.P[0]
		if s.Op == QuadTo {
			end = s.P[1]
		}
	}
	if end != start {
		t.Errorf("%s: last contour ends at %v, started at %v", name, end, start)
	}
}

// TestDeterminism checks that shaping, path data and masks are the same from every call,
// including concurrent ones with cold caches (run with -race).
func TestDeterminism(t *testing.T) {
	text := "Scan for the menu — Меню, Μενού"
	draw := func(f *Face) (Run, string, []byte) {
		run := f.Shape(text)
		tr := Transform{X: 3.25, Y: 40, Scale: 0.048}
		return run, string(f.AppendSVGPath(nil, run, tr)), f.Mask(run, tr).Pix
	}
	for _, f := range faces {
		fresh := &Face{name: f.name, ttf: f.ttf} // cold caches
		var wg sync.WaitGroup
		results := make([]string, 8)
		for i := range results {
			wg.Go(func() {
				run, path, pix := draw(fresh)
				results[i] = fmt.Sprint(run, path, pix)
			})
		}
		wg.Wait()
		run, path, pix := draw(f)
		want := fmt.Sprint(run, path, pix)
		for i, got := range results {
			if got != want {
				t.Errorf("%s: drawing %d differs from the warm face's", f, i)
			}
		}
	}
}

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

// TestOutlineBounds checks that an outline's bounds reach a curve's extreme, not its control
// point.
func TestOutlineBounds(t *testing.T) {
	arch := Outline{
		{Op: MoveTo, P: [2]Point{{0, 0}}},
		{Op: QuadTo, P: [2]Point{{50, 100}, {100, 0}}}, // peaks at y 50
		{Op: QuadTo, P: [2]Point{{-20, -30}, {0, 0}}},  // reaches x -2.86 (rounded outwards), y -15
	}
	if got, want := arch.bounds(), (Rect{-3, -15, 100, 50}); got != want {
		t.Errorf("bounds() = %+v, want %+v", got, want)
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

// TestMaskBounds checks that a mask's ink lies in the box of the outlines at the mask's scale,
// reaching each side of it to within a pixel, and that it is drawn solid inside the strokes.
func TestMaskBounds(t *testing.T) {
	for _, f := range faces {
		for _, scale := range []float64{0.048, 0.15, 1.0 / 3} {
			run := f.Shape("Scan for the menu: Меню, Μενού")
			tr := Transform{X: 7.3, Y: 100.6, Scale: scale}
			mask := f.Mask(run, tr)
			ink := inkBox(mask)
			b := f.InkBounds(run)
			want := [4]float64{tr.X + scale*float64(b.MinX), tr.Y - scale*float64(b.MaxY),
				tr.X + scale*float64(b.MaxX), tr.Y - scale*float64(b.MinY)}
			got := [4]float64{float64(ink.Min.X), float64(ink.Min.Y), float64(ink.Max.X), float64(ink.Max.Y)}
			for i := range got {
				if math.Abs(got[i]-want[i]) > 1 {
					t.Errorf("%s at %v: mask ink %v, outline box %v", f, scale, ink, want)
					break
				}
			}
			if n := countAlpha(mask, 255); n < ink.Dx()*ink.Dy()/20 {
				t.Errorf("%s at %v: only %d solid pixels in %v", f, scale, n, ink)
			}
		}
		if m := f.Mask(f.Shape("  "), Transform{Scale: 1}); !m.Rect.Empty() {
			t.Errorf("%s: Mask of spaces = %v, want empty", f, m.Rect)
		}
	}
}

// inkBox returns the box of m's pixels with any coverage.
func inkBox(m *image.Alpha) image.Rectangle {
	var box image.Rectangle
	for y := m.Rect.Min.Y; y < m.Rect.Max.Y; y++ {
		for x := m.Rect.Min.X; x < m.Rect.Max.X; x++ {
			if m.AlphaAt(x, y).A > 0 {
				box = box.Union(image.Rect(x, y, x+1, y+1))
			}
		}
	}
	return box
}

func countAlpha(m *image.Alpha, a uint8) int {
	return bytes.Count(m.Pix, []byte{a})
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

// TestAddSaturating checks the eight-lane saturating addition against the byte-wise one.
func TestAddSaturating(t *testing.T) {
	values := []uint8{0, 1, 2, 63, 64, 127, 128, 129, 200, 254, 255}
	for _, x := range values {
		for _, y := range values {
			a := uint64(x) * 0x0101010101010101
			b := uint64(y)<<56 | uint64(y)<<8 | uint64(x)
			got := addSaturating(a, b)
			for lane := range 8 {
				ai, bi := uint(a>>(8*lane)&0xFF), uint(b>>(8*lane)&0xFF)
				if g := uint(got >> (8 * lane) & 0xFF); g != min(ai+bi, 255) {
					t.Fatalf("addSaturating(%#x, %#x) lane %d = %d, want %d", a, b, lane, g, min(ai+bi, 255))
				}
			}
		}
	}
}

// TestMaskCache checks that the glyph mask cache stays within its bound over many scales, and
// that a mask does not depend on what the cache held before.
func TestMaskCache(t *testing.T) {
	warm := &Face{name: Regular.name, ttf: Regular.ttf}
	run := warm.Shape("Scan for the menu")
	for i := range 300 {
		warm.Mask(run, Transform{X: 1.1 * float64(i), Y: 90, Scale: 0.04 + float64(i)/2000})
		if warm.masks.bytes > maxMaskBytes {
			t.Fatalf("after %d masks the cache holds %d bytes, more than %d", i+1, warm.masks.bytes, maxMaskBytes)
		}
	}
	tr := Transform{X: 5.6, Y: 70.3, Scale: 0.061}
	cold := &Face{name: Regular.name, ttf: Regular.ttf}
	if got, want := warm.Mask(run, tr), cold.Mask(run, tr); got.Rect != want.Rect || !bytes.Equal(got.Pix, want.Pix) {
		t.Errorf("the mask from a warm cache differs from a cold one's")
	}
}
