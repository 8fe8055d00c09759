package qr

import (
	"errors"
	"fmt"
	"unicode/utf8"
)

// Prepared is what Encode decides about the symbol of a text before it draws it: the version
// whose data capacity holds the text's shortest segments (ISO/IEC 18004:2015 7.4, Table 7), the
// error correction level, raised as far as that version allows, and with Options.Cover the cover
// and the data masks under which it spares every block (7.5.2). It is a few words whatever the
// symbol's size, so that a caller that checks many texts before encoding any (a batch, all or
// nothing) can keep it rather than the symbol. Prepare makes it; its Encode makes the symbol.
type Prepared struct {
	version int
	level   Level
	masks   uint8  // the data masks that Encode may choose from, bit m for mask m (7.8.2)
	cover   square // the cover at this version; side 0 for none
	noECI   bool   // no ECI designator: ASCII text, or Options.NoECI
	bits    int    // the length of the text's bit stream, to tell that Encode has the same text
}

// allMasks allows the eight data masks: a symbol without a cover may have any.
const allMasks = 0xff

// Version returns the version of the symbol, 1 to 40.
func (p Prepared) Version() int { return p.version }

// Size returns the number of modules on a side of the symbol: 4·Version()+17.
func (p Prepared) Size() int { return symbolSize(p.version) }

// errNotPrepared is the error of Prepared.Encode given another text than Prepare, or a Prepared
// that Prepare did not make.
var errNotPrepared = errors.New("qr: the text is not the one prepared")

// Prepare decides the symbol of text as Encode would, with the same errors, without encoding
// it: it splits text into segments and finds the version and the level (ISO/IEC 18004:2015 7.4),
// and with opts.Cover lays each candidate version's codewords to find whether some data mask
// spares the cover (the error correction codewords are needed for that, the masks' penalty
// scores are not). Prepared.Encode then encodes the symbol, as Encode would have.
func Prepare(text string, opts Options) (Prepared, error) {
	e := encoders.Get().(*encoder)
	defer e.release()
	return e.prepare(text, opts)
}

// Encode returns the symbol of p, which Prepare made of text: the one Encode returns for text
// and Prepare's options. Give it the text given to Prepare: it returns an error for a text
// whose segments do not fill the prepared version as that text's did.
func (p Prepared) Encode(text string) (*Symbol, error) {
	if p.version == 0 {
		return nil, errNotPrepared
	}
	e := encoders.Get().(*encoder)
	defer e.release()
	// The segments of the version group holding p.version (ISO/IEC 18004:2015 Table 3), as
	// prepare found them; they fit p.version at p.level, as prepare checked.
	if v, bits := e.segment(text, p.noECI, p.level, p.version); v != p.version || bits != p.bits {
		return nil, errNotPrepared
	}
	e.place(p)
	return e.build(p, -1), nil
}

// prepare decides the symbol of text with options opts (see Prepare), leaving the text's
// segments for its version in e.segs and, when it has a cover, its codewords laid in e.matrix.
func (e *encoder) prepare(text string, opts Options) (Prepared, error) {
	if !opts.Level.valid() {
		return Prepared{}, fmt.Errorf("qr: invalid error correction level %d", uint8(opts.Level))
	}
	ascii := isASCII(text)
	if !ascii && !utf8.ValidString(text) {
		return Prepared{}, ErrInvalidUTF8
	}
	noECI := ascii || opts.NoECI
	v, bits := e.segment(text, noECI, opts.Level, minVersion)
	if v == 0 {
		return Prepared{}, tooLong(len(text), noECI, opts.Level)
	}
	for {
		p := Prepared{version: v, level: opts.Level, masks: allMasks, noECI: noECI, bits: bits}
		if !opts.NoBoost {
			p.level = strongest(bits, v, p.level)
		}
		if opts.Cover == nil {
			return p, nil
		}
		if p.cover.first, p.cover.side = opts.Cover(symbolSize(v)); p.cover.side == 0 {
			return p, nil
		}
		e.place(p)
		if p.masks = e.coverAllows(planFor(v), p.level, p.cover, opts.CoverPaint); p.masks != 0 {
			return p, nil
		}
		if v == maxVersion {
			return Prepared{}, ErrCoverTooCostly
		}
		if v, bits = e.segment(text, noECI, opts.Level, v+1); v == 0 {
			return Prepared{}, ErrCoverTooCostly
		}
	}
}
