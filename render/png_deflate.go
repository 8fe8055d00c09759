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
// type, then zeros but for the pieces, is a row of patches after the head.
func (c *deflateCompressor) PieceRows(rows *piecedRows, height int) {
	c.table = c.table[:0]
	for _, s := range rows.sets {
		c.table = append(c.table, patchesOf(s)...)
	}
	c.UsePatches(c.table, upHead)
	c.PatchRows(height, rows.row)
}

// patchTables is the compressor's own dictionary: the patches of each pieceSet, kept for as
// long as the set lives, so that a set's tokens and sums are worked out once.
var patchTables = struct {
	sync.Mutex
	m map[weak.Pointer[pieceSet]][]*deflate.Patch
}{m: make(map[weak.Pointer[pieceSet]][]*deflate.Patch)}

// patchesOf returns the patches of the pieces of s, from patchTables or made and kept there:
// deflate.EmptyPatch for an empty piece.
func patchesOf(s *pieceSet) []*deflate.Patch {
	key := weak.Make(s)
	patchTables.Lock()
	t, ok := patchTables.m[key]
	patchTables.Unlock()
	if ok {
		return t
	}
	t = make([]*deflate.Patch, len(s.list))
	for i, p := range s.list {
		t[i] = deflate.EmptyPatch
		if len(p.diff) > 0 {
			t[i] = deflate.NewPatch(p.offset, p.diff)
		}
	}
	patchTables.Lock()
	defer patchTables.Unlock()
	if old, ok := patchTables.m[key]; ok {
		return old
	}
	patchTables.m[key] = t
	runtime.AddCleanup(s, forgetPatches, key)
	return t
}

// forgetPatches drops the patches of a set that is gone from patchTables.
func forgetPatches(key weak.Pointer[pieceSet]) {
	patchTables.Lock()
	delete(patchTables.m, key)
	patchTables.Unlock()
}
