package glyph

import (
	"maps"
	"slices"
	"unicode"

	"golang.org/x/image/font"
	"golang.org/x/image/font/sfnt"
	"golang.org/x/text/unicode/norm"
)

// A Run is a line of text shaped in one face: its glyphs placed along the baseline, in font
// units from the run's origin (the left end of its baseline).
type Run struct {
	Glyphs  []Placed
	Advance int // the pen's travel over the whole run: where a following run would start
}

// A Placed glyph is one glyph of a Run and the x of its origin, in font units.
type Placed struct {
	ID ID
	X  int
}

// Missing returns the characters of s, after Unicode normalisation form C (NFC, Unicode
// Standard Annex #15), that f has no glyph for (OpenType cmap), each once, in order of first
// appearance; nil if f can draw all of s. A space and a no-break space (U+00A0) are drawable.
func (f *Face) Missing(s string) []rune {
	f.load()
	var missing []rune
	for _, r := range norm.NFC.String(s) {
		if f.lookup(r) == 0 && !slices.Contains(missing, r) {
			missing = append(missing, r)
		}
	}
	return missing
}

// Shape lays s out on one line: normalised to NFC, each character mapped to its glyph
// (OpenType cmap), the glyphs spaced by their advances (hmtx) and by pair kerning (GPOS lookup
// type 2, PairPos, as in the font's 'kern' feature). A combining mark NFC could not compose
// with its base (Unicode general category Mn) takes no room: it is centred over the glyph
// before it. Characters f cannot draw become glyph 0 (.notdef, a box): check s with Missing
// first.
func (f *Face) Shape(s string) Run {
	f.load()
	s = norm.NFC.String(s)
	run := Run{Glyphs: make([]Placed, 0, len(s))}
	kerns := *f.kerns.Load()
	var added map[pair]int16 // kerning pairs this call read from the font
	x, base := 0, -1         // the pen; the index of the last glyph that is not a mark
	for _, r := range s {
		id := f.lookup(r)
		if base >= 0 && unicode.Is(unicode.Mn, r) {
			run.Glyphs = append(run.Glyphs, f.overMark(id, run.Glyphs[base]))
			continue
		}
		if base >= 0 {
			p := pair{run.Glyphs[base].ID, id}
			k, ok := kerns[p]
			if !ok {
				if k, ok = added[p]; !ok {
					k = f.readKern(p)
					if added == nil {
						added = make(map[pair]int16)
					}
					added[p] = k
				}
			}
			x += int(k)
		}
		base = len(run.Glyphs)
		run.Glyphs = append(run.Glyphs, Placed{ID: id, X: x})
		x += int(f.glyphs[id].advance)
	}
	run.Advance = x
	if added != nil {
		f.remember(added)
	}
	return run
}

// overMark places mark glyph id centred over the glyph base, horizontally, at the height the
// font drew it (over a lower-case letter).
func (f *Face) overMark(id ID, base Placed) Placed {
	b, m := f.glyphs[base.ID].bounds, f.glyphs[id].bounds
	if b.Empty() || m.Empty() {
		return Placed{ID: id, X: base.X}
	}
	return Placed{ID: id, X: base.X + (b.MinX+b.MaxX)/2 - (m.MinX+m.MaxX)/2}
}

// A pair is two glyphs in a row, the key of the kerning cache.
type pair struct{ left, right ID }

// maxKerns bounds the kerning cache: beyond it, pairs are read from the font every time.
const maxKerns = 1 << 15

// readKern returns the kerning of p in font units (GPOS PairPos: the first glyph's
// XAdvance adjustment), 0 if the font does not kern it.
func (f *Face) readKern(p pair) int16 {
	b := f.buffer()
	defer f.buffers.Put(b)
	k, err := f.font.Kern(b, sfnt.GlyphIndex(p.left), sfnt.GlyphIndex(p.right), f.ppem, font.HintingNone)
	if err != nil { // sfnt.ErrNotFound: no PairPos subtable adjusts this pair
		return 0
	}
	return int16(k)
}

// remember adds pairs to the kerning cache. The cache is a map replaced whole (copy on
// write), so Shape reads it without a lock; new pairs are rare once the usual ones are in.
func (f *Face) remember(pairs map[pair]int16) {
	for {
		old := f.kerns.Load()
		if len(*old)+len(pairs) > maxKerns {
			return
		}
		m := make(map[pair]int16, len(*old)+len(pairs))
		maps.Copy(m, *old)
		maps.Copy(m, pairs)
		if f.kerns.CompareAndSwap(old, &m) {
			return
		}
	}
}
