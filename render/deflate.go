package render

import "encoding/binary"

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
	bw bitWriter // the stream so far

	rowLen     int     // bytes per row
	recip      uint64  // ⌈2^40/rowLen⌉, to divide by rowLen (see rowOf)
	win        []byte  // the content window: recent distinct rows, the last one at the end
	winBase    int     // content position of win[0], always the start of a row
	start      int     // content position of this stream's first row
	ins        int     // content position of the next position to enter the hash chains
	streamRows int     // rows so far, distinct and repeated
	lastCopy   []int32 // for each distinct row so far, the stream row of its last copy
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

	// The patch table of the stream, if any (see deflate_patch.go), and of the current block:
	// each patch's uses, the patches used, and their bits.
	patches   []*patch // the table, then the head
	headEntry uint16
	zeros     int // zeros at the end of the last row, not yet added
	patchInfo []patchInfo
	patchUses []uint32 // uses in the block (entry 0, the empty patch, counts too: no bits)
	patchCode []uint64 // each used patch's bits (see codeTokens), and their number
	patchLen  []uint8
	gapUses   [maxPatchGap + 1]uint32 // the same for the gaps of zeros before patches
	gapCode   [maxPatchGap + 1]uint64
	gapLen    [maxPatchGap + 1]uint8
	longBits  []uint32 // bit strings longer than 64 bits
	scratch   []token
}

// newZlibWriter returns a zlibWriter ready for reset.
func newZlibWriter() *zlibWriter { return &zlibWriter{nextPos: 1} }

// reset starts a zlib stream of rows of rowLen bytes, appended to dst.
func (z *zlibWriter) reset(dst []byte, rowLen int) {
	// RFC 1950 2.2: CMF is CM 8 (deflate) and CINFO 7 (32K window); FLG is FLEVEL 2 (the
	// default algorithm), no preset dictionary, and FCHECK making CMF·256 + FLG a multiple of 31.
	const cmf, flevel = 8 | 7<<4, 2 << 6
	z.bw = bitWriter{dst: append(dst, cmf, flevel+31-(cmf<<8|flevel)%31)}
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
	z.streamRows = 0
	z.lastCopy = z.lastCopy[:0]
	z.adlerA, z.adlerB, z.repeats = 1, 0, 0
	z.pendDist, z.pendLen = 0, 0
	z.ntok = 0
	clear(z.litFreq[:])
	clear(z.distFreq[:])
	z.patches, z.zeros = z.patches[:0], 0
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
	z.constRow = 0
	z.addRowSums(n, s, w)
	z.lastCopy = append(z.lastCopy, int32(z.streamRows))
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
	z.lastCopy[len(z.lastCopy)-1] = int32(z.streamRows - 1)
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
	z.flushZeros()
	if z.pendLen > 0 {
		z.flushMatch()
	}
	z.writeBlock(true)
	z.bw.align()
	z.addRepeats()
	z.nextPos = z.winBase + len(z.win) + 1
	dst := binary.BigEndian.AppendUint32(z.bw.dst, z.adlerB<<16|z.adlerA)
	z.bw.dst = nil
	return dst
}

// addRowSums adds a row of n bytes with sums s and w (see adlerSums) to the running Adler-32
// (RFC 1950 8.2), and keeps the sums for repeats of the row.
func (z *zlibWriter) addRowSums(n int, s, w uint32) {
	z.adlerB = uint32((uint64(z.adlerB) + uint64(n%adlerMod)*uint64(z.adlerA) + uint64(w)) % adlerMod)
	z.adlerA = (z.adlerA + s) % adlerMod
	z.rowS, z.rowW = s, w
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

// modAdler reduces x modulo 65521 into 0..65520.
func modAdler(x int64) uint32 {
	x %= adlerMod
	if x < 0 {
		x += adlerMod
	}
	return uint32(x)
}

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
		c := matchChunk(l)
		t := lengthToken(c)
		z.litFreq[t&511]++
		z.distFreq[dc]++
		z.addToken(t | dt) // lengthToken's distance, 1, has code 0 and no extra bits
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
