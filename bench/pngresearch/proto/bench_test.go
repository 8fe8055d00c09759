package main

import (
	"image"
	"image/png"
	"testing"
)

// BenchmarkTokenize: the square 1024 image, tokenizer (anchors, chain 4 or 1, node DP, two
// passes of costs) + Huffman + bits, from its distinct rows.
func BenchmarkTokenize(b *testing.B) {
	f := openImage(b, "sq1024.png")
	im, _ := png.Decode(f)
	p := im.(*image.Paletted)
	groups, raw, n := scanlines(p, 1, "none")
	for _, cfg := range []struct {
		name  string
		chain int
		iters int
		nodes bool
	}{{"chain2-events-1pass", 2, 1, true}, {"chain2-greedy-1pass", 2, 1, false}} {
		b.Run(cfg.name, func(b *testing.B) {
			t := &tokenizer{mode: "anchor", depth: cfg.chain, keyLen: 8, events: cfg.nodes, greedy: !cfg.nodes, nodeDP: cfg.nodes}
			t.anchors = make([]bool, n)
			t.anchors[0] = true
			for i := 0; i <= 33; i++ {
				x := 116 + i*24
				for _, q := range []int{1 + x/8, 2 + x/8} {
					if q < n {
						t.anchors[q] = true
					}
				}
			}
			var z []byte
			for b.Loop() {
				c := initialCosts()
				for range cfg.iters {
					toks := t.run(groups, n, c)
					z = zlibStream(toks, raw, nil)
					c.lit, c.dist = symCosts(toks)
				}
			}
			b.ReportMetric(float64(len(z)), "IDAT")
		})
	}
}

// BenchmarkLeanParse: the bounded parse alone (sparse events, dominance, chain 2) over the
// distinct rows of the square 1024 image, with the candidates captured from a prototype run.
func BenchmarkLeanParse(b *testing.B) {
	f := openImage(b, "sq1024.png")
	im, _ := png.Decode(f)
	p := im.(*image.Paletted)
	groups, _, n := scanlines(p, 1, "none")
	t := &tokenizer{mode: "anchor", depth: 2, keyLen: 8, events: true, sparse: true, dominate: true}
	t.anchors = make([]bool, n)
	for i := 0; i <= 33; i++ {
		x := 116 + i*24
		t.anchors[1+x/8], t.anchors[2+x/8] = true, true
	}
	c := initialCosts()
	toks := t.run(groups, n, c)
	c.lit, c.dist = symCosts(toks)
	var rows []capturedRow
	capture = &rows
	t.run(groups, n, c)
	capture = nil
	lp := newLeanParser(c)
	ntok := 0
	for b.Loop() {
		ntok = 0
		for i := range rows {
			ntok += len(lp.parse(&rows[i]))
		}
	}
	b.ReportMetric(float64(len(rows)), "rows")
	b.ReportMetric(float64(ntok), "tokens")
	b.ReportMetric(float64(lp.fallbacks)/float64(b.N), "fallbacks")
}
