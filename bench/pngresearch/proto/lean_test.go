package main

import (
	"image"
	"image/png"
	"testing"
)

// TestLeanParse checks that the lean parse covers each row exactly, that its copies are the
// candidates' (inside one), and compares its token count with parseEvents'.
func TestLeanParse(t *testing.T) {
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
	c := initialCosts()
	var rows []capturedRow
	capture = &rows
	tk.run(groups, n, c)
	capture = nil
	lp := newLeanParser(c)
	total := 0
	for ri := range rows {
		r := &rows[ri]
		out := lp.parse(r)
		total += len(out)
		pos := len(r.row)
		for _, x := range out {
			l := 1
			if x.dist != 0 {
				l = int(x.len)
				s := pos - l
				ok := false
				for _, cd := range r.cands {
					if cd.d == int(x.dist) && cd.s <= s && pos <= cd.e {
						ok = true
					}
				}
				if !ok {
					t.Fatalf("row %d: copy [%d,%d) at %d in no candidate", ri, s, pos, x.dist)
				}
			} else if r.row[pos-1] != x.lit {
				t.Fatalf("row %d: literal %d at %d, want %d", ri, x.lit, pos-1, r.row[pos-1])
			}
			pos -= l
		}
		if pos != 0 {
			t.Fatalf("row %d: tokens cover %d bytes of %d", ri, len(r.row)-pos, len(r.row))
		}
	}
	t.Logf("rows %d, lean tokens %d", len(rows), total)
}
