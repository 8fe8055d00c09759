package deflate

import (
	"encoding/binary"
	"slices"
	"sync"
)

// This file lets rows of patches that recur in many streams be compressed once: a Segment is
// such rows as whole DEFLATE blocks (RFC 1951 3.2.3), which PutSegment copies into a stream bit
// for bit. A block may start at any bit (3.1.1), so the copy needs no alignment; it needs only
// that the segment's matches reach no further back than its start, which rows of patches
// ensure: their zeros and runs are literals, then matches at distance 1 (3.2.5). The Adler-32
// (RFC 1950 8.2) takes the segment's sums as those of one long row (see addRowSums).

// A Segment is rows of patches compressed once, to be put in many streams (see PutSegment). It
// is read-only once made, and shared between streams and goroutines.
type Segment struct {
	rowLen int    // bytes per row
	bits   []byte // the blocks, none final, least significant bit first; the high bits past nbits zero
	nbits  int
	n      int    // the bytes the rows hold, uncompressed
	s, w   uint32 // their Adler-32 sums (see adlerSums)
}

// segmentWriters holds the Writers that make Segments: a Writer is large.
var segmentWriters = sync.Pool{New: func() any { return NewWriter() }}

// NewSegment compresses rows rows of rowLen bytes, each the head and then zeros but for the
// patches of table that row(i) places in row i (as UsePatches and PatchRow take them), into a
// Segment.
func NewSegment(rowLen int, table []*Patch, head *Patch, rows int, row func(i int) (anchors []int32, entries []uint16)) *Segment {
	z := segmentWriters.Get().(*Writer)
	defer segmentWriters.Put(z)
	z.Reset(nil, rowLen)
	header := 8 * len(z.bw.dst) // the zlib header that Reset wrote: not the segment's
	z.UsePatches(table, head)
	z.PatchRows(rows, row)
	z.flushZeros()
	z.writeBlock(false)
	nbits := 8*len(z.bw.dst) + int(z.bw.n) - header
	z.bw.align()
	n := rows * rowLen
	seg := &Segment{
		rowLen: rowLen,
		bits:   slices.Clone(z.bw.dst[header/8:]),
		nbits:  nbits,
		n:      n,
		// The stream's sums began at A = 1, B = 0: the rows added s to A, and n·1 + w to B.
		s: (z.adlerA + adlerMod - 1) % adlerMod,
		w: (z.adlerB + adlerMod - uint32(n%adlerMod)) % adlerMod,
	}
	z.bw.dst = nil
	return seg
}

// PutSegment adds the rows of seg, in a stream of rows of patches (see UsePatches) of the same
// row length: it ends the block so far, then copies the segment's blocks.
func (z *Writer) PutSegment(seg *Segment) {
	if seg.rowLen != z.rowLen {
		panic("deflate: segment of another row length")
	}
	z.flushZeros()
	if z.pendLen > 0 {
		z.flushMatch()
	}
	if z.ntok > 0 {
		z.writeBlock(false)
	}
	z.addRepeats()
	z.bw.putBits(seg.bits, seg.nbits)
	z.addRowSums(seg.n, seg.s, seg.w)
	z.bareRow = false
}

// putBits writes the first n bits of bits, least significant first: 64 at a time, each shifted
// past the bits in acc as put does, into room made once.
func (b *bitWriter) putBits(bits []byte, n int) {
	words := n / 64
	at := len(b.dst)
	b.dst = slices.Grow(b.dst, 8*words+(n%64+7)/8+8)[:at+8*words]
	acc, k := b.acc, b.n
	for i := range words {
		v := binary.LittleEndian.Uint64(bits[8*i:])
		binary.LittleEndian.PutUint64(b.dst[at+8*i:], acc|v<<k)
		acc = v >> (64 - k) // 0 when k is 0: Go shifts by 64 give 0
	}
	b.acc = acc
	bits = bits[8*words:]
	for n -= 64 * words; n > 0; n -= min(n, 8) {
		b.put(uint64(bits[0])&(1<<min(n, 8)-1), uint(min(n, 8)))
		bits = bits[1:]
	}
}
