package deflate

import (
	"encoding/binary"
	"math/bits"
)

// This file is the match finder of Writer: it parses a distinct row into literals and
// matches (see the overview in writer.go).

// matchLen returns how many leading bytes of a equal those of b (len(b) ≥ len(a)), 8 at a time.
func matchLen(a, b []byte) int {
	n := 0
	for len(a) >= 8 {
		if x := binary.LittleEndian.Uint64(a) ^ binary.LittleEndian.Uint64(b); x != 0 {
			return n + bits.TrailingZeros64(x)/8
		}
		a, b, n = a[8:], b[8:], n+8
	}
	for i := range a {
		if a[i] != b[i] {
			return n + i
		}
	}
	return n + len(a)
}

// matchRow turns the row win[p0:end) into tokens and returns its Adler-32 sums (see adlerSums).
//
// At each position it weighs the matches that matter in these images: a run of the previous
// byte (distance 1), the row above (distance rowLen, the previous row of the stream) and
// earlier positions with the same 8 bytes (hash chains: patterns repeated within the row, and
// older rows). It takes the one that saves the most bits by the cost estimates, or a literal,
// and before taking a short match it looks one byte ahead for a better one (lazy matching). A
// match continuing the pending one at the same distance costs almost nothing, so copies of the
// row above and runs flow across row boundaries into one long match.
func (z *Writer) matchRow(p0, end int) (s, w uint32) {
	if z.ntok < z.costTokens || z.ntok-z.costTokens >= costInterval || len(z.lastCopy) == 0 {
		z.updateCosts()
	}
	win, n := z.win, z.rowLen
	z.spans = z.spans[:0]
	p := p0
	if z.streamRows == 0 { // the stream's first byte has nothing before it
		z.literal(win[p])
		p++
	}
	var cur matchCand
	if p < end {
		cur = z.bestMatch(p, p0, end, true)
	}
	for p < end {
		extends := z.pendLen > 0 && cur.dist == z.pendDist
		if cur.gain > 0 && cur.len < lazyLen && !extends && p+1 < end {
			if next := z.bestMatch(p+1, p0, end, false); next.gain > cur.gain {
				z.literal(win[p])
				z.addSpan(p, p+1)
				p++
				cur = next
				continue
			}
		}
		l := 1
		if cur.gain > 0 {
			l = cur.len
			z.match(cur.dist, l)
		} else {
			z.literal(win[p])
		}
		if cur.gain <= 0 || cur.dist != n {
			z.addSpan(p, p+l)
		} else if l >= skipLen {
			z.ins = max(z.ins, z.winBase+p+l) // the row above has these bytes
		}
		if cur.gain > 0 && cur.dist == 1 && l >= skipLen {
			z.ins = max(z.ins, z.winBase+p+l-8) // a run
		}
		p += l
		if p < end {
			cur = z.bestMatch(p, p0, end, true)
		}
	}
	return z.rowSums(p0, end)
}

// addSpan notes that win[p:q) is not copied from the row above.
func (z *Writer) addSpan(p, q int) {
	if k := len(z.spans); k > 0 && int(z.spans[k-1]) == p {
		z.spans[k-1] = int32(q)
		return
	}
	z.spans = append(z.spans, int32(p), int32(q))
}

// rowSums returns the Adler-32 sums of the row win[p0:end): when much of it was copied from the
// row above, from the row above's sums corrected at the spans that were not.
func (z *Writer) rowSums(p0, end int) (s, w uint32) {
	n := z.rowLen
	other := 0
	for i := 0; i < len(z.spans); i += 2 {
		other += int(z.spans[i+1] - z.spans[i])
	}
	if len(z.lastCopy) == 0 || end-p0 != n || 2*other >= n {
		return adlerSums(z.win[p0:end])
	}
	ds, dw := int64(0), int64(0)
	for i := 0; i < len(z.spans); i += 2 {
		p, q := int(z.spans[i]), int(z.spans[i+1])
		sc, wc := adlerSums(z.win[p:q])
		sa, wa := adlerSums(z.win[p-n : q-n])
		d := int64(sc) - int64(sa)
		ds += d
		dw += int64(wc) - int64(wa) + int64((end-q)%adlerMod)*d
	}
	return modAdler(int64(z.rowS) + ds), modAdler(int64(z.rowW) + dw)
}

// matchCand is a match found at a position: its length and stream distance, and the bits it
// saves (gain, in sixteenths); a gain of 0 or less means a literal is better.
type matchCand struct {
	len, dist, gain int
}

// bestMatch returns the match at win[p] (in the row win[p0:end)) that saves the most bits; at
// tells whether the pending match ends at p, so that a match there can continue it. It first
// enters the positions before p into the hash chains.
func (z *Writer) bestMatch(p, p0, end int, at bool) matchCand {
	z.insertTo(p, end)
	win, n := z.win, z.rowLen
	var best matchCand
	consider := func(l, d int) {
		if g := l*z.litCost - z.matchCost(l, d, at); g > best.gain {
			best = matchCand{l, d, g}
		}
	}
	if win[p] == win[p-1] {
		consider(1+matchLen(win[p+1:end], win[p:]), 1)
	}
	if len(z.lastCopy) > 0 && n <= maxDistance && win[p] == win[p-n] {
		consider(matchLen(win[p:end], win[p-n:]), n)
	}
	if end-p < 8 {
		return best
	}
	x := binary.LittleEndian.Uint64(win[p:])
	c := int(z.table[hashKey(x)]) - z.winBase
	depth := chainDepth // a small image's bytes count the most; a large one's time
	if n > wideRow {
		depth = wideChain
	}
	for ; depth > 0 && c >= 0 && best.len < min(end-p, niceLen); depth-- {
		if p-c > maxDistance {
			break
		}
		if binary.LittleEndian.Uint64(win[c:]) == x && c != p-1 && c != p-n && win[c+best.len] == win[p+best.len] {
			l, d := z.matchAt(c, p, p0, end)
			if d > maxDistance {
				break // older positions are farther still
			}
			consider(l, d)
		}
		next := int(z.chain[(z.winBase+c)&(maxDistance-1)]) - z.winBase
		if next >= c {
			break
		}
		c = next
	}
	return best
}

// matchAt returns the length and stream distance of the match of win[p:end) with the content
// at win[c:] (c < p). A source in an older row r is taken at r's last copy, which row r+1
// follows in the stream as in the content; the match cannot run past row r+1, since it ends
// with the current row, at most rowLen bytes on.
func (z *Writer) matchAt(c, p, p0, end int) (l, d int) {
	n := z.rowLen
	d = p - c // the current row or the one above: content and stream agree
	if c < p0-n {
		x := z.winBase + c - z.start
		r := z.rowOf(x)
		d = (z.streamRows-int(z.lastCopy[r]))*n + p - p0 - (x - r*n)
		if d > maxDistance {
			return 0, d
		}
	}
	return matchLen(z.win[p:end], z.win[c:]), d
}

// rowOf returns x/rowLen, by multiplication when that is exact: x·⌈2^40/rowLen⌉ differs from
// x·2^40/rowLen by less than x, which is too little to change the quotient when x·rowLen < 2^40,
// and it fits 64 bits when x < 2^24.
func (z *Writer) rowOf(x int) int {
	if x < 1<<24 && uint64(x)*uint64(z.rowLen) < 1<<40 {
		return int(uint64(x) * z.recip >> 40)
	}
	return x / z.rowLen
}

// insertTo enters the positions from ins up to p into the hash chains, except those where the
// 8 bytes are one byte repeated (distance 1 does better there), which it skips 8 at a time.
// Positions need 8 bytes, so the last 7 of the content wait for the next row.
func (z *Writer) insertTo(p, end int) {
	base := z.winBase
	i := max(z.ins-base, 0)
	last := min(p, end-7)
	if i >= last {
		return
	}
	w := z.win[i : last+7]
	for len(w) >= 8 {
		x := binary.LittleEndian.Uint64(w)
		if x == x>>8|x<<56 { // a run: skip it, 8 bytes at a time
			for len(w) >= 16 && binary.LittleEndian.Uint64(w[8:]) == x {
				w, i = w[8:], i+8
			}
		} else {
			h := hashKey(x)
			pos := int32(base + i)
			z.chain[pos&(maxDistance-1)] = z.table[h]
			z.table[h] = pos
		}
		w, i = w[1:], i+1
	}
	z.ins = base + i
}

// hashKey hashes 8 bytes for the match finder's table.
func hashKey(x uint64) uint32 {
	return uint32(x * 0x9E3779B97F4A7C15 >> (64 - hashBits))
}

// matchCost estimates the bits, in sixteenths, of a match of length l at distance d, with the
// costs of the current block's symbols so far (see updateCosts); a match that continues the
// pending one (at: it starts where that ends) costs a bit, and it may be shorter than 3.
func (z *Writer) matchCost(l, d int, at bool) int {
	if at && z.pendLen > 0 && d == z.pendDist {
		return 16 // continues the pending match
	}
	if l < minMatch {
		return 1 << 20
	}
	return int(z.lenCost[lengthCode[min(l, maxMatch)-minMatch]]) + int(z.distCost[distCode(d)])
}

// updateCosts estimates the cost in bits (in sixteenths) of each length and distance, from −log2
// of their symbols' shares of the block's symbols so far plus their extra bits, and the average
// cost of a literal. Before the block has enough symbols, it assumes costs typical of these
// images.
func (z *Writer) updateCosts() {
	z.costTokens = z.ntok
	var symCost [numLitLen]int
	if z.ntok < costInterval {
		for s := range symCost {
			symCost[s] = 8 * 16
		}
		symCost[257+28] = 2 * 16 // length 258: the copies of repeated rows
		for dc := range z.distCost {
			z.distCost[dc] = uint16(6*16 + 16*int(distExtra[dc]))
		}
		z.distCost[0] = 3 * 16
		z.litCost = 6 * 16
	} else {
		var lits, total, dists uint32
		for s, f := range z.litFreq {
			total += f
			if s < 256 {
				lits += f
			}
		}
		for _, f := range z.distFreq {
			dists += f
		}
		logT, logD := log2x16(total), log2x16(dists)
		sum := 0
		for s, f := range z.litFreq {
			symCost[s] = logT - log2x16(f)
			if s < 256 {
				sum += int(f) * symCost[s]
			}
		}
		for dc, f := range z.distFreq {
			z.distCost[dc] = uint16(logD - log2x16(f) + 16*int(distExtra[dc]))
		}
		z.litCost = 8 * 16
		if lits > 0 {
			z.litCost = sum / int(lits)
		}
	}
	for lc := range z.lenCost {
		z.lenCost[lc] = uint16(symCost[257+lc] + 16*int(lengthExtra[lc]))
	}
}

// log2x16 returns 16·log2(x), roughly, and for x = 0 that of ½: the cost of a symbol not seen yet.
func log2x16(x uint32) int {
	if x == 0 {
		return -16
	}
	n := bits.Len32(x)
	frac := x << (32 - n) >> 27 & 15 // the 4 bits after the leading one
	return 16*(n-1) + int(log2Frac[frac])
}

// log2Frac[i] is 16·log2(1 + i/16), rounded.
var log2Frac = [16]uint8{0, 1, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 15}
