package deflate

import (
	"encoding/binary"
	"math/bits"
)

// This file is Writer's second way of taking rows, for callers that know each row as a fixed head
// followed by zeros, except where they place entries of a small table of byte strings made once
// ("patches"). A PNG scanline of filter type Up is such a row wherever an image changes from the
// row above in few, recurring ways (PNG spec 9.2): the filter type is the head, and the
// differences are the patches. Parsing each byte of such rows costs far more than they are
// worth; placing a patch costs one token instead. A patch's tokens (literals, and runs as
// matches at distance 1, RFC 1951 3.2.5) are worked out when it is made and its bits in the
// block's Huffman codes once per block: a placed patch's token stands for the zeros before it (a
// literal 0 and matches at distance 1) and the patch's tokens, whose bits are copied. The
// Adler-32 (RFC 1950 8.2) comes from the patches' sums, without a look at the zeros.

// A Patch is a byte string placed in rows (see PatchRow), such as the bytewise differences
// modulo 256 between a scanline and the one above where they differ, first and last not zero.
// It is read-only once made, and shared between streams and goroutines.
type Patch struct {
	offset int     // where the string starts, in bytes from the anchor it is placed at
	data   []byte  // the string; none for the empty patch
	toks   []token // data as literals, and runs of a byte as matches at distance 1
	s, w   uint32  // the Adler-32 sums of data (see adlerSums)
}

// EmptyPatch changes nothing; it is entry 0 of every patch table.
var EmptyPatch = &Patch{}

// NewPatch returns the patch of data at offset bytes from its anchor.
func NewPatch(offset int, data []byte) *Patch {
	p := &Patch{offset: offset, data: data}
	for i := 0; i < len(data); {
		p.toks = append(p.toks, token(data[i]))
		rest := runLen(data[i:]) - 1 // the bytes after data[i] that repeat it
		i++
		for rest >= minMatch {
			c := matchChunk(rest)
			p.toks = append(p.toks, lengthToken(c))
			rest -= c
			i += c
		}
		for ; rest > 0; rest-- {
			p.toks = append(p.toks, token(data[i]))
			i++
		}
	}
	p.s, p.w = adlerSums(data)
	return p
}

// Patch tokens: symbol patchSym in bits 0–8 (no DEFLATE symbol), the table entry in bits 9–20,
// and in bits 21–31 the number of zero bytes before the patch.
const (
	patchSym     = 511
	maxPatches   = 1 << 12
	maxPatchGap  = 1<<11 - 1
	patchGapBits = 21
)

// UsePatches sets the patch table of the stream that Reset started: table[0] must be
// EmptyPatch, and at most maxPatches−1 (4095) entries; and head, the patch every row starts with
// (offset 0, not empty).
func (z *Writer) UsePatches(table []*Patch, head *Patch) {
	if len(table) >= maxPatches || table[0] != EmptyPatch || len(head.data) == 0 {
		panic("deflate: bad patch table")
	}
	z.patches = append(append(z.patches[:0], table...), head)
	z.headEntry = uint16(len(table))
	z.patchInfo = z.patchInfo[:0]
	for _, p := range z.patches {
		z.patchInfo = append(z.patchInfo, patchInfo{int32(p.offset), int32(len(p.data)), p.s, p.w})
	}
	n := len(z.patches)
	if cap(z.patchUses) < n {
		z.patchUses = make([]uint32, n)
		z.patchCode = make([]uint64, n)
		z.patchLen = make([]uint8, n)
	}
	z.patchUses = z.patchUses[:n]
	z.patchCode = z.patchCode[:n]
	z.patchLen = z.patchLen[:n]
	clear(z.patchUses)
	z.zeros, z.bareRow = 0, false
}

// PatchRow adds a row of rowLen bytes: the head patch, then zeros but for entry entries[i] of the
// patch table at anchors[i], for each i: its data starts at byte anchors[i] + its offset after the
// head. The patches come in order and do not overlap. The zeros at the end wait for the next
// row's head, to share its token. A row of the head and zeros only that follows another is a
// repeat of it for the Adler-32 (see addRepeats).
func (z *Writer) PatchRow(anchors []int32, entries []uint16) {
	n := z.rowLen
	if z.ntok+len(entries)+2+2*n/maxPatchGap > blockTokens { // room for this row's tokens
		z.writeBlock(false)
	}
	z.addPatch(z.fitGap(z.zeros), z.headEntry)
	if len(entries) == 0 && z.bareRow {
		z.repeats++
		return
	}
	if z.repeats > 0 {
		z.addRepeats()
	}
	z.bareRow = len(entries) == 0
	info := z.patchInfo
	h := &info[z.headEntry]
	at := int(h.len)
	s, w := uint64(h.s), uint64(h.w)+uint64(n-at)*uint64(h.s)
	anchors = anchors[:len(entries)]
	for i, e := range entries {
		p := &info[e]
		start := int(h.len) + int(anchors[i]) + int(p.offset)
		z.addPatch(z.fitGap(start-at), e)
		at = start + int(p.len)
		s += uint64(p.s)
		w += uint64(p.w) + uint64(n-at)*uint64(p.s)
	}
	z.zeros = n - at
	z.addRowSums(n, uint32(s%adlerMod), uint32(w%adlerMod))
}

// RowLen returns the bytes per row of the stream that Reset started.
func (z *Writer) RowLen() int { return z.rowLen }

// PatchRows adds n rows of patches: for i = 0, 1, …, n−1, the row of the anchors and entries
// that row(i) returns (see PatchRow).
func (z *Writer) PatchRows(n int, row func(i int) (anchors []int32, entries []uint16)) {
	for i := range n {
		z.PatchRow(row(i))
	}
}

// flushZeros adds the zeros that end the last patched row, if they are still waiting.
func (z *Writer) flushZeros() {
	if z.zeros > 0 {
		if z.ntok+1+z.zeros/maxPatchGap > blockTokens {
			z.writeBlock(false)
		}
		z.addPatch(z.fitGap(z.zeros), 0)
		z.zeros = 0
	}
}

// patchInfo is what PatchRow needs of a patch, kept close together.
type patchInfo struct {
	offset, len int32
	s, w        uint32
}

// addPatch adds the token of gap zeros, at most maxPatchGap (see fitGap), followed by patch i of
// the table; there must be room for it in the block. It is small enough to be inlined.
func (z *Writer) addPatch(gap int, i uint16) {
	if z.gapUses[gap] == 0 { // marked at its first use
		z.gapSeen[gap>>6&31] |= 1 << (gap & 63)
	}
	z.gapUses[gap]++
	if z.patchUses[i] == 0 {
		z.patchSeen[i>>6&63] |= 1 << (i & 63)
	}
	z.patchUses[i]++
	z.tokens[z.ntok] = patchSym | token(i)<<9 | token(gap)<<patchGapBits
	z.ntok++
}

// fitGap returns gap zeros, or when one token cannot hold them, the zeros left after adding the
// tokens of the first ones (see longGap).
func (z *Writer) fitGap(gap int) int {
	if gap <= maxPatchGap {
		return gap
	}
	return z.longGap(gap)
}

// longGap adds the tokens of the first zeros of a gap longer than a token holds, the empty patch
// after each, and returns the zeros left, at most maxPatchGap. Only rows longer than a token's
// gap have such gaps: kept out of line, it leaves fitGap small enough to be inlined.
//
//go:noinline
func (z *Writer) longGap(gap int) int {
	for ; gap > maxPatchGap; gap -= maxPatchGap {
		z.addPatch(maxPatchGap, 0)
	}
	return gap
}

// forgetUses clears the uses of gaps and patches in the block, for the next block.
func (z *Writer) forgetUses() {
	for g := range seen(z.gapSeen[:]) {
		z.gapUses[g] = 0
	}
	for i := range seen(z.patchSeen[:]) {
		z.patchUses[i] = 0
	}
	clear(z.gapSeen[:])
	clear(z.patchSeen[:])
}

// seen yields the numbers of the bits set in the bitmap words, in order.
func seen(words []uint64) func(yield func(int) bool) {
	return func(yield func(int) bool) {
		for w, bitsSet := range words {
			for ; bitsSet != 0; bitsSet &= bitsSet - 1 {
				if !yield(64*w + bits.TrailingZeros64(bitsSet)) {
					return
				}
			}
		}
	}
}

// appendGapTokens appends the tokens of gap zeros: a literal 0 and a match at distance 1 of the
// rest, or literals when they are fewer than 4.
func appendGapTokens(toks []token, gap int) []token {
	if gap < 1+minMatch {
		for range gap {
			toks = append(toks, 0)
		}
		return toks
	}
	toks = append(toks, 0)
	for rest := gap - 1; rest > 0; {
		c := matchChunk(rest)
		toks = append(toks, lengthToken(c))
		rest -= c
	}
	return toks
}

// countPatches adds the symbols of the gaps and patches placed in the block to its frequencies.
func (z *Writer) countPatches() {
	count := func(toks []token, uses uint32) {
		for _, t := range toks {
			sym := t & 511
			z.litFreq[sym] += uses
			if sym > endOfBlock {
				z.distFreq[t>>14&31] += uses
			}
		}
	}
	for g := range seen(z.gapSeen[:]) {
		z.scratch = appendGapTokens(z.scratch[:0], g)
		count(z.scratch, z.gapUses[g])
	}
	for i := range seen(z.patchSeen[:]) {
		count(z.patches[i].toks, z.patchUses[i])
	}
}

// longCode marks, in gapLen and patchLen, bits kept in longBits.
const longCode = 255

// codePatches works out the bits, in the codes lit and dist, of the gaps and patches placed in
// the block (see writeTokens), and forgets their uses for the next block.
func (z *Writer) codePatches(lit, dist *huffCode) {
	z.longBits = z.longBits[:0]
	for g := range seen(z.gapSeen[:]) {
		z.scratch = appendGapTokens(z.scratch[:0], g)
		z.gapCode[g], z.gapLen[g] = z.codeTokens(z.scratch, lit, dist)
	}
	for i := range seen(z.patchSeen[:]) {
		z.patchCode[i], z.patchLen[i] = z.codeTokens(z.patches[i].toks, lit, dist)
	}
	z.forgetUses()
}

// codeTokens returns the bits of toks in the codes lit and dist, and their number; or, when
// they are more than 64, longCode and where they are in longBits: their number, then the bits
// 32 a word.
func (z *Writer) codeTokens(toks []token, lit, dist *huffCode) (code uint64, n uint8) {
	var total uint
	for _, t := range toks {
		c, m := tokenBits(t, lit, dist)
		if total+m > 64 {
			return z.codeLongTokens(toks, lit, dist)
		}
		code |= c << total
		total += m
	}
	return code, uint8(total)
}

// codeLongTokens is codeTokens for more than 64 bits.
func (z *Writer) codeLongTokens(toks []token, lit, dist *huffCode) (code uint64, n uint8) {
	at := len(z.longBits)
	z.longBits = append(z.longBits, 0)
	var acc uint64
	var nacc, total uint
	put := func(v uint64, n uint) { // n ≤ 32
		acc |= v << nacc
		nacc += n
		total += n
		if nacc >= 32 {
			z.longBits = append(z.longBits, uint32(acc))
			acc >>= 32
			nacc -= 32
		}
	}
	for _, t := range toks {
		code, n := tokenBits(t, lit, dist)
		put(code&(1<<32-1), min(n, 32))
		if n > 32 {
			put(code>>32, n-32)
		}
	}
	if nacc > 0 {
		z.longBits = append(z.longBits, uint32(acc))
	}
	z.longBits[at] = uint32(total)
	return uint64(at), longCode
}

// tokenBits returns the bits of token t (a literal or a match) in the codes lit and dist: at
// most 15+5+15+13 of them.
func tokenBits(t token, lit, dist *huffCode) (code uint64, n uint) {
	sym := t & 511
	code, n = uint64(lit.codes[sym]), uint(lit.lens[sym])
	if sym <= endOfBlock {
		return code, n
	}
	code |= uint64(t>>9&31) << n
	n += uint(lengthExtra[sym-257])
	dc := t >> 14 & 31
	code |= uint64(dist.codes[dc]) << n
	n += uint(dist.lens[dc])
	code |= uint64(t>>19) << n
	return code, n + uint(distExtra[dc])
}

// lengthToken returns the token of a match of length l (3..258) at distance 1: distance code 0
// without extra bits, so or-ing another distance's code and extra bits gives a match there.
func lengthToken(l int) token {
	lc := lengthCode[l-minMatch]
	return token(257+int(lc)) | token(l-int(lengthBase[lc]))<<9
}

// matchChunk returns the length of the first token of a match of l ≥ 3 bytes: at most 258, and
// leaving at least 3 or nothing for the rest.
func matchChunk(l int) int {
	c := min(l, maxMatch)
	if r := l - c; r > 0 && r < minMatch {
		c = l - minMatch
	}
	return c
}

// runLen returns how many leading bytes of b (not empty) equal b[0], 8 at a time.
func runLen(b []byte) int {
	x := uint64(b[0]) * 0x0101010101010101
	n := 0
	for len(b)-n >= 8 {
		if y := binary.LittleEndian.Uint64(b[n:]) ^ x; y != 0 {
			return n + bits.TrailingZeros64(y)/8
		}
		n += 8
	}
	for n < len(b) && b[n] == b[0] {
		n++
	}
	return n
}
