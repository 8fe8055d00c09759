package render

import (
	"bytes"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"

	"github.com/bananaqr/bananaqr/internal/qrtest"
	"github.com/bananaqr/bananaqr/internal/testenv"
	"github.com/bananaqr/bananaqr/qr"
	"github.com/bananaqr/bananaqr/render/internal/glyph"
)

// wpCase is a code with words drawn as PNG by the tests of this file.
type wpCase struct {
	text           string
	size, margin   int
	corners        Corners
	logo           Logo
	caption        string
	above          bool
	host, path     string
	foreground, bg color.RGBA // the default colours when zero
}

func (c wpCase) String() string {
	return fmt.Sprintf("%d px margin %d corners %d logo %d caption %q above %v destination %q%q",
		c.size, c.margin, c.corners, c.logo, c.caption, c.above, c.host, c.path)
}

// options returns the options of c.
func (c wpCase) options() Options {
	o := Defaults()
	o.Size, o.Margin, o.Corners, o.Logo = c.size, c.margin, c.corners, c.logo
	o.Caption, o.CaptionAbove, o.DestinationHost, o.DestinationPath = c.caption, c.above, c.host, c.path
	if c.foreground != (color.RGBA{}) {
		o.Foreground, o.Background = c.foreground, c.bg
	}
	return o
}

// wpCases are the tests' codes with words: square and rounded, the caption above and below,
// with and without the destination, the banana, odd sizes, and no quiet zone.
func wpCases() []wpCase {
	const host, path = "example.com", "/products/12345?ref=newsletter"
	return []wpCase{
		{text: renderTexts[0], size: 1024, margin: 4, corners: Square, caption: "Scan for the menu"},
		{text: renderTexts[0], size: 1024, margin: 4, corners: Square, caption: "Scan for the menu", above: true, host: host, path: path},
		{text: renderTexts[0], size: 1024, margin: 4, corners: Rounded, caption: "Scan for the menu", host: host, path: path},
		{text: renderTexts[0], size: 777, margin: 4, corners: Rounded, caption: "Меню · Μενού · Menü", above: true},
		{text: renderTexts[0], size: 600, margin: 2, corners: Square, host: host, path: path},
		{text: renderTexts[0], size: 1024, margin: 4, corners: Square, logo: Banana, caption: "Bananas!", host: host, path: path},
		{text: renderTexts[0], size: 901, margin: 4, corners: Rounded, logo: Banana, caption: "A long caption, set smaller to fit", above: true,
			foreground: color.RGBA{0x1a, 0x23, 0x7e, 0xff}, bg: color.RGBA{0xff, 0xf8, 0xe1, 0xff}},
		{text: renderTexts[0], size: 1024, margin: 0, corners: Square, caption: "Scan gjpqy", above: true, host: host, path: path},
		{text: renderTexts[0], size: 1024, margin: 0, corners: Rounded, caption: "ÁÉÍ gjpqy"},
	}
}

// wpSymbol encodes c's text for its logo.
func wpSymbol(t *testing.T, c wpCase) *qr.Symbol {
	t.Helper()
	s, err := encodeFor(c.text, qr.Options{Level: qr.M}, c.logo)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// wpDecode decodes a PNG file as a 16-colour paletted image, failing t otherwise.
func wpDecode(t *testing.T, file []byte) *image.Paletted {
	t.Helper()
	img, err := png.Decode(bytes.NewReader(file))
	if err != nil {
		t.Fatal(err)
	}
	p, ok := img.(*image.Paletted)
	if !ok || len(p.Palette) != 16 {
		t.Fatalf("decoded %T, want a paletted image of 16 colours (8 bits a pixel)", img)
	}
	return p
}

// wpCoverage returns the words of layout l as glyph.Mask draws them, each line where the SVG puts
// it, in one coverage image of the whole picture (the larger where lines meet).
func wpCoverage(l *layout) *image.Alpha {
	out := image.NewAlpha(image.Rect(0, 0, l.size, l.size))
	for _, w := range []wordsLine{l.words.caption, l.words.destination} {
		if w.face == nil {
			continue
		}
		m := w.face.Mask(w.run, glyph.Transform{X: w.x, Y: w.baseline, Scale: w.scale})
		for y := m.Rect.Min.Y; y < m.Rect.Max.Y; y++ {
			for x := m.Rect.Min.X; x < m.Rect.Max.X; x++ {
				if a := m.AlphaAt(x, y).A; (image.Point{x, y}).In(out.Rect) && a > out.AlphaAt(x, y).A {
					out.SetAlpha(x, y, color.Alpha{A: a})
				}
			}
		}
	}
	return out
}

// wpShade returns fg over bg at coverage a (0 to 255) rounded to the nearest quarter, as the
// PNG's palette should hold it: each channel bg + (fg − bg)·q/4, rounded.
func wpShade(bg, fg color.RGBA, a uint8) color.RGBA {
	q := math.Round(float64(a) * 4 / 255)
	mix := func(b, f uint8) uint8 { return uint8(math.Round((float64(b)*(4-q) + float64(f)*q) / 4)) }
	return color.RGBA{mix(bg.R, fg.R), mix(bg.G, fg.G), mix(bg.B, fg.B), 0xff}
}

// TestPNGWordsPixels checks every pixel of PNGs with words: where the words have ink (their
// masks, quantised to quarters) the shade of their coverage, elsewhere the symbol's pixel model
// (rtPixel); and the words' ink never on the symbol or its quiet zone. The code still reads.
func TestPNGWordsPixels(t *testing.T) {
	for _, c := range wpCases() {
		t.Run(c.String(), func(t *testing.T) {
			s, o := wpSymbol(t, c), c.options()
			file, err := PNG(s, o)
			if err != nil {
				t.Fatal(err)
			}
			p := wpDecode(t, file)
			l, err := prepare(s, &o)
			if err != nil {
				t.Fatal(err)
			}
			cov := wpCoverage(&l)
			bad, ink := 0, 0
			for y := range o.Size {
				for x := range o.Size {
					got := p.Palette[p.Pix[y*p.Stride+x]]
					model := rtPixel(s, &l, &o, x, y)
					var want color.Color = p.Palette[model]
					if a := cov.AlphaAt(x, y).A; wpShade(o.Background, o.Foreground, a) != o.Background {
						if ink++; model != paletteBackground {
							t.Fatalf("the words' ink at (%d, %d) lies on the symbol (entry %d)", x, y, model)
						}
						want = wpShade(o.Background, o.Foreground, a)
					}
					if color.RGBAModel.Convert(got) != color.RGBAModel.Convert(want) {
						if bad++; bad <= 5 {
							t.Errorf("pixel (%d, %d) is %v, want %v", x, y, got, want)
						}
					}
				}
			}
			if bad > 0 {
				t.Fatalf("%d pixels differ", bad)
			}
			if ink == 0 {
				t.Fatal("the words have no ink")
			}
			if _, text := qrtest.DecodePNG(t, file, l.module); text != c.text {
				t.Errorf("decoded %q, want %q", text, c.text)
			}
		})
	}
}

// wpRasterizer returns the symbol, options and layout of case c, and a rasterizer started on them.
func wpRasterizer(t *testing.T, c wpCase) (*qr.Symbol, Options, *layout, *rasterizer) {
	t.Helper()
	s, o := wpSymbol(t, c), c.options()
	l, err := prepare(s, &o)
	if err != nil {
		t.Fatal(err)
	}
	r := new(rasterizer)
	r.start(s, &l, &o)
	return s, o, &l, r
}

// TestPNGWordsOverlay checks the two ways of drawing the words: the cases of wpCases come as
// pieces among the symbol's, at 8 bits a pixel; drawn instead over full rows (overlayRow, the way
// of words that the pieces cannot carry), they give the same pixels.
func TestPNGWordsOverlay(t *testing.T) {
	for _, c := range wpCases() {
		s, o, l, r := wpRasterizer(t, c)
		if r.words == nil || r.depth != 8 || r.overlaid || r.wordsFirst == 0 {
			t.Fatalf("%v: words %v, depth %d, overlaid %v: want the words as pieces at depth 8", c, r.words != nil, r.depth, r.overlaid)
		}
		r.sets = r.sets[:len(r.sets)-1] // the words' set
		r.rows.sets, r.wordsFirst, r.overlaid = r.sets, 0, true
		img := pngImage{width: l.size, height: l.size, depth: 8, palette: r.palette, row: r.overlayRow}
		overlaid := wpDecode(t, appendPNG(nil, &img))
		file, err := PNG(s, o)
		if err != nil {
			t.Fatal(err)
		}
		if pieced := wpDecode(t, file); !bytes.Equal(pieced.Pix, overlaid.Pix) {
			t.Errorf("%v: the words drawn over full rows differ from their pieces", c)
		}
	}
}

// TestPNGWordsBands checks the words' bands, whose rows the compressor takes compressed once
// (pieceBand): together they hold every row the words change and the row after, and each band
// row's pieces are those the image's row function gives that row, in the band's numbering.
func TestPNGWordsBands(t *testing.T) {
	for _, c := range wpCases() {
		_, _, l, r := wpRasterizer(t, c)
		if r.words == nil || r.wordsFirst == 0 {
			t.Fatalf("%v: the words do not come as pieces", c)
		}
		inBand := make([]bool, l.size)
		for _, b := range r.words.pieceBands {
			for i := range b.rows {
				inBand[b.first+i] = true
				anchors, pieces := b.row(i)
				wantAnchors, wantPieces := r.pieceRow(b.first + i)
				got := make([]uint16, len(pieces))
				for j, e := range pieces {
					got[j] = uint16(r.wordsFirst) + e
				}
				if !slices.Equal(anchors, wantAnchors) || !slices.Equal(got, wantPieces) {
					t.Fatalf("%v: row %d: the band places %v at %v, the image %v at %v", c, b.first+i, got, anchors, wantPieces, wantAnchors)
				}
			}
		}
		for _, b := range r.words.bands {
			for y := b.rect.Min.Y; y <= b.rect.Max.Y && y < l.size; y++ {
				if !inBand[y] {
					t.Fatalf("%v: row %d of the words is in no band", c, y)
				}
			}
		}
	}
}

// TestWordsSwissCross: a Swiss QR Code takes no words (the QR-bill's payment part has its own
// texts), in any format.
func TestWordsSwissCross(t *testing.T) {
	s, err := qr.Encode(renderTexts[0], qr.Options{Level: qr.M, Cover: SwissCrossCover})
	if err != nil {
		t.Fatal(err)
	}
	o := Defaults()
	o.Logo, o.Caption = SwissCross, "Zahlteil"
	for name, draw := range map[string]func(*qr.Symbol, Options) ([]byte, error){"png": PNG, "svg": SVG, "pdf": PDF, "eps": EPS} {
		if _, err := draw(s, o); err == nil {
			t.Errorf("%s: a Swiss QR Code drawn with a caption", name)
		}
	}
}

// TestPNGWordsDeterministic checks that the same code with words gives the same bytes, whether
// the words' pieces are made afresh (a caption no other test draws) or come from the cache.
func TestPNGWordsDeterministic(t *testing.T) {
	for _, c := range wpCases() {
		c.caption += " (d)" // a caption no other test draws: the pieces made afresh
		s, o := wpSymbol(t, c), c.options()
		first, err := PNG(s, o)
		if err != nil {
			t.Fatal(err)
		}
		second, err := PNG(s, o)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(first, second) {
			t.Errorf("%v: two PNGs of the same code differ", c)
		}
	}
}

// TestPNGWordsExternal checks PNGs with words with pngcheck, and their words against librsvg's
// drawing of the SVG of the same code (rsvg-convert): in the rows outside the symbol and its
// quiet zone, the PNG's coverage (its colour between background and foreground) and librsvg's
// differ by at most 8 % of the ink in all (the masks alone differ from librsvg's drawing by up to 6 % for small text, quantising to quarters adds some 1.5 %), and less than with the PNG moved by a pixel any way.
func TestPNGWordsExternal(t *testing.T) {
	_, err := exec.LookPath("pngcheck")
	pngcheck := testenv.Optional(t, err == nil, "pngcheck is not installed")
	rsvg, err := exec.LookPath("rsvg-convert")
	withRSVG := testenv.Optional(t, err == nil, "rsvg-convert is not installed")
	dir := t.TempDir()
	for i, c := range wpCases() {
		s, o := wpSymbol(t, c), c.options()
		file, err := PNG(s, o)
		if err != nil {
			t.Fatal(err)
		}
		name := filepath.Join(dir, fmt.Sprint(i))
		if err := os.WriteFile(name+".png", file, 0o600); err != nil {
			t.Fatal(err)
		}
		if pngcheck {
			if out, err := exec.Command("pngcheck", "-q", name+".png").CombinedOutput(); err != nil || len(bytes.TrimSpace(out)) > 0 {
				t.Errorf("%v: pngcheck: %v\n%s", c, err, out)
			}
		}
		if !withRSVG {
			continue
		}
		svg, err := SVG(s, o)
		if err != nil {
			t.Fatal(err)
		}
		// The SVG asks for crisp edges (for its modules), which librsvg draws without
		// anti-aliasing; the words are compared as drawn with it.
		svg = bytes.Replace(svg, []byte(` shape-rendering="crispEdges"`), nil, 1)
		if err := os.WriteFile(name+".svg", svg, 0o600); err != nil {
			t.Fatal(err)
		}
		size := fmt.Sprint(o.Size)
		out, err := exec.Command(rsvg, "-w", size, "-h", size, name+".svg").Output()
		if err != nil {
			t.Fatalf("rsvg-convert: %v", err)
		}
		want, err := png.Decode(bytes.NewReader(out))
		if err != nil {
			t.Fatal(err)
		}
		got := wpDecode(t, file)
		l, _ := prepare(s, &o)
		top := l.originY - o.Margin*l.module
		bottom := top + (l.n+2*o.Margin)*l.module
		// diff(dx, dy) sums the differences of the PNG's ink moved by (dx, dy) and librsvg's, in
		// the rows of the words; ink sums librsvg's.
		diff := func(dx, dy int) (diff, ink float64) {
			for y := range o.Size {
				if y >= top && y < bottom || y+dy >= top && y+dy < bottom {
					continue
				}
				for x := range o.Size {
					g, w := wpInk(got.At(x+dx, y+dy), &o), wpInk(want.At(x, y), &o)
					diff += math.Abs(g - w)
					ink += w
				}
			}
			return diff, ink
		}
		d, ink := diff(0, 0)
		t.Logf("%v: the PNG's words and librsvg's differ by %.2f%% of the ink", c, 100*d/ink)
		if ink == 0 || d/ink > 0.08 {
			t.Errorf("%v: the PNG's words and librsvg's differ by %.2f%% of the ink", c, 100*d/ink)
		}
		for _, m := range [][2]int{{-1, 0}, {1, 0}, {0, -1}, {0, 1}} {
			if moved, _ := diff(m[0], m[1]); moved <= d {
				t.Errorf("%v: the PNG's words moved by %v match librsvg's as well or better (%.0f, not %.0f)", c, m, moved, d)
			}
		}
	}
}

// wpInk returns how far colour c is from o's background towards its foreground, 0 to 1, along
// the channel where they differ most.
func wpInk(c color.Color, o *Options) float64 {
	r, g, b, _ := c.RGBA()
	best, ink := 0.0, 0.0
	for _, ch := range [3][3]float64{
		{float64(r >> 8), float64(o.Background.R), float64(o.Foreground.R)},
		{float64(g >> 8), float64(o.Background.G), float64(o.Foreground.G)},
		{float64(b >> 8), float64(o.Background.B), float64(o.Foreground.B)},
	} {
		if d := math.Abs(ch[2] - ch[1]); d > best {
			best, ink = d, (ch[0]-ch[1])/(ch[2]-ch[1])
		}
	}
	return min(max(ink, 0), 1)
}
