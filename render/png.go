package render

import (
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"image/color"
	"sync"

	"github.com/bananaqr/bananaqr/qr"
)

// PNG returns s drawn as a PNG image, as o says.
func PNG(s *qr.Symbol, o Options) ([]byte, error) { return AppendPNG(nil, s, &o) }

// AppendPNG appends s drawn as a PNG image to dst, as o says: exactly o.Size pixels square,
// every module the same whole number of pixels, deterministic bytes. Square modules in two
// colours make a 1-bit palette image; rounded corners, the logo and words an 8-bit one of 16
// colours, with anti-aliased shades.
func AppendPNG(dst []byte, s *qr.Symbol, o *Options) ([]byte, error) {
	l, err := prepare(s, o)
	if err != nil {
		return dst, err
	}
	r := rasterizers.Get().(*rasterizer)
	defer func() {
		r.words = nil // the pool keeps no words: a layout's words not cached could be large
		rasterizers.Put(r)
	}()
	r.start(s, &l, o)
	img := pngImage{width: l.size, height: l.size, depth: r.depth, palette: r.palette, run: r.squareRun}
	if r.depth == 8 {
		img.row, img.pieced = nil, &r.rows
		if r.wordsFirst > 0 { // the words' rows, among the symbol's pieces (words_png.go)
			r.rows.bands = r.words.pieceBands
		}
	}
	if o.Logo == SwissCross { // square corners and no words, so depth 1 (checkCross)
		r.cross = newPixelCross(&l)
		img.row, img.run = r.crossRow, nil
	}
	if r.overlaid { // words the pieces cannot carry (words_png.go)
		img.row, img.pieced = r.overlayRow, nil
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
	// run, when set, takes the place of row for images that know their runs of identical rows:
	// it fills dst with the packed pixels of row y and returns how many rows from y on are the
	// same (at least 1). It is called for the first row of each run, in order, so that a run
	// costs one row drawn, whatever its length.
	run func(y int, dst []byte) (rows int)
	// pieced, when set, takes the place of row for images that know each row as pieces on the
	// one above (see piecedRows).
	pieced *piecedRows
}

// A piece is a stretch of a scanline of filter type Up (PNG spec 9.2) where its row differs
// from the row above: the bytewise differences modulo 256, first and last not zero. The empty
// piece changes nothing.
type piece struct {
	offset int    // where diff starts, in bytes from the anchor the piece is placed at
	diff   []byte // the differences; none for the empty piece
}

// A pieceSet is a list of pieces, made once and then read-only, shared between images and
// goroutines: the compressor may keep its own form of a set for as long as the set lives.
type pieceSet struct {
	list []piece
}

// piecedRows describes the rows of an image by pieces: sets are the pieces used, numbered in
// order across the sets (entry 0, of the first set, the empty piece, and at most 4095 entries
// in all), and row returns the pieces that turn row y−1 into row y (row −1 is all zero):
// piece pieces[i] at anchors[i], for each i, in order and not overlapping; none when the two
// rows are the same. A piece placed at anchor a puts its diff at byte a + offset of the row,
// so at byte 1 + a + offset of the scanline, after its filter type (PNG spec 7.3); at depth 8,
// byte x of the row is pixel x.
type piecedRows struct {
	sets []*pieceSet
	row  func(y int) (anchors []int32, pieces []uint16)
	// bands, in order down the image and apart, are stretches of rows whose pieces the
	// compressor may take from the band instead of row: the same pieces, numbered in the band's
	// own set.
	bands []*pieceBand
}

// A pieceBand is a stretch of rows of an image that comes as pieces, rows first to
// first+rows−1, whose pieces depend on nothing else in the image: row(i) returns those of row
// first+i, numbered in set (entry 0 the empty piece, at most 4095 entries). A band is made once
// for images of one width and then read-only, shared like a pieceSet: the compressor may
// compress its rows once, and keep them for as long as the band lives.
type pieceBand struct {
	first, rows int
	set         *pieceSet
	row         func(i int) (anchors []int32, pieces []uint16)
}

// A pngCompressor turns the filtered scanlines of an image (PNG spec 7.3, 9) into a zlib stream
// (PNG spec 10, RFC 1950): scanlines in, bytes out. Repetition is declared, never searched for
// by the writer: a scanline repeats the one before (RepeatRows), or is made of known pieces
// (PieceRows). A pngCompressor is reused, one image at a time.
type pngCompressor interface {
	// Reset starts a stream, appended to dst, of scanlines of n bytes: the filter type, then
	// the filtered bytes.
	Reset(dst []byte, n int)
	// NextRow returns the buffer, of n bytes, that the caller fills with the next scanline
	// before CommitRow.
	NextRow() []byte
	// CommitRow adds the first m bytes of NextRow's buffer as a scanline: m is n, or less for a
	// final short scanline.
	CommitRow(m int)
	// RepeatRows adds k copies of the last scanline.
	RepeatRows(k int)
	// PieceRows adds the scanlines of an image that comes as pieces (see piecedRows): each of
	// filter type Up, its bytes after the filter type zeros but for the pieces that rows.row
	// places, for y = 0, 1, …, height−1; the rows of rows.bands it may take from the bands,
	// compressed once for as long as a band lives.
	PieceRows(rows *piecedRows, height int)
	// Finish ends the stream and returns dst with the stream appended.
	Finish() []byte
}

// appendPNG appends the PNG file of img to dst (PNG spec, ISO/IEC 15948 / W3C PNG 3rd ed.):
// signature, IHDR, PLTE, one IDAT, IEND. The output is deterministic.
//
// It trusts row's report of repeated rows: they cost a copy of the row above, whatever their
// bytes. Scanlines get filter type None, or Up when they differ from the row above in few
// places (see filterRow); pieced images' scanlines all get type Up (see
// writePiecedScanlines). It panics if img breaks the rules of pngImage.
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
	case img.row == nil && img.run == nil && img.pieced == nil:
		panic("render: PNG without rows")
	}
}

// pngEncoder writes one PNG file, one method per chunk, appending to dst.
type pngEncoder struct {
	dst []byte
	img *pngImage
}

// pngScratch is the memory of writeIDAT, reused through pngScratches: the compressor, which
// the writer reaches through compressor (png_deflate.go), and the row buffers.
type pngScratch struct {
	deflater        // the compressor that png_deflate.go wires
	raw      []byte // the row buffer handed to pngImage.row
	prev     []byte // the previous row
}

// pngScratches holds pngScratch values between calls of appendPNG.
var pngScratches = sync.Pool{New: func() any { return &pngScratch{deflater: newDeflater()} }}

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
	switch {
	case e.img.pieced != nil:
		e.writePiecedScanlines(sc)
	case e.img.run != nil:
		e.writeRuns(sc)
	default:
		e.writeScanlines(sc)
	}
	pngScratches.Put(sc)
	e.endChunk(start)
}

// start readies the scratch memory for the image's rows, of n bytes (the filter type apart): the
// row buffer and the previous row's, and the compressor, its stream begun after dst.
func (e *pngEncoder) start(sc *pngScratch) (n int, raw, prev []byte, z pngCompressor) {
	n = (e.img.width*e.img.depth + 7) / 8
	if cap(sc.raw) < n {
		sc.raw, sc.prev = make([]byte, n), make([]byte, n)
	}
	z = sc.compressor()
	z.Reset(e.dst, 1+n)
	return n, sc.raw[:n], sc.prev[:n], z
}

// writeScanlines compresses the image's scanlines into dst. A row that row reports identical to
// the one above, and that would filter to the same bytes, becomes a repeat for the compressor:
// a copy of the row above, without a look at its bytes.
func (e *pngEncoder) writeScanlines(sc *pngScratch) {
	img := e.img
	n, raw, prev, z := e.start(sc)
	clear(raw)
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

// writeRuns compresses the scanlines of an image that knows its runs of identical rows, as
// writeScanlines would, without asking for the rows of a run after its first: the first is
// filtered (filterRow), the next is the same filtered Up when the first was (zeros), and the
// others repeat the one before.
func (e *pngEncoder) writeRuns(sc *pngScratch) {
	img := e.img
	n, raw, prev, z := e.start(sc)
	for y := 0; y < img.height; {
		rows := min(img.run(y, raw), img.height-y)
		filter := filterRow(z.NextRow(), raw, prev, y == 0)
		z.CommitRow(1 + n)
		if rows > 1 && filter == filterUp {
			zeros := z.NextRow()
			zeros[0] = filterUp
			clear(zeros[1:])
			z.CommitRow(1 + n)
		}
		if repeats := rows - 1 - b2i(filter == filterUp); repeats > 0 {
			z.RepeatRows(repeats)
		}
		copy(prev, raw)
		y += rows
	}
	e.dst = z.Finish()
}

// writePiecedScanlines compresses the scanlines of an image that comes as pieces: each of filter
// type Up, whose bytes are the pieces and zeros.
func (e *pngEncoder) writePiecedScanlines(sc *pngScratch) {
	img := e.img
	z := sc.compressor()
	z.Reset(e.dst, 1+(img.width*img.depth+7)/8)
	z.PieceRows(img.pieced, img.height)
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
// subtracts 8 bytes at a time (subBytes).
func upFilter(dst, raw, prev []byte) bool {
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
		binary.LittleEndian.PutUint64(dst[i:], subBytes(x, y))
	}
	for ; i < len(raw); i++ {
		dst[i] = raw[i] - prev[i]
	}
	return true
}

// subBytes returns the eight bytes of x less those of y, lane by lane modulo 256: the low 7 bits
// of each byte without borrowing from the next byte, and the top bit as the sum of the two top
// bits and the borrow.
func subBytes(x, y uint64) uint64 {
	const high = 0x8080808080808080
	return ((x | high) - (y &^ high)) ^ ((x ^ ^y) & high)
}

// diffBytes sets dst to cur − prev, bytewise modulo 256 (filter type Up), 8 bytes at a time.
func diffBytes(dst, cur, prev []byte) {
	i := 0
	for ; i+8 <= len(cur); i += 8 {
		x, y := binary.LittleEndian.Uint64(cur[i:]), binary.LittleEndian.Uint64(prev[i:])
		binary.LittleEndian.PutUint64(dst[i:], subBytes(x, y))
	}
	for ; i < len(cur); i++ {
		dst[i] = cur[i] - prev[i]
	}
}

// writeIEND writes the end of the file (PNG spec 11.2.5).
func (e *pngEncoder) writeIEND() {
	e.endChunk(e.beginChunk("IEND"))
}
