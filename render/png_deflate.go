package render

import (
	"runtime"
	"sync"
	"weak"

	"github.com/bananaqr/bananaqr/render/internal/deflate"
)

// This file is the one place that wires the PNG writer to its compressor, package deflate: a
// deflate.Writer takes scanlines as rows, and pieces as patches, the filter type Up as their
// head. Nothing else in package render knows the compressor's types.

// deflater holds the PNG writer's compressor in its scratch memory (pngScratch).
type deflater struct{ z *deflateCompressor }

// newDeflater returns a deflater with a compressor of its own.
func newDeflater() deflater { return deflater{&deflateCompressor{Writer: deflate.NewWriter()}} }

// compressor returns the compressor as the PNG writer sees it, a pngCompressor. It is small
// enough to be inlined, so that the compiler sees the concrete type at the writer's calls and
// makes them direct (devirtualized): an interface call for each scanline cost BenchmarkPNG
// about 3 %.
func (d deflater) compressor() pngCompressor { return d.z }

// deflateCompressor is a deflate.Writer as a pngCompressor: its rows are the scanlines (Reset,
// NextRow, CommitRow, RepeatRows, Finish), its patches the pieces (PieceRows).
type deflateCompressor struct {
	*deflate.Writer
	table []*deflate.Patch // scratch: the patches of the sets of PieceRows
}

// upHead is the head of every pieced scanline: its filter type, Up (PNG spec 9.2).
var upHead = deflate.NewPatch(0, []byte{filterUp})

// PieceRows adds the scanlines of an image that comes as pieces (see pngCompressor): the filter
// type, then zeros but for the pieces, is a row of patches after the head. A band's rows come
// compressed once, as a segment (see segmentOf).
func (c *deflateCompressor) PieceRows(rows *piecedRows, height int) {
	c.table = c.table[:0]
	for _, s := range rows.sets {
		c.table = append(c.table, patchesOf(s)...)
	}
	c.UsePatches(c.table, upHead)
	y := 0
	for _, b := range rows.bands {
		for ; y < b.first; y++ {
			c.PatchRow(rows.row(y))
		}
		c.PutSegment(segmentOf(b, c.RowLen()))
		y += b.rows
	}
	for ; y < height; y++ {
		c.PatchRow(rows.row(y))
	}
}

// A weakTable is part of the compressor's own dictionary: its form of values of package render
// that are made once (pieceSet, pieceBand), kept for as long as the value lives, so that it is
// worked out once.
type weakTable[K, V any] struct {
	sync.Mutex
	m map[weak.Pointer[K]]V
}

// get returns the compressor's form of k, from t or made by build and kept there.
func (t *weakTable[K, V]) get(k *K, build func(*K) V) V {
	key := weak.Make(k)
	t.Lock()
	v, ok := t.m[key]
	t.Unlock()
	if ok {
		return v
	}
	v = build(k)
	t.Lock()
	defer t.Unlock()
	if old, ok := t.m[key]; ok {
		return old
	}
	if t.m == nil {
		t.m = make(map[weak.Pointer[K]]V)
	}
	t.m[key] = v
	runtime.AddCleanup(k, t.forget, key)
	return v
}

// forget drops the form of a value that is gone.
func (t *weakTable[K, V]) forget(key weak.Pointer[K]) {
	t.Lock()
	delete(t.m, key)
	t.Unlock()
}

// patchTables holds the patches of each pieceSet, so that a set's tokens and sums are worked out
// once.
var patchTables weakTable[pieceSet, []*deflate.Patch]

// patchesOf returns the patches of the pieces of s: deflate.EmptyPatch for an empty piece.
func patchesOf(s *pieceSet) []*deflate.Patch {
	return patchTables.get(s, func(s *pieceSet) []*deflate.Patch {
		t := make([]*deflate.Patch, len(s.list))
		for i, p := range s.list {
			t[i] = deflate.EmptyPatch
			if len(p.diff) > 0 {
				t[i] = deflate.NewPatch(p.offset, p.diff)
			}
		}
		return t
	})
}

// segmentTables holds the rows of each pieceBand compressed, so that a band's rows are compressed
// once.
var segmentTables weakTable[pieceBand, *deflate.Segment]

// segmentOf returns the rows of band b, scanlines of rowLen bytes, compressed as a segment: the
// filter type Up, as each row's head, then zeros but for the pieces of the band's set.
func segmentOf(b *pieceBand, rowLen int) *deflate.Segment {
	return segmentTables.get(b, func(b *pieceBand) *deflate.Segment {
		return deflate.NewSegment(rowLen, patchesOf(b.set), upHead, b.rows, b.row)
	})
}
