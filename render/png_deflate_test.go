package render

import (
	"go/parser"
	"go/token"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
	"weak"

	"github.com/bananaqr/bananaqr/render/internal/deflate"
)

// TestCompressorWiredOnce checks that one file of package render, png_deflate.go, knows the
// compressor: no other file (the rasteriser, the PNG writer) imports render/internal/deflate.
func TestCompressorWiredOnce(t *testing.T) {
	const internal = "github.com/bananaqr/bananaqr/render/internal/deflate"
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	var importers []string
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(token.NewFileSet(), name, nil, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		for _, imp := range f.Imports {
			if path, _ := strconv.Unquote(imp.Path.Value); path == internal {
				importers = append(importers, name)
			}
		}
	}
	if want := []string{"png_deflate.go"}; !slices.Equal(importers, want) {
		t.Errorf("files importing %s: %v, want %v", internal, importers, want)
	}
}

// TestPatchTables checks the compressor's dictionary of piece sets: a set's patches are made
// once, an empty piece is deflate.EmptyPatch, and the entry goes when the set does.
func TestPatchTables(t *testing.T) {
	set := &pieceSet{list: []piece{{}, {offset: 2, diff: []byte{1, 2, 3}}, {}, {diff: []byte{9}}}}
	first, again := patchesOf(set), patchesOf(set)
	if len(first) != len(set.list) || &first[0] != &again[0] {
		t.Fatalf("patches of %d pieces: %d, made again: %v", len(set.list), len(first), &first[0] != &again[0])
	}
	for i, p := range set.list {
		if empty := first[i] == deflate.EmptyPatch; empty != (len(p.diff) == 0) {
			t.Errorf("piece %d of %d bytes: empty patch %v", i, len(p.diff), empty)
		}
	}
	key := weak.Make(set)
	runtime.KeepAlive(set)
	set = nil
	for range 200 {
		runtime.GC()
		patchTables.Lock()
		_, kept := patchTables.m[key]
		patchTables.Unlock()
		if !kept {
			return
		}
		time.Sleep(time.Millisecond)
	}
	t.Error("the patches of a set that is gone are still kept")
}
