package render_test

// Issue 33 holds the SVG to what a browser and a rasteriser make of it, whatever path the
// renderer writes: these tests read the SVG only through what any renderer must keep (its
// width, height and viewBox in modules from the image's edge, its colours) and the symbol's
// module matrix, so that they pass on any correct drawing and fail on a broken one.

import (
	"bytes"
	"encoding/json"
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"image/png"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/bananaqr/bananaqr/internal/qrtest"
	"github.com/bananaqr/bananaqr/internal/testenv"
	"github.com/bananaqr/bananaqr/qr"
	"github.com/bananaqr/bananaqr/render"
)

// rasterScales are the sizes, as multiples of the SVG's own, at which each SVG is rasterised:
// its size, and two at which a module's edges fall between pixels.
var rasterScales = []float64{1, 1.5, 3.7}

// seamTolerance is how far, in any channel of 0..255, a pixel away from the edges of the dark
// area may be from its colour: rsvg-convert and Chromium fill the inside of a shape with its
// exact colour (0 measured), while a seam between two shapes leaves pixels off by about a third
// of the contrast (73 to 76 of 240 measured on the control of svgMutations).
const seamTolerance = 3

// diffBound bounds the pixels that differ between rsvg-convert's rendering of a rounded or
// logo code's SVG at its size and the PNG of the same symbol and options, as shares of the
// image: those off by more than seamTolerance in some channel (the anti-aliasing of rounded
// corners, which differs by at most 32, and of the mark), and those off by more than
// strongDiff (the mark's edges: the PNG draws it from its own raster).
type diffBound struct{ any, strong float64 }

// strongDiff is the channel difference from which a pixel counts as strongly different.
const strongDiff = 64

// maxDiff are the bounds of diffBound by style. Measured on the rectangles-and-outlines SVG of
// November 2026, before issue 33 (TestSVGRasterRSVG logs them; 300 px, 7 pixels a module, and
// 128 px, 4 pixels a module): rounded 1.55% and 0.76% (none strong), banana 0.15% and 0.13%
// (strong 0.106% and 0.079%), rounded banana 1.72% and 0.93% (strong 0.117% and none). The
// bounds leave a little room for a new path, and none for a module lost or moved: a module of 7
// pixels is 0.054% of a 300 px image, all strong.
var maxDiff = map[string]diffBound{
	"rounded":        {any: 0.018, strong: 0.0001},
	"banana":         {any: 0.002, strong: 0.0013},
	"rounded-banana": {any: 0.020, strong: 0.0014},
}

// svgRasterStyles are the looks of issue 33.
var svgRasterStyles = []struct {
	name    string
	corners render.Corners
	logo    render.Logo
}{{"square", render.Square, render.NoLogo}, {"rounded", render.Rounded, render.NoLogo}, {"banana", render.Square, render.Banana}, {"rounded-banana", render.Rounded, render.Banana}}

// svgRasterCase is one SVG of the tests: a symbol drawn in one style and colours, and what the
// checks need to know of it.
type svgRasterCase struct {
	name    string
	style   string // a name of svgRasterStyles
	text    string
	s       *qr.Symbol
	o       render.Options
	svg     []byte
	width   int        // the SVG's width and height attributes, in pixels
	view    [4]float64 // its viewBox: x, y, width, height, in modules
	pad     [2]int     // the logo's pad: first module and side; side 0 without a logo
	scales  []float64
	rounded bool
}

// svgRasterCases returns the SVGs of the tests: every style in the service's colours and in
// black on white at 300 pixels (7, 10.5 and 25.9 pixels a module at the scales), and every
// style of a small code at 128 pixels (4 pixels a module), rasterised also at 0.3 times, where
// a module is 1.2 pixels.
func svgRasterCases(t *testing.T) []*svgRasterCase {
	t.Helper()
	type look struct {
		text   string
		size   int
		fg, bg color.RGBA
		scales []float64
	}
	black, white := color.RGBA{0, 0, 0, 0xff}, color.RGBA{0xff, 0xff, 0xff, 0xff}
	def := render.Defaults()
	looks := []look{
		{"https://bananaqr.example/issue/33?seams=none&px=exact", 300, def.Foreground, def.Background, rasterScales},
		{"https://bananaqr.example/issue/33?seams=none&px=exact", 300, black, white, rasterScales},
		{"BANANA 33", 128, def.Foreground, def.Background, []float64{1, 0.3}},
	}
	var cases []*svgRasterCase
	for i, lk := range looks {
		for _, st := range svgRasterStyles {
			opts := qr.Options{}
			if st.logo == render.Banana {
				opts.Cover = render.LogoPad
			}
			s, err := qr.Encode(lk.text, opts)
			if err != nil {
				t.Fatal(err)
			}
			o := render.Defaults()
			o.Size, o.Foreground, o.Background, o.Corners, o.Logo = lk.size, lk.fg, lk.bg, st.corners, st.logo
			svg, err := render.AppendSVG(nil, s, &o)
			if err != nil {
				t.Fatal(err)
			}
			c := &svgRasterCase{name: fmt.Sprintf("%d-%s-%d", i, st.name, lk.size), style: st.name, text: lk.text, s: s, o: o,
				scales: lk.scales, rounded: st.corners == render.Rounded}
			if st.logo == render.Banana {
				c.pad[0], c.pad[1] = render.LogoPad(s.Size())
			}
			if err := c.setSVG(svg); err != nil {
				t.Fatalf("%s: %v", c.name, err)
			}
			cases = append(cases, c)
		}
	}
	return cases
}

var (
	svgWidthRe   = regexp.MustCompile(`^<svg[^>]*\swidth="([0-9.]+)"`)
	svgHeightRe  = regexp.MustCompile(`^<svg[^>]*\sheight="([0-9.]+)"`)
	svgViewBoxRe = regexp.MustCompile(`^<svg[^>]*\sviewBox="([^"]*)"`)
)

// setSVG sets the case's SVG and reads its size and viewBox.
func (c *svgRasterCase) setSVG(svg []byte) error {
	c.svg = svg
	w, h := svgWidthRe.FindSubmatch(svg), svgHeightRe.FindSubmatch(svg)
	vb := svgViewBoxRe.FindSubmatch(svg)
	if w == nil || h == nil || vb == nil || !bytes.Equal(w[1], h[1]) {
		return fmt.Errorf("no square width, height and viewBox in %.200q", svg)
	}
	var err error
	if c.width, err = strconv.Atoi(string(w[1])); err != nil {
		return err
	}
	f := strings.Fields(strings.ReplaceAll(string(vb[1]), ",", " "))
	if len(f) != 4 {
		return fmt.Errorf("viewBox %q", vb[1])
	}
	for i := range f {
		if c.view[i], err = strconv.ParseFloat(f[i], 64); err != nil {
			return err
		}
	}
	if c.view[2] != c.view[3] {
		return fmt.Errorf("viewBox %q not square", vb[1])
	}
	// The layout's promise (render.ModulePixels): whole pixels a module at the asked size.
	module, err := render.ModulePixels(c.s.Size(), &c.o)
	if err != nil {
		return err
	}
	if got := float64(c.width) / c.view[2]; math.Abs(got-float64(module)) > 1e-3 {
		return fmt.Errorf("%g pixels a module in the viewBox, ModulePixels says %d", got, module)
	}
	return nil
}

// pixels returns the side in pixels of the case rasterised at scale.
func (c *svgRasterCase) pixels(scale float64) int { return int(math.Round(float64(c.width) * scale)) }

// Module classes of the seam check.
const (
	lightModule = iota
	darkModule
	padModule // under the logo's pad: the mark is drawn there
)

// class returns the class of module (x, y); the quiet zone and beyond are light.
func (c *svgRasterCase) class(x, y int) int {
	n := c.s.Size()
	switch {
	case x < 0 || y < 0 || x >= n || y >= n:
		return lightModule
	case c.pad[1] > 0 && x >= c.pad[0] && x < c.pad[0]+c.pad[1] && y >= c.pad[0] && y < c.pad[0]+c.pad[1]:
		return padModule
	case c.s.Dark(x, y):
		return darkModule
	}
	return lightModule
}

// nearConvexCorner reports whether the point (ux, uy), in modules, is within reach modules (in
// both directions) of a convex corner of dark module (x, y): one whose two sides that meet
// there both border a module that is not dark (a rounded corner is cut there).
func (c *svgRasterCase) nearConvexCorner(x, y int, ux, uy, reach float64) bool {
	for dy := 0; dy <= 1; dy++ {
		for dx := 0; dx <= 1; dx++ {
			if c.class(x+2*dx-1, y) == darkModule || c.class(x, y+2*dy-1) == darkModule {
				continue
			}
			if math.Abs(ux-float64(x+dx)) < reach && math.Abs(uy-float64(y+dy)) < reach {
				return true
			}
		}
	}
	return false
}

// seamReport is what checkSeams found in one image.
type seamReport struct {
	checked  int      // pixels held to a colour
	bad      int      // of them, pixels off their colour
	maxOff   int      // the largest distance of a checked pixel from its colour
	examples []string // the first bad pixels
}

// checkSeams holds img, the case rasterised at side×side pixels, to the module matrix: every
// pixel whose centre lies at least one pixel away from the edges of the area of dark modules
// (all pixels within one pixel of its centre in modules of one class), and for rounded corners
// more than a quarter module and a pixel from a convex corner, must be the foreground's colour
// in the dark area and the background's in the light one. The logo's pad is not checked.
func (c *svgRasterCase) checkSeams(img *image.RGBA) seamReport {
	var r seamReport
	side := img.Rect.Dx()
	k := float64(side) / c.view[2] // pixels a module
	reach := 0.25 + 1/k            // a corner radius and a pixel, in modules
	for py := range side {
		y0 := c.view[1] + (float64(py)-0.5)/k
		y1 := c.view[1] + (float64(py)+1.5)/k
		myLo, myHi := int(math.Floor(y0)), int(math.Ceil(y1))-1
		for px := range side {
			x0 := c.view[0] + (float64(px)-0.5)/k
			x1 := c.view[0] + (float64(px)+1.5)/k
			mxLo, mxHi := int(math.Floor(x0)), int(math.Ceil(x1))-1
			class, mixed := c.class(mxLo, myLo), false
			for my := myLo; my <= myHi && !mixed; my++ {
				for mx := mxLo; mx <= mxHi; mx++ {
					if c.class(mx, my) != class {
						mixed = true
						break
					}
				}
			}
			if mixed || class == padModule {
				continue
			}
			want := c.o.Background
			if class == darkModule {
				want = c.o.Foreground
				if c.rounded {
					ux, uy := c.view[0]+(float64(px)+0.5)/k, c.view[1]+(float64(py)+0.5)/k
					near := false
					for my := myLo; my <= myHi && !near; my++ {
						for mx := mxLo; mx <= mxHi && !near; mx++ {
							near = c.nearConvexCorner(mx, my, ux, uy, reach)
						}
					}
					if near {
						continue
					}
				}
			}
			r.checked++
			i := py*img.Stride + 4*px
			off := max(absDiff(img.Pix[i], want.R), absDiff(img.Pix[i+1], want.G), absDiff(img.Pix[i+2], want.B), absDiff(img.Pix[i+3], 0xff))
			r.maxOff = max(r.maxOff, off)
			if off > seamTolerance {
				r.bad++
				if len(r.examples) < 4 {
					what := "light"
					if class == darkModule {
						what = "dark"
					}
					r.examples = append(r.examples, fmt.Sprintf("(%d,%d) in %s module (%d,%d) is %02X%02X%02X", px, py, what,
						int(math.Floor(c.view[0]+(float64(px)+0.5)/k)), int(math.Floor(c.view[1]+(float64(py)+0.5)/k)),
						img.Pix[i], img.Pix[i+1], img.Pix[i+2]))
				}
			}
		}
	}
	return r
}

// absDiff returns |a-b|.
func absDiff(a, b uint8) int {
	if a > b {
		return int(a - b)
	}
	return int(b - a)
}

// readRGBA reads the PNG file name as RGBA, side×side pixels.
func readRGBA(t *testing.T, name string, side int) *image.RGBA {
	t.Helper()
	data, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	return decodeRGBA(t, filepath.Base(name), data, side)
}

// decodeRGBA decodes PNG data as RGBA and checks that it is side×side pixels.
func decodeRGBA(t *testing.T, name string, data []byte, side int) *image.RGBA {
	t.Helper()
	img, err := png.Decode(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	if b := img.Bounds(); b.Dx() != side || b.Dy() != side {
		t.Fatalf("%s: %v, want %d×%d pixels", name, b, side, side)
	}
	rgba := image.NewRGBA(image.Rect(0, 0, side, side))
	draw.Draw(rgba, rgba.Rect, img, img.Bounds().Min, draw.Src)
	return rgba
}

// rsvg rasterises the SVG file in to the PNG file out at side×side pixels with rsvg-convert.
func rsvg(t *testing.T, in, out string, side int) {
	t.Helper()
	s := strconv.Itoa(side)
	if output, err := exec.Command("rsvg-convert", "-w", s, "-h", s, "-o", out, in).CombinedOutput(); err != nil {
		t.Fatalf("rsvg-convert %s: %v\n%s", filepath.Base(in), err, output)
	}
}

// writeSVGs writes the cases' SVGs into dir, named after the cases.
func writeSVGs(t *testing.T, dir string, cases []*svgRasterCase) {
	t.Helper()
	for _, c := range cases {
		if err := os.WriteFile(filepath.Join(dir, c.name+".svg"), c.svg, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// rasterName is the name of the PNG of case c at scale made by tool.
func rasterName(dir, tool string, c *svgRasterCase, scale float64) string {
	return filepath.Join(dir, fmt.Sprintf("%s-%s-%gx.png", c.name, tool, scale))
}

// diffShares returns the shares of the pixels of a and b, of one size, that differ by more than
// seamTolerance and by more than strongDiff in some channel, and the first that differs by any
// amount ("" when none).
func diffShares(a, b *image.RGBA) (any, strong float64, first string) {
	nAny, nStrong := 0, 0
	for i := 0; i < len(a.Pix); i += 4 {
		off := 0
		for j := range 4 {
			off = max(off, absDiff(a.Pix[i+j], b.Pix[i+j]))
		}
		if off > 0 && first == "" {
			p := i / 4
			first = fmt.Sprintf("(%d,%d): %02X%02X%02X against %02X%02X%02X", p%a.Rect.Dx(), p/a.Rect.Dx(),
				a.Pix[i], a.Pix[i+1], a.Pix[i+2], b.Pix[i], b.Pix[i+1], b.Pix[i+2])
		}
		nAny += b2i(off > seamTolerance)
		nStrong += b2i(off > strongDiff)
	}
	n := float64(len(a.Pix) / 4)
	return float64(nAny) / n, float64(nStrong) / n, first
}

// b2i converts a bool to 0 or 1.
func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// TestSVGRasterRSVG is issue 33 with rsvg-convert (librsvg): each case's SVG rasterised at
// 1, 1.5 and 3.7 times its size (and a small code at 0.3 times) leaves no seam (checkSeams);
// at its size, a square code's SVG is the PNG of the same symbol and options pixel for pixel,
// and a rounded or logo code's differs from it in fewer pixels than maxDiff allows; and
// gozxing reads the text back from that rasterisation.
func TestSVGRasterRSVG(t *testing.T) {
	t.Parallel()
	qrtest.NeedTools(t, "rsvg-convert")
	dir := t.TempDir()
	for _, c := range svgRasterCases(t) {
		problems, notes := c.checkRSVG(t, dir)
		for _, p := range problems {
			t.Errorf("%s: %s", c.name, p)
		}
		for _, n := range notes {
			t.Logf("%s: %s", c.name, n)
		}
	}
}

// checkRSVG writes the case's SVG into dir, rasterises it with rsvg-convert at its scales and
// returns what is wrong with the rasterisations, and notes of what was measured.
func (c *svgRasterCase) checkRSVG(t *testing.T, dir string) (problems, notes []string) {
	t.Helper()
	svgName := filepath.Join(dir, c.name+".svg")
	if err := os.WriteFile(svgName, c.svg, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, scale := range c.scales {
		name, side := rasterName(dir, "rsvg", c, scale), c.pixels(scale)
		rsvg(t, svgName, name, side)
		img := readRGBA(t, name, side)
		if r := c.checkSeams(img); r.bad > 0 || r.checked == 0 {
			problems = append(problems, fmt.Sprintf("at %gx (%d px): %d of %d pixels inside a dark or light area off its colour by up to %d: %s",
				scale, side, r.bad, r.checked, r.maxOff, strings.Join(r.examples, "; ")))
		}
		if scale != 1 {
			continue
		}
		pngData, err := render.AppendPNG(nil, c.s, &c.o)
		if err != nil {
			t.Fatal(err)
		}
		share, strong, first := diffShares(img, decodeRGBA(t, c.name+".png", pngData, side))
		switch bound, ok := maxDiff[c.style]; {
		case !ok && first != "":
			problems = append(problems, "the SVG at its size is not the PNG pixel for pixel: first at "+first)
		case ok && (share > bound.any || strong > bound.strong):
			problems = append(problems, fmt.Sprintf("%.3f%% of the pixels of the SVG at its size differ from the PNG's (%.3f%% strongly), more than %.3f%% (%.3f%%)",
				100*share, 100*strong, 100*bound.any, 100*bound.strong))
		case ok:
			notes = append(notes, fmt.Sprintf("%.3f%% of the pixels differ from the PNG's, %.3f%% strongly (bounds %.3f%%, %.3f%%)",
				100*share, 100*strong, 100*bound.any, 100*bound.strong))
		}
		module, _ := render.ModulePixels(c.s.Size(), &c.o)
		if text, err := qrtest.DecodeRendered(img, module); err != nil || text != c.text {
			problems = append(problems, fmt.Sprintf("gozxing read %q (%v) from the SVG at its size, want %q", text, err, c.text))
		}
	}
	return problems, notes
}

// TestSVGRasterChromium is issue 33 in a browser: headless Chromium (Debian's, driven by
// playwright-core through e2e/svg-seams.mjs) rasterises each case's SVG, drawn by an <img> of
// 1, 1.5 and 3.7 times its size (and a small code at 0.3 times), and every rasterisation
// leaves no seam (checkSeams). A control, the first case drawn a rectangle a module
// (svgMutations), must show seams: the check sees what Chromium draws. Chromium is launched
// once for all of them.
func TestSVGRasterChromium(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("SKIPPED: -short leaves Chromium out")
	}
	qrtest.NeedTools(t, "node")
	dir := t.TempDir()
	cases := svgRasterCases(t)
	control := *cases[0]
	control.name = "control-" + control.name
	var err error
	if control.svg, err = svgMutations[0].mutate(cases[0]); err != nil {
		t.Fatal(err)
	}
	cases = append(cases, &control)
	writeSVGs(t, dir, cases)
	chromium(t, dir, cases)
	for _, c := range cases {
		seams := 0
		for _, scale := range c.scales {
			side := c.pixels(scale)
			img := readRGBA(t, rasterName(dir, "chromium", c, scale), side)
			r := c.checkSeams(img)
			seams += r.bad
			if c != &control && (r.bad > 0 || r.checked == 0) {
				t.Errorf("%s at %gx (%d px) in Chromium: %d of %d pixels inside a dark or light area off its colour by up to %d: %s",
					c.name, scale, side, r.bad, r.checked, r.maxOff, strings.Join(r.examples, "; "))
			}
			if c == &control {
				t.Logf("%s at %gx: %d pixels of seams, off by up to %d", c.name, scale, r.bad, r.maxOff)
			}
		}
		if c == &control && seams == 0 {
			t.Errorf("%s: Chromium drew a module a rectangle without a seam that the check sees", c.name)
		}
	}
}

// seamsManifest is the manifest that e2e/svg-seams.mjs reads from its directory
// (manifest.json): the SVGs to rasterise, each at its sizes, into the PNG files named.
type seamsManifest struct {
	Images []seamsImage `json:"images"`
}

// seamsImage is one rasterisation of the manifest: the SVG file, the PNG file to write, its
// side in pixels, and, for whoever reads the manifest, the module matrix as drawn (rows of
// '1' dark, '0' light, the logo's pad light), the viewBox, the pad and the colours.
type seamsImage struct {
	SVG        string     `json:"svg"`
	PNG        string     `json:"png"`
	Side       int        `json:"side"`
	Modules    []string   `json:"modules"`
	ViewBox    [4]float64 `json:"viewBox"`
	Pad        [2]int     `json:"pad"`
	Foreground string     `json:"foreground"`
	Background string     `json:"background"`
}

// chromium writes the manifest of the cases into dir, where their SVGs are, and runs
// e2e/svg-seams.mjs on it, which writes the PNGs; it skips the test (fails it in CI) when the
// script says Chromium or playwright-core is missing.
func chromium(t *testing.T, dir string, cases []*svgRasterCase) {
	t.Helper()
	var m seamsManifest
	for _, c := range cases {
		modules := make([]string, c.s.Size())
		for y := range modules {
			var b strings.Builder
			for x := range c.s.Size() {
				b.WriteByte("010"[c.class(x, y)])
			}
			modules[y] = b.String()
		}
		for _, scale := range c.scales {
			m.Images = append(m.Images, seamsImage{
				SVG: c.name + ".svg", PNG: filepath.Base(rasterName(dir, "chromium", c, scale)), Side: c.pixels(scale),
				Modules: modules, ViewBox: c.view, Pad: c.pad,
				Foreground: hexColor(c.o.Foreground), Background: hexColor(c.o.Background),
			})
		}
	}
	data, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "manifest.json"), data, 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command("node", filepath.Join("..", "e2e", "svg-seams.mjs"), dir).CombinedOutput()
	if err != nil {
		t.Fatalf("node e2e/svg-seams.mjs: %v\n%s", err, out)
	}
	if reason, ok := strings.CutPrefix(string(out), "SKIPPED: "); ok {
		testenv.Missing(t, strings.TrimSpace(reason), "see .ci/run")
	}
}

// svgMutations break an SVG as a faulty renderer could; each must fail TestSVGRasterRSVG's
// checks (TestSVGRasterCatchesMutations), which shows that they would catch it. They read the
// SVG as any renderer must write it: the dark modules are the <path> filled with the
// foreground's colour (modulesPath).
var svgMutations = []struct {
	name   string
	mutate func(c *svgRasterCase) ([]byte, error)
}{
	// The seams of issue 33: every module a square of its own, anti-aliased, so that the
	// edges between two dark modules show where they fall between pixels.
	{"a rectangle a module, anti-aliased", func(c *svgRasterCase) ([]byte, error) {
		end := bytes.IndexByte(c.svg, '>')
		b := bytes.ReplaceAll(c.svg[:end+1:end+1], []byte(` shape-rendering="crispEdges"`), nil)
		b = fmt.Appendf(b, `<rect x="%g" y="%g" width="%g" height="%g" fill="%s"/>`, c.view[0], c.view[1], c.view[2], c.view[3], hexColor(c.o.Background))
		for y := range c.s.Size() {
			for x := range c.s.Size() {
				if c.class(x, y) == darkModule {
					b = fmt.Appendf(b, `<rect x="%d" y="%d" width="1" height="1" fill="%s"/>`, x, y, hexColor(c.o.Foreground))
				}
			}
		}
		return append(b, "</svg>"...), nil
	}},
	{"the dark modules half a module to the right", func(c *svgRasterCase) ([]byte, error) {
		i, _, err := c.modulesPath()
		if err != nil {
			return nil, err
		}
		i += len("<path ")
		return slices.Concat(c.svg[:i], []byte(`transform="translate(.5 0)" `), c.svg[i:]), nil
	}},
	{"a subpath of the dark modules left out", func(c *svgRasterCase) ([]byte, error) {
		_, d, err := c.modulesPath()
		if err != nil {
			return nil, err
		}
		var starts []int // of the subpaths, in d
		for k := d[0]; k < d[1]; k++ {
			if c.svg[k] == 'M' || c.svg[k] == 'm' {
				starts = append(starts, k)
			}
		}
		if len(starts) < 3 {
			return nil, fmt.Errorf("%d subpaths", len(starts))
		}
		k := len(starts) / 2
		return slices.Concat(c.svg[:starts[k]], c.svg[starts[k+1]:]), nil
	}},
}

var (
	svgPathRe = regexp.MustCompile(`<path\s[^>]*>`)
	svgFillRe = regexp.MustCompile(`\sfill="#([0-9A-Fa-f]{3}|[0-9A-Fa-f]{6})"`)
	svgDRe    = regexp.MustCompile(`\sd="([^"]*)"`)
)

// modulesPath finds the path of the dark modules in the case's SVG: the first <path> filled
// with the foreground colour. It returns where the element starts and where its path data
// starts and ends.
func (c *svgRasterCase) modulesPath() (start int, d [2]int, err error) {
	for _, loc := range svgPathRe.FindAllIndex(c.svg, -1) {
		elem := c.svg[loc[0]:loc[1]]
		fill := svgFillRe.FindSubmatch(elem)
		dm := svgDRe.FindSubmatchIndex(elem)
		if fill == nil || dm == nil {
			continue
		}
		hex := strings.ToUpper(string(fill[1]))
		if len(hex) == 3 {
			hex = string([]byte{hex[0], hex[0], hex[1], hex[1], hex[2], hex[2]})
		}
		if "#"+hex == hexColor(c.o.Foreground) {
			return loc[0], [2]int{loc[0] + dm[2], loc[0] + dm[3]}, nil
		}
	}
	return 0, d, fmt.Errorf("no <path> filled with %s", hexColor(c.o.Foreground))
}

// hexColor returns c as #RRGGBB.
func hexColor(c color.RGBA) string { return fmt.Sprintf("#%02X%02X%02X", c.R, c.G, c.B) }

// TestSVGRasterCatchesMutations breaks the SVGs of some cases in each way of svgMutations and
// checks that TestSVGRasterRSVG's checks fail on each.
func TestSVGRasterCatchesMutations(t *testing.T) {
	t.Parallel()
	qrtest.NeedTools(t, "rsvg-convert")
	dir := t.TempDir()
	for _, c := range svgRasterCases(t) {
		if !strings.HasPrefix(c.name, "0-") {
			continue
		}
		for _, m := range svgMutations {
			if m.name == svgMutations[0].name && c.pad[1] > 0 {
				continue // the mutation leaves the logo out
			}
			mutant := *c
			svg, err := m.mutate(c)
			if err != nil {
				t.Errorf("%s, %s: %v", c.name, m.name, err)
				continue
			}
			mutant.svg = svg
			problems, _ := mutant.checkRSVG(t, dir)
			if len(problems) == 0 {
				t.Errorf("%s, %s: the checks pass", c.name, m.name)
				continue
			}
			t.Logf("%s, %s: %d problems, first: %s", c.name, m.name, len(problems), problems[0])
		}
	}
}
