package main

// A minimal DEFLATE (RFC 1951) writer for a token list: one dynamic block (3.2.7), or several
// when asked, and a zlib wrapper (RFC 1950). Prototype only.

import (
	"container/heap"
	"encoding/binary"
	"hash/adler32"
	"math/bits"
	"sort"
)

// tok is a literal (dist 0, lit the byte) or a match (len 3..258, dist 1..32768).
type tok struct {
	len, dist int32
	lit       byte
}

var lenBase, lenExtra [29]int
var distBase, distExtra [30]int
var lenCode [259]int

func init() {
	b := 3
	for c := 0; c < 28; c++ {
		e := 0
		if c >= 8 {
			e = (c - 4) / 4
		}
		lenBase[c], lenExtra[c] = b, e
		for l := b; l < b+1<<e && l <= 258; l++ {
			lenCode[l] = c
		}
		b += 1 << e
	}
	lenBase[28], lenExtra[28], lenCode[258] = 258, 0, 28
	b = 1
	for c := 0; c < 30; c++ {
		e := 0
		if c >= 4 {
			e = c/2 - 1
		}
		distBase[c], distExtra[c] = b, e
		b += 1 << e
	}
}

func distCode(d int) int {
	if d <= 4 {
		return d - 1
	}
	n := bits.Len(uint(d-1)) - 1 // d-1 in [2^n, 2^(n+1))
	return 2*n + int((d-1)>>(n-1)&1)
}

// hItem etc: a plain Huffman tree by heap, then lengths limited by rescaling.
type hItem struct {
	w     int
	depth int
	id    int
}
type hHeap []hItem

func (h hHeap) Len() int { return len(h) }
func (h hHeap) Less(i, j int) bool {
	if h[i].w != h[j].w {
		return h[i].w < h[j].w
	}
	return h[i].depth < h[j].depth
}
func (h hHeap) Swap(i, j int) { h[i], h[j] = h[j], h[i] }
func (h *hHeap) Push(x any)   { *h = append(*h, x.(hItem)) }
func (h *hHeap) Pop() any     { o := *h; x := o[len(o)-1]; *h = o[:len(o)-1]; return x }

func huffLens(freq []int, maxBits int) []int {
	lens := make([]int, len(freq))
	f := append([]int(nil), freq...)
	for {
		var h hHeap
		parent := []int{}
		for s, w := range f {
			if w > 0 {
				h = append(h, hItem{w, 0, len(parent)})
				parent = append(parent, -1)
				_ = s
			}
		}
		syms := []int{}
		for s, w := range f {
			if w > 0 {
				syms = append(syms, s)
			}
		}
		if len(syms) == 0 {
			return lens
		}
		if len(syms) == 1 {
			lens[syms[0]] = 1
			// a second symbol so the code is complete
			o := 0
			if syms[0] == 0 {
				o = 1
			}
			lens[o] = 1
			return lens
		}
		heap.Init(&h)
		for h.Len() > 1 {
			a := heap.Pop(&h).(hItem)
			b := heap.Pop(&h).(hItem)
			id := len(parent)
			parent = append(parent, -1)
			parent[a.id], parent[b.id] = id, id
			heap.Push(&h, hItem{a.w + b.w, max(a.depth, b.depth) + 1, id})
		}
		ok := true
		for i, s := range syms {
			d := 0
			for n := i; parent[n] >= 0; n = parent[n] {
				d++
			}
			lens[s] = d
			if d > maxBits {
				ok = false
			}
		}
		if ok {
			return lens
		}
		for s := range f {
			if f[s] > 0 {
				f[s] = (f[s] + 1) / 2
			}
		}
	}
}

func codesOf(lens []int) []int {
	var count [16]int
	for _, l := range lens {
		count[l]++
	}
	count[0] = 0
	var next [16]int
	c := 0
	for b := 1; b < 16; b++ {
		c = (c + count[b-1]) << 1
		next[b] = c
	}
	codes := make([]int, len(lens))
	for s, l := range lens {
		if l > 0 {
			codes[s] = int(bits.Reverse16(uint16(next[l])) >> (16 - l))
			next[l]++
		}
	}
	return codes
}

type bw struct {
	dst []byte
	acc uint64
	n   uint
}

func (b *bw) put(v uint64, n uint) {
	b.acc |= v << b.n
	b.n += n
	for b.n >= 8 {
		b.dst = append(b.dst, byte(b.acc))
		b.acc >>= 8
		b.n -= 8
	}
}
func (b *bw) flush() {
	if b.n > 0 {
		b.dst = append(b.dst, byte(b.acc))
		b.acc, b.n = 0, 0
	}
}

// freqs counts the symbols of toks.
func freqs(toks []tok) (lf [286]int, df [30]int) {
	for _, t := range toks {
		if t.dist == 0 {
			lf[t.lit]++
		} else {
			lf[257+lenCode[t.len]]++
			df[distCode(int(t.dist))]++
		}
	}
	lf[256]++
	return
}

// writeBlock writes toks as one dynamic block.
func writeBlock(b *bw, toks []tok, final bool) {
	lf, df := freqs(toks)
	ll := huffLens(lf[:], 15)
	dl := huffLens(df[:], 15)
	nl, nd := 286, 30
	for nl > 257 && ll[nl-1] == 0 {
		nl--
	}
	for nd > 1 && dl[nd-1] == 0 {
		nd--
	}
	all := append(append([]int(nil), ll[:nl]...), dl[:nd]...)
	// run-length code the lengths (3.2.7)
	type cl struct{ s, x, xb int }
	var seq []cl
	for i := 0; i < len(all); {
		v, r := all[i], 1
		for i+r < len(all) && all[i+r] == v {
			r++
		}
		i += r
		if v == 0 {
			for r >= 11 {
				m := min(r, 138)
				seq = append(seq, cl{18, m - 11, 7})
				r -= m
			}
			if r >= 3 {
				seq = append(seq, cl{17, r - 3, 3})
				r = 0
			}
		} else {
			seq = append(seq, cl{v, 0, 0})
			r--
			for r >= 3 {
				m := min(r, 6)
				seq = append(seq, cl{16, m - 3, 2})
				r -= m
			}
		}
		for ; r > 0; r-- {
			seq = append(seq, cl{v, 0, 0})
		}
	}
	cf := make([]int, 19)
	for _, c := range seq {
		cf[c.s]++
	}
	clens := huffLens(cf, 7)
	ccodes := codesOf(clens)
	order := []int{16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15}
	nc := 19
	for nc > 4 && clens[order[nc-1]] == 0 {
		nc--
	}
	fin := uint64(0)
	if final {
		fin = 1
	}
	b.put(fin|2<<1, 3)
	b.put(uint64(nl-257), 5)
	b.put(uint64(nd-1), 5)
	b.put(uint64(nc-4), 4)
	for _, s := range order[:nc] {
		b.put(uint64(clens[s]), 3)
	}
	for _, c := range seq {
		b.put(uint64(ccodes[c.s]), uint(clens[c.s]))
		if c.xb > 0 {
			b.put(uint64(c.x), uint(c.xb))
		}
	}
	lc, dc := codesOf(ll), codesOf(dl)
	for _, t := range toks {
		if t.dist == 0 {
			b.put(uint64(lc[t.lit]), uint(ll[t.lit]))
			continue
		}
		c := lenCode[t.len]
		b.put(uint64(lc[257+c]), uint(ll[257+c]))
		b.put(uint64(int(t.len)-lenBase[c]), uint(lenExtra[c]))
		d := distCode(int(t.dist))
		b.put(uint64(dc[d]), uint(dl[d]))
		b.put(uint64(int(t.dist)-distBase[d]), uint(distExtra[d]))
	}
	b.put(uint64(lc[256]), uint(ll[256]))
}

// zlibStream wraps toks (which decode to raw) in a zlib stream, one block per blocks entry
// (token counts).
func zlibStream(toks []tok, raw []byte, split []int) []byte {
	b := &bw{dst: []byte{0x78, 0xda}}
	if len(split) == 0 {
		split = []int{len(toks)}
	}
	i := 0
	for j, n := range split {
		writeBlock(b, toks[i:i+n], j == len(split)-1)
		i += n
	}
	b.flush()
	return binary.BigEndian.AppendUint32(b.dst, adler32.Checksum(raw))
}

// symCost returns per-symbol costs in bits (lit/len symbol lengths, dist lengths) of the
// Huffman code for toks.
func symCosts(toks []tok) (lit [286]float64, dist [30]float64) {
	lf, df := freqs(toks)
	ll := huffLens(lf[:], 15)
	dl := huffLens(df[:], 15)
	for s := range lit {
		lit[s] = float64(ll[s])
		if ll[s] == 0 {
			lit[s] = 13
		}
	}
	for s := range dist {
		dist[s] = float64(dl[s])
		if dl[s] == 0 {
			dist[s] = 10
		}
	}
	return
}

var _ = sort.Ints
