package render

import (
	"bytes"
	"errors"
	"fmt"
	"image"
	"image/png"
	"math"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/bananaqr/bananaqr/qr"
)

// swissOptions returns the options of a Swiss QR Code: black on white, the Swiss cross.
func swissTestOptions(size int) Options {
	o := Defaults()
	o.Size, o.Logo = size, SwissCross
	o.Foreground.R, o.Foreground.G, o.Foreground.B = 0, 0, 0
	return o
}

// swissText returns a text of printable ASCII (byte mode, as a QR-bill's text mostly is) whose
// Swiss QR Code, at level M with the cross covered, is of version v.
func swissText(t testing.TB, v int) (string, *qr.Symbol) {
	t.Helper()
	base := "SPC\n0200\n1\nCH4431999123000889012\nS\nRobert Schneider AG\nRue du Lac\n1268\n2501\nBiel\nCH\n"
	for n := 1; n < 2000; n++ {
		text := strings.Repeat(base, n/len(base)+1)[:n]
		s, err := qr.Encode(text, qr.Options{Level: qr.M, NoBoost: true, NoECI: true, Cover: SwissCrossCover, CoverPaint: SwissCrossPaint})
		if err != nil {
			t.Fatal(err)
		}
		if s.Version() == v {
			return text, s
		}
		if s.Version() > v {
			break
		}
	}
	t.Fatalf("no text makes version %d", v)
	return "", nil
}

// swissVersions are the versions the tests sample: a small one (a QR-bill's payload, some 90
// bytes at the least, needs version 5 or more; shorter texts make some smaller ones, but
// version 3 cannot spare at level M what the cross paints, SwissCrossPaint), those
// whose cross covers the central alignment pattern (7 to 13), and up to the guideline's largest,
// 25.
var swissVersions = []int{4, 5, 7, 10, 13, 17, 20, 25}

// TestSwissCrossCover: the cover is the least square of whole modules, centred, that holds the
// cross's 7/46 of the symbol's side.
func TestSwissCrossCover(t *testing.T) {
	for v := 1; v <= 40; v++ {
		n := 17 + 4*v
		first, side := SwissCrossCover(n)
		half := float64(n) * 7 / 46 / 2 // the cross's half side, in modules
		lo, hi := float64(n)/2-half, float64(n)/2+half
		if first+side != n-first {
			t.Errorf("n %d: cover %d+%d not centred", n, first, side)
		}
		if float64(first) > lo || float64(first+side) < hi {
			t.Errorf("n %d: cover %d..%d misses the cross %.3f..%.3f", n, first, first+side, lo, hi)
		}
		if float64(first+1) <= lo || float64(first+side-1) >= hi {
			t.Errorf("n %d: cover %d..%d larger than the cross %.3f..%.3f needs", n, first, first+side, lo, hi)
		}
	}
	if first, side := SwissCrossCover(21); first != 8 || side != 5 {
		t.Errorf("version 1: %d, %d", first, side)
	}
	if first, side := SwissCrossCover(117); first != 49 || side != 19 {
		t.Errorf("version 25: %d, %d", first, side)
	}
}

// TestSwissCrossPNG measures the cross in PNGs of several versions and sizes: in mm of a 46 mm
// symbol, a white square of 7 mm, in it a black one of 6 mm, and a white cross of bars 7/6 mm
// wide and 35/9 mm long, each centred on the symbol's centre (to a pixel), and the modules
// outside the cross as the symbol has them.
func TestSwissCrossPNG(t *testing.T) {
	for _, v := range swissVersions {
		_, s := swissText(t, v)
		for _, size := range []int{256, 1024, 2047} {
			o := swissTestOptions(size)
			data, err := PNG(s, o)
			var small *TooSmallError
			if errors.As(err, &small) {
				continue
			}
			if err != nil {
				t.Fatal(err)
			}
			img, err := png.Decode(bytes.NewReader(data))
			if err != nil {
				t.Fatal(err)
			}
			checkPixelCross(t, fmt.Sprintf("version %d at %d px", v, size), img, s, &o)
		}
	}
}

// checkPixelCross checks the cross and the modules around it in img, s drawn with o.
func checkPixelCross(t *testing.T, name string, img image.Image, s *qr.Symbol, o *Options) {
	t.Helper()
	k, _ := ModulePixels(s.Size(), o)
	n := s.Size()
	origin := (o.Size-k*(n+2*o.Margin))/2 + o.Margin*k
	symbol := float64(n * k)
	centre := float64(origin) + symbol/2 // in pixel edges
	mm := symbol / 46                    // pixels a millimetre
	dark := func(x, y int) bool { r, _, _, _ := img.At(x, y).RGBA(); return r < 0x8000 }
	// run returns the run of pixels of the colour of (x, y) along row y (or column x) through it.
	run := func(x, y int, across bool) (from, to int) {
		c := dark(x, y)
		step := func(i, d int) int {
			for {
				nx, ny := x, y
				if across {
					nx = i + d
				} else {
					ny = i + d
				}
				if dark(nx, ny) != c {
					return i
				}
				i += d
			}
		}
		at := y
		if across {
			at = x
		}
		return step(at, -1), step(at, 1) + 1
	}
	check := func(what string, from, to int, wantMM float64) {
		t.Helper()
		if w := float64(to - from); math.Abs(w-wantMM*mm) > 1.01 {
			t.Errorf("%s: %s %d px wide, want %.2f", name, what, to-from, wantMM*mm)
		}
		if mid := float64(from+to) / 2; math.Abs(mid-centre) > 0.51 {
			t.Errorf("%s: %s centred at %.1f, want %.1f", name, what, mid, centre)
		}
	}
	c := int(centre)
	blackTop := int(centre - 3*mm + 1) // a row within the black square, above the cross
	from, to := run(c, c, true)
	check("the cross's horizontal bar", from, to, 35.0/9)
	from, to = run(c, blackTop, true)
	check("the black square, across", from, to, 6)
	from, to = run(int(centre-3*mm+1), c, false)
	check("the black square, down", from, to, 6)
	from, to = run(c, int(centre-35.0/18*mm+1), true)
	check("the cross's vertical bar, across", from, to, 7.0/6)
	from, to = run(c, c, false)
	check("the cross's vertical bar, down", from, to, 35.0/9)
	// The white border: every pixel between the 7 mm square's edge and the black square's.
	for i := int(math.Ceil(centre - 3.5*mm)); float64(i) < centre+3.5*mm-1; i++ {
		for _, j := range []int{int(centre - 3.5*mm + 0.99), int(centre + 3.5*mm - 0.99)} {
			if dark(i, j) || dark(j, i) {
				t.Errorf("%s: the white border is dark at (%d, %d) or (%d, %d)", name, i, j, j, i)
				return
			}
		}
	}
	// The modules around the cross are the symbol's.
	cf, cs := SwissCrossCover(n)
	for y := range n {
		for x := range n {
			if x >= cf && x < cf+cs && y >= cf && y < cf+cs {
				continue
			}
			if got := dark(origin+x*k+k/2, origin+y*k+k/2); got != s.Dark(x, y) {
				t.Fatalf("%s: module (%d, %d) dark %v, want %v", name, x, y, got, s.Dark(x, y))
			}
		}
	}
}

// TestSwissPrintSize: the PDF's media box, the EPS's bounding box and the SVG's width and height
// are 46 mm for the symbol and its quiet zone at the same scale, whatever Size; the SVG's viewBox
// is the symbol and its quiet zone in modules.
func TestSwissPrintSize(t *testing.T) {
	const pointsPerMM = 72 / 25.4
	for _, v := range swissVersions {
		_, s := swissText(t, v)
		n := s.Size()
		for _, margin := range []int{0, 4, 10} {
			name := fmt.Sprintf("version %d margin %d", v, margin)
			wantMM := 46 * float64(n+2*margin) / float64(n)
			if got := SwissPageSide(n, margin); math.Abs(got-wantMM*pointsPerMM) > 1e-9 {
				t.Errorf("%s: SwissPageSide %v, want %v", name, got, wantMM*pointsPerMM)
			}
			var first []byte
			for _, size := range []int{1000, 1500, MaxSize} { // Size must fit the symbol still
				o := swissTestOptions(size)
				o.Margin = margin
				pdf, err := PDF(s, o)
				if err != nil {
					t.Fatal(err)
				}
				if first == nil {
					first = pdf
				} else if !bytes.Equal(pdf, first) {
					t.Errorf("%s: the PDF at size %d differs from that at 1000", name, size)
				}
				checkPDF(t, name, pdf, math.Round(wantMM*pointsPerMM*10000)/10000, "")
				media := numbersAfter(t, pdf, `/MediaBox \[0 0 `, 2)
				eps, _ := EPS(s, o)
				hires := numbersAfter(t, eps, `%%HiResBoundingBox: 0 0 `, 2)
				box := numbersAfter(t, eps, `%%BoundingBox: 0 0 `, 2)
				svg, _ := SVG(s, o)
				width := numbersAfter(t, svg, `width="`, 1)
				view := numbersAfter(t, svg, `viewBox="`, 4)
				for what, got := range map[string]float64{"MediaBox": media[0] / pointsPerMM, "HiResBoundingBox": hires[1] / pointsPerMM, "SVG width": width[0]} {
					if math.Abs(got-wantMM) > 0.001 {
						t.Errorf("%s: %s %.4f mm, want %.4f", name, what, got, wantMM)
					}
				}
				if box[0] != math.Ceil(hires[0]) {
					t.Errorf("%s: BoundingBox %v for %v", name, box[0], hires[0])
				}
				if m, side := float64(margin), float64(n+2*margin); view[0] != -m || view[1] != -m || view[2] != side || view[3] != side {
					t.Errorf("%s: viewBox %v", name, view)
				}
				if bytes.Contains(svg, []byte("-0 ")) {
					t.Errorf("%s: a negative zero: %.200s", name, svg)
				}
				if !bytes.Contains(svg, fmt.Appendf(nil, `width="%smm" height="%smm"`, appendNumber(nil, wantMM), appendNumber(nil, wantMM))) {
					t.Errorf("%s: SVG size not in mm: %.120s", name, svg)
				}
			}
		}
	}
}

// numbersAfter returns the count numbers that follow the first match of pattern in data,
// separated by spaces (up to a quote, "mm" or a bracket).
func numbersAfter(t *testing.T, data []byte, pattern string, count int) []float64 {
	t.Helper()
	m := regexp.MustCompile(pattern + `([-0-9. ]+)`).FindSubmatch(data)
	if m == nil {
		t.Fatalf("no %s in %.200s", pattern, data)
	}
	f := strings.Fields(string(m[1]))
	if len(f) < count {
		t.Fatalf("%s: %q", pattern, m[1])
	}
	out := make([]float64, count)
	for i := range out {
		var err error
		if out[i], err = strconv.ParseFloat(f[i], 64); err != nil {
			t.Fatal(err)
		}
	}
	return out
}

// TestSwissCrossRefusals: the cross needs a symbol encoded for it, and square corners.
func TestSwissCrossRefusals(t *testing.T) {
	_, s := swissText(t, 5)
	plain, _ := qr.Encode("SPC", qr.Options{Level: qr.M})
	banana, _ := qr.Encode("SPC", qr.Options{Level: qr.M, Cover: LogoPad})
	rounded := swissTestOptions(1024)
	rounded.Corners = Rounded
	for name, c := range map[string]struct {
		s    *qr.Symbol
		o    Options
		want error
	}{
		"no cover":     {plain, swissTestOptions(1024), ErrCrossNotCovered},
		"banana cover": {banana, swissTestOptions(1024), ErrCrossNotCovered},
		"rounded":      {s, rounded, ErrCrossCorners},
	} {
		for format, draw := range map[string]func(*qr.Symbol, Options) ([]byte, error){"png": PNG, "svg": SVG, "pdf": PDF, "eps": EPS} {
			if _, err := draw(c.s, c.o); !errors.Is(err, c.want) {
				t.Errorf("%s %s: %v, want %v", name, format, err, c.want)
			}
		}
	}
}

// TestSwissCrossPaint holds SwissCrossPaint to the cross sampled on a fine grid (64 points a
// module) over the central half of each module of the cover: what it paints is found there, and
// what is found at least a sliver inside that half, it paints; for every version 1 to 25.
func TestSwissCrossPaint(t *testing.T) {
	for v := 1; v <= SwissMaxVersion; v++ {
		n := 4*v + 17
		first, side := SwissCrossCover(n)
		for y := first; y < first+side; y++ {
			for x := first; x < first+side; x++ {
				light, dark := SwissCrossPaint(n, x, y)
				seenLight, seenDark := sampleCross(n, x, y, .25)
				innerLight, innerDark := sampleCross(n, x, y, .25+sliver)
				if light && !seenLight || dark && !seenDark || innerLight && !light || innerDark && !dark {
					t.Fatalf("version %d, module (%d, %d): paint light %v dark %v; sampled %v %v, inside %v %v",
						v, x, y, light, dark, seenLight, seenDark, innerLight, innerDark)
				}
			}
		}
	}
}

// sampleCross returns whether the cross of a symbol of n modules shows white or black at some
// point of a grid of 64 points a module over module (x, y) less inset on each side.
func sampleCross(n, x, y int, inset float64) (light, dark bool) {
	r := crossRects(n)
	in := func(c crossRect, px, py float64) bool { return px > c.x && px < c.x+c.w && py > c.y && py < c.y+c.h }
	for px := float64(x) + inset; px < float64(x+1)-inset; px += 1.0 / 64 {
		for py := float64(y) + inset; py < float64(y+1)-inset; py += 1.0 / 64 {
			switch {
			case in(r[2], px, py) || in(r[3], px, py):
				light = true
			case in(r[1], px, py):
				dark = true
			case in(r[0], px, py):
				light = true
			}
		}
	}
	return light, dark
}
