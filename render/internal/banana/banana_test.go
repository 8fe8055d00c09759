package banana

import (
	"bytes"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/bananaqr/bananaqr/internal/qrtest"
)

// bananaTestSizes are the raster sizes most tests look at.
var bananaTestSizes = []int{8, 9, 16, 24, 31, 48, 64, 96, 128, 256, 400}

// bananaTestBgs are backgrounds the tests draw the mark on: white and a light custom colour.
var bananaTestBgs = map[string]color.RGBA{
	"white": {255, 255, 255, 255},
	"mint":  {0xE3, 0xF4, 0xEA, 255},
}

// bananaImage paints the raster for px pixels on bg.
func bananaImage(px int, bg color.RGBA) *image.RGBA {
	r := Raster(px)
	img := image.NewRGBA(image.Rect(0, 0, px, px))
	for i, l := range r {
		img.SetRGBA(i%px, i/px, LevelColor(l, bg))
	}
	return img
}

// bananaWritePNG writes img to path.
func bananaWritePNG(t *testing.T, path string, img image.Image) {
	t.Helper()
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

// bananaEnlarge scales img up by k with square pixels, to look at small rasters.
func bananaEnlarge(img *image.RGBA, k int) *image.RGBA {
	b := img.Bounds()
	out := image.NewRGBA(image.Rect(0, 0, b.Dx()*k, b.Dy()*k))
	for y := range b.Dy() * k {
		for x := range b.Dx() * k {
			out.SetRGBA(x, y, img.RGBAAt(x/k, y/k))
		}
	}
	return out
}

// TestBananaGallery writes the mark at several sizes to PNG files for people to look at, in the
// directory BANANA_GALLERY names (a temporary one otherwise, so that every run checks the files
// can be written and the SVG form rendered). With rsvg-convert installed it also renders the
// SVG form next to them.
func TestBananaGallery(t *testing.T) {
	dir := os.Getenv("BANANA_GALLERY")
	if dir == "" {
		dir = t.TempDir()
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for name, bg := range bananaTestBgs {
		for _, px := range []int{24, 48, 96, 256, 512} {
			img := bananaImage(px, bg)
			bananaWritePNG(t, filepath.Join(dir, fmt.Sprintf("banana-%s-%d.png", name, px)), img)
			if px < 100 {
				bananaWritePNG(t, filepath.Join(dir, fmt.Sprintf("banana-%s-%d-x8.png", name, px)),
					bananaEnlarge(img, 8))
			}
		}
	}
	bananaWritePNG(t, filepath.Join(dir, "banana-in-code-128.png"), bananaFakeCode(128, 24))
	bananaWritePNG(t, filepath.Join(dir, "banana-in-code-128-x4.png"), bananaEnlarge(bananaFakeCode(128, 24), 4))
	bananaWritePNG(t, filepath.Join(dir, "banana-in-code-512.png"), bananaFakeCode(512, 110))
	bananaWritePNG(t, filepath.Join(dir, "banana-sheet.png"), bananaSheet())
	svg := bananaSVGDocument(256)
	if err := os.WriteFile(filepath.Join(dir, "banana.svg"), []byte(svg), 0o644); err != nil {
		t.Fatal(err)
	}
	if rsvg, err := exec.LookPath("rsvg-convert"); err == nil {
		out, err := exec.Command(rsvg, "-w", "256", "-h", "256", "-o", filepath.Join(dir, "banana-svg-256.png"),
			filepath.Join(dir, "banana.svg")).CombinedOutput()
		if err != nil {
			t.Fatalf("rsvg-convert: %v\n%s", err, out)
		}
	}
	t.Logf("gallery written to %s", dir)
}

// bananaSheet puts several renders side by side: 512 px on white; 96, 48 and 24 px on the
// mint background; 24 px enlarged eight times; a 128-pixel code with a 24-pixel mark, doubled.
func bananaSheet() *image.RGBA {
	sheet := image.NewRGBA(image.Rect(0, 0, 1040, 720))
	put := func(img *image.RGBA, x, y int) {
		b := img.Bounds()
		for j := range b.Dy() {
			for i := range b.Dx() {
				sheet.SetRGBA(x+i, y+j, img.RGBAAt(i, j))
			}
		}
	}
	for i := range sheet.Pix {
		sheet.Pix[i] = 200
	}
	mint := bananaTestBgs["mint"]
	put(bananaImage(512, bananaTestBgs["white"]), 0, 0)
	put(bananaImage(96, mint), 520, 0)
	put(bananaImage(48, mint), 624, 0)
	put(bananaImage(24, mint), 680, 0)
	put(bananaEnlarge(bananaImage(24, mint), 8), 520, 104)
	put(bananaEnlarge(bananaImage(48, mint), 4), 720, 104)
	put(bananaEnlarge(bananaFakeCode(128, 24), 2), 520, 304)
	put(bananaFakeCode(128, 24), 790, 304)
	put(bananaImage(160, bananaTestBgs["white"]), 0, 530)
	return sheet
}

// bananaFakeCode draws a code-like pattern of random modules with the mark on a white pad in
// its centre, to judge the mark in context.
func bananaFakeCode(size, mark int) *image.RGBA {
	const modules = 33
	ink := color.RGBA{0x11, 0x11, 0x11, 255}
	white := color.RGBA{255, 255, 255, 255}
	img := image.NewRGBA(image.Rect(0, 0, size, size))
	rng := rand.New(rand.NewPCG(1, 2))
	cell := float64(size) / (modules + 8)
	for y := range size {
		for x := range size {
			img.SetRGBA(x, y, white)
		}
	}
	for my := range modules {
		for mx := range modules {
			if rng.IntN(2) == 0 {
				continue
			}
			for y := int(float64(my+4) * cell); y < int(float64(my+5)*cell); y++ {
				for x := int(float64(mx+4) * cell); x < int(float64(mx+5)*cell); x++ {
					img.SetRGBA(x, y, ink)
				}
			}
		}
	}
	off := (size - mark) / 2
	r := Raster(mark)
	for i, l := range r {
		img.SetRGBA(off+i%mark, off+i/mark, LevelColor(l, white))
	}
	return img
}

// bananaSVGDocument wraps the mark's SVG in a document of side px on a white ground.
func bananaSVGDocument(px int) string {
	return fmt.Sprintf(`<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 100 100">`+
		`<rect width="100" height="100" fill="#FFFFFF"/>%s</svg>`, px, px, SVG(0, 0, 100))
}

// TestBananaRasterLevels checks the raster's length and that every pixel is a banana level.
func TestBananaRasterLevels(t *testing.T) {
	for _, px := range bananaTestSizes {
		r := Raster(px)
		if len(r) != px*px {
			t.Fatalf("%d px: %d bytes, want %d", px, len(r), px*px)
		}
		for i, l := range r {
			if l > LevelYellowOverBg75 {
				t.Fatalf("%d px: pixel (%d, %d) has level %d", px, i%px, i/px, l)
			}
		}
	}
}

// TestBananaRasterDeterministic checks that rasterising again, from the kept geometry or a
// freshly built one, gives the same bytes.
func TestBananaRasterDeterministic(t *testing.T) {
	for _, px := range bananaTestSizes {
		a := rasterize(geometry(), px)
		b := rasterize(build(), px)
		if !bytes.Equal(a, b) {
			t.Fatalf("%d px: two rasterisations differ", px)
		}
		if !bytes.Equal(a, Raster(px)) {
			t.Fatalf("%d px: Raster differs from a fresh rasterisation", px)
		}
	}
}

// TestBananaMargin checks that nothing is drawn in the outer 4 % of the box, and that the mark
// does reach close to the margin on some side (it is fitted to the box).
func TestBananaMargin(t *testing.T) {
	for _, px := range []int{24, 48, 100, 256, 400} {
		r := Raster(px)
		border := int(0.04 * float64(px))
		lo, hi := px, -1 // extent of drawn pixels, across and down
		for i, l := range r {
			x, y := i%px, i/px
			if l == LevelNone {
				continue
			}
			if x < border || y < border || x >= px-border || y >= px-border {
				t.Fatalf("%d px: level %d at (%d, %d), inside the %d-pixel border", px, l, x, y, border)
			}
			lo, hi = min(lo, x, y), max(hi, x, y)
		}
		if float64(lo) > 0.1*float64(px) && float64(hi) < 0.9*float64(px) {
			t.Errorf("%d px: mark spans only %d..%d", px, lo, hi)
		}
	}
}

// bananaShares returns the shares of the box that show yellow and ink in the raster.
func bananaShares(r []uint8) (yellow, ink float64) {
	for _, l := range r {
		yellow += levelMix[l][1]
		ink += levelMix[l][2]
	}
	return yellow / float64(len(r)), ink / float64(len(r))
}

// TestBananaCoverage checks that the yellow and the ink fill sensible shares of the box, the
// same at every size.
func TestBananaCoverage(t *testing.T) {
	ry, ri := bananaShares(Raster(400))
	t.Logf("at 400 px yellow covers %.1f%% of the box, ink %.1f%%", 100*ry, 100*ri)
	if ry < 0.15 || ry > 0.45 {
		t.Errorf("yellow covers %.1f%% of the box, want 15..45%%", 100*ry)
	}
	if ri < 0.05 || ri > ry {
		t.Errorf("ink covers %.1f%% of the box (yellow %.1f%%)", 100*ri, 100*ry)
	}
	for _, px := range []int{24, 48, 96, 256} {
		y, i := bananaShares(Raster(px))
		if math.Abs(y-ry) > 0.03 || math.Abs(i-ri) > 0.03 {
			t.Errorf("%d px: yellow %.1f%%, ink %.1f%%; at 400 px %.1f%%, %.1f%%",
				px, 100*y, 100*i, 100*ry, 100*ri)
		}
	}
}

// TestBananaQuantise checks the thresholds between banana levels.
func TestBananaQuantise(t *testing.T) {
	for _, c := range []struct {
		y, i float64
		want uint8
	}{
		{0, 0, LevelNone},
		{0.12, 0, LevelNone},
		{0.13, 0, LevelYellowOverBg25},
		{0.5, 0, LevelYellowOverBg50},
		{0.86, 0, LevelYellowOverBg75},
		{0.88, 0, LevelYellow},
		{1, 0, LevelYellow},
		{0, 0.12, LevelNone},
		{0, 0.3, LevelInkOverBg25},
		{0, 0.7, LevelInkOverBg75},
		{0, 0.9, LevelInk},
		{0.9, 0.1, LevelYellow},
		{0.55, 0.45, LevelInkOverYellow50},
		{0.2, 0.8, LevelInkOverYellow75},
		{0.05, 0.95, LevelInk},
	} {
		if got := quantise(c.y, c.i); got != c.want {
			t.Errorf("yellow %.2f, ink %.2f: level %d, want %d", c.y, c.i, got, c.want)
		}
	}
}

// TestBananaLevelColor checks the colours of the levels.
func TestBananaLevelColor(t *testing.T) {
	white := color.RGBA{255, 255, 255, 255}
	for _, c := range []struct {
		level uint8
		bg    color.RGBA
		want  color.RGBA
	}{
		{LevelNone, white, white},
		{LevelYellow, white, yellowColor},
		{LevelInk, white, inkColor},
		{LevelInkOverBg50, color.RGBA{1, 3, 5, 255}, color.RGBA{30, 23, 13, 255}},
		{LevelInkOverYellow25, white, color.RGBA{206, 168, 52, 255}},
		{LevelYellowOverBg75, color.RGBA{}, color.RGBA{191, 158, 47, 191}},
		{200, white, white},
	} {
		if got := LevelColor(c.level, c.bg); got != c.want {
			t.Errorf("level %d on %v: %v, want %v", c.level, c.bg, got, c.want)
		}
	}
}

// TestBananaSVGFormat checks the SVG elements: two paths, yellow first, and coordinates that
// follow x, y and side (the path data itself: svg_test.go).
func TestBananaSVGFormat(t *testing.T) {
	s := SVG(10, 20.5, 100)
	if s != SVG(10, 20.5, 100) {
		t.Fatal("SVG is not deterministic")
	}
	shape := regexp.MustCompile(`^<path fill="#FFD23F" d="[^"]+"/><path fill="#3B2A14" d="[^"]+"/>$`)
	if !shape.MatchString(s) {
		t.Fatalf("unexpected form: %.200s", s)
	}
	if strings.ContainsAny(s, "\t\n") {
		t.Error("whitespace other than spaces")
	}
	for _, p := range bananaParseSVG(t, s) {
		for _, ct := range p {
			for _, pt := range ct {
				if pt.x < 10 || pt.x > 110 || pt.y < 20.5 || pt.y > 120.5 {
					t.Fatalf("point %v outside the square", pt)
				}
			}
		}
	}
}

// bananaParseSVG reads the path data of SVG's output back, independently of the code
// that wrote it (svgParsePaths), and returns each path's contours flattened into polygons (64
// pieces per Bézier segment).
func bananaParseSVG(t *testing.T, s string) [][][]point {
	t.Helper()
	var paths [][][]point
	for _, p := range svgParsePaths(t, s) {
		var contours [][]point
		for _, c := range p.contours {
			at := func(v vec) point { return point{float64(v.x) / 1000, float64(v.y) / 1000} }
			poly := []point{at(c.start)}
			for _, seg := range c.segs {
				p0, p1, p2, p3 := poly[len(poly)-1], at(seg.c1), at(seg.c2), at(seg.to)
				if seg.line {
					poly = append(poly, p3)
					continue
				}
				for k := 1; k <= 64; k++ {
					u := float64(k) / 64
					v := 1 - u
					poly = append(poly, point{
						v*v*v*p0.x + 3*v*v*u*p1.x + 3*v*u*u*p2.x + u*u*u*p3.x,
						v*v*v*p0.y + 3*v*v*u*p1.y + 3*v*u*u*p2.y + u*u*u*p3.y,
					})
				}
			}
			contours = append(contours, poly)
		}
		if len(contours) == 0 {
			t.Fatalf("a path without contours: %.80s", s)
		}
		paths = append(paths, contours)
	}
	if len(paths) != 2 {
		t.Fatalf("%d paths, want 2", len(paths))
	}
	return paths
}

// bananaWinding returns the winding number of the polygons around p.
func bananaWinding(polys [][]point, p point) int {
	w := 0
	for _, poly := range polys {
		for i := range poly {
			a, b := poly[i], poly[(i+1)%len(poly)]
			cross := (b.x-a.x)*(p.y-a.y) - (p.x-a.x)*(b.y-a.y)
			if a.y <= p.y && b.y > p.y && cross > 0 {
				w++
			} else if a.y > p.y && b.y <= p.y && cross < 0 {
				w--
			}
		}
	}
	return w
}

// bananaNear reports whether p lies within r of an edge of the polygons.
func bananaNear(polys [][]point, p point, r float64) bool {
	for _, poly := range polys {
		for i := range poly {
			a, b := poly[i], poly[(i+1)%len(poly)]
			if math.Abs(p.x-a.x) > r+math.Abs(b.x-a.x) || math.Abs(p.y-a.y) > r+math.Abs(b.y-a.y) {
				continue
			}
			dx, dy := b.x-a.x, b.y-a.y
			u := 0.0
			if l := dx*dx + dy*dy; l > 0 {
				u = math.Max(0, math.Min(1, ((p.x-a.x)*dx+(p.y-a.y)*dy)/l))
			}
			if math.Hypot(a.x+u*dx-p.x, a.y+u*dy-p.y) < r {
				return true
			}
		}
	}
	return false
}

// TestBananaRasterMatchesSVG checks the raster against the SVG's path data: at pixel centres
// more than a pixel away from every edge, the level must be the one a point-in-polygon test
// on the parsed SVG gives (ink on top of yellow on top of background).
func TestBananaRasterMatchesSVG(t *testing.T) {
	const px = 256
	paths := bananaParseSVG(t, SVG(0, 0, px))
	r := Raster(px)
	var all [][]point
	all = append(append(all, paths[0]...), paths[1]...)
	checked := map[uint8]int{}
	for y := 0; y < px; y += 2 {
		for x := 0; x < px; x += 2 {
			p := point{float64(x) + 0.5, float64(y) + 0.5}
			if bananaNear(all, p, 1) {
				continue
			}
			want := uint8(LevelNone)
			if bananaWinding(paths[1], p) != 0 {
				want = LevelInk
			} else if bananaWinding(paths[0], p) != 0 {
				want = LevelYellow
			}
			if got := r[y*px+x]; got != want {
				t.Fatalf("pixel (%d, %d): level %d, the SVG says %d", x, y, got, want)
			}
			checked[want]++
		}
	}
	if checked[LevelInk] < 500 || checked[LevelYellow] < 1000 || checked[LevelNone] < 1000 {
		t.Errorf("too few pixels checked: %v", checked)
	}
}

// TestBananaRsvg renders the SVG form with rsvg-convert, when it is installed, and compares
// it with the raster on the same background.
func TestBananaRsvg(t *testing.T) {
	qrtest.NeedTools(t, "rsvg-convert")
	const px = 256
	bg := bananaTestBgs["mint"]
	svg := fmt.Sprintf(`<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d">`+
		`<rect width="%d" height="%d" fill="%s"/>%s</svg>`, px, px, px, px, hexColor(bg), SVG(0, 0, px))
	cmd := exec.Command("rsvg-convert", "-w", strconv.Itoa(px), "-h", strconv.Itoa(px))
	cmd.Stdin = strings.NewReader(svg)
	var out, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("rsvg-convert: %v\n%s", err, stderr.String())
	}
	ref, err := png.Decode(&out)
	if err != nil {
		t.Fatal(err)
	}
	ours := bananaImage(px, bg)
	var sum float64
	bad := 0
	for y := range px {
		for x := range px {
			r0, g0, b0, _ := ref.At(x, y).RGBA()
			c := ours.RGBAAt(x, y)
			d := []float64{
				math.Abs(float64(r0>>8) - float64(c.R)),
				math.Abs(float64(g0>>8) - float64(c.G)),
				math.Abs(float64(b0>>8) - float64(c.B)),
			}
			sum += d[0] + d[1] + d[2]
			if max(d[0], d[1], d[2]) > 80 {
				bad++
			}
		}
	}
	mean := sum / (3 * px * px)
	t.Logf("mean channel difference from rsvg-convert %.2f, %d pixels differ by more than 80", mean, bad)
	if mean > 2 || bad > px*px/500 {
		t.Errorf("raster and rsvg-convert disagree: mean channel difference %.2f, %d pixels far off", mean, bad)
	}
}

// TestBananaFit checks that the Bézier segments follow the analytic bands and outlines closely,
// both ways: every point of the curve lies near the segments and every point of the segments
// near the curve (in the design's local units, before the fit into the box).
func TestBananaFit(t *testing.T) {
	curves := map[string]func(float64) point{
		"body":    body.at,
		"yellow":  body.offset(outline / 2),
		"outline": body.offset(outline),
		"ridge":   ridge.at,
	}
	for name, f := range curves {
		c := fit(f)
		var fitted, exact []point
		for _, s := range c {
			for k := range 32 {
				fitted = append(fitted, s.at(float64(k)/32))
			}
		}
		for k := range 4000 {
			exact = append(exact, f(2*math.Pi*float64(k)/4000))
		}
		d1, d2 := bananaGap(exact, fitted), bananaGap(fitted, exact)
		if d1 > 5e-4 || d2 > 5e-4 {
			t.Errorf("%s: curve and %d segments lie up to %.2g and %.2g apart", name, len(c), d1, d2)
		}
	}
}

// bananaGap returns the largest distance from a point of a to the polyline through b.
func bananaGap(a, b []point) float64 {
	worst := 0.0
	for _, p := range a {
		best := math.Inf(1)
		for i := range b {
			q, r := b[i], b[(i+1)%len(b)]
			dx, dy := r.x-q.x, r.y-q.y
			u := 0.0
			if l := dx*dx + dy*dy; l > 0 {
				u = math.Max(0, math.Min(1, ((p.x-q.x)*dx+(p.y-q.y)*dy)/l))
			}
			best = math.Min(best, math.Hypot(q.x+u*dx-p.x, q.y+u*dy-p.y))
		}
		worst = math.Max(worst, best)
	}
	return worst
}

// TestBananaOrientation checks that every solid contour winds one way and the hole the other,
// so that non-zero filling (SVG's default) gives the intended shape.
func TestBananaOrientation(t *testing.T) {
	g := geometry()
	for i, c := range g.yellow {
		if signedArea(c) <= 0 {
			t.Errorf("yellow contour %d winds the wrong way", i)
		}
	}
	for i, c := range g.ink {
		if (signedArea(c) > 0) != (i != 1) {
			t.Errorf("ink contour %d winds the wrong way", i)
		}
	}
}

// TestBananaConcurrent calls Raster and SVG from many goroutines at once (run it with -race).
func TestBananaConcurrent(t *testing.T) {
	sizes := []int{20, 33, 57, 90, 128}
	want := make(map[int][]uint8)
	for _, px := range sizes {
		want[px] = rasterize(geometry(), px)
	}
	var wg sync.WaitGroup
	errs := make(chan string, 64)
	for g := range 16 {
		wg.Go(func() {
			for k := range 20 {
				px := sizes[(g+k)%len(sizes)]
				if !bytes.Equal(Raster(px), want[px]) {
					errs <- fmt.Sprintf("%d px: raster differs", px)
					return
				}
				_ = SVG(float64(g), 0, 10)
			}
		})
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
}

// BenchmarkBananaGeometry measures building the mark's geometry, which is done once a process.
func BenchmarkBananaGeometry(b *testing.B) {
	for b.Loop() {
		build()
	}
}

// BenchmarkBananaRaster400 measures an uncached rasterisation at 400×400 pixels.
func BenchmarkBananaRaster400(b *testing.B) {
	g := geometry()
	for b.Loop() {
		rasterize(g, 400)
	}
}
