// Command pngproto is a prototype for issue 33: a module-aware DEFLATE tokenizer for the PNGs
// of render.AppendPNG. It reads a PNG (ours or zopflipng's), rebuilds its scanlines at a chosen
// bit depth and filter, tokenizes them (candidates from runs, the row above, a hash over
// anchor positions, optimal parse per distinct row), writes one zlib stream and checks that it
// decodes to the scanlines. Usage: pngproto -depth 1 -mode anchor -k 24 -origin 116 file.png
package main

import (
	"bytes"
	"compress/zlib"
	"encoding/binary"
	"flag"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"io"
	"math"
	"os"
)

type group struct {
	row  []byte // scanline, filter byte first
	reps int    // copies after the first
}

// scanlines returns img's rows at depth bits (palette indices must fit), filtered by filter
// ("none", "up": Up for every row but the first), grouped into runs of equal rows.
func scanlines(p *image.Paletted, depth int, filter string) (groups []group, raw []byte, n int) {
	w, h := p.Rect.Dx(), p.Rect.Dy()
	rb := (w*depth + 7) / 8
	n = 1 + rb
	prev := make([]byte, rb)
	for y := range h {
		cur := make([]byte, rb)
		for x := range w {
			v := p.Pix[y*p.Stride+x]
			if int(v) >= 1<<depth {
				panic("palette too large for depth")
			}
			bit := x * depth
			cur[bit/8] |= v << (8 - depth - bit%8)
		}
		line := make([]byte, n)
		diff := 0
		for i := range cur {
			if cur[i] != prev[i] {
				diff++
			}
		}
		if y > 0 && (filter == "up" || filter == "auto" && diff > 0 && diff*4 <= rb || filter == "repup" && diff == 0) {
			line[0] = 2
			for i := range cur {
				line[1+i] = cur[i] - prev[i]
			}
		} else {
			copy(line[1:], cur)
		}
		if filter == "min" && y > 0 {
			// the filter (None, Sub, Up) whose bytes change least often: fewest tokens
			score := func(l []byte) int {
				s := 0
				for i := 2; i < len(l); i++ {
					if l[i] != l[i-1] {
						s++
					}
				}
				return s
			}
			up := make([]byte, n)
			sub := make([]byte, n)
			up[0], sub[0] = 2, 1
			for i := range cur {
				up[1+i] = cur[i] - prev[i]
				sub[1+i] = cur[i]
				if i > 0 {
					sub[1+i] = cur[i] - cur[i-1]
				}
			}
			best, bs := line, score(line)
			if s := score(up); s <= bs {
				best, bs = up, s
			}
			if s := score(sub); s < bs {
				best, bs = sub, s
			}
			line = best
		}
		prev = cur
		raw = append(raw, line...)
		if len(groups) > 0 && bytes.Equal(groups[len(groups)-1].row, line) {
			groups[len(groups)-1].reps++
		} else {
			groups = append(groups, group{row: line})
		}
	}
	return
}

type costs struct {
	lit  [286]float64
	dist [30]float64
}

func initialCosts() *costs {
	c := &costs{}
	for s := range c.lit {
		c.lit[s] = 8
		if s > 256 {
			c.lit[s] = 6
		}
	}
	c.lit[285] = 2
	for d := range c.dist {
		c.dist[d] = 5
	}
	c.dist[0] = 3
	return c
}

func (c *costs) match(l, d int) float64 {
	lc := lenCode[l]
	dc := distCode(d)
	return c.lit[257+lc] + float64(lenExtra[lc]) + c.dist[dc] + float64(distExtra[dc])
}

type cand struct{ s, e, d int } // match of content [s,e) at stream distance d

type tokenizer struct {
	mode    string // "all", "anchor", "column", "runs"
	depth   int    // hash chain depth
	anchors []bool // per byte of a row: may a hashed match start here
	// stats
	lookups, inserts, matchCalls, dpEdges int
	keyLen                                int // bytes hashed (3..8)
	greedy                                bool
	nodeDP                                bool
	nodes, edges                          int
	changesOnly, pruneEdges, coarse       bool
	events, sparse, dominate              bool
	split                                 bool  // blocks: top quiet zone, symbol, bottom quiet zone
	splits                                []int // token counts of the blocks
}

func matchLen(a, b []byte) int {
	n := 0
	for n < len(a) && a[n] == b[n] {
		n++
	}
	return n
}

// run tokenizes groups with costs c.
func (t *tokenizer) run(groups []group, n int, c *costs) []tok {
	var content []byte
	var toks []tok
	table := map[uint64][]int{}
	lastCopy := []int{}
	streamRows := 0
	pend := tok{} // pending match to merge
	emit := func(x tok) {
		if x.dist != 0 && pend.dist == x.dist {
			pend.len += x.len
			return
		}
		if pend.dist != 0 {
			toks = appendMatch(toks, int(pend.len), int(pend.dist))
			pend = tok{}
		}
		if x.dist != 0 {
			pend = x
			return
		}
		toks = append(toks, x)
	}
	t.splits = t.splits[:0]
	mark := 0
	for j, g := range groups {
		if t.split && (j == 1 || j == len(groups)-1) {
			if pend.dist != 0 {
				toks = appendMatch(toks, int(pend.len), int(pend.dist))
				pend = tok{}
			}
			t.splits = append(t.splits, len(toks)-mark)
			mark = len(toks)
		}
		p0 := len(content)
		content = append(content, g.row...)
		end := len(content)
		// stream distance of content position src (< p) for a match at p
		sdist := func(src, p int) int {
			if src >= p0-n {
				return p - src
			}
			r := src / n
			return (streamRows-lastCopy[r])*n + (p - p0) - (src - r*n)
		}
		var cands []cand
		addCand := func(src, p int) {
			d := sdist(src, p)
			if d > 32768 || d < 1 {
				return
			}
			for _, cd := range cands { // already known: the same copy, found at an earlier anchor
				if cd.d == d && cd.s <= p && p < cd.e {
					return
				}
			}
			t.matchCalls++
			l := matchLen(content[p:end], content[src:])
			if l < 3 {
				return
			}
			// backward, within the source's row (content and stream agree there)
			s := p
			for s > p0 && src-(p-s) > (src/n)*n && content[s-1] == content[src-(p-s)-1] {
				s--
			}
			cands = append(cands, cand{s, p + l, d})
		}
		if j > 0 && n <= 32768 {
			t.matchCalls++
			// the row above, as runs of equal bytes at distance n
			for p := p0; p < end; {
				if content[p] != content[p-n] {
					p++
					continue
				}
				q := p
				for q < end && content[q] == content[q-n] {
					q++
				}
				if q-p >= 3 {
					cands = append(cands, cand{p, q, n})
				}
				p = q
			}
		}
		key := func(p int) (uint64, bool) {
			if p+8 > end {
				return 0, false
			}
			x := binary.LittleEndian.Uint64(content[p:])
			if x == x>>8|x<<56 { // a run
				return 0, false
			}
			return x << (64 - 8*t.keyLen), true
		}
		for p := p0; p < end; p++ {
			if t.mode == "runs" || (t.mode != "all" && !t.anchors[p-p0]) {
				continue
			}
			if t.mode == "column" {
				for r := j - 2; r >= 0; r-- {
					src := r*n + (p - p0)
					if sdist(src, p) > 32768 {
						break
					}
					if binary.LittleEndian.Uint64(content[src:]) == binary.LittleEndian.Uint64(content[p:min(p+8, len(content))]) || true {
						if content[src] == content[p] {
							addCand(src, p)
						}
					}
				}
				continue
			}
			x, ok := key(p)
			if !ok {
				continue
			}
			t.lookups++
			lst := table[x]
			for i := len(lst) - 1; i >= 0 && i >= len(lst)-t.depth; i-- {
				addCand(lst[i], p)
			}
			t.inserts++
			table[x] = append(lst, p)
		}
		if t.events {
			t.parseEvents(content, p0, end, cands, c, pend, emit)
		} else if t.nodeDP {
			t.parseNodes(content, p0, end, cands, c, pend, emit)
		} else {
			// optimal parse of the row
			L := end - p0
			cost := make([]float64, L+1)
			from := make([]tok, L+1)
			for i := 1; i <= L; i++ {
				cost[i] = math.Inf(1)
			}
			runLen := make([]int, L+1)
			for i := L - 1; i >= 0; i-- {
				p := p0 + i
				if p > 0 && content[p] == content[p-1] {
					runLen[i] = 1 + runLen[i+1]
				}
			}
			relax := func(i, l, d int) {
				t.dpEdges++
				cc := cost[i]
				if d == int(pend.dist) && i == 0 {
					cc += 0 // continues the pending match: its length was paid
					cc += c.match(min(l, 258), d) * 0.1
				} else {
					cc += c.match(min(l, 258), d)
				}
				if l > 258 {
					cc += float64(l/258) * c.match(258, d)
				}
				if cc < cost[i+l] {
					cost[i+l] = cc
					from[i+l] = tok{len: int32(l), dist: int32(d)}
				}
			}
			lens := func(i, maxL, d int) {
				for lc := 0; lc < 29; lc++ {
					b := lenBase[lc]
					if b > maxL {
						break
					}
					l := min(maxL, b+1<<lenExtra[lc]-1)
					if lc == 28 {
						l = 258
					}
					relax(i, min(l, maxL), d)
				}
				if maxL > 258 {
					relax(i, maxL, d)
				}
			}
			for i := 0; i < L; i++ {
				if math.IsInf(cost[i], 1) {
					continue
				}
				b := content[p0+i]
				if cc := cost[i] + c.lit[b]; cc < cost[i+1] {
					cost[i+1] = cc
					from[i+1] = tok{lit: b}
				}
				if runLen[i] >= 3 || (i == 0 && pend.dist == 1 && runLen[i] >= 1) {
					lens(i, runLen[i], 1)
				}
				for _, cd := range cands {
					if cd.s <= p0+i && p0+i < cd.e && cd.e-(p0+i) >= 3 {
						lens(i, cd.e-(p0+i), cd.d)
					}
				}
			}
			if t.greedy {
				// greedy: at each position the candidate (run, row above, hashed) that saves the
				// most bits by the costs, else a literal; a match stops early at an anchor when a
				// longer one starts there (one look ahead, at anchors only).
				gain := func(i int) (bl, bd int, bg float64) {
					try := func(l, d int) {
						if l < 3 {
							return
						}
						l = min(l, 258)
						g := float64(l)*8 - c.match(l, d)
						if i == 0 && d == int(pend.dist) {
							g += 8
						}
						if g > bg {
							bl, bd, bg = l, d, g
						}
					}
					t.dpEdges++
					try(runLen[i], 1)
					for _, cd := range cands {
						if cd.s <= p0+i && p0+i < cd.e {
							t.dpEdges++
							try(cd.e-(p0+i), cd.d)
						}
					}
					return
				}
				for i := 0; i < L; {
					l, d, g := gain(i)
					if l > 0 && l < 8 && i+1 < L {
						if _, _, g2 := gain(i + 1); g2 > g {
							l = 0 // lazy: a literal, then the better match
						}
					}
					if l == 0 {
						emit(tok{lit: content[p0+i]})
						i++
						continue
					}
					emit(tok{len: int32(l), dist: int32(d)})
					i += l
				}
				goto done
			}
			{
				var rt []tok
				for i := L; i > 0; {
					f := from[i]
					rt = append(rt, f)
					if f.dist == 0 {
						i--
					} else {
						i -= int(f.len)
					}
				}
				for i := len(rt) - 1; i >= 0; i-- {
					emit(rt[i])
				}
			}
		}
	done:
		if len(lastCopy) == 0 && false {
		}
		lastCopy = append(lastCopy, streamRows)
		streamRows++
		if g.reps > 0 {
			d := n
			if isConst(content[p0:end]) {
				d = 1 // a constant row
			}
			if d == n && g.row[0] == 2 && isConst(g.row[1:]) && g.row[1] == 0 {
				// an Up row of zeros, repeated: each its filter type, then a run of zeros
				// (distance 1), cheaper than copies at distance n when n is long
				for range g.reps {
					emit(tok{lit: 2})
					emit(tok{lit: 0})
					emit(tok{len: int32(n - 2), dist: 1})
				}
			} else {
				emit(tok{len: int32(g.reps * n), dist: int32(d)})
			}
			streamRows += g.reps
			lastCopy[len(lastCopy)-1] = streamRows - 1
		}
	}
	emit(tok{lit: 0, dist: 0, len: -1}) // flush
	toks = toks[:len(toks)-1]
	if t.split {
		t.splits = append(t.splits, len(toks)-mark)
	}
	return toks
}

// appendMatch appends a match of l bytes at distance d as tokens of at most 258, none below 3.
func appendMatch(toks []tok, l, d int) []tok {
	for l > 0 {
		c := l
		if l > 258 {
			c = 258
			if l-258 < 3 {
				c = l - 3
			}
		}
		toks = append(toks, tok{len: int32(c), dist: int32(d)})
		l -= c
	}
	return toks
}

func main() {
	depth := flag.Int("depth", 1, "bit depth")
	filter := flag.String("filter", "none", "none or up")
	mode := flag.String("mode", "anchor", "all, anchor, column, runs")
	chain := flag.Int("chain", 8, "hash chain depth")
	k := flag.Int("k", 0, "module pixels (anchor mode)")
	origin := flag.Int("origin", 0, "first module pixel (anchor mode)")
	nmod := flag.Int("n", 33, "modules a side")
	iters := flag.Int("iters", 3, "parse iterations")
	out := flag.String("o", "", "write the PNG here")
	keyLen := flag.Int("key", 8, "bytes hashed")
	split := flag.Bool("split", false, "quiet zones in blocks of their own")
	greedy := flag.Bool("greedy", false, "greedy parse")
	remap := flag.Bool("remap", false, "drop unused palette entries")
	wide := flag.Int("wide", 0, "anchors this many bytes either side of a module boundary")
	nodeDP := flag.Bool("nodes", false, "optimal parse over anchor nodes only")
	changes := flag.Bool("changes", false, "anchors only where the byte changes")
	prune := flag.Bool("prune", false, "edges only to candidate ends and starts")
	coarse := flag.Bool("coarse", false, "DP nodes only at anchors")
	events := flag.Bool("events", false, "bounded parse over events")
	sparse := flag.Bool("sparse", false, "events parse: literals only onto events")
	dominate := flag.Bool("dominate", false, "events parse: drop dominated copies")
	flag.Parse()
	f, _ := os.Open(flag.Arg(0))
	im, err := png.Decode(f)
	if err != nil {
		panic(err)
	}
	p := im.(*image.Paletted)
	if *remap {
		var used [256]int
		for _, v := range p.Pix {
			used[v]++
		}
		var m [256]uint8
		var pal []color.Color
		for i, u := range used {
			if u > 0 {
				m[i] = uint8(len(pal))
				pal = append(pal, p.Palette[i])
			}
		}
		for i, v := range p.Pix {
			p.Pix[i] = m[v]
		}
		p.Palette = pal
	}
	groups, raw, n := scanlines(p, *depth, *filter)
	t := &tokenizer{mode: *mode, depth: *chain, keyLen: *keyLen, split: *split, greedy: *greedy, nodeDP: *nodeDP, changesOnly: *changes, pruneEdges: *prune, coarse: *coarse, events: *events, sparse: *sparse, dominate: *dominate}
	t.anchors = make([]bool, n)
	t.anchors[0] = true
	for i := 0; i <= *nmod; i++ {
		x := *origin + i**k
		b := 1 + x**depth/8
		for q := b - *wide; q <= b+1+*wide; q++ {
			if q > 0 && q < n {
				t.anchors[q] = true
			}
		}
	}
	c := initialCosts()
	var best []byte
	var bestToks []tok
	for it := 0; it < *iters; it++ {
		toks := t.run(groups, n, c)
		z := zlibStream(toks, raw, t.splits)
		if best == nil || len(z) < len(best) {
			best, bestToks = z, toks
		}
		lit, dist := symCosts(toks)
		c.lit, c.dist = lit, dist
	}
	r, err := zlib.NewReader(bytes.NewReader(best))
	if err != nil {
		panic(err)
	}
	dec, err := io.ReadAll(r)
	if err != nil { // checksum: read what came
		r, _ = zlib.NewReader(bytes.NewReader(best))
		dec, _ = io.ReadAll(r)
	}
	if err != nil || !bytes.Equal(dec, raw) {
		for i := range dec {
			if i < len(raw) && dec[i] != raw[i] {
				fmt.Println("first difference at", i, "row", i/n, "col", i%n)
				break
			}
		}
		panic(fmt.Sprintf("decode mismatch: %v %d %d", err, len(dec), len(raw)))
	}
	nl := 0
	for _, x := range bestToks {
		if x.dist == 0 {
			nl++
		}
	}
	pal := len(p.Palette)
	file := 8 + 25 + 12 + 3*pal + 12 + len(best) + 12
	fmt.Printf("nodes %d edges %d per iteration; ", t.nodes / *iters, t.edges / *iters)
	fmt.Printf("%s depth %d filter %s mode %s chain %d: distinct rows %d, tokens %d (literals %d), IDAT %d, file %d; lookups %d inserts %d matchCalls %d dpEdges %d (per iteration)\n",
		flag.Arg(0), *depth, *filter, *mode, *chain, len(groups), len(bestToks), nl, len(best), file,
		t.lookups / *iters, t.inserts / *iters, t.matchCalls / *iters, t.dpEdges / *iters)
	if *out != "" {
		writePNG(*out, p, *depth, best)
	}
}

func writePNG(path string, p *image.Paletted, depth int, z []byte) {
	var b bytes.Buffer
	b.WriteString("\x89PNG\r\n\x1a\n")
	chunk := func(typ string, data []byte) {
		binary.Write(&b, binary.BigEndian, uint32(len(data)))
		h := crcOf(append([]byte(typ), data...))
		b.WriteString(typ)
		b.Write(data)
		binary.Write(&b, binary.BigEndian, h)
	}
	ih := make([]byte, 13)
	binary.BigEndian.PutUint32(ih, uint32(p.Rect.Dx()))
	binary.BigEndian.PutUint32(ih[4:], uint32(p.Rect.Dy()))
	ih[8], ih[9] = byte(depth), 3
	chunk("IHDR", ih)
	var pl []byte
	for _, c := range p.Palette {
		r, g, bb, _ := c.RGBA()
		pl = append(pl, byte(r>>8), byte(g>>8), byte(bb>>8))
	}
	chunk("PLTE", pl)
	chunk("IDAT", z)
	chunk("IEND", nil)
	os.WriteFile(path, b.Bytes(), 0o644)
}

func isConst(r []byte) bool {
	for _, b := range r[1:] {
		if b != r[0] {
			return false
		}
	}
	return true
}
