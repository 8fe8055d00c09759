package glyph

import (
	"fmt"
	"reflect"
	"slices"
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
