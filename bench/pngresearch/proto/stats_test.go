package main

import (
	"image"
	"image/png"
	"testing"
)

func TestCandStats(t *testing.T) {
	f := openImage(t, "sq1024.png")
	im, _ := png.Decode(f)
	p := im.(*image.Paletted)
	groups, _, n := scanlines(p, 1, "none")
	tk := &tokenizer{mode: "anchor", depth: 2, keyLen: 8, events: true, sparse: true, dominate: true}
	tk.anchors = make([]bool, n)
	for i := 0; i <= 33; i++ {
		x := 116 + i*24
		tk.anchors[1+x/8], tk.anchors[2+x/8] = true, true
	}
	var rows []capturedRow
	capture = &rows
	tk.run(groups, n, initialCosts())
	capture = nil
	tot, long := 0, 0
	for _, r := range rows {
		tot += len(r.cands)
		for _, c := range r.cands {
			long += c.e - c.s
		}
	}
	t.Logf("rows %d candidates %d (%.1f a row), mean length %.1f", len(rows), tot, float64(tot)/float64(len(rows)), float64(long)/float64(tot))
}
