package render

import (
	"bytes"
	"fmt"
	"image"
	"image/png"
	"strings"
	"testing"

	"github.com/bananaqr/bananaqr/qr"
	"github.com/bananaqr/bananaqr/render/internal/banana"
)

// rtPixel is the reference drawing of an 8-bit image (rounded corners, the mark), one pixel at a time and written apart from
// the rasteriser: the palette entry of pixel (x, y) of symbol s laid out by l with options o.
// A dark module's corner is rounded when both its neighbours along the corner's edges are light:
// the pixel's coverage by a quarter disc of radius k/4 at the corner, sampled 4×4 and rounded to
// quarters. The mark's levels come from markRaster.
func rtPixel(s *qr.Symbol, l *layout, o *Options, x, y int) uint8 {
	k := l.module
	if l.pad.side > 0 {
		side := (l.pad.side - 1) * k
		atX, atY := l.originX+(2*l.pad.first+1)*k/2, l.originY+(2*l.pad.first+1)*k/2
		if x >= atX && x < atX+side && y >= atY && y < atY+side {
			if level := markRaster(side)[(y-atY)*side+x-atX]; level != 0 {
				return paletteMark + level
			}
		}
	}
	mx, my := ptFloorDiv(x-l.originX, k), ptFloorDiv(y-l.originY, k)
	dark := func(mx, my int) bool {
		return mx >= 0 && my >= 0 && mx < l.n && my < l.n && l.dark(s, mx, my)
	}
	if !dark(mx, my) {
		return paletteBackground
	}
	if o.Corners != Rounded {
		return paletteForeground
	}
	lx, ly := x-l.originX-mx*k, y-l.originY-my*k
	r := float64(k) / 4 // a quarter module
	for _, d := range [4][2]int{{-1, -1}, {1, -1}, {-1, 1}, {1, 1}} {
		if dark(mx+d[0], my) || dark(mx, my+d[1]) {
			continue
		}
		cx, cy := lx, ly // the pixel's place from the corner
		if d[0] > 0 {
			cx = k - 1 - lx
		}
		if d[1] > 0 {
			cy = k - 1 - ly
		}
		in := 0
		for j := range 4 {
			for i := range 4 {
				px, py := float64(cx)+(float64(i)+0.5)/4, float64(cy)+(float64(j)+0.5)/4
				if px >= r || py >= r || (r-px)*(r-px)+(r-py)*(r-py) <= r*r {
					in++
				}
			}
		}
		if q := (in*4 + 8) / 16; q < 4 {
			return shadeEntry(q)
		}
	}
	return paletteForeground
}

// rtCheck draws s as PNG with options o and compares every pixel with rtPixel; it reports the
// first few differences and fails the test if there are any.
func rtCheck(t *testing.T, s *qr.Symbol, o Options) {
	t.Helper()
	file, err := PNG(s, o)
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(file))
	if err != nil {
		t.Fatal(err)
	}
	p, ok := img.(*image.Paletted)
	if !ok || len(p.Palette) != 16 {
		t.Fatalf("decoded %T, want a paletted image of 16 colours", img)
	}
	if p.Palette[paletteBackground] != o.Background || p.Palette[paletteForeground] != o.Foreground {
		t.Fatalf("palette starts %v, %v", p.Palette[0], p.Palette[1])
	}
	l, _ := prepare(s, &o)
	bad := 0
	for y := range o.Size {
		for x := range o.Size {
			if got, want := p.Pix[y*p.Stride+x], rtPixel(s, &l, &o, x, y); got != want {
				if bad++; bad <= 5 {
					t.Errorf("%d px, module %d px at %d: pixel (%d, %d) is entry %d, want %d", o.Size, l.module, l.originX, x, y, got, want)
				}
			}
		}
	}
	if bad > 0 {
		t.Fatalf("%d pixels differ", bad)
	}
}

// TestPNGPixels checks every pixel of 8-bit PNGs against rtPixel, with module sizes and
// offsets odd and even.
func TestPNGPixels(t *testing.T) {
	for _, c := range []struct {
		text         string
		level        qr.Level
		size, margin int
		corners      Corners
		logo         Logo
	}{
		{renderTexts[0], qr.M, 1024, 4, Rounded, NoLogo},
		{renderTexts[0], qr.M, 1023, 4, Rounded, NoLogo}, // odd offset
		{renderTexts[0], qr.M, 867, 4, Rounded, NoLogo},  // odd module and offset
		{renderTexts[0], qr.M, 128, 4, Rounded, NoLogo},  // 3 pixels a module
		{renderTexts[0], qr.L, 100 + 29*2, 0, Rounded, NoLogo},
		{renderTexts[0], qr.M, 1024, 4, Rounded, Banana},
		{renderTexts[0], qr.M, 999, 4, Rounded, Banana}, // odd offset: the mark too
		{renderTexts[0], qr.L, 1021, 2, Square, Banana},
		{renderTexts[1], qr.H, 2048, 4, Rounded, Banana},
		{renderTexts[1], qr.M, 2047, 16, Rounded, NoLogo},
		{"A", qr.H, 2048, 0, Rounded, Banana},                            // the largest modules, 97 pixels
		{strings.Repeat("banana ", 150), qr.H, 2048, 4, Rounded, Banana}, // the largest mark
	} {
		name := fmt.Sprintf("%d bytes %v %d px margin %d corners %d logo %d", len(c.text), c.level, c.size, c.margin, c.corners, c.logo)
		t.Run(name, func(t *testing.T) {
			s, err := encodeFor(c.text, qr.Options{Level: c.level}, c.logo)
			if err != nil {
				t.Fatal(err)
			}
			o := Defaults()
			o.Size, o.Margin, o.Corners, o.Logo = c.size, c.margin, c.corners, c.logo
			rtCheck(t, s, o)
		})
	}
}

// TestPNGPixelsSizes checks the pixels of rounded PNGs with and without the mark at many sizes:
// modules of 2 to 26 pixels, at odd and even offsets.
func TestPNGPixelsSizes(t *testing.T) {
	for _, c := range []struct {
		text  string
		level qr.Level
		logo  Logo
		sizes []int
	}{
		{renderTexts[1], qr.M, NoLogo, []int{266, 299, 401, 533}},
		{renderTexts[0], qr.Q, NoLogo, nil},
		{renderTexts[0], qr.M, Banana, nil},
	} {
		s, err := encodeFor(c.text, qr.Options{Level: c.level}, c.logo)
		if err != nil {
			t.Fatal(err)
		}
		sizes := c.sizes
		for size := 128; c.sizes == nil && size <= 1100; size += 37 {
			sizes = append(sizes, size)
		}
		for _, size := range sizes {
			o := Defaults()
			o.Size, o.Corners, o.Logo = size, Rounded, c.logo
			rtCheck(t, s, o)
		}
	}
}

// dark reports whether the module at (x, y) of s is drawn dark: outside the symbol and under a
// logo's pad it is not.
func (l *layout) dark(s *qr.Symbol, x, y int) bool {
	return s.Dark(x, y) && !l.pad.covers(x, y)
}

// TestMarkRasterCached checks that markRaster gives banana.Raster's bytes and hands out the
// same slice again.
func TestMarkRasterCached(t *testing.T) {
	for _, px := range []int{8, 31, 96, 400} {
		c, d := markRaster(px), markRaster(px)
		if !bytes.Equal(c, banana.Raster(px)) {
			t.Fatalf("%d px: cached raster differs from a fresh one", px)
		}
		if &c[0] != &d[0] {
			t.Errorf("%d px: the cache handed out two different slices", px)
		}
	}
}
