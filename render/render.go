package render

import (
	"errors"
	"fmt"
	"image/color"
	"math"
	"unicode/utf8"

	"github.com/bananaqr/bananaqr/qr"
)

// Limits of the options (the service's contract).
const (
	MinSize   = 128
	MaxSize   = 2048
	MaxMargin = 16
	// minModulePixels is the fewest pixels a module may have: fewer do not scan from a screen
	// or in print.
	minModulePixels = 2
	// MaxCaption is the most characters (code points) a caption may have: one line.
	MaxCaption = 40
)

// Corners is the shape of the dark modules' outer corners.
type Corners uint8

const (
	Square  Corners = iota // square modules
	Rounded                // the convex corners of dark shapes rounded, module centres kept
)

// Logo is the mark drawn in the centre of a code.
type Logo uint8

const (
	NoLogo Logo = iota // no mark
	Banana             // the service's own mark, a banana, on a pad of LogoPad
	// SwissCross is the Swiss QR Code's cross (swisscross.go), drawn over the modules of
	// SwissCrossCover; it makes the print formats and the SVG 46 mm for the symbol, whatever
	// Size (which must still fit the symbol, as for a PNG), and needs square corners.
	SwissCross
)

// Options says how to draw a symbol.
type Options struct {
	Size       int        // width and height of the image in pixels, MinSize..MaxSize; for PDF and EPS at PrintDPI
	Margin     int        // quiet zone around the symbol in modules, 0..MaxMargin
	Foreground color.RGBA // the dark modules' colour (opaque)
	Background color.RGBA // the light modules' and quiet zone's colour (opaque)
	Corners    Corners
	Logo       Logo
	// Title is the SVG's accessible name, its <title>; empty for none. The caller decides
	// what may be shown there: a private payload must not be.
	Title string
	// Desc is the SVG's accessible description, its <desc>: how to use the code and the words
	// drawn around it (whose outlines are hidden from screen readers); empty for none. As Title,
	// it must not show a private payload.
	Desc string

	// Words around the code (words.go): a caption of the caption font's characters
	// (CaptionMissing), above the code or below it, and a link's destination, its host and its
	// path, printed small beneath. The image keeps Size: the code shrinks to make room.
	Caption         string
	CaptionAbove    bool
	DestinationHost string // empty for none
	DestinationPath string
}

// Defaults are the service's defaults: 1024 pixels, a quiet zone of 4 modules, #7B260F on
// #FFFFFF, square corners and no logo.
func Defaults() Options {
	return Options{
		Size:       1024,
		Margin:     4,
		Foreground: color.RGBA{0x7b, 0x26, 0x0f, 0xff},
		Background: color.RGBA{0xff, 0xff, 0xff, 0xff},
	}
}

// ErrLogoNotCovered is the error of a logo on a symbol not encoded for it: the mark hides the
// modules of LogoPad, which the symbol's error correction must be able to spare, so the symbol
// must come from qr.Encode with qr.Options{Cover: LogoPad}.
var ErrLogoNotCovered = errors.New("render: a logo needs a symbol encoded with qr.Options{Cover: render.LogoPad}")

// TooSmallError is the error of an image too small for its symbol: each module needs at least
// two pixels.
type TooSmallError struct {
	Size    int // the size asked for
	Modules int // modules a side, quiet zone included
	MinSize int // the smallest size that works; above MaxSize when none does
}

func (e *TooSmallError) Error() string {
	if e.MinSize > MaxSize {
		return fmt.Sprintf("render: %d modules a side need at least %d pixels, more than the largest size, %d", e.Modules, e.MinSize, MaxSize)
	}
	return fmt.Sprintf("render: %d modules a side need at least %d pixels, not %d", e.Modules, e.MinSize, e.Size)
}

// validate checks o against the limits.
func (o *Options) validate() error {
	switch {
	case o.Size < MinSize || o.Size > MaxSize:
		return fmt.Errorf("render: size %d out of range %d..%d", o.Size, MinSize, MaxSize)
	case o.Margin < 0 || o.Margin > MaxMargin:
		return fmt.Errorf("render: margin %d out of range 0..%d", o.Margin, MaxMargin)
	case o.Corners > Rounded:
		return fmt.Errorf("render: unknown corners %d", o.Corners)
	case o.Logo > SwissCross:
		return fmt.Errorf("render: unknown logo %d", o.Logo)
	case o.Logo == SwissCross && o.hasWords():
		// The Swiss QR Code is printed in the QR-bill's payment part, whose texts are its own
		// (the API refuses a caption); its cross is drawn for a symbol as far from the top as
		// from the left.
		return errors.New("render: a Swiss QR Code takes no words")
	case utf8.RuneCountInString(o.Caption) > MaxCaption:
		return fmt.Errorf("render: a caption of %d characters, more than %d", utf8.RuneCountInString(o.Caption), MaxCaption)
	}
	return nil
}

// A layout places a symbol in an image: every module is module×module pixels, and the symbol's
// top left module starts originX pixels from the left edge and originY from the top; words, when
// there are, lie above or below it.
type layout struct {
	size    int // the image's side in pixels
	n       int // the symbol's modules a side
	module  int // pixels a module
	originX int // pixels before the first module: the quiet zone and half the remainder
	originY int // the same down the image, less or more the words' bands
	pad     padding
	words   words
}

// newLayout fits a symbol of n modules with a quiet zone of margin modules into size pixels,
// with the words of o, if any (words.go).
func newLayout(n int, o *Options) (layout, error) {
	total := n + 2*o.Margin
	if o.hasWords() {
		module, w, need := wordsFit(total, o)
		if module == 0 {
			return layout{}, &TooSmallError{Size: o.Size, Modules: total, MinSize: max(MinSize, int(math.Ceil(minModulePixels*need)))}
		}
		l := layout{size: o.Size, n: n, module: module, originX: (o.Size-module*total)/2 + o.Margin*module, words: w}
		l.originY = int(w.codeTop) + o.Margin*module
		return l, nil
	}
	module := o.Size / total
	if module < minModulePixels {
		return layout{}, &TooSmallError{Size: o.Size, Modules: total, MinSize: max(MinSize, minModulePixels*total)}
	}
	origin := (o.Size-module*total)/2 + o.Margin*module
	return layout{size: o.Size, n: n, module: module, originX: origin, originY: origin}, nil
}

// ModulePixels returns how many pixels a module of a symbol of n modules a side gets in an
// image drawn with o (see Options): the largest whole number that fits the symbol and its quiet
// zone in o.Size, or a *TooSmallError when that is fewer than 2.
func ModulePixels(n int, o *Options) (int, error) {
	if err := o.validate(); err != nil {
		return 0, err
	}
	l, err := newLayout(n, o)
	return l.module, err
}

// prepare validates o for s and lays s out.
func prepare(s *qr.Symbol, o *Options) (layout, error) {
	if err := o.validate(); err != nil {
		return layout{}, err
	}
	if o.Logo == Banana {
		first, side := s.Cover()
		if want := logoPad(s.Size()); first != want.first || side != want.side {
			return layout{}, ErrLogoNotCovered
		}
	}
	if o.Logo == SwissCross {
		if err := checkCross(s, o); err != nil {
			return layout{}, err
		}
	}
	l, err := newLayout(s.Size(), o)
	if err != nil {
		return layout{}, err
	}
	if o.Logo == Banana {
		l.pad = logoPad(s.Size())
	}
	return l, nil
}

// padding is the square of modules cleared for a logo: modules first to first+side-1 in both
// directions; side 0 when there is no logo.
type padding struct{ first, side int }

// LogoPad returns the square of modules that a logo clears on a symbol of n modules a side:
// its first module in both directions and its side. It is what qr.Options.Cover takes, so that
// the encoder keeps error correction to spare for it.
func LogoPad(n int) (first, side int) {
	p := logoPad(n)
	return p.first, p.side
}

// logoPad returns the cleared square for a logo on a symbol of n modules: the largest odd
// number of modules within 20% of the symbol's width, centred.
func logoPad(n int) padding {
	side := n / 5
	if side%2 == 0 {
		side--
	}
	return padding{first: (n - side) / 2, side: side}
}
