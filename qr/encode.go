package qr

import (
	"errors"
	"fmt"
	"sync"
	"unicode/utf8"
)

// Options tunes Encode. The zero value asks for level M with boosting.
type Options struct {
	// Level is the least error correction level (the zero value is M).
	Level Level
	// NoBoost keeps Level as it is. Otherwise the level is raised as far as the data still
	// fits the same version, which costs nothing in size and makes the symbol sturdier.
	NoBoost bool
	// Cover, when not nil, gives the square of modules that the symbol's renderer will draw
	// light, such as a logo's pad, for a symbol of n modules a side: its first module in both
	// directions and its side. Encode then keeps the codewords it damages within half of what
	// each block can correct (see maxCoverShare): among the masks that do, it takes the one with
	// the fewest penalty points, and when no mask does, the next larger version.
	Cover func(n int) (first, side int)
	// CoverPaint, with Cover, says what the renderer draws over each module of the cover; nil
	// when it draws the whole cover light (a logo's pad). A codeword counts as damaged where
	// a module's colour is not what is drawn over it.
	CoverPaint CoverPaint
	// NoECI leaves out the ECI designator that otherwise declares non-ASCII text UTF-8, for a
	// payload format that names its character set itself and whose readers may not expect an
	// ECI, such as the EPC payment code (its third line says UTF-8). The bytes are UTF-8 still.
	NoECI bool
}

// ErrCoverTooCostly is the error of a text that fits a symbol, but none whose error correction
// can spare the modules of Options.Cover.
var ErrCoverTooCostly = errors.New("qr: no symbol holds the text with error correction to spare for the covered modules")

// TooLongError is the error of a text that does not fit the largest symbol, version 40, at
// the level asked for.
type TooLongError struct {
	Len   int   // the text's length in bytes
	Max   int   // the most bytes of such text that fit in byte mode at Level
	Level Level // the level asked for
}

func (e *TooLongError) Error() string {
	return fmt.Sprintf("qr: text of %d bytes does not fit a QR Code at level %s; at most %d bytes fit", e.Len, e.Level, e.Max)
}

// ErrInvalidUTF8 is the error of a text that is not valid UTF-8: the encoder declares all
// non-ASCII text as UTF-8, so other bytes could not be read back.
var ErrInvalidUTF8 = errors.New("qr: text is not valid UTF-8")

// maxTextLen is the longest text that could fit any symbol: 7089 digits at version 40-L.
const maxTextLen = 7089

// Encode returns the smallest QR Code symbol that holds text at opts.Level (ISO/IEC 18004:2015),
// and with opts.Cover the smallest that can also spare the covered modules: text is split into
// the shortest mix of numeric, alphanumeric and byte segments; when it is not pure ASCII, an ECI
// designator declares it UTF-8. It returns a *TooLongError when the text does not fit version
// 40, ErrCoverTooCostly when it fits but no symbol can spare the cover, and ErrInvalidUTF8 when
// text is not UTF-8.
//
// Encode is Prepare and Prepared.Encode on one encoder's scratch memory, so that nothing is
// done twice: the segments that decided the version, and with a cover the codewords laid to
// judge it, are those drawn.
func Encode(text string, opts Options) (*Symbol, error) {
	e := encoders.Get().(*encoder)
	defer e.release()
	p, err := e.prepare(text, opts)
	if err != nil {
		return nil, err
	}
	if p.cover.side == 0 { // with a cover, prepare has laid the codewords already
		e.place(p)
	}
	return e.build(p, -1), nil
}

// strongest returns the strongest level, from l up, at which a stream of bits fits version v.
func strongest(bits, v int, l Level) Level {
	for _, stronger := range levelsByStrength[l.rank()+1:] {
		if bits > dataCodewords(v, stronger)*8 {
			break
		}
		l = stronger
	}
	return l
}

func tooLong(n int, noECI bool, l Level) *TooLongError {
	header := 4 + charCountBits(modeByte, maxVersion)
	if !noECI {
		header += segment{mode: modeECI}.bitLen(maxVersion)
	}
	return &TooLongError{Len: n, Max: (dataCodewords(maxVersion, l)*8 - header) / 8, Level: l}
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// An encoder holds the scratch memory of one encode; encoders are pooled so that an encode
// allocates little more than its Symbol.
type encoder struct {
	segs           []segment
	trace          []byte   // the optimal segmentation's choices
	data           []byte   // data codewords
	codewords      []byte   // the final interleaved codeword sequence
	ecc            []byte   // error correction codewords, block after block
	matrix         []uint64 // the data modules before masking
	matrixT        []uint64 // matrix, transposed
	cand, candT    []uint64 // a masked candidate and its transpose
	transposeBlock [64]uint64
	damage         []int   // damaged codewords per block
	painted        []uint8 // what CoverPaint draws over each covered module (paintLight, paintDark)
}

var encoders = sync.Pool{New: func() any { return new(encoder) }}

// release returns e to the pool, dropping its references to the caller's text so that a
// pooled encoder never keeps a payload alive.
func (e *encoder) release() {
	clear(e.segs)
	e.segs = e.segs[:0]
	encoders.Put(e)
}

// versionGroups are the version ranges that share character count indicator lengths
// (ISO/IEC 18004:2015 Table 3), within which one segmentation is optimal for all versions.
var versionGroups = [3][2]int{{1, 9}, {10, 26}, {27, 40}}

// segment finds the smallest version from `from` up that holds text at level l, leaving the
// text's optimal segments for that version in e.segs, led by the ECI designator of UTF-8
// unless noECI (ASCII text, or Options.NoECI). It returns the version and the length of
// the bit stream, or version 0 when the text does not fit.
func (e *encoder) segment(text string, noECI bool, l Level, from int) (version, bits int) {
	if len(text) > maxTextLen {
		return 0, 0
	}
	// A bound below which no segmentation can go: every byte in its cheapest mode, no
	// headers. It skips the version groups that cannot hold the text.
	least := 0
	for i := 0; i < len(text); i++ {
		switch c := text[i]; {
		case isDigit(c):
			least += sixthsPerDigit
		case alphanumericValue[c] >= 0:
			least += sixthsPerAlphanumeric
		default:
			least += sixthsPerByte
		}
	}
	e.trace = resizeBytes(e.trace, 3*len(text))
	for _, g := range versionGroups {
		if g[1] < from || least > dataCodewords(g[1], l)*8*6 {
			continue
		}
		e.segs = e.segs[:0]
		if !noECI {
			e.segs = append(e.segs, segment{mode: modeECI})
		}
		e.segs = appendOptimalSegments(e.segs, text, g[0], e.trace)
		bits := streamBits(e.segs, g[0])
		if bits < 0 {
			continue
		}
		for v := max(g[0], from); v <= g[1]; v++ {
			if bits <= dataCodewords(v, l)*8 {
				return v, bits
			}
		}
	}
	return 0, 0
}

// symbol builds the version v symbol at level l from the data codewords in e.data, with data
// mask pattern mask, or when mask is -1 the best one of those under which cover c (side 0 for
// none) damages no block too much (see coverAllows). It returns nil when no mask is left. It
// lets tests build what Encode, which takes the same steps, would not choose.
func (e *encoder) symbol(v int, l Level, mask int, c square) *Symbol {
	e.layCodewords(v, l)
	p := Prepared{version: v, level: l, masks: allMasks, cover: c}
	if mask < 0 && c.side > 0 {
		if p.masks = e.coverAllows(planFor(v), l, c, nil); p.masks == 0 {
			return nil
		}
	}
	return e.build(p, mask)
}

// place lays the codewords of p in e.matrix: the data codewords of the segments in e.segs
// (ISO/IEC 18004:2015 7.4), then as layCodewords.
func (e *encoder) place(p Prepared) {
	e.data = appendDataCodewords(e.data[:0], e.segs, p.version, p.level)
	e.layCodewords(p.version, p.level)
}

// layCodewords adds to the data codewords in e.data of a version v symbol at level l their
// error correction codewords, interleaves them (7.5, 7.6), and places the final sequence in the
// data modules of e.matrix, most significant bit first (7.7.3); the remainder bits after them
// stay light.
func (e *encoder) layCodewords(v int, l Level) {
	p := planFor(v)
	e.codewords, e.ecc = appendCodewords(e.codewords[:0], e.data, v, l, e.ecc)
	e.matrix = resize(e.matrix, p.words())
	m := e.matrix
	for k, c := range e.codewords {
		at := p.order[8*k : 8*k+8 : 8*k+8]
		m[at[0]>>6] |= uint64(c>>7&1) << (at[0] & 63)
		m[at[1]>>6] |= uint64(c>>6&1) << (at[1] & 63)
		m[at[2]>>6] |= uint64(c>>5&1) << (at[2] & 63)
		m[at[3]>>6] |= uint64(c>>4&1) << (at[3] & 63)
		m[at[4]>>6] |= uint64(c>>3&1) << (at[4] & 63)
		m[at[5]>>6] |= uint64(c>>2&1) << (at[5] & 63)
		m[at[6]>>6] |= uint64(c>>1&1) << (at[6] & 63)
		m[at[7]>>6] |= uint64(c&1) << (at[7] & 63)
	}
}

// build returns the symbol of p from the codewords laid in e.matrix, under data mask pattern
// mask, or when mask is -1 the one of p.masks with the fewest penalty points (7.8.3), with its
// format and version information (7.9, 7.10).
func (e *encoder) build(p Prepared, mask int) *Symbol {
	pl := planFor(p.version)
	if mask < 0 {
		e.matrixT = resize(e.matrixT, pl.words())
		transposeBitmap(e.matrixT, e.matrix, pl, &e.transposeBlock)
		mask = e.chooseMask(pl, p.level, p.masks)
	}
	s := &Symbol{version: p.version, level: p.level, mask: mask, size: pl.size, rows: pl.rows,
		modules: make([]uint64, pl.words()), cover: p.cover}
	pl.draw(s.modules, e.matrix, pl.pattern, pl.mask[mask], p.level, mask, false)
	return s
}

// resize returns a zeroed slice of n elements, reusing s when it is large enough.
func resize[T uint64 | int](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n)
	}
	s = s[:n]
	clear(s)
	return s
}

// resizeBytes returns a slice of n bytes, reusing s when it is large enough; the bytes are
// not cleared.
func resizeBytes(s []byte, n int) []byte {
	if cap(s) < n {
		return make([]byte, n)
	}
	return s[:n]
}
