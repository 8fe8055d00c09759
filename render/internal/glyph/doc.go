// Package glyph draws short lines of text (a code's caption, the URL beneath it) as shapes: the
// outlines of Noto Sans, embedded in the binary, so an SVG, PDF or EPS needs no installed font
// and a PNG fills the very same outlines.
//
// The two faces, Regular and Bold, are subsets of Noto Sans 2.004 (SIL Open Font License 1.1,
// OFL.txt) covering Latin (Basic, Latin-1, Extended-A, Ș ș Ț ț), Greek, Cyrillic, the combining
// diacritical marks, general punctuation, € ™ and № (README.md; scripts/font-subset.sh makes
// them). A face is parsed on first use, once, and every glyph's outline, bounds and advance are
// read then, so drawing never parses the font again.
//
// The work goes in three steps, all in integer font units (a face's Metrics.UnitsPerEm to the
// em) until the last:
//
//  1. Missing names the characters of a text the face cannot draw (the caller refuses those).
//  2. Shape turns a text into a Run: the glyphs after Unicode normalisation (NFC), each at its
//     x, spaced by their advances (OpenType hmtx) and pair kerning (OpenType GPOS lookup type 2,
//     PairPos). No substitution (GSUB) is applied: Latin, Greek and Cyrillic need none.
//  3. A Run is drawn at a Transform (origin and scale in the target's units): as SVG path data
//     (Face.AppendSVGPathFontUnits, copied from per-glyph data formatted once and placed by a
//     transform attribute; or Face.AppendSVGPath, in absolute coordinates), as segments handed
//     to a Pen (Face.Walk, for PDF and EPS), or filled into an 8-bit coverage mask (Face.Mask,
//     for PNG, from glyph masks rasterised once per scale and quarter-pixel position).
//
// Outlines are TrueType's (OpenType glyf table): contours of straight lines and quadratic Bézier
// curves, with y growing upwards from the baseline, as in the font.
//
// Every Face method is safe for concurrent use, and every result depends on its arguments only.
package glyph
