package render

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"image"
	"image/color"
	"image/png"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/bananaqr/bananaqr/internal/qrtest"
	"github.com/bananaqr/bananaqr/qr"
)

// The test images are QR Code symbols (or random module matrices) drawn k pixels a module, the
// way the renderer draws them, with a row callback that reports repeated rows.

// ptSetPixel sets pixel x of a packed row at depth bits per pixel to palette index v.
func ptSetPixel(row []byte, depth, x int, v byte) {
	ppb := 8 / depth
	sh := uint((ppb - 1 - x%ppb) * depth)
	mask := byte(1<<depth-1) << sh
	row[x/ppb] = row[x/ppb]&^mask | v<<sh&mask
}

// ptFloorDiv returns ⌊a/b⌋ for b > 0.
func ptFloorDiv(a, b int) int {
	if a < 0 {
		return -((-a + b - 1) / b)
	}
	return a / b
}

// ptModules draws an n×n matrix of palette indices, k pixels a module, its top left corner
// at pixel (offX, offY) of a w×h canvas of index 0 (the modules may be cut at the edges).
type ptModules struct {
	n          int
	mods       []byte // n×n palette indices, row by row
	k          int
	offX, offY int
	w, h       int
	depth      int
	pal        []color.RGBA
	round      *ptCorners // rounded corners, or nil for squares
	noSame     bool       // never report repeated rows
	squares    [][]byte   // each module row drawn with square modules, packed (see prepare)
	keys       []int      // rowKey of each row
}

// prepare draws each module row once, packed, for fill; it must be called after the fields are
// set (the constructors do).
func (m *ptModules) prepare() {
	m.squares = make([][]byte, m.n)
	for my := range m.n {
		row := make([]byte, (m.w*m.depth+7)/8)
		for x := range m.w {
			if mx := ptFloorDiv(x-m.offX, m.k); mx >= 0 && mx < m.n {
				ptSetPixel(row, m.depth, x, m.mods[my*m.n+mx])
			}
		}
		m.squares[my] = row
	}
	if m.round != nil {
		m.round.prepare(m)
	}
	m.keys = make([]int, m.h)
	for y := range m.h {
		m.keys[y] = m.rowKey(y)
	}
}

// module returns the palette index of module (x, y), 0 outside the matrix.
func (m *ptModules) module(x, y int) byte {
	if uint(x) >= uint(m.n) || uint(y) >= uint(m.n) {
		return 0
	}
	return m.mods[y*m.n+x]
}

// pixel returns the palette index of pixel (x, y), one pixel at a time: the reference.
func (m *ptModules) pixel(x, y int) byte {
	mx, my := ptFloorDiv(x-m.offX, m.k), ptFloorDiv(y-m.offY, m.k)
	v := m.module(mx, my)
	if v != 1 || m.round == nil {
		return v
	}
	return m.round.pixel(m, mx, my, x-m.offX-mx*m.k, y-m.offY-my*m.k)
}

// rowKey returns a value that two rows share only if they are identical.
func (m *ptModules) rowKey(y int) int {
	my := ptFloorDiv(y-m.offY, m.k)
	if my < 0 || my >= m.n {
		return -1
	}
	if m.round != nil {
		return my*1024 + m.round.rowClass(m, my, y-m.offY-my*m.k)
	}
	return my * 1024
}

// fill draws row y into dst from the prepared rows, as fast as a renderer would.
func (m *ptModules) fill(y int, dst []byte) {
	my := ptFloorDiv(y-m.offY, m.k)
	if my < 0 || my >= m.n {
		clear(dst)
		return
	}
	copy(dst, m.squares[my])
	if m.round != nil {
		m.round.fill(m, my, y-m.offY-my*m.k, dst)
	}
}

// png returns the pngImage of m.
func (m *ptModules) png() *pngImage {
	return &pngImage{
		width: m.w, height: m.h, depth: m.depth, palette: m.pal,
		row: func(y int, dst []byte) bool {
			if y > 0 && !m.noSame && m.keys[y] == m.keys[y-1] {
				return true
			}
			m.fill(y, dst)
			return false
		},
	}
}

// ptSymbolImage draws s on a size×size canvas with a quiet zone of margin modules, centred, each
// module ⌊size/(n+2·margin)⌋ pixels: dark modules index 1 on index 0.
func ptSymbolImage(s *qr.Symbol, size, margin, depth int, pal []color.RGBA) *ptModules {
	n := s.Size()
	k := size / (n + 2*margin)
	off := (size-k*(n+2*margin))/2 + margin*k
	m := &ptModules{n: n, mods: make([]byte, n*n), k: k, offX: off, offY: off, w: size, h: size, depth: depth, pal: pal}
	for y := range n {
		for x := range n {
			if s.Dark(x, y) {
				m.mods[y*n+x] = 1
			}
		}
	}
	m.prepare()
	return m
}

// The colours of the benchmark images: background and foreground.
var (
	ptWhite = color.RGBA{0xFF, 0xFF, 0xFF, 0xFF}
	ptBrown = color.RGBA{0x7B, 0x26, 0x0F, 0xFF}
)

// ptURLText is the text of the URL image.
const ptURLText = "https://example.com/products/12345?ref=newsletter"

// ptEncode encodes text at level M.
func ptEncode(tb testing.TB, text string) *qr.Symbol {
	tb.Helper()
	s, err := qr.Encode(text, qr.Options{})
	if err != nil {
		tb.Fatal(err)
	}
	return s
}

// ptURLImage is the URL symbol (version 4) at 1024 pixels, 24 a module, depth 1.
func ptURLImage(tb testing.TB) *ptModules {
	return ptSymbolImage(ptEncode(tb, ptURLText), 1024, 4, 1, []color.RGBA{ptWhite, ptBrown})
}

// ptV38Image is a 2,000-byte text (version 38 at level M) at 2048 pixels, 11 a module, depth 1.
func ptV38Image(tb testing.TB) *ptModules {
	text := strings.Repeat("The quick brown fox jumps over the lazy dog. ", 50)[:2000]
	return ptSymbolImage(ptEncode(tb, text), 2048, 4, 1, []color.RGBA{ptWhite, ptBrown})
}

// ptRoundedImage is the URL image at depth 4 with rounded corners (radius 12).
func ptRoundedImage(tb testing.TB) *ptModules {
	pal := []color.RGBA{ptWhite, ptBrown, ptBlend(ptBrown, ptWhite, 1), ptBlend(ptBrown, ptWhite, 2), ptBlend(ptBrown, ptWhite, 3)}
	m := ptSymbolImage(ptEncode(tb, ptURLText), 1024, 4, 4, pal)
	m.round = ptNewCorners(m, 12)
	m.prepare()
	return m
}

// ptBlend returns fg over bg at q quarters of opacity.
func ptBlend(fg, bg color.RGBA, q int) color.RGBA {
	mix := func(f, b uint8) uint8 { return uint8((int(f)*q + int(b)*(4-q) + 2) / 4) }
	return color.RGBA{mix(fg.R, bg.R), mix(fg.G, bg.G), mix(fg.B, bg.B), 0xFF}
}

// ptCorners rounds the ptCorners of dark modules (index 1) whose two neighbours along the corner's
// edges are light: a quarter circle of radius r, anti-aliased with indices 2, 3 and 4 for 25%,
// 50% and 75% coverage.
type ptCorners struct {
	r     int
	cov   [][]byte // cov[cy][cx]: index of the pixel cx columns and cy rows in from a corner
	class []int    // class[cy]: the first cy' with the same coverage row, or −1 when it is full
	left  [][]byte // cov[cy] packed at the image depth, when r pixels fill whole bytes
	right [][]byte // the same, mirrored
	// top[my] and bottom[my] list the rounded corners of module row my: the module's column,
	// negated (−1−mx) for a right corner.
	top, bottom [][]int
}

// prepare lists the rounded corners of each module row.
func (c *ptCorners) prepare(m *ptModules) {
	c.top, c.bottom = make([][]int, m.n), make([][]int, m.n)
	for my := range m.n {
		for mx := range m.n {
			for _, dy := range []int{-1, 1} {
				list := &c.top[my]
				if dy == 1 {
					list = &c.bottom[my]
				}
				if c.rounded(m, mx, my, -1, dy) {
					*list = append(*list, mx)
				}
				if c.rounded(m, mx, my, 1, dy) {
					*list = append(*list, -1-mx)
				}
			}
		}
	}
}

// list returns the rounded corners of module row my towards dy.
func (c *ptCorners) list(my, dy int) []int {
	if dy < 0 {
		return c.top[my]
	}
	return c.bottom[my]
}

// ptNewCorners measures the coverage of each corner pixel with 4×4 samples (integer arithmetic, in
// eighths of a pixel: the circle's centre is (8r, 8r)).
func ptNewCorners(m *ptModules, r int) *ptCorners {
	c := &ptCorners{r: r}
	levels := [5]byte{0, 2, 3, 4, 1} // 0%, 25%, 50%, 75%, 100%
	for cy := range r {
		row := make([]byte, r)
		for cx := range r {
			in := 0
			for sy := range 4 {
				for sx := range 4 {
					dx, dy := 8*r-(8*cx+2*sx+1), 8*r-(8*cy+2*sy+1)
					if dx*dx+dy*dy <= 64*r*r {
						in++
					}
				}
			}
			row[cx] = levels[(in*4+8)/16]
		}
		c.cov = append(c.cov, row)
		class := -1
		if !bytes.Equal(row, bytes.Repeat([]byte{1}, r)) {
			class = cy
			for prev := range cy {
				if bytes.Equal(c.cov[prev], row) {
					class = prev
					break
				}
			}
		}
		c.class = append(c.class, class)
		if r*m.depth%8 == 0 {
			l, rt := make([]byte, r*m.depth/8), make([]byte, r*m.depth/8)
			for cx, v := range row {
				ptSetPixel(l, m.depth, cx, v)
				ptSetPixel(rt, m.depth, r-1-cx, v)
			}
			c.left, c.right = append(c.left, l), append(c.right, rt)
		}
	}
	return c
}

// vertical returns which corners row ly of a module is in: the row cy in from the corner, and
// dy, the neighbour's direction (−1 above, +1 below), or dy = 0 between the corners.
func (c *ptCorners) vertical(m *ptModules, ly int) (cy, dy int) {
	switch {
	case ly < c.r:
		return ly, -1
	case ly >= m.k-c.r:
		return m.k - 1 - ly, 1
	}
	return 0, 0
}

// rounded reports whether the corner of module (mx, my) towards (dx, dy) is rounded.
func (c *ptCorners) rounded(m *ptModules, mx, my, dx, dy int) bool {
	return m.module(mx, my) == 1 && m.module(mx+dx, my) == 0 && m.module(mx, my+dy) == 0
}

// pixel returns the index of pixel (lx, ly) of dark module (mx, my).
func (c *ptCorners) pixel(m *ptModules, mx, my, lx, ly int) byte {
	cy, dy := c.vertical(m, ly)
	if dy == 0 {
		return 1
	}
	if lx < c.r && c.rounded(m, mx, my, -1, dy) {
		return c.cov[cy][lx]
	}
	if lx >= m.k-c.r && c.rounded(m, mx, my, 1, dy) {
		return c.cov[cy][m.k-1-lx]
	}
	return 1
}

// rowClass tells the rows of module row my apart: rows of one class are identical.
func (c *ptCorners) rowClass(m *ptModules, my, ly int) int {
	cy, dy := c.vertical(m, ly)
	if dy == 0 || c.class[cy] < 0 || len(c.list(my, dy)) == 0 {
		return 0
	}
	return 2*(1+c.class[cy]) + (dy+1)/2
}

// fill draws the rounded corners into row ly of module row my, over the squares.
func (c *ptCorners) fill(m *ptModules, my, ly int, dst []byte) {
	cy, dy := c.vertical(m, ly)
	if dy == 0 || c.class[cy] < 0 {
		return
	}
	for _, mx := range c.list(my, dy) {
		if mx >= 0 {
			c.put(m, dst, m.offX+mx*m.k, c.cov[cy], c.left, cy, false)
		} else {
			c.put(m, dst, m.offX+(-1-mx+1)*m.k-c.r, c.cov[cy], c.right, cy, true)
		}
	}
}

// put draws one corner's row of r pixels at x0: whole bytes when they line up, else pixels.
func (c *ptCorners) put(m *ptModules, dst []byte, x0 int, cov []byte, packed [][]byte, cy int, mirror bool) {
	if packed != nil && x0*m.depth%8 == 0 && x0 >= 0 && x0+c.r <= m.w {
		copy(dst[x0*m.depth/8:], packed[cy])
		return
	}
	for i, v := range cov {
		x := x0 + i
		if mirror {
			x = x0 + c.r - 1 - i
		}
		if x >= 0 && x < m.w {
			ptSetPixel(dst, m.depth, x, v)
		}
	}
}

// ptDecode decodes a PNG file made by appendPNG into a paletted image.
func ptDecode(tb testing.TB, file []byte) *image.Paletted {
	tb.Helper()
	img, err := png.Decode(bytes.NewReader(file))
	if err != nil {
		tb.Fatalf("image/png: %v", err)
	}
	p, ok := img.(*image.Paletted)
	if !ok {
		tb.Fatalf("image/png decoded a %T", img)
	}
	return p
}

// ptCheckPixels decodes file and compares its palette and every pixel with want.
func ptCheckPixels(tb testing.TB, file []byte, w, h int, pal []color.RGBA, want func(x, y int) byte) {
	tb.Helper()
	p := ptDecode(tb, file)
	if got := p.Bounds(); got != image.Rect(0, 0, w, h) {
		tb.Fatalf("bounds %v, want %d×%d", got, w, h)
	}
	if len(p.Palette) != len(pal) {
		tb.Fatalf("palette of %d entries, want %d", len(p.Palette), len(pal))
	}
	for i, c := range pal {
		if got := color.RGBAModel.Convert(p.Palette[i]).(color.RGBA); got != (color.RGBA{c.R, c.G, c.B, 0xFF}) {
			tb.Fatalf("palette[%d] = %v, want %v", i, got, c)
		}
	}
	for y := range h {
		for x := range w {
			if got, want := p.Pix[y*p.Stride+x], want(x, y); got != want {
				tb.Fatalf("pixel (%d, %d) = %d, want %d", x, y, got, want)
			}
		}
	}
}

// ptCheckedRows wraps img.row with checks of its contract: rows come in order, always in the same
// buffer of the right size, which still holds the previous row.
func ptCheckedRows(tb testing.TB, img *pngImage) *pngImage {
	next := 0
	var buf, last []byte
	c := *img
	c.row = func(y int, dst []byte) bool {
		switch {
		case y != next:
			tb.Fatalf("row %d asked for, want %d", y, next)
		case len(dst) != (img.width*img.depth+7)/8:
			tb.Fatalf("row %d: buffer of %d bytes", y, len(dst))
		case y > 0 && &dst[0] != &buf[0]:
			tb.Fatalf("row %d: a different buffer", y)
		case y > 0 && !bytes.Equal(dst, last):
			tb.Fatalf("row %d: the buffer no longer holds row %d", y, y-1)
		}
		next, buf = y+1, dst
		same := img.row(y, dst)
		last = append(last[:0], dst...)
		return same
	}
	return &c
}

// ptNoise has random pixels; some rows repeat the one above (rowID), and repeats are reported
// unless hideSame.
type ptNoise struct {
	w, h, depth int
	pal         []color.RGBA
	seed        uint64
	ids         []int // rowID of each row
	hideSame    bool
}

// ptNewNoise returns a w×h noise image of the given depth and number of colours, whose rows
// repeat the one above once in repeatOdds (never for 0).
func ptNewNoise(r *rand.Rand, w, h, depth, colors int, repeatOdds int) *ptNoise {
	n := &ptNoise{w: w, h: h, depth: depth, pal: ptPalette(r, colors), seed: r.Uint64()}
	for y := range h {
		id := y
		if y > 0 && repeatOdds > 0 && r.IntN(repeatOdds) == 0 {
			id = n.ids[y-1]
		}
		n.ids = append(n.ids, id)
	}
	return n
}

// pixel returns a pseudo-random index for (x, rowID(y)).
func (n *ptNoise) pixel(x, y int) byte {
	h := (uint64(x)<<32 | uint64(n.ids[y])) ^ n.seed
	h ^= h >> 33
	h *= 0xFF51AFD7ED558CCD
	h ^= h >> 33
	return byte(h % uint64(len(n.pal)))
}

// png returns the pngImage of n.
func (n *ptNoise) png() *pngImage {
	return &pngImage{width: n.w, height: n.h, depth: n.depth, palette: n.pal,
		row: func(y int, dst []byte) bool {
			if y > 0 && !n.hideSame && n.ids[y] == n.ids[y-1] {
				return true
			}
			for x := range n.w {
				ptSetPixel(dst, n.depth, x, n.pixel(x, y))
			}
			return false
		}}
}

// ptPalette returns n random colours (alpha, which PLTE does not keep, is random too).
func ptPalette(r *rand.Rand, n int) []color.RGBA {
	pal := make([]color.RGBA, n)
	for i := range pal {
		pal[i] = color.RGBA{byte(r.Uint32()), byte(r.Uint32()), byte(r.Uint32()), byte(r.Uint32())}
	}
	return pal
}

// ptRandomModules draws a random module matrix of palette indices, the way ptSymbolImage draws
// a symbol, with random sizes, scale, offsets, depth and palette, and sometimes rounded corners.
func ptRandomModules(r *rand.Rand) *ptModules {
	depth := []int{1, 2, 4, 8}[r.IntN(4)]
	colors := 1 + r.IntN(1<<depth)
	if r.IntN(3) == 0 {
		colors = min(2, 1<<depth)
	}
	round := depth >= 4 && r.IntN(3) == 0 // corners need indices 2, 3 and 4
	if round {
		colors = max(colors, 5)
	}
	n := 21 + 4*r.IntN(40) // 21..177
	k := 2 + r.IntN(39)    // 2..40
	for n*k > 3000 {
		k = max(2, k/2)
	}
	m := &ptModules{n: n, k: k, depth: depth, pal: ptPalette(r, colors), mods: make([]byte, n*n)}
	for i := range m.mods {
		m.mods[i] = byte(r.IntN(colors))
	}
	margin := r.IntN(5) * k
	m.w = n*k + 2*margin + r.IntN(13) - 6 // widths not multiples of 8, modules cut at the edges
	m.h = n*k + 2*margin + r.IntN(13) - 6
	m.offX, m.offY = margin+r.IntN(7)-3, margin+r.IntN(7)-3
	m.noSame = r.IntN(5) == 0
	if round {
		m.round = ptNewCorners(m, k/2)
	}
	m.prepare()
	return m
}

func TestPNGRoundTrip(t *testing.T) {
	r := rand.New(rand.NewPCG(21, 22))
	for i := range 60 {
		m := ptRandomModules(r)
		name := fmt.Sprintf("%d: %d×%d modules of %d px, %d×%d px, depth %d, %d colours, rounded %v",
			i, m.n, m.n, m.k, m.w, m.h, m.depth, len(m.pal), m.round != nil)
		t.Run(name, func(t *testing.T) {
			file := appendPNG(nil, ptCheckedRows(t, m.png()))
			ptCheckPixels(t, file, m.w, m.h, m.pal, m.pixel)
		})
	}
}

func TestPNGNoise(t *testing.T) {
	r := rand.New(rand.NewPCG(23, 24))
	for i := range 24 {
		depth := []int{1, 2, 4, 8}[i%4]
		n := ptNewNoise(r, 1+r.IntN(700), 1+r.IntN(300), depth, 1+r.IntN(1<<depth), []int{0, 2, 5}[i%3])
		n.hideSame = i%5 == 0
		t.Run(fmt.Sprintf("%d×%d depth %d", n.w, n.h, depth), func(t *testing.T) {
			file := appendPNG(nil, ptCheckedRows(t, n.png()))
			ptCheckPixels(t, file, n.w, n.h, n.pal, n.pixel)
		})
	}
}

func TestPNGExtremeSizes(t *testing.T) {
	r := rand.New(rand.NewPCG(25, 26))
	cases := []struct {
		name string
		w, h int
		d    int
		odds int // noise rows repeat 1 in odds
	}{
		{"1×1 depth 1", 1, 1, 1, 0},
		{"1×1 depth 8", 1, 1, 8, 0},
		{"1×3000 depth 1", 1, 3000, 1, 2},
		{"3×5000 depth 2", 3, 5000, 2, 3},
		{"20000×2 depth 1", 20000, 2, 1, 0},
		{"40000×6 depth 8 (rows beyond the window)", 40000, 6, 8, 2},
		{"2048×2048 depth 8", 2048, 2048, 8, 4},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			n := ptNewNoise(r, c.w, c.h, c.d, 1<<c.d, c.odds)
			file := appendPNG(nil, ptCheckedRows(t, n.png()))
			ptCheckPixels(t, file, n.w, n.h, n.pal, n.pixel)
		})
	}
	t.Run("2048×2048 depth 8 modules", func(t *testing.T) {
		m := &ptModules{n: 177, k: 11, offX: 50, offY: 50, w: 2048, h: 2048, depth: 8, pal: ptPalette(r, 256)}
		m.mods = make([]byte, m.n*m.n)
		for i := range m.mods {
			m.mods[i] = byte(r.IntN(256))
		}
		m.prepare()
		file := appendPNG(nil, ptCheckedRows(t, m.png()))
		ptCheckPixels(t, file, m.w, m.h, m.pal, m.pixel)
	})
}

func TestPNGURL(t *testing.T) {
	m := ptURLImage(t)
	if m.k != 24 || m.offX != 20+4*24 || m.n != 33 {
		t.Fatalf("%d modules of %d px at %d, want 33 of 24 at 116", m.n, m.k, m.offX)
	}
	file := appendPNG(nil, ptCheckedRows(t, m.png()))
	t.Logf("URL, 1024 px, depth 1: %d bytes", len(file))
	if len(file) > 1000 {
		t.Errorf("%d bytes, want at most 1000", len(file))
	}
	ptCheckPixels(t, file, m.w, m.h, m.pal, m.pixel)
}

func TestPNGBenchmarkImages(t *testing.T) {
	for _, c := range []struct {
		name string
		m    *ptModules
	}{{"URL", ptURLImage(t)}, {"version 38", ptV38Image(t)}, {"URL rounded", ptRoundedImage(t)}} {
		file := appendPNG(nil, ptCheckedRows(t, c.m.png()))
		ptCheckPixels(t, file, c.m.w, c.m.h, c.m.pal, c.m.pixel)
		t.Logf("%-12s %d px, module %d px, depth %d: %6d bytes; image/png %6d",
			c.name, c.m.w, c.m.k, c.m.depth, len(file), len(ptEncodeStd(t, c.m)))
	}
}

// ptChunk is a ptChunk of a PNG file (PNG spec 5.3).
type ptChunk struct {
	typ  string
	data []byte
}

// ptParseChunks checks the signature, and the length and CRC of each chunk, and returns them.
func ptParseChunks(tb testing.TB, file []byte) []ptChunk {
	tb.Helper()
	if !bytes.HasPrefix(file, []byte("\x89PNG\r\n\x1a\n")) {
		tb.Fatalf("no PNG signature: % x", file[:min(8, len(file))])
	}
	var chunks []ptChunk
	for b := file[8:]; len(b) > 0; {
		if len(b) < 12 {
			tb.Fatalf("%d bytes left after chunk %d", len(b), len(chunks))
		}
		n := binary.BigEndian.Uint32(b)
		if n > 1<<31-1 || int(n) > len(b)-12 {
			tb.Fatalf("chunk %d: length %d with %d bytes left", len(chunks), n, len(b)-12)
		}
		typ, data := string(b[4:8]), b[8:8+n]
		if got, want := binary.BigEndian.Uint32(b[8+n:]), crc32.ChecksumIEEE(b[4:8+n]); got != want {
			tb.Fatalf("chunk %q: CRC %08x, want %08x", typ, got, want)
		}
		chunks = append(chunks, ptChunk{typ, data})
		b = b[12+n:]
	}
	return chunks
}

func TestPNGChunks(t *testing.T) {
	r := rand.New(rand.NewPCG(27, 28))
	for range 10 {
		m := ptRandomModules(r)
		prefix := []byte("not part of the file")
		file := appendPNG(bytes.Clone(prefix), m.png())
		if !bytes.HasPrefix(file, prefix) {
			t.Fatal("appendPNG lost what dst held")
		}
		chunks := ptParseChunks(t, file[len(prefix):])
		var types []string
		for _, c := range chunks {
			types = append(types, c.typ)
		}
		if got := strings.Join(types, " "); got != "IHDR PLTE IDAT IEND" {
			t.Fatalf("chunks %s", got)
		}
		ihdr := chunks[0].data
		want := binary.BigEndian.AppendUint32(nil, uint32(m.w))
		want = binary.BigEndian.AppendUint32(want, uint32(m.h))
		want = append(want, byte(m.depth), 3, 0, 0, 0) // indexed colour, zlib, adaptive filters, no interlace
		if !bytes.Equal(ihdr, want) {
			t.Fatalf("IHDR % x, want % x", ihdr, want)
		}
		if plte := chunks[1].data; len(plte) != 3*len(m.pal) {
			t.Fatalf("PLTE of %d bytes for %d colours", len(plte), len(m.pal))
		}
		for i, c := range m.pal {
			if got := chunks[1].data[3*i : 3*i+3]; !bytes.Equal(got, []byte{c.R, c.G, c.B}) {
				t.Fatalf("PLTE entry %d: % x", i, got)
			}
		}
		if len(chunks[3].data) != 0 {
			t.Fatalf("IEND with %d bytes", len(chunks[3].data))
		}
		// The image data: a zlib stream of the filtered scanlines (filter byte 0 or 2).
		raw := qrtest.Inflate(t, chunks[2].data)
		rowLen := 1 + (m.w*m.depth+7)/8
		if len(raw) != m.h*rowLen {
			t.Fatalf("%d bytes of scanlines, want %d", len(raw), m.h*rowLen)
		}
		for y := range m.h {
			if f := raw[y*rowLen]; f != 0 && f != 2 {
				t.Fatalf("row %d: filter type %d", y, f)
			}
		}
	}
}

func TestPNGCheck(t *testing.T) {
	qrtest.NeedTools(t, "pngcheck")
	r := rand.New(rand.NewPCG(29, 30))
	images := []*pngImage{ptURLImage(t).png(), ptV38Image(t).png(), ptRoundedImage(t).png(),
		ptNewNoise(r, 1, 1, 1, 2, 0).png(), ptNewNoise(r, 333, 77, 8, 256, 3).png()}
	for range 5 {
		images = append(images, ptRandomModules(r).png())
	}
	dir := t.TempDir()
	for i, img := range images {
		file := filepath.Join(dir, fmt.Sprintf("%d.png", i))
		if err := os.WriteFile(file, appendPNG(nil, img), 0o644); err != nil {
			t.Fatal(err)
		}
		out, err := exec.Command("pngcheck", "-q", file).CombinedOutput()
		if err != nil || len(bytes.TrimSpace(out)) > 0 {
			t.Errorf("pngcheck %s: %v\n%s", file, err, out)
		}
	}
}

func TestPNGDeterministic(t *testing.T) {
	r := rand.New(rand.NewPCG(31, 32))
	images := []*pngImage{ptURLImage(t).png(), ptRoundedImage(t).png(), ptRandomModules(r).png()}
	first := make([][]byte, len(images))
	for i, img := range images {
		first[i] = appendPNG(nil, img)
	}
	for i, img := range images { // again, after the others: pooled state must not matter
		if again := appendPNG(nil, img); !bytes.Equal(again, first[i]) {
			t.Errorf("image %d: different bytes the second time", i)
		}
	}
}

func TestPNGInvalid(t *testing.T) {
	row := func(int, []byte) bool { return false }
	two := []color.RGBA{ptWhite, ptBrown}
	for _, img := range []pngImage{
		{width: 0, height: 1, depth: 1, palette: two, row: row},
		{width: 1, height: -1, depth: 1, palette: two, row: row},
		{width: 1, height: 1, depth: 3, palette: two, row: row},
		{width: 1, height: 1, depth: 1, palette: nil, row: row},
		{width: 1, height: 1, depth: 1, palette: make([]color.RGBA, 3), row: row},
		{width: 1, height: 1, depth: 1, palette: two},
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%+v: no panic", img)
				}
			}()
			appendPNG(nil, &img)
		}()
	}
}

// ptEncodeStd encodes m with image/png, for comparison.
func ptEncodeStd(tb testing.TB, m *ptModules) []byte {
	var buf bytes.Buffer
	if err := png.Encode(&buf, ptPaletted(m)); err != nil {
		tb.Fatal(err)
	}
	return buf.Bytes()
}

// ptPaletted returns m as an image.Paletted.
func ptPaletted(m *ptModules) *image.Paletted {
	pal := make(color.Palette, len(m.pal))
	for i, c := range m.pal {
		pal[i] = c
	}
	img := image.NewPaletted(image.Rect(0, 0, m.w, m.h), pal)
	for y := range m.h {
		for x := range m.w {
			img.Pix[y*img.Stride+x] = m.pixel(x, y)
		}
	}
	return img
}

// BenchmarkPNG writes the three benchmark images (see ptURLImage, ptV38Image, ptRoundedImage);
// "rows" is the cost of their row callbacks alone, and image-png that of image/png's Encode of
// the URL image, for comparison.
func BenchmarkPNG(b *testing.B) {
	for _, c := range []struct {
		name string
		m    *ptModules
	}{
		{"URL-1024px-depth1", ptURLImage(b)},
		{"V38-2048px-depth1", ptV38Image(b)},
		{"URL-rounded-1024px-depth4", ptRoundedImage(b)},
	} {
		img := c.m.png()
		b.Run(c.name, func(b *testing.B) {
			var buf []byte
			b.ReportAllocs()
			for b.Loop() {
				buf = appendPNG(buf[:0], img)
			}
			b.ReportMetric(float64(len(buf)), "bytes")
		})
		b.Run(c.name+"-rows", func(b *testing.B) {
			dst := make([]byte, (c.m.w*c.m.depth+7)/8)
			for b.Loop() {
				for y := range c.m.h {
					img.row(y, dst)
				}
			}
		})
	}
	b.Run("image-png-URL-1024px-depth1", func(b *testing.B) {
		img := ptPaletted(ptURLImage(b))
		var buf bytes.Buffer
		b.ReportAllocs()
		for b.Loop() {
			buf.Reset()
			if err := png.Encode(&buf, img); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(buf.Len()), "bytes")
	})
}

// Concurrent writers share the pool of scratch memory: each must get its own.
func TestPNGConcurrent(t *testing.T) {
	r := rand.New(rand.NewPCG(33, 34))
	images := []*pngImage{ptURLImage(t).png(), ptRoundedImage(t).png()}
	for range 4 {
		images = append(images, ptRandomModules(r).png())
	}
	want := make([][]byte, len(images))
	for i, img := range images {
		want[i] = appendPNG(nil, img)
	}
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Go(func() {
			for k := range 20 {
				i := (g + k) % len(images)
				if got := appendPNG(nil, images[i]); !bytes.Equal(got, want[i]) {
					t.Errorf("goroutine %d: image %d differs", g, i)
					return
				}
			}
		})
	}
	wg.Wait()
}

// TestPNGRuns holds the square images' runs of rows (rasterizer.squareRun, writeRuns) to the
// rows they stand for: the same file as when every row is drawn and compared with the one above
// (rasterizer.row, writeScanlines), for sizes, margins and versions whose module size and
// leftover pixels differ, and the pixels those rows give.
func TestPNGRuns(t *testing.T) {
	for _, text := range []string{"a", renderTexts[0], renderTexts[1]} {
		s, _ := qr.Encode(text, qr.Options{})
		for _, size := range []int{128, 201, 333, 1024, 1500, 2048, 0, 1} {
			for _, margin := range []int{0, 1, 4, 16} {
				o := Defaults()
				o.Size, o.Margin = size, margin
				if size < 2 { // modules of 2 and 3 pixels: runs of 2 and 3 rows
					o.Size = (size + 2) * (s.Size() + 2*margin)
				}
				l, err := prepare(s, &o)
				if err != nil {
					continue
				}
				r := new(rasterizer)
				r.start(s, &l, &o)
				runs := appendPNG(nil, &pngImage{width: l.size, height: l.size, depth: 1, palette: r.palette, run: r.squareRun})
				r.start(s, &l, &o)
				rows := appendPNG(nil, &pngImage{width: l.size, height: l.size, depth: 1, palette: r.palette, row: r.row})
				if !bytes.Equal(runs, rows) {
					t.Fatalf("%d bytes at %d px, margin %d: runs give %d bytes, rows %d", len(text), o.Size, margin, len(runs), len(rows))
				}
				if got, _ := AppendPNG(nil, s, &o); !bytes.Equal(got, runs) {
					t.Fatalf("%d bytes at %d px, margin %d: AppendPNG does not write the runs", len(text), o.Size, margin)
				}
			}
		}
	}
}

// TestPNGRunsWriter holds writeRuns to writeScanlines on made-up images whose runs of 1, 2 and
// more rows follow rows that filter Up (one byte changed) and None (all changed).
func TestPNGRunsWriter(t *testing.T) {
	const width, height = 512, 300
	n := width / 8
	pattern := func(y int, dst []byte) {
		band := y / 7 // bands of rows, each of runs
		for i := range dst {
			dst[i] = byte(i * 37)
		}
		if band%3 == 2 { // every third band changes every byte: filter None
			for i := range dst {
				dst[i] ^= 0x5a
			}
		}
		dst[band%n] ^= byte(band) // else one byte: filter Up
	}
	start := func(y int) bool { return y%7 == 0 || y%7 == 1 || y%7 == 3 } // runs of 1, 2 and 4
	runLen := func(y int) int {
		for k := y + 1; k < height; k++ {
			if start(k) {
				return k - y
			}
		}
		return height - y
	}
	two := []color.RGBA{{0, 0, 0, 255}, {255, 255, 255, 255}}
	runs := appendPNG(nil, &pngImage{width: width, height: height, depth: 1, palette: two,
		run: func(y int, dst []byte) int { pattern(y, dst); return runLen(y) }})
	rows := appendPNG(nil, &pngImage{width: width, height: height, depth: 1, palette: two,
		row: func(y int, dst []byte) bool {
			if !start(y) {
				return true
			}
			pattern(y, dst)
			return false
		}})
	if !bytes.Equal(runs, rows) {
		t.Fatalf("runs give %d bytes, rows %d", len(runs), len(rows))
	}
	if _, err := png.Decode(bytes.NewReader(runs)); err != nil {
		t.Fatal(err)
	}
}
