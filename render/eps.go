package render

import (
	"github.com/bananaqr/bananaqr/qr"
)

// EPS returns s drawn as an Encapsulated PostScript file, as o says.
func EPS(s *qr.Symbol, o Options) ([]byte, error) { return AppendEPS(nil, s, &o) }

// AppendEPS appends s drawn as an Encapsulated PostScript file (EPSF 3.0, Adobe's Document
// Structuring Conventions 3.0) to dst, as o says: the same drawing as the PDF's, on a bounding
// box of o.Size pixels at PrintDPI (PageSide; %%BoundingBox rounded out to whole points,
// %%HiResBoundingBox exact), with PostScript Level 1 operators only. The file is
// deterministic: no %%CreationDate. It ends with showpage, which EPSF 3.0 allows (importers
// disable it) and which makes the file print on its own.
func AppendEPS(dst []byte, s *qr.Symbol, o *Options) ([]byte, error) {
	l, err := prepare(s, o)
	if err != nil {
		return dst, err
	}
	frame := printFrameOf(&l, o)
	dst = append(dst, "%!PS-Adobe-3.0 EPSF-3.0\n%%BoundingBox: 0 0 "...)
	whole := int((frame.side + 9999) / 10000)
	dst = appendUint(append(appendUint(dst, whole), ' '), whole)
	dst = append(dst, "\n%%HiResBoundingBox: 0 0 "...)
	dst = appendFixed(append(appendFixed(dst, frame.side, 4), ' '), frame.side, 4)
	dst = append(dst, "\n%%Creator: bananaqr\n%%LanguageLevel: 1\n%%EndComments\n%%BeginProlog\n"...)
	dst = append(dst, epsProlog...)
	dst = append(dst, "%%EndProlog\n"...)
	dst = appendPrintContent(dst, s, o, &l, frame)
	return append(dst, "end\nshowpage\n%%EOF\n"...), nil
}

// epsProlog defines, in a dictionary of its own, the PDF content operators that
// appendPrintContent writes (ISO 32000-1 8.5.2, 8.5.3, 8.6.8, 8.3.4), so that the EPS draws
// with the very same bytes as the PDF's page.
const epsProlog = `10 dict begin
/m {moveto} bind def
/l {lineto} bind def
/c {curveto} bind def
/h {closepath} bind def
/re {4 2 roll moveto 1 index 0 rlineto 0 exch rlineto neg 0 rlineto closepath} bind def
/f {fill} bind def
/rg {setrgbcolor} bind def
/cm {6 array astore concat} bind def
/q {gsave} bind def
/Q {grestore} bind def
`
