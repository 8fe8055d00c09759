package glyph

import (
	_ "embed"
	"fmt"
	"sync"
	"sync/atomic"

	"golang.org/x/image/font"
	"golang.org/x/image/font/sfnt"
	"golang.org/x/image/math/fixed"
)

var (
	//go:embed NotoSans-Regular.subset.ttf
	regularTTF []byte
	//go:embed NotoSans-Bold.subset.ttf
	boldTTF []byte
)

// The two faces of the embedded font, parsed on first use.
var (
	// Regular is Noto Sans Regular (weight 400).
	Regular = &Face{name: "NotoSans-Regular", ttf: regularTTF}
	// Bold is Noto Sans Bold (weight 700).
	Bold = &Face{name: "NotoSans-Bold", ttf: boldTTF}
)

// A Face is one embedded font: its metrics, its glyphs' outlines and advances, the map from
// characters to glyphs and a cache of kerning pairs.
type Face struct {
	name string
	ttf  []byte

	once    sync.Once
	font    *sfnt.Font
	ppem    fixed.Int26_6 // = UnitsPerEm, so sfnt's "pixels" are font units
	metrics Metrics
	glyphs  []glyphData    // by ID, read once when the face is loaded
	cmapLow [cmapLowEnd]ID // the glyphs of the characters below cmapLowEnd, 0 for none
	cmap    map[rune]ID    // the other Basic Multilingual Plane characters that have one
	kerns   atomic.Pointer[map[pair]int16]
	buffers sync.Pool // *sfnt.Buffer, for the cache misses
	masks   maskCache // glyphs rasterised by Mask
}

// An ID is a glyph's index in its font (OpenType: glyph ID); 0 is .notdef, the glyph drawn for
// a character the font does not have.
type ID uint16

// glyphData is what drawing needs of one glyph, read from the font once.
type glyphData struct {
	advance int32 // OpenType hmtx advanceWidth
	bounds  Rect  // of the outline; zero for a glyph without contours
	outline Outline
	svg     atomic.Pointer[svgGlyphPath] // its relative SVG path data, formatted on first use
}

// Metrics are a face's vertical measures, in font units (OpenType hhea and OS/2).
type Metrics struct {
	UnitsPerEm int // font units to the em (head.unitsPerEm)
	Ascent     int // above the baseline (hhea.ascender), positive
	Descent    int // below the baseline (hhea.descender), positive
	CapHeight  int // height of flat capitals such as H (OS/2.sCapHeight)
	XHeight    int // height of flat lower-case letters such as x (OS/2.sxHeight)
}

// Metrics returns the face's metrics in font units.
func (f *Face) Metrics() Metrics {
	f.load()
	return f.metrics
}

// String returns the face's PostScript-style name, such as "NotoSans-Bold".
func (f *Face) String() string { return f.name }

// load parses the font and reads every glyph, once. The embedded fonts are known good, so a
// failure is a build defect and panics.
func (f *Face) load() {
	f.once.Do(func() {
		if err := f.parse(); err != nil {
			panic(fmt.Sprintf("glyph: %s: %v", f.name, err))
		}
	})
}

func (f *Face) parse() error {
	fnt, err := sfnt.Parse(f.ttf)
	if err != nil {
		return err
	}
	f.font = fnt
	f.ppem = fixed.Int26_6(fnt.UnitsPerEm())
	var b sfnt.Buffer
	m, err := fnt.Metrics(&b, f.ppem, font.HintingNone)
	if err != nil {
		return err
	}
	f.metrics = Metrics{
		UnitsPerEm: int(fnt.UnitsPerEm()),
		Ascent:     int(m.Ascent),
		Descent:    int(m.Descent),
		CapHeight:  int(m.CapHeight),
		XHeight:    int(m.XHeight),
	}
	f.glyphs = make([]glyphData, fnt.NumGlyphs())
	for i := range f.glyphs {
		if err := f.readGlyph(&b, ID(i)); err != nil {
			return fmt.Errorf("glyph %d: %w", i, err)
		}
	}
	// OpenType cmap: the subset holds Basic Multilingual Plane characters only (its cmap has
	// no format 12 subtable), so one pass over the plane finds them all; Face.lookup asks the
	// font itself about any character beyond it.
	f.cmap = make(map[rune]ID, len(f.glyphs))
	for r := rune(0); r <= 0xFFFF; r++ {
		x, err := fnt.GlyphIndex(&b, r)
		switch {
		case err != nil || x == 0:
		case r < cmapLowEnd:
			f.cmapLow[r] = ID(x)
		default:
			f.cmap[r] = ID(x)
		}
	}
	f.kerns.Store(&map[pair]int16{})
	return nil
}

// readGlyph reads glyph x's advance (hmtx) and outline (glyf) into f.glyphs.
func (f *Face) readGlyph(b *sfnt.Buffer, x ID) error {
	adv, err := f.font.GlyphAdvance(b, sfnt.GlyphIndex(x), f.ppem, font.HintingNone)
	if err != nil {
		return err
	}
	segs, err := f.font.LoadGlyph(b, sfnt.GlyphIndex(x), f.ppem, nil)
	if err != nil {
		return err
	}
	g := &f.glyphs[x]
	g.advance = int32(adv)
	g.outline = newOutline(segs)
	g.bounds = g.outline.bounds()
	return nil
}

// cmapLowEnd ends the characters looked up in an array rather than a map: Latin, Greek and
// Cyrillic (U+0000–04FF), most of what captions are written in.
const cmapLowEnd = 0x500

// lookup returns the glyph for r, 0 if the face has none.
func (f *Face) lookup(r rune) ID {
	if r >= 0 && r < cmapLowEnd {
		return f.cmapLow[r]
	}
	if r <= 0xFFFF {
		return f.cmap[r]
	}
	b := f.buffer()
	defer f.buffers.Put(b)
	x, err := f.font.GlyphIndex(b, r)
	if err != nil {
		return 0
	}
	return ID(x)
}

func (f *Face) buffer() *sfnt.Buffer {
	if b, ok := f.buffers.Get().(*sfnt.Buffer); ok {
		return b
	}
	return new(sfnt.Buffer)
}
