package bench

import (
	"fmt"
	"image/color"
	"testing"

	"github.com/bananaqr/bananaqr/qr"
	"github.com/boombuler/barcode"
	boomqr "github.com/boombuler/barcode/qr"
	skip2 "github.com/skip2/go-qrcode"
	yeqown "github.com/yeqown/go-qrcode/v2"
	rscqr "rsc.io/qr"
)

// encoder is one library under test.
type encoder struct {
	// name is the sub-benchmark name of the library.
	name string
	// encode builds the complete symbol for text at error-correction level
	// M, i.e. the module matrix including mask selection where the library
	// does it, but no image. It stores the symbol in a package-level sink and
	// returns its side length in modules (without quiet zone).
	encode func(text string) (int, error)
	// matrix encodes text like encode and returns an accessor for the
	// modules; dark(x, y) reports whether the module in column x, row y is
	// dark. It is only used by tests, never timed.
	matrix func(text string) (size int, dark func(x, y int) bool, err error)
}

// encoders lists the libraries in reporting order; bananaqr is the baseline.
var encoders = []encoder{
	{"bananaqr", encodeBananaqr, matrixBananaqr},
	{"rsc", encodeRSC, matrixRSC},
	{"skip2", encodeSkip2, matrixSkip2},
	{"yeqown", encodeYeqown, matrixYeqown},
	{"boombuler", encodeBoombuler, matrixBoombuler},
}

// Package-level sinks keep the compiler from discarding the encoders' work.
// They are typed so that storing a result never allocates.
var (
	sinkBananaqr  *qr.Symbol
	sinkRSC       *rscqr.Code
	sinkSkip2     [][]bool
	sinkYeqown    *yeqown.QRCode
	sinkBoombuler barcode.Barcode
	sinkSize      int
)

func encodeBananaqr(text string) (int, error) {
	s, err := qr.Encode(text, qr.Options{Level: qr.M})
	if err != nil {
		return 0, err
	}
	sinkBananaqr = s
	return s.Size(), nil
}

func matrixBananaqr(text string) (int, func(x, y int) bool, error) {
	s, err := qr.Encode(text, qr.Options{Level: qr.M})
	if err != nil {
		return 0, nil, err
	}
	return s.Size(), s.Dark, nil
}

// encodeRSC uses rsc.io/qr, which builds the whole matrix in Encode. It
// picks one mode for the whole text and always uses mask 0 (no mask
// selection), so it does less work than a conforming encoder.
func encodeRSC(text string) (int, error) {
	c, err := rscqr.Encode(text, rscqr.M)
	if err != nil {
		return 0, err
	}
	sinkRSC = c
	return c.Size, nil
}

func matrixRSC(text string) (int, func(x, y int) bool, error) {
	c, err := rscqr.Encode(text, rscqr.M)
	if err != nil {
		return 0, nil, err
	}
	return c.Size, c.Black, nil
}

// newSkip2 builds a complete skip2 symbol. skip2's New only segments the
// data and chooses the version; error correction, module placement and the
// evaluation of all eight masks run lazily inside the first Bitmap call, so
// Bitmap is part of the timed work. Bitmap must be called exactly once per
// QRCode: the lazy step appends terminator and padding bits to the
// QRCode's data, so a second call would re-encode different data.
// DisableBorder drops the 4-module quiet zone, which the other libraries
// do not build either.
func newSkip2(text string) ([][]bool, error) {
	q, err := skip2.New(text, skip2.Medium)
	if err != nil {
		return nil, err
	}
	q.DisableBorder = true
	return q.Bitmap(), nil
}

func encodeSkip2(text string) (int, error) {
	bm, err := newSkip2(text)
	if err != nil {
		return 0, err
	}
	sinkSkip2 = bm
	return len(bm), nil
}

func matrixSkip2(text string) (int, func(x, y int) bool, error) {
	bm, err := newSkip2(text)
	if err != nil {
		return 0, nil, err
	}
	return len(bm), func(x, y int) bool { return bm[y][x] }, nil
}

// newYeqown builds a yeqown symbol. NewWith is eager: it encodes, places
// the modules and evaluates all eight masks (concurrently, one goroutine
// per mask) before returning. The default encoding mode is EncModeAuto,
// which picks a single mode for the whole text.
func newYeqown(text string) (*yeqown.QRCode, error) {
	return yeqown.NewWith(text,
		yeqown.WithErrorCorrectionLevel(yeqown.ErrorCorrectionMedium))
}

func encodeYeqown(text string) (int, error) {
	q, err := newYeqown(text)
	if err != nil {
		return 0, err
	}
	sinkYeqown = q
	return q.Dimension(), nil
}

// matrixCapture is a yeqown Writer that keeps the matrix it is given.
type matrixCapture struct{ bitmap [][]bool }

func (c *matrixCapture) Write(m yeqown.Matrix) error {
	c.bitmap = m.Bitmap() // indexed [y][x]
	return nil
}

func (c *matrixCapture) Close() error { return nil }

func matrixYeqown(text string) (int, func(x, y int) bool, error) {
	q, err := newYeqown(text)
	if err != nil {
		return 0, nil, err
	}
	var c matrixCapture
	if err := q.Save(&c); err != nil {
		return 0, nil, err
	}
	return len(c.bitmap), func(x, y int) bool { return c.bitmap[y][x] }, nil
}

// encodeBoombuler uses boombuler/barcode/qr, whose Encode is eager: it
// renders all eight masked candidates and keeps the one with the lowest
// penalty. qr.Auto picks a single mode for the whole text.
func encodeBoombuler(text string) (int, error) {
	c, err := boomqr.Encode(text, boomqr.M, boomqr.Auto)
	if err != nil {
		return 0, err
	}
	sinkBoombuler = c
	return c.Bounds().Dx(), nil
}

func matrixBoombuler(text string) (int, func(x, y int) bool, error) {
	c, err := boomqr.Encode(text, boomqr.M, boomqr.Auto)
	if err != nil {
		return 0, nil, err
	}
	dark := func(x, y int) bool {
		return color.GrayModel.Convert(c.At(x, y)).(color.Gray).Y < 0x80
	}
	return c.Bounds().Dx(), dark, nil
}

// BenchmarkEncode encodes every input with every library at level M, up to
// the finished module matrix (no image rendering). Sub-benchmarks are named
// Encode/<input>/<library>.
func BenchmarkEncode(b *testing.B) {
	for _, in := range Inputs {
		b.Run(in.Name, func(b *testing.B) {
			for _, enc := range encoders {
				b.Run(enc.name, func(b *testing.B) {
					b.ReportAllocs()
					for b.Loop() {
						n, err := enc.encode(in.Text)
						if err != nil {
							b.Fatal(err)
						}
						sinkSize = n
					}
				})
			}
		})
	}
}

func TestInputs(t *testing.T) {
	want := map[string]int{"url": 49, "mixed300": 300, "ascii2000": 2000, "digits50": 50}
	if len(Inputs) != len(want) {
		t.Fatalf("len(Inputs) = %d, want %d", len(Inputs), len(want))
	}
	for _, in := range Inputs {
		if n, ok := want[in.Name]; !ok {
			t.Errorf("unexpected input %q", in.Name)
		} else if len(in.Text) != n {
			t.Errorf("len(%s) = %d, want %d", in.Name, len(in.Text), n)
		}
		for i := 0; i < len(in.Text); i++ {
			if c := in.Text[i]; c < 0x20 || c > 0x7e {
				t.Errorf("%s: byte %d is %#x, want printable ASCII", in.Name, i, c)
				break
			}
		}
	}
	for i := 0; i < len(Digits50); i++ {
		if Digits50[i] < '0' || Digits50[i] > '9' {
			t.Fatalf("Digits50[%d] = %q, want a digit", i, Digits50[i])
		}
	}
}

// TestSymbols is a cheap sanity check that every library really produces a
// plausible symbol for every input: a valid side length (version 1 to 40,
// no quiet zone), the three finder patterns and the timing patterns.
func TestSymbols(t *testing.T) {
	for _, in := range Inputs {
		for _, enc := range encoders {
			size, dark, err := enc.matrix(in.Text)
			if err != nil {
				t.Errorf("%s/%s: %v", in.Name, enc.name, err)
				continue
			}
			if size < 21 || size > 177 || (size-17)%4 != 0 {
				t.Errorf("%s/%s: size %d is not a QR symbol size", in.Name, enc.name, size)
				continue
			}
			t.Logf("%-9s %-9s version %2d (%d modules)", in.Name, enc.name, (size-17)/4, size)
			if err := checkFunctionPatterns(size, dark); err != nil {
				t.Errorf("%s/%s: %v", in.Name, enc.name, err)
			}
		}
	}
}

// TestBananaqrMetadata checks that the accessors of our Symbol agree with
// the requested options and the matrix size.
func TestBananaqrMetadata(t *testing.T) {
	for _, in := range Inputs {
		s, err := qr.Encode(in.Text, qr.Options{Level: qr.M})
		if err != nil {
			t.Fatalf("%s: %v", in.Name, err)
		}
		if got, want := s.Version(), (s.Size()-17)/4; got != want {
			t.Errorf("%s: Version() = %d, want %d for size %d", in.Name, got, want, s.Size())
		}
		if s.Level() != qr.M {
			t.Errorf("%s: Level() = %v, want M", in.Name, s.Level())
		}
		if m := s.Mask(); m < 0 || m > 7 {
			t.Errorf("%s: Mask() = %d, want 0..7", in.Name, m)
		}
	}
}

// checkFunctionPatterns checks the finder and timing patterns of a symbol.
func checkFunctionPatterns(size int, dark func(x, y int) bool) error {
	for _, o := range [][2]int{{0, 0}, {size - 7, 0}, {0, size - 7}} {
		for dy := 0; dy < 7; dy++ {
			for dx := 0; dx < 7; dx++ {
				// Dark outer ring and 3x3 core, light ring in between.
				want := max(abs(dx-3), abs(dy-3)) != 2
				if x, y := o[0]+dx, o[1]+dy; dark(x, y) != want {
					return fmt.Errorf("finder module (%d,%d) dark=%v, want %v", x, y, !want, want)
				}
			}
		}
	}
	for i := 8; i < size-8; i++ {
		want := i%2 == 0
		if dark(i, 6) != want || dark(6, i) != want {
			return fmt.Errorf("timing module %d is wrong", i)
		}
	}
	return nil
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
