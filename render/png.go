package render

import (
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"image/color"
	"sync"

	"github.com/bananaqr/bananaqr/qr"
	"github.com/bananaqr/bananaqr/render/internal/zlib"
)

// PNG returns s drawn as a PNG image, as o says.
func PNG(s *qr.Symbol, o Options) ([]byte, error) { return AppendPNG(nil, s, &o) }

// AppendPNG appends s drawn as a PNG image to dst, as o says: exactly o.Size pixels square,
// every module the same whole number of pixels, deterministic bytes. Square modules in two
// colours make a 1-bit palette image; rounded corners and the logo an 8-bit one of 16
// colours, with anti-aliased shades.
func AppendPNG(dst []byte, s *qr.Symbol, o *Options) ([]byte, error) {
	l, err := prepare(s, o)
	if err != nil {
		return dst, err
	}
	r := rasterizers.Get().(*rasterizer)
	defer rasterizers.Put(r)
	r.start(s, &l, o)
	img := pngImage{width: l.size, height: l.size, depth: r.depth, palette: r.palette, row: r.row}
	if r.depth == 8 {
		img.row, img.patched = nil, &r.rows
	}
	return appendPNG(dst, &img), nil
}

// pngImage describes a paletted image for appendPNG.
type pngImage struct {
	width, height int
	depth         int          // bits per pixel: 1, 2, 4 or 8 (PNG colour type 3, indexed)
	palette       []color.RGBA // at most 1<<depth entries, opaque (alpha ignored; no tRNS)
	// row fills dst, of (width*depth+7)/8 bytes, with the packed pixels of row y, leftmost pixel
	// in the most significant bits (PNG order), or leaves dst untouched and returns true when
	// row y is identical to row y-1 (never for y == 0). It is called for y = 0, 1, …, height-1 in
	// order, always with the same dst buffer, so dst still holds row y-1 when it is called for y.
	row func(y int, dst []byte) (same bool)
	// patched, when set, takes the place of row for images that know each row as changes to the
	// one above (see zlib.Patch).
	patched *patchedRows
}

// patchedRows describes the rows of an image by patches: table is the patch table (entry 0 the
// empty patch) and row returns the placements, in order, of the patches that turn row y−1 into
// row y (none: the same row), where row −1 is all zero.
type patchedRows struct {
	table []*zlib.Patch
	row   func(y int) []zlib.Placement
}

// appendPNG appends the PNG file of img to dst (PNG spec, ISO/IEC 15948 / W3C PNG 3rd ed.):
// signature, IHDR, PLTE, one IDAT, IEND. The output is deterministic.
//
// It trusts row's report of repeated rows: they cost a copy of the row above, whatever their
// bytes. Scanlines get filter type None, or Up when they differ from the row above in few
// places (see filterRow); patched images' scanlines all get type Up (see
// writePatchedScanlines). It panics if img breaks the rules of pngImage.
func appendPNG(dst []byte, img *pngImage) []byte {
	img.check()
	e := pngEncoder{dst: append(dst, pngSignature...), img: img}
	e.writeIHDR()
	e.writePLTE()
	e.writeIDAT()
	e.writeIEND()
	return e.dst
}

// pngSignature opens every PNG file (PNG spec 5.2).
const pngSignature = "\x89PNG\r\n\x1a\n"

// PNG header values (PNG spec 11.2.2) and filter types (9.2).
const (
	colorIndexed = 3 // colour type 3: palette indices
	filterNone   = 0
	filterUp     = 2
)

// check panics unless img can be written.
func (img *pngImage) check() {
	switch {
	case img.width < 1 || img.height < 1 || img.width > 1<<31-1 || img.height > 1<<31-1:
		panic(fmt.Sprintf("render: PNG of %d×%d pixels", img.width, img.height))
	case img.depth != 1 && img.depth != 2 && img.depth != 4 && img.depth != 8:
		panic(fmt.Sprintf("render: PNG bit depth %d", img.depth))
	case len(img.palette) < 1 || len(img.palette) > 1<<img.depth:
		panic(fmt.Sprintf("render: PNG palette of %d colours at depth %d", len(img.palette), img.depth))
	case img.row == nil && img.patched == nil:
		panic("render: PNG without rows")
	}
}

// pngEncoder writes one PNG file, one method per chunk, appending to dst.
type pngEncoder struct {
	dst []byte
	img *pngImage
}

// pngScratch is the memory of writeIDAT, reused through pngScratches.
type pngScratch struct {
	z    *zlib.Writer
	raw  []byte // the row buffer handed to pngImage.row
	prev []byte // the previous row
}

// pngScratches holds pngScratch values between calls of appendPNG.
var pngScratches = sync.Pool{New: func() any { return &pngScratch{z: zlib.NewWriter()} }}

// beginChunk appends a chunk's length, to be filled in by endChunk, and its type (PNG spec 5.3),
// and returns where the chunk starts.
func (e *pngEncoder) beginChunk(typ string) int {
	start := len(e.dst)
	e.dst = append(e.dst, 0, 0, 0, 0)
	e.dst = append(e.dst, typ...)
	return start
}

// endChunk ends the chunk that starts at start: it fills in the length of its data and appends
// the CRC-32 (ISO 3309, the IEEE polynomial) of its type and data (PNG spec 5.3).
func (e *pngEncoder) endChunk(start int) {
	n := len(e.dst) - start - 8
	if n > 1<<31-1 {
		panic("render: PNG chunk longer than 2^31-1 bytes")
	}
	binary.BigEndian.PutUint32(e.dst[start:], uint32(n))
	e.dst = binary.BigEndian.AppendUint32(e.dst, crc32.ChecksumIEEE(e.dst[start+4:]))
}

// writeIHDR writes the image header (PNG spec 11.2.2): width, height, bit depth, colour type 3,
// compression method 0 (zlib), filter method 0 (adaptive) and no interlace.
func (e *pngEncoder) writeIHDR() {
	start := e.beginChunk("IHDR")
	e.dst = binary.BigEndian.AppendUint32(e.dst, uint32(e.img.width))
	e.dst = binary.BigEndian.AppendUint32(e.dst, uint32(e.img.height))
	e.dst = append(e.dst, byte(e.img.depth), colorIndexed, 0, 0, 0)
	e.endChunk(start)
}

// writePLTE writes the palette (PNG spec 11.2.3): red, green and blue of each entry.
func (e *pngEncoder) writePLTE() {
	start := e.beginChunk("PLTE")
	for _, c := range e.img.palette {
		e.dst = append(e.dst, c.R, c.G, c.B)
	}
	e.endChunk(start)
}

// writeIDAT writes the image data (PNG spec 11.2.4) as one chunk: the filtered scanlines
// (7.3, 9), compressed into one zlib stream (10, RFC 1950).
func (e *pngEncoder) writeIDAT() {
	start := e.beginChunk("IDAT")
	sc := pngScratches.Get().(*pngScratch)
	if e.img.patched != nil {
		e.writePatchedScanlines(sc)
	} else {
		e.writeScanlines(sc)
	}
	pngScratches.Put(sc)
	e.endChunk(start)
}

// writeScanlines compresses the image's scanlines into dst. A row that row reports identical to
// the one above, and that would filter to the same bytes, becomes a repeat for the compressor:
// a copy of the row above, without a look at its bytes.
func (e *pngEncoder) writeScanlines(sc *pngScratch) {
	img := e.img
	n := (img.width*img.depth + 7) / 8
	if cap(sc.raw) < n {
		sc.raw, sc.prev = make([]byte, n), make([]byte, n)
	}
	raw, prev := sc.raw[:n], sc.prev[:n]
	clear(raw)
	z := sc.z
	z.Reset(e.dst, 1+n)
	filter, zeros := byte(filterNone), false // the last row's filter; whether it filtered to zeros
	repeats := 0                             // rows that repeat the last row given to z, not yet passed on
	for y := range img.height {
		same := img.row(y, raw) && y > 0
		if same && (filter == filterNone || zeros) {
			repeats++
			continue
		}
		if repeats > 0 {
			z.RepeatRows(repeats)
			repeats = 0
		}
		filter, zeros = filterRow(z.NextRow(), raw, prev, y == 0), same
		z.CommitRow(1 + n)
		if !same {
			copy(prev, raw)
		}
	}
	if repeats > 0 {
		z.RepeatRows(repeats)
	}
	e.dst = z.Finish()
}

// upHead is the first byte of a patched row: its filter type.
var upHead = zlib.NewPatch(0, []byte{filterUp})

// writePatchedScanlines compresses the scanlines of an image that comes as patches: each of filter
// type Up, whose bytes are the patches and zeros.
func (e *pngEncoder) writePatchedScanlines(sc *pngScratch) {
	img := e.img
	z := sc.z
	z.Reset(e.dst, 1+(img.width*img.depth+7)/8)
	z.UsePatches(img.patched.table, upHead)
	for y := range img.height {
		z.PatchRow(img.patched.row(y))
	}
	e.dst = z.Finish()
}

// filterRow puts the filtered scanline of raw, whose row above is prev, in dst: the filter type,
// then the filtered bytes (PNG spec 7.3, 9.2). It takes type Up, which leaves zeros wherever the
// row above shows through, when few of the row's 8-byte words differ from the row above: such a
// row compresses into runs of zeros (distance 1, no extra bits) and a few literals. Otherwise it
// takes type None, so that the row's bytes match earlier rows' (and repeats of it copy it).
func filterRow(dst, raw, prev []byte, first bool) byte {
	if !first && upFilter(dst[1:], raw, prev) {
		dst[0] = filterUp
		return filterUp
	}
	dst[0] = filterNone
	copy(dst[1:], raw)
	return filterNone
}

// upFilter sets dst to raw − prev, bytewise modulo 256 (filter type Up), and reports whether at
// most one in four of the 8-byte words changed; it stops as soon as more did. It
// subtracts 8 bytes at a time: the low 7 bits of each byte without borrowing from the next byte,
// and the top bit as the sum of the two top bits and the borrow.
func upFilter(dst, raw, prev []byte) bool {
	const high = 0x8080808080808080
	allowed := len(raw) / 32 // changed words allowed
	i := 0
	for ; i+8 <= len(raw); i += 8 {
		x, y := binary.LittleEndian.Uint64(raw[i:]), binary.LittleEndian.Uint64(prev[i:])
		if x != y {
			if allowed == 0 {
				return false
			}
			allowed--
		}
		binary.LittleEndian.PutUint64(dst[i:], ((x|high)-(y&^high))^((x^^y)&high))
	}
	for ; i < len(raw); i++ {
		dst[i] = raw[i] - prev[i]
	}
	return true
}

// writeIEND writes the end of the file (PNG spec 11.2.5).
func (e *pngEncoder) writeIEND() {
	e.endChunk(e.beginChunk("IEND"))
}
