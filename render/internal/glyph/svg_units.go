package glyph

import "strconv"

// AppendSVGPathFontUnits appends the outlines of run to dst as SVG path data in font units,
// y up, the run's origin at (0, 0): relative commands (m, l, q, z; SVG 1.1, 8.3 "Path data")
// with whole numbers. Each glyph's commands are formatted once and then copied, so this is the
// fast way to put a caption in an SVG: place it with a transform that scales and flips y,
//
//	<path transform="matrix(S 0 0 -S X Y)" d="…"/>
//
// for S target units per font unit and the run's origin at (X, Y). AppendSVGPath writes the
// same shapes in absolute target coordinates instead, at several times the cost.
func (f *Face) AppendSVGPathFontUnits(dst []byte, run Run) []byte {
	f.load()
	var pen point32 // the current point: after z, the start of the contour it closed
	first := true
	for _, g := range run.Glyphs {
		p := f.svgGlyph(g.ID)
		if p == nil {
			continue
		}
		start := point32{int32(g.X) + int32(p.start.X), int32(p.start.Y)}
		if first {
			dst = append(dst, 'M')
			first = false
		} else {
			dst = append(dst, 'm')
		}
		dst = appendInts(dst, start.X-pen.X, start.Y-pen.Y)
		dst = append(dst, p.body...)
		pen = point32{int32(g.X) + int32(p.end.X), int32(p.end.Y)}
	}
	return dst
}

// A point32 is a position in font units along a whole run, which may be wider than int16 holds.
type point32 struct{ X, Y int32 }

// svgGlyphPath is one glyph's path data in font units, relative: body draws the glyph from its
// first contour's start, and ends at end, the start of its last contour (after that contour's z).
type svgGlyphPath struct {
	start, end Point
	body       []byte
}

// svgGlyph returns glyph id's relative path data, formatting it on first use (several
// goroutines may format it at once: they format the same bytes); nil for a glyph without ink.
func (f *Face) svgGlyph(id ID) *svgGlyphPath {
	if int(id) >= len(f.glyphs) {
		return nil
	}
	slot := &f.glyphs[id].svg
	if p := slot.Load(); p != nil {
		return p
	}
	o := f.glyphs[id].outline
	if len(o) == 0 {
		return nil
	}
	p := formatSVGGlyph(o)
	slot.Store(p)
	return p
}

// formatSVGGlyph writes o as relative path data. A contour's last line, back to its start,
// is left to z, which draws it.
func formatSVGGlyph(o Outline) *svgGlyphPath {
	p := &svgGlyphPath{start: o[0].P[0]}
	var b []byte
	var cur, start Point
	var last byte
	for i, s := range o {
		switch s.Op {
		case MoveTo:
			if i > 0 {
				b = append(b, 'z', 'm')
				b = appendInts(b, int32(s.P[0].X)-int32(start.X), int32(s.P[0].Y)-int32(start.Y))
				last = 'l' // after m, more pairs are relative lines (the body's first contour,
				// after the run's M, spells its first command out: last starts as 0)
			}
			start, cur = s.P[0], s.P[0]
		case LineTo:
			closing := i+1 == len(o) || o[i+1].Op == MoveTo
			if closing && s.P[0] == start {
				continue
			}
			b = appendRelative(b, &last, 'l', cur, s.P[0])
			cur = s.P[0]
		case QuadTo:
			b = appendRelative(b, &last, 'q', cur, s.P[0], s.P[1])
			cur = s.P[1]
		}
	}
	p.body = append(b, 'z')
	p.end = start
	return p
}

// appendRelative appends command c with points pts relative to from, leaving out the letter if
// it repeats the last command written (which it then records in last).
func appendRelative(b []byte, last *byte, c byte, from Point, pts ...Point) []byte {
	for i, p := range pts {
		dx, dy := int32(p.X)-int32(from.X), int32(p.Y)-int32(from.Y)
		if i == 0 && *last != c {
			b = append(b, c)
			*last = c
		} else {
			b = appendSeparator(b, dx)
		}
		b = appendInts(b, dx, dy)
	}
	return b
}

// appendInts appends x and y, separated by a space unless y is negative (its sign separates it).
func appendInts(dst []byte, x, y int32) []byte {
	dst = strconv.AppendInt(dst, int64(x), 10)
	dst = appendSeparator(dst, y)
	return strconv.AppendInt(dst, int64(y), 10)
}

// appendSeparator appends the space that must precede v after another number, unless v's
// minus sign separates them.
func appendSeparator(dst []byte, v int32) []byte {
	if v < 0 {
		return dst
	}
	return append(dst, ' ')
}
