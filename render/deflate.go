package render

import (
	"encoding/binary"
	"math/bits"
	"slices"
)

// This file is the compressor behind appendPNG: a zlib stream (RFC 1950) holding a DEFLATE
// stream (RFC 1951), written for the scanlines of scaled-up QR Codes. Such images come in runs
// of identical rows, and a new row differs from the one above in few places. So the caller
// hands the compressor rows of one fixed length, each either a new ("distinct") row, which is
// matched against a window of earlier distinct rows, or repeats of the previous row, which
// become a copy of it without a look at their bytes: one long match at the row's distance (or
// at distance 1 for a row of one byte), cut into tokens of 258 bytes.
//
// The window holds the distinct rows only, in order (the "content"). A decoder sees the
// uncompressed stream (the "stream"), where each distinct row may be followed by copies of
// itself. Content and stream agree from the last copy of a row to the end of the next row, so
// a match found in the content is a match in the stream at a distance measured from that last
// copy, as long as its source does not run past the next row.
//
// Distinct rows are parsed greedily with one byte of lazy lookahead (see matchRow): at each
// position the candidates are a run (distance 1), the row above (distance rowLen) and a few
// earlier positions with the same 8 bytes (hash chains), weighed by their estimated cost in bits
// from the block's statistics so far. A match at the same distance as the one before extends
// it, so copies flow from row to row. The tokens of a block (up to blockTokens) then get one
// dynamic Huffman code (BTYPE=10, lengths limited to 15 bits, the code lengths run-length coded
// with 16, 17 and 18), or the fixed code if that is shorter (RFC 1951 3.2.6, 3.2.7). Adler-32 is
// kept per row from two sums (see adlerSums), so that repeated rows cost O(1) and a row that
// mostly copies the row above only costs its other bytes.

// Limits of the format, and the compressor's settings.
const (
	maxDistance  = 32768   // RFC 1951 3.2.5: distances 1..32768 (the 32K window)
	minMatch     = 3       // RFC 1951 3.2.5: lengths 3..258
	maxMatch     = 258     //
	endOfBlock   = 256     // RFC 1951 3.2.5: literal/length symbol 256 ends a block
	numLitLen    = 286     // literal/length symbols 0..285 (286 and 287 never occur)
	numDist      = 30      // distance symbols 0..29 (30 and 31 never occur)
	numCodeLen   = 19      // code length symbols 0..18 (RFC 1951 3.2.7)
	maxCodeBits  = 15      // RFC 1951 3.2.7: code lengths 0..15
	maxCLBits    = 7       // the code length code's lengths fit in 3 bits
	hashBits     = 13      // the match finder's table has 2^hashBits entries
	blockTokens  = 1 << 15 // tokens per DEFLATE block
	windowCap    = 1 << 17 // bytes of content the window holds, at least, before it slides
	adlerMod     = 65521   // RFC 1950 8.2: the largest prime below 65536
	chainDepth   = 4       // candidates tried along a hash chain, for rows of up to wideRow bytes
	wideChain    = 2       // candidates tried along a hash chain, for wider rows
	wideRow      = 256     // bytes of a row beyond which the search is shortened for speed
	niceLen      = 64      // a match this long ends the search
	lazyLen      = 8       // a match shorter than this waits for a look at the next position
	skipLen      = 8       // a copy of the row above this long is left out of the hash chains
	costInterval = 512     // tokens between estimates of the symbols' costs
)

// Tables of RFC 1951 3.2.5, filled by init: the base value and number of extra bits of each
// length code (index: symbol − 257) and distance code, and the code of each length and distance.
var (
	lengthBase  [29]uint16
	lengthExtra [29]uint8
	distBase    [numDist]uint16
	distExtra   [numDist]uint8
	lengthCode  [maxMatch - minMatch + 1]uint8 // length − 3 → length code − 257
	distCodeLo  [256]uint8                     // distance − 1 → distance code, for distances ≤ 256
	distCodeHi  [256]uint8                     // (distance − 1) >> 7 → distance code, for longer ones
)

// fixedLit and fixedDist are the fixed Huffman codes of RFC 1951 3.2.6 (BTYPE=01).
var fixedLit, fixedDist huffCode

// codeLenOrder is the order in which the code length code's lengths are sent (RFC 1951 3.2.7).
var codeLenOrder = [numCodeLen]uint8{16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15}

// init fills the tables of RFC 1951.
func init() {
	initLengthTables()
	initDistTables()
	initFixedCodes()
}

// initLengthTables fills the length tables: codes 257..264 have no extra bits, then each group
// of four codes one more extra bit than the last, up to 5; code 285 is length 258 alone.
func initLengthTables() {
	base := minMatch
	for c := range 28 {
		extra := 0
		if c >= 8 {
			extra = (c - 4) / 4
		}
		lengthBase[c], lengthExtra[c] = uint16(base), uint8(extra)
		for l := base; l < base+1<<extra && l <= maxMatch; l++ {
			lengthCode[l-minMatch] = uint8(c)
		}
		base += 1 << extra
	}
	lengthBase[28], lengthExtra[28] = maxMatch, 0
	lengthCode[maxMatch-minMatch] = 28
}

// initDistTables fills the distance tables: codes 0..3 have no extra bits, then each pair of
// codes one more extra bit than the last, up to 13.
func initDistTables() {
	base := 1
	for c := range numDist {
		extra := 0
		if c >= 4 {
			extra = c/2 - 1
		}
		distBase[c], distExtra[c] = uint16(base), uint8(extra)
		for d := base; d < base+1<<extra; d++ {
			if d <= 256 {
				distCodeLo[d-1] = uint8(c)
			} else {
				distCodeHi[(d-1)>>7] = uint8(c)
			}
		}
		base += 1 << extra
	}
}

// initFixedCodes builds the fixed codes of RFC 1951 3.2.6: literal/length symbols 0..143 have
// 8 bits, 144..255 9 bits, 256..279 7 bits, 280..287 8 bits; distance codes 5 bits.
func initFixedCodes() {
	var lens [288]uint8
	for s := range lens {
		switch {
		case s < 144:
			lens[s] = 8
		case s < 256:
			lens[s] = 9
		case s < 280:
			lens[s] = 7
		default:
			lens[s] = 8
		}
	}
	var all [288]uint16
	for s := range all {
		all[s] = uint16(s)
	}
	fixedLit.lens = lens // all 288: the canonical codes count 286 and 287 too
	fixedLit.assignCodes(all[:])
	for s := range fixedDist.lens[:numDist] {
		fixedDist.lens[s] = 5
	}
	fixedDist.assignCodes(all[:numDist])
}

// distCode returns the distance code of distance d, 1 ≤ d ≤ 32768.
func distCode(d int) int {
	if d <= 256 {
		return int(distCodeLo[d-1])
	}
	return int(distCodeHi[(d-1)>>7])
}

// A token is a literal or a match, packed for the block writer: bits 0–8 hold the
// literal/length symbol; for a match, bits 9–13 the value of the length's extra bits, bits
// 14–18 the distance code and bits 19–31 the value of the distance's extra bits.
type token uint32

// zlibWriter compresses rows into a zlib stream appended to dst. Use: reset; then for each
// distinct row nextRow, fill it in, commitRow, and for rows that repeat the last one repeatRows;
// then finish. The first row is distinct, and only the last row may be shorter than rowLen
// (commitRow's argument). A zlibWriter is large (window, tokens, tables): reuse it.
type zlibWriter struct {
	dst  []byte
	acc  uint64 // bits not yet in dst; DEFLATE packs bits from the least significant (RFC 1951 3.1.1)
	nacc uint   // number of bits in acc

	rowLen     int     // bytes per row
	recip      uint64  // ⌈2^40/rowLen⌉, to divide by rowLen (see rowOf)
	win        []byte  // the content window: recent distinct rows, the last one at the end
	winBase    int     // content position of win[0], always the start of a row
	start      int     // content position of this stream's first row
	ins        int     // content position of the next position to enter the hash chains
	rows       int     // distinct rows so far
	streamRows int     // rows so far, distinct and repeated
	lastCopy   []int32 // for each distinct row, the stream row of its last copy
	constRow   int8    // whether the last distinct row is one byte repeated: 0 unknown, 1 yes, 2 no
	nextPos    int     // content position where the next stream starts (the tables survive streams)

	adlerA, adlerB uint32  // the running Adler-32 (RFC 1950 8.2)
	rowS, rowW     uint32  // the sums of the last distinct row (see adlerSums)
	repeats        int     // repeats of the last distinct row not yet in adlerA and adlerB
	spans          []int32 // of the current row, not copied from the row above: start, end pairs

	pendDist, pendLen int // the match being extended; pendLen is 0 when there is none

	// The current block: its tokens and symbol frequencies.
	ntok     int
	tokens   [blockTokens]token
	litFreq  [numLitLen]uint32
	distFreq [numDist]uint32

	// Estimated costs for the match finder, in sixteenths of a bit (see updateCosts).
	lenCost    [29]uint16      // of a length, by length code (symbol − 257), extra bits included
	distCost   [numDist]uint16 // of a distance, by distance code
	litCost    int             // of an average literal
	costTokens int             // ntok when the costs were last estimated

	table [1 << hashBits]int32 // content position of the last 8-byte sequence of each hash
	chain [maxDistance]int32   // at content position p&32767: the previous one with p's hash

	lit, dist, codeLen huffCode
	hs                 huffScratch
	clSyms             []uint16 // the code length sequence, run-length coded: symbol | extra<<5
	clFreq             [numCodeLen]uint32
}

// newZlibWriter returns a zlibWriter ready for reset.
func newZlibWriter() *zlibWriter { return &zlibWriter{nextPos: 1} }

// reset starts a zlib stream of rows of rowLen bytes, appended to dst.
func (z *zlibWriter) reset(dst []byte, rowLen int) {
	// RFC 1950 2.2: CMF is CM 8 (deflate) and CINFO 7 (32K window); FLG is FLEVEL 2 (the
	// default algorithm), no preset dictionary, and FCHECK making CMF·256 + FLG a multiple of 31.
	const cmf, flevel = 8 | 7<<4, 2 << 6
	z.dst = append(dst, cmf, flevel+31-(cmf<<8|flevel)%31)
	z.acc, z.nacc = 0, 0
	z.rowLen = rowLen
	z.recip = (1<<40 + uint64(rowLen) - 1) / uint64(rowLen)
	if need := max(windowCap, 2*z.keep()+2*rowLen); cap(z.win) < need {
		z.win = make([]byte, 0, need)
	}
	if z.nextPos > 1<<30 { // keep content positions in int32: forget the tables
		clear(z.table[:])
		clear(z.chain[:])
		z.nextPos = 1
	}
	z.win = z.win[:0]
	z.winBase, z.start, z.ins = z.nextPos, z.nextPos, z.nextPos
	z.rows, z.streamRows = 0, 0
	z.lastCopy = z.lastCopy[:0]
	z.adlerA, z.adlerB, z.repeats = 1, 0, 0
	z.pendDist, z.pendLen = 0, 0
	z.ntok = 0
	clear(z.litFreq[:])
	clear(z.distFreq[:])
}

// keep returns how many bytes of content the window keeps when it slides: whole rows, at least
// the 32K that matches reach (content distances never exceed stream distances) and a row.
func (z *zlibWriter) keep() int {
	rows := (max(maxDistance, z.rowLen) + z.rowLen - 1) / z.rowLen
	return rows * z.rowLen
}

// nextRow returns where the caller puts the next distinct row before commitRow.
func (z *zlibWriter) nextRow() []byte {
	if len(z.win)+z.rowLen > cap(z.win) {
		drop := len(z.win) - z.keep()
		copy(z.win, z.win[drop:])
		z.win = z.win[:len(z.win)-drop]
		z.winBase += drop
	}
	return z.win[len(z.win) : len(z.win)+z.rowLen]
}

// commitRow compresses the first n bytes of the row that nextRow returned: n is the row length,
// or less for a final short row.
func (z *zlibWriter) commitRow(n int) {
	z.addRepeats()
	p0 := len(z.win)
	z.win = z.win[:p0+n]
	s, w := z.matchRow(p0, p0+n)
	z.rowS, z.rowW, z.constRow = s, w, 0
	z.adlerB = uint32((uint64(z.adlerB) + uint64(n%adlerMod)*uint64(z.adlerA) + uint64(w)) % adlerMod)
	z.adlerA = (z.adlerA + s) % adlerMod
	z.lastCopy = append(z.lastCopy, int32(z.streamRows))
	z.rows++
	z.streamRows++
}

// repeatRows adds k copies of the previous row: a match at the row's distance, or at distance 1
// when the row is one byte repeated, which the previous match usually continues.
func (z *zlibWriter) repeatRows(k int) {
	n := z.rowLen
	if n > maxDistance || n < minMatch { // too far or too short to copy: new rows
		for range k {
			row := z.nextRow()
			copy(row, z.win[len(z.win)-n:])
			z.commitRow(n)
		}
		return
	}
	d := n
	if z.isConstRow() {
		d = 1
	}
	z.match(d, k*n)
	z.repeats += k
	z.streamRows += k
	z.lastCopy[z.rows-1] = int32(z.streamRows - 1)
}

// isConstRow reports whether the last distinct row is one byte repeated.
func (z *zlibWriter) isConstRow() bool {
	if z.constRow == 0 {
		row := z.win[len(z.win)-z.rowLen:]
		z.constRow = 2
		if matchLen(row[1:], row) == len(row)-1 {
			z.constRow = 1
		}
	}
	return z.constRow == 1
}

// finish ends the stream: the last block, padding to a byte, and the Adler-32 of the
// uncompressed data (RFC 1950 2.2, most significant byte first). It returns dst.
func (z *zlibWriter) finish() []byte {
	if z.pendLen > 0 {
		z.flushMatch()
	}
	z.writeBlock(true)
	if z.nacc%8 != 0 {
		z.putBits(0, 8-z.nacc%8)
	}
	z.flushBits()
	z.addRepeats()
	z.nextPos = z.winBase + len(z.win) + 1
	dst := binary.BigEndian.AppendUint32(z.dst, z.adlerB<<16|z.adlerA)
	z.dst = nil
	return dst
}

// addRepeats adds the pending repeats of the last distinct row to the running Adler-32 (RFC 1950
// 8.2). A row d[0..n) adds s = Σd[i] to A and n·A + w, with w = Σ(n−i)·d[i], to B; so r copies
// add r·s to A and r·w + n·(r·A + s·r(r−1)/2) to B.
func (z *zlibWriter) addRepeats() {
	if z.repeats == 0 {
		return
	}
	const m = adlerMod
	r, n := uint64(z.repeats), uint64(z.rowLen)%m
	a, s, w := uint64(z.adlerA), uint64(z.rowS), uint64(z.rowW)
	pairs := r * (r - 1) / 2 % m
	z.adlerB = uint32((uint64(z.adlerB) + r%m*w + n*((r%m*a+s*pairs)%m)) % m)
	z.adlerA = uint32((a + r%m*s) % m)
	z.repeats = 0
}

// adlerSums returns s = Σb[i] and w = Σ(len(b)−i)·b[i] modulo 65521: what the bytes b add to A and
// (besides len(b)·A) to B of Adler-32. It takes 8 bytes at a time: their sum, and their sum
// weighted 8, 7, …, 1, come from multiplying 16-bit lanes of even and odd bytes.
func adlerSums(b []byte) (s, w uint32) {
	const (
		lanes = 0x00FF00FF00FF00FF
		ones  = 0x0001000100010001
		even  = 2 | 4<<16 | 6<<32 | 8<<48 // weights of bytes 6, 4, 2, 0, in reverse lane order
		odd   = 1 | 3<<16 | 5<<32 | 7<<48 // weights of bytes 7, 5, 3, 1
	)
	var s64, w64 uint64
	for len(b) > 0 {
		chunk := b[:min(len(b), 1<<16)] // short enough that w64 stays far below 2^64
		b = b[len(chunk):]
		for len(chunk) >= 8 {
			x := binary.LittleEndian.Uint64(chunk)
			chunk = chunk[8:]
			if x == 0 { // common in rows filtered Up
				w64 += 8 * s64
				continue
			}
			e, o := x&lanes, x>>8&lanes
			w64 += 8*s64 + (e*even)>>48 + (o*odd)>>48
			s64 += (e + o) * ones >> 48
		}
		for _, c := range chunk {
			s64 += uint64(c)
			w64 += s64
		}
		s64, w64 = s64%adlerMod, w64%adlerMod
	}
	return uint32(s64), uint32(w64)
}

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
func (z *zlibWriter) matchRow(p0, end int) (s, w uint32) {
	if z.ntok < z.costTokens || z.ntok-z.costTokens >= costInterval || z.rows == 0 {
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
func (z *zlibWriter) addSpan(p, q int) {
	if k := len(z.spans); k > 0 && int(z.spans[k-1]) == p {
		z.spans[k-1] = int32(q)
		return
	}
	z.spans = append(z.spans, int32(p), int32(q))
}

// rowSums returns the Adler-32 sums of the row win[p0:end): when much of it was copied from the
// row above, from the row above's sums corrected at the spans that were not.
func (z *zlibWriter) rowSums(p0, end int) (s, w uint32) {
	n := z.rowLen
	other := 0
	for i := 0; i < len(z.spans); i += 2 {
		other += int(z.spans[i+1] - z.spans[i])
	}
	if z.rows == 0 || end-p0 != n || 2*other >= n {
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

// modAdler reduces x modulo 65521 into 0..65520.
func modAdler(x int64) uint32 {
	x %= adlerMod
	if x < 0 {
		x += adlerMod
	}
	return uint32(x)
}

// matchCand is a match found at a position: its length and stream distance, and the bits it
// saves (gain, in sixteenths); a gain of 0 or less means a literal is better.
type matchCand struct {
	len, dist, gain int
}

// bestMatch returns the match at win[p] (in the row win[p0:end)) that saves the most bits; at
// tells whether the pending match ends at p, so that a match there can continue it. It first
// enters the positions before p into the hash chains.
func (z *zlibWriter) bestMatch(p, p0, end int, at bool) matchCand {
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
	if z.rows > 0 && n <= maxDistance && win[p] == win[p-n] {
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
func (z *zlibWriter) matchAt(c, p, p0, end int) (l, d int) {
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
func (z *zlibWriter) rowOf(x int) int {
	if x < 1<<24 && uint64(x)*uint64(z.rowLen) < 1<<40 {
		return int(uint64(x) * z.recip >> 40)
	}
	return x / z.rowLen
}

// insertTo enters the positions from ins up to p into the hash chains, except those where the
// 8 bytes are one byte repeated (distance 1 does better there), which it skips 8 at a time.
// Positions need 8 bytes, so the last 7 of the content wait for the next row.
func (z *zlibWriter) insertTo(p, end int) {
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
func (z *zlibWriter) matchCost(l, d int, at bool) int {
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
func (z *zlibWriter) updateCosts() {
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

// literal adds the literal byte b, ending the pending match.
func (z *zlibWriter) literal(b byte) {
	if z.pendLen > 0 {
		z.flushMatch()
	}
	z.litFreq[b]++
	z.addToken(token(b))
}

// match adds a copy of l bytes from d bytes back: it extends the pending match when that has
// the same distance, and otherwise replaces it.
func (z *zlibWriter) match(d, l int) {
	if z.pendLen > 0 {
		if d == z.pendDist {
			z.pendLen += l
			return
		}
		z.flushMatch()
	}
	z.pendDist, z.pendLen = d, l
}

// flushMatch emits the pending match as tokens of at most 258 bytes (RFC 1951 3.2.5), the last
// two balanced so that none is shorter than 3.
func (z *zlibWriter) flushMatch() {
	d, l := z.pendDist, z.pendLen
	z.pendLen = 0
	dc := distCode(d)
	dt := token(dc)<<14 | token(d-int(distBase[dc]))<<19
	if l > 2*maxMatch { // all but the last two tokens are of length 258, all alike
		full := (l - maxMatch - 1) / maxMatch
		t := token(257+28) | dt
		z.litFreq[257+28] += uint32(full)
		z.distFreq[dc] += uint32(full)
		for range full {
			z.addToken(t)
		}
		l -= full * maxMatch
	}
	for l > 0 {
		c := min(l, maxMatch)
		if r := l - c; r > 0 && r < minMatch {
			c = l - minMatch
		}
		lc := lengthCode[c-minMatch]
		z.litFreq[257+int(lc)]++
		z.distFreq[dc]++
		z.addToken(token(257+int(lc)) | token(c-int(lengthBase[lc]))<<9 | dt)
		l -= c
	}
}

// addToken appends t to the block, writing the block out when it is full.
func (z *zlibWriter) addToken(t token) {
	z.tokens[z.ntok] = t
	z.ntok++
	if z.ntok == blockTokens {
		z.writeBlock(false)
	}
}

// writeBlock writes the tokens as one compressed block (RFC 1951 3.2.3), with dynamic Huffman
// codes built from their frequencies (BTYPE=10, 3.2.7) or the fixed codes (BTYPE=01, 3.2.6),
// whichever is shorter, and starts the next block.
func (z *zlibWriter) writeBlock(final bool) {
	z.litFreq[endOfBlock] = 1
	z.lit.build(z.litFreq[:], maxCodeBits, &z.hs)
	z.dist.build(z.distFreq[:], maxCodeBits, &z.hs)
	nlit, ndist := numLitLen, numDist
	for nlit > 257 && z.lit.lens[nlit-1] == 0 {
		nlit--
	}
	for ndist > 1 && z.dist.lens[ndist-1] == 0 {
		ndist--
	}
	z.runLengths(nlit, ndist)
	z.codeLen.build(z.clFreq[:], maxCLBits, &z.hs)
	ncl := numCodeLen
	for ncl > 4 && z.codeLen.lens[codeLenOrder[ncl-1]] == 0 {
		ncl--
	}
	dynamic := 5 + 5 + 4 + 3*ncl + z.codeLen.cost(z.clFreq[:]) +
		2*int(z.clFreq[16]) + 3*int(z.clFreq[17]) + 7*int(z.clFreq[18]) +
		z.lit.cost(z.litFreq[:]) + z.dist.cost(z.distFreq[:])
	fixed := fixedLit.cost(z.litFreq[:]) + fixedDist.cost(z.distFreq[:])
	last := uint64(0)
	if final {
		last = 1
	}
	if fixed <= dynamic {
		z.putBits(last|1<<1, 3) // BFINAL, BTYPE=01
		z.writeTokens(&fixedLit, &fixedDist)
	} else {
		z.putBits(last|2<<1, 3) // BFINAL, BTYPE=10
		z.writeCodes(nlit, ndist, ncl)
		z.writeTokens(&z.lit, &z.dist)
	}
	z.ntok = 0
	clear(z.litFreq[:])
	clear(z.distFreq[:])
}

// runLengths codes the code lengths of the literal/length and distance codes, one sequence of
// nlit + ndist lengths, with the code length alphabet of RFC 1951 3.2.7: 0..15 a length, 16
// the previous length 3..6 times, 17 a length of 0 3..10 times, 18 11..138 times. It leaves
// the symbols (with their extra bits' values) in clSyms and counts them in clFreq.
func (z *zlibWriter) runLengths(nlit, ndist int) {
	z.clSyms = z.clSyms[:0]
	clear(z.clFreq[:])
	emit := func(sym, extra int) {
		z.clSyms = append(z.clSyms, uint16(sym|extra<<5))
		z.clFreq[sym]++
	}
	length := func(i int) uint8 {
		if i < nlit {
			return z.lit.lens[i]
		}
		return z.dist.lens[i-nlit]
	}
	for i, total := 0, nlit+ndist; i < total; {
		v, run := length(i), 1
		for i+run < total && length(i+run) == v {
			run++
		}
		i += run
		if v == 0 {
			for ; run >= 11; run -= min(run, 138) {
				emit(18, min(run, 138)-11)
			}
			if run >= 3 {
				emit(17, run-3)
				run = 0
			}
		} else {
			emit(int(v), 0)
			for run--; run >= 3; run -= min(run, 6) {
				emit(16, min(run, 6)-3)
			}
		}
		for ; run > 0; run-- {
			emit(int(v), 0)
		}
	}
}

// writeCodes writes the header of a dynamic block after BTYPE (RFC 1951 3.2.7): HLIT, HDIST,
// HCLEN, the code length code's lengths in codeLenOrder, then the run-length coded lengths.
func (z *zlibWriter) writeCodes(nlit, ndist, ncl int) {
	z.putBits(uint64(nlit-257), 5)
	z.putBits(uint64(ndist-1), 5)
	z.putBits(uint64(ncl-4), 4)
	for _, s := range codeLenOrder[:ncl] {
		z.putBits(uint64(z.codeLen.lens[s]), 3)
	}
	extraBits := [3]uint{2, 3, 7} // of symbols 16, 17, 18
	for _, cs := range z.clSyms {
		s := cs & 31
		z.putBits(uint64(z.codeLen.codes[s]), uint(z.codeLen.lens[s]))
		if s >= 16 {
			z.putBits(uint64(cs>>5), extraBits[s-16])
		}
	}
}

// writeTokens writes the block's tokens with the codes lit and dist, and the end of block. A
// token equal to the one before (the copies of repeated rows come in long runs of them) reuses
// its bits.
func (z *zlibWriter) writeTokens(lit, dist *huffCode) {
	acc, nacc, dst := z.acc, z.nacc, z.dst
	var last token = 1 << 31 // no token: a literal has no other bits, a match's symbol is not 0
	var lastLen, lastDist uint64
	var lastLenBits, lastDistBits uint
	for _, t := range z.tokens[:z.ntok] {
		if t != last {
			last = t
			sym := t & 511
			lastLen, lastLenBits = uint64(lit.codes[sym]), uint(lit.lens[sym])
			lastDist, lastDistBits = 0, 0
			if sym > endOfBlock {
				lastLen |= uint64(t>>9&31) << lastLenBits
				lastLenBits += uint(lengthExtra[sym-257])
				dc := t >> 14 & 31
				lastDist = uint64(dist.codes[dc]) | uint64(t>>19)<<dist.lens[dc]
				lastDistBits = uint(dist.lens[dc]) + uint(distExtra[dc])
			}
		}
		acc |= lastLen << nacc
		nacc += lastLenBits
		if nacc >= 32 {
			dst = binary.LittleEndian.AppendUint32(dst, uint32(acc))
			acc >>= 32
			nacc -= 32
		}
		acc |= lastDist << nacc
		nacc += lastDistBits
		if nacc >= 32 {
			dst = binary.LittleEndian.AppendUint32(dst, uint32(acc))
			acc >>= 32
			nacc -= 32
		}
	}
	z.acc, z.nacc, z.dst = acc, nacc, dst
	z.putBits(uint64(lit.codes[endOfBlock]), uint(lit.lens[endOfBlock]))
}

// putBits writes the n low bits of v (n ≤ 32), least significant first (RFC 1951 3.1.1).
func (z *zlibWriter) putBits(v uint64, n uint) {
	z.acc |= v << z.nacc
	z.nacc += n
	if z.nacc >= 32 {
		z.dst = binary.LittleEndian.AppendUint32(z.dst, uint32(z.acc))
		z.acc >>= 32
		z.nacc -= 32
	}
}

// flushBits moves the whole bytes of the bit buffer to dst.
func (z *zlibWriter) flushBits() {
	for ; z.nacc >= 8; z.nacc -= 8 {
		z.dst = append(z.dst, byte(z.acc))
		z.acc >>= 8
	}
}

// huffCode is a canonical Huffman code (RFC 1951 3.2.2) over up to 286 symbols: each symbol's
// code length (0: unused) and its code, bit-reversed because DEFLATE sends a Huffman code from
// its most significant bit while it packs bits from the least significant (3.1.1).
type huffCode struct {
	codes [numLitLen + 2]uint16 // room for symbols 286 and 287 of the fixed code (3.2.6)
	lens  [numLitLen + 2]uint8
}

// huffScratch is the memory of huffCode.build.
type huffScratch struct {
	used   [numLitLen]uint16     // the symbols used, in order
	keys   [numLitLen]uint64     // frequency<<16 | symbol, of the symbols used
	weight [2 * numLitLen]uint64 // leaves, then internal nodes in order of creation
	parent [2 * numLitLen]int16
	depth  [2 * numLitLen]uint16
}

// build makes the code for the symbol frequencies freq, with no code longer than maxBits.
func (h *huffCode) build(freq []uint32, maxBits int, hs *huffScratch) {
	clear(h.lens[:])
	used := hs.lengths(freq, h.lens[:len(freq)], maxBits)
	h.assignCodes(used)
}

// cost returns the bits that symbols with frequencies freq take in the code.
func (h *huffCode) cost(freq []uint32) int {
	n := 0
	for s, f := range freq {
		n += int(f) * int(h.lens[s])
	}
	return n
}

// assignCodes gives the symbols used, listed in order, their canonical codes (RFC 1951 3.2.2):
// codes of one length are consecutive in symbol order, and shorter codes come before longer
// ones.
func (h *huffCode) assignCodes(used []uint16) {
	var count, next [maxCodeBits + 1]uint16
	for _, s := range used {
		count[h.lens[s]]++
	}
	count[0] = 0
	code := uint16(0)
	for b := 1; b <= maxCodeBits; b++ {
		code = (code + count[b-1]) << 1
		next[b] = code
	}
	for _, s := range used {
		l := h.lens[s]
		h.codes[s] = bits.Reverse16(next[l]) >> (16 - l)
		next[l]++
	}
}

// lengths sets lens[s] to the code length of symbol s in a Huffman code for the frequencies freq
// whose lengths do not exceed maxBits. The code is complete (its Kraft sum is 1), as zlib's and
// Go's decoders want: with fewer than two symbols used, two symbols get one bit each.
//
// The lengths start as the depths of a Huffman tree, built with two queues over the symbols
// sorted by frequency (leaves, and internal nodes, which are made in order of weight). Depths
// beyond maxBits are cut to maxBits, and the Kraft sum, now above 1, is brought back: codes at
// the deepest level below maxBits move one level down until the sum is at most 1, then codes
// move up while the sum stays at most 1. The lengths then go to the symbols, the shortest to
// the most frequent.
func (hs *huffScratch) lengths(freq []uint32, lens []uint8, maxBits int) (used []uint16) {
	m := 0
	for s, f := range freq { // gather the symbols used, without branches
		hs.keys[m] = uint64(f)<<16 | uint64(s)
		m += int((f | -f) >> 31)
	}
	keys := hs.keys[:m]
	if m < 2 {
		a := 0
		if m == 1 {
			a = int(keys[0] & 0xffff)
		}
		b := 1 - min(a, 1)
		lens[a], lens[b] = 1, 1
		hs.used[0], hs.used[1] = uint16(min(a, b)), uint16(max(a, b))
		return hs.used[:2]
	}
	for i, k := range keys {
		hs.used[i] = uint16(k)
	}
	slices.Sort(keys)
	w, parent, depth := hs.weight[:2*m-1], hs.parent[:2*m-1], hs.depth[:2*m-1]
	for i, k := range keys {
		w[i] = k >> 16
	}
	leaf, node := 0, m // next leaf and next internal node not yet in the tree
	for next := m; next < 2*m-1; next++ {
		var two [2]int
		for j := range two {
			if leaf < m && (node == next || w[leaf] <= w[node]) {
				two[j], leaf = leaf, leaf+1
			} else {
				two[j], node = node, node+1
			}
		}
		w[next] = w[two[0]] + w[two[1]]
		parent[two[0]], parent[two[1]] = int16(next), int16(next)
	}
	depth[2*m-2] = 0 // the root; a parent comes after its children
	for i := 2*m - 3; i >= 0; i-- {
		depth[i] = depth[parent[i]] + 1
	}
	var count [maxCodeBits + 1]int
	for _, d := range depth[:m] {
		count[min(int(d), maxBits)]++
	}
	limitLengths(&count, maxBits)
	i := 0
	for l := maxBits; l >= 1; l-- {
		for c := count[l]; c > 0; c-- {
			lens[keys[i]&0xffff] = uint8(l)
			i++
		}
	}
	return hs.used[:m]
}

// limitLengths adjusts count, the number of codes of each length 1..maxBits, to a Kraft sum of
// exactly 1 (counted in units of 2^−maxBits); see lengths.
func limitLengths(count *[maxCodeBits + 1]int, maxBits int) {
	one := 1 << maxBits
	kraft := 0
	for l := 1; l <= maxBits; l++ {
		kraft += count[l] << (maxBits - l)
	}
	for kraft > one {
		l := maxBits - 1
		for count[l] == 0 {
			l--
		}
		count[l]--
		count[l+1]++
		kraft -= 1 << (maxBits - l - 1)
	}
	for kraft < one {
		l := maxBits
		for count[l] == 0 || kraft+1<<(maxBits-l) > one {
			l--
		}
		count[l]--
		count[l-1]++
		kraft += 1 << (maxBits - l)
	}
}
