package render

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"strings"
	"testing"

	"github.com/bananaqr/bananaqr/api"
	"github.com/bananaqr/bananaqr/internal/qrtest"
	"github.com/bananaqr/bananaqr/qr"
)

// Texts of the rendering tests: a short URL (version 4 at M) and a long text (version 27 at M).
var renderTexts = []string{
	"https://example.com/products/12345?ref=newsletter",
	strings.Repeat("Banana bread, 2 cups flour, 3 ripe bananas; bake at 175 C for 60 min. ", 14),
}

// colourPairs are dark-on-light pairs the service accepts: the default and a few others.
var colourPairs = [][2]string{{"7B260F", "FFFFFF"}, {"000000", "FFFFFF"}, {"1A237E", "FFF8E1"}, {"004D40", "E0F2F1"}}

// renderCase is one combination of the rendering tests.
type renderCase struct {
	text  string
	level qr.Level
	opts  Options
}

func (c renderCase) String() string {
	return fmt.Sprintf("%d bytes %s size %d corners %d logo %d %s on %s", len(c.text), c.level, c.opts.Size, c.opts.Corners, c.opts.Logo,
		FormatColor(c.opts.Foreground), FormatColor(c.opts.Background))
}

// renderCases returns every combination of corners, logo, level, size and colours for each
// text.
func renderCases(sizes []int) []renderCase {
	var cases []renderCase
	for _, text := range renderTexts {
		for _, corners := range []Corners{Square, Rounded} {
			for _, logo := range []Logo{NoLogo, Banana} {
				for _, level := range []qr.Level{qr.L, qr.M, qr.Q, qr.H} {
					for i, size := range sizes {
						o := Defaults()
						o.Size, o.Corners, o.Logo = size, corners, logo
						pair := colourPairs[(i+int(level))%len(colourPairs)]
						o.Foreground, _ = api.ParseColor(pair[0])
						o.Background, _ = api.ParseColor(pair[1])
						cases = append(cases, renderCase{text, level, o})
					}
				}
			}
		}
	}
	return cases
}

// render draws c in both formats, or returns the error that the combination must give.
func (c renderCase) render(t *testing.T) (pngData, svgData []byte, err error) {
	t.Helper()
	s, err := encodeFor(c.text, qr.Options{Level: c.level}, c.opts.Logo)
	if err != nil {
		t.Fatal(err)
	}
	pngData, err = PNG(s, c.opts)
	_, svgErr := SVG(s, c.opts)
	if (err == nil) != (svgErr == nil) {
		t.Fatalf("%v: PNG error %v, SVG error %v", c, err, svgErr)
	}
	total := s.Size() + 2*c.opts.Margin
	var small *TooSmallError
	if c.opts.Size/total < 2 {
		if !errors.As(err, &small) || small.MinSize != 2*total {
			t.Fatalf("%v: %d modules in %d pixels: got %v, want TooSmallError", c, total, c.opts.Size, err)
		}
		return nil, nil, err
	}
	if err != nil {
		t.Fatalf("%v: %v", c, err)
	}
	svgData, _ = SVG(s, c.opts)
	return pngData, svgData, nil
}

// TestPNGDecodes renders every combination as PNG and decodes it with gozxing.
func TestPNGDecodes(t *testing.T) {
	for _, c := range renderCases([]int{128, 256, 1024, 2048}) {
		data, _, err := c.render(t)
		if err != nil {
			continue
		}
		img, err := png.Decode(bytes.NewReader(data))
		if err != nil {
			t.Fatalf("%v: %v", c, err)
		}
		s, _ := encodeFor(c.text, qr.Options{Level: c.level}, c.opts.Logo)
		l, _ := newLayout(s.Size(), &c.opts)
		if got, err := qrtest.DecodeRendered(img, l.module); err != nil || got != c.text {
			t.Errorf("%v: decoded %.30q, %v", c, got, err)
		}
	}
}

// TestPNGGeometry checks the pixels of square PNGs against the layout: the image is exactly
// Size pixels, every module a uniform block of module×module pixels in its colour, and
// everything else background.
func TestPNGGeometry(t *testing.T) {
	for _, text := range renderTexts {
		s, _ := qr.Encode(text, qr.Options{})
		for _, size := range []int{128, 300, 1000, 1024, 2047} {
			for _, margin := range []int{0, 1, 4, 16} {
				o := Defaults()
				o.Size, o.Margin = size, margin
				o.Background = color.RGBA{0xfe, 0xfd, 0xfc, 0xff}
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
				l, _ := newLayout(s.Size(), &o)
				checkGeometry(t, img, s, l, o)
			}
		}
	}
}

func checkGeometry(t *testing.T, img image.Image, s *qr.Symbol, l layout, o Options) {
	t.Helper()
	if b := img.Bounds(); b.Dx() != o.Size || b.Dy() != o.Size {
		t.Fatalf("image %v, want %d square", b, o.Size)
	}
	total := s.Size() + 2*o.Margin
	if want := (o.Size-l.module*total)/2 + o.Margin*l.module; l.originX != want || l.originY != want || l.module != o.Size/total {
		t.Fatalf("layout %+v", l)
	}
	for y := range o.Size {
		for x := range o.Size {
			mx, my := (x-l.originX+l.module*l.n)/l.module-l.n, (y-l.originY+l.module*l.n)/l.module-l.n
			want := o.Background
			if s.Dark(mx, my) {
				want = o.Foreground
			}
			if got := color.RGBAModel.Convert(img.At(x, y)).(color.RGBA); got != want {
				t.Fatalf("size %d margin %d: pixel (%d, %d) of module (%d, %d) is %v, want %v", o.Size, o.Margin, x, y, mx, my, got, want)
			}
		}
	}
}

// TestSVG checks the document: valid XML, its size and view, the title escaped, the
// background and one path in the requested colours.
func TestSVG(t *testing.T) {
	s, _ := qr.Encode(renderTexts[0], qr.Options{})
	for _, corners := range []Corners{Square, Rounded} {
		o := Defaults()
		o.Corners = corners
		o.Title = `Ben & Jerry's <"shop">`
		data, err := SVG(s, o)
		if err != nil {
			t.Fatal(err)
		}
		var doc struct {
			XMLName xml.Name `xml:"svg"`
			Width   string   `xml:"width,attr"`
			ViewBox string   `xml:"viewBox,attr"`
			Role    string   `xml:"role,attr"`
			Shape   string   `xml:"shape-rendering,attr"`
			Title   string   `xml:"title"`
			Paths   []struct {
				Fill string `xml:"fill,attr"`
				Rule string `xml:"fill-rule,attr"`
				D    string `xml:"d,attr"`
			} `xml:"path"`
		}
		if err := xml.Unmarshal(data, &doc); err != nil {
			t.Fatalf("%s: %v", data, err)
		}
		wantShape := map[Corners]string{Square: "crispEdges", Rounded: ""}[corners]
		wantRule := map[Corners]string{Square: "evenodd", Rounded: ""}[corners]
		if doc.Width != "1024" || doc.Role != "img" || doc.Title != o.Title || len(doc.Paths) != 2 ||
			doc.Paths[0].Fill != "#FFF" || doc.Paths[0].D != "M-4.8333-4.8333h42.6667v42.6667H-4.8333" ||
			doc.Paths[1].Fill != "#7B260F" || doc.Paths[1].Rule != wantRule || doc.Shape != wantShape {
			t.Errorf("corners %d: %+v", corners, doc)
		}
		// 1024 pixels at 24 a module: the view is 1024/24 modules wide and starts at the
		// quiet zone plus half the 40 pixels left over.
		if doc.ViewBox != "-4.8333 -4.8333 42.6667 42.6667" {
			t.Errorf("viewBox %q", doc.ViewBox)
		}
		again, _ := SVG(s, o)
		if !bytes.Equal(data, again) {
			t.Error("not deterministic")
		}
	}
	o := Defaults()
	data, _ := SVG(s, o)
	if bytes.Contains(data, []byte("<title")) {
		t.Error("title without Options.Title")
	}
	if len(data) > 1700 {
		t.Errorf("URL SVG of %d bytes", len(data))
	}
}

func TestOptionErrors(t *testing.T) {
	s, _ := qr.Encode("x", qr.Options{NoBoost: true})
	for _, change := range []func(*Options){
		func(o *Options) { o.Size = MinSize - 1 },
		func(o *Options) { o.Size = MaxSize + 1 },
		func(o *Options) { o.Margin = -1 },
		func(o *Options) { o.Margin = MaxMargin + 1 },
		func(o *Options) { o.Corners = 2 },
		func(o *Options) { o.Logo = 2 },
	} {
		o := Defaults()
		change(&o)
		if _, err := PNG(s, o); err == nil {
			t.Errorf("%+v: no PNG error", o)
		}
		if _, err := SVG(s, o); err == nil {
			t.Errorf("%+v: no SVG error", o)
		}
	}
	o := Defaults()
	o.Logo = Banana
	if _, err := PNG(s, o); !errors.Is(err, ErrLogoNotCovered) {
		t.Errorf("logo on a symbol encoded without its cover: %v", err)
	}
	h, _ := qr.Encode("x", qr.Options{Level: qr.H})
	if _, err := SVG(h, o); !errors.Is(err, ErrLogoNotCovered) {
		t.Errorf("logo on a level H symbol encoded without its cover: %v", err)
	}
	// Version 40 needs 2·185 pixels.
	big, _ := qr.Encode(strings.Repeat("a", 2300), qr.Options{})
	o = Defaults()
	o.Size = 256
	var small *TooSmallError
	if _, err := PNG(big, o); !errors.As(err, &small) || small.MinSize != 370 {
		t.Errorf("version 40 in 256 pixels: %v", err)
	}
}

// TestSVGEdges paints the square path onto a grid with the even-odd rule and compares it with
// the symbol: every dark module and nothing else, the logo's pad left light. The path is the
// fewest lines that do it: each vertical edge between dark and light once, as long as it runs,
// and between two of them one horizontal line, but the one the fill's close draws.
func TestSVGEdges(t *testing.T) {
	for _, text := range renderTexts {
		for _, logo := range []Logo{NoLogo, Banana} {
			s, _ := encodeFor(text, qr.Options{Level: qr.M, NoBoost: true}, logo)
			o := Defaults()
			o.Logo = logo
			data, err := SVG(s, o)
			if err != nil {
				t.Fatal(err)
			}
			start := bytes.Index(data, []byte(`" d="M0 0`)) + 5
			path := string(data[start : start+bytes.IndexByte(data[start:], '"')])
			n := s.Size()
			pad := padding{}
			if logo == Banana {
				pad = logoPad(n)
			}
			if got, want := evenOddModules(replaySVG(t, path), n), paintedModules(s, pad); got != want {
				t.Fatalf("%d bytes, logo %d: the path paints\n%s\nnot\n%s", len(text), logo, got, want)
			}
			// The vertical edges, counted from the modules: a boundary between two modules of
			// a row that differ, not continuing one of the row above.
			dark := func(x, y int) bool {
				return x >= 0 && x < n && y >= 0 && y < n && s.Dark(x, y) && !pad.covers(x, y)
			}
			edges := 0
			for y := range n {
				for x := 0; x <= n; x++ {
					if dark(x-1, y) != dark(x, y) && (y == 0 || dark(x-1, y-1) == dark(x, y-1)) {
						edges++
					}
				}
			}
			moves, verticals, horizontals := strings.Count(path, "m")+1, strings.Count(path, "v"), strings.Count(path, "h")
			if verticals != edges || horizontals != verticals-moves || strings.ContainsAny(path, "zZ") {
				t.Errorf("%d bytes, logo %d: %d loops, %d vertical and %d horizontal lines for %d edges", len(text), logo, moves, verticals, horizontals, edges)
			}
		}
	}
}

// covers reports whether the module at (x, y) lies under the logo's pad.
func (p padding) covers(x, y int) bool {
	return uint(x-p.first) < uint(p.side) && uint(y-p.first) < uint(p.side)
}

// encodeFor encodes text as o says, for a code drawn with logo: with the logo's pad as the
// cover, as the service encodes it.
func encodeFor(text string, o qr.Options, logo Logo) (*qr.Symbol, error) {
	if logo == Banana {
		o.Cover = LogoPad
	}
	return qr.Encode(text, o)
}
