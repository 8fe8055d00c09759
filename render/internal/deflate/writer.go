package deflate

import "encoding/binary"

// Writer compresses rows into a zlib stream appended to dst. Use: Reset; then for each
// distinct row NextRow, fill it in, CommitRow, and for rows that repeat the last one RepeatRows;
// then Finish. The first row is distinct, and only the last row may be shorter than rowLen
// (CommitRow's argument). A Writer is large (window, tokens, tables): reuse it.
type Writer struct {
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

	// The patch table of the stream, if any (see patch.go), and of the current block:
	// each patch's uses, the patches used, and their bits.
	patches   []*Patch // the table, then the head
	headEntry uint16
	zeros     int  // zeros at the end of the last row, not yet added
	bareRow   bool // whether the last row was the head and zeros only (its sums in rowS, rowW)
	patchInfo []patchInfo
	patchUses []uint32 // uses in the block (entry 0, the empty patch, counts too: no bits)
	patchCode []uint64 // each used patch's bits (see codeTokens), and their number
	patchLen  []uint8
	gapUses   [maxPatchGap + 1]uint32 // the same for the gaps of zeros before patches
	gapCode   [maxPatchGap + 1]uint64
	gapLen    [maxPatchGap + 1]uint8
	gapSeen   [(maxPatchGap + 1) / 64]uint64 // bitmaps of the gaps and the patches used in the block
	patchSeen [maxPatches / 64]uint64
	longBits  []uint32 // bit strings longer than 64 bits
	scratch   []token
}

// NewWriter returns a Writer ready for Reset.
func NewWriter() *Writer { return &Writer{nextPos: 1} }

// Reset starts a zlib stream of rows of rowLen bytes, appended to dst.
func (z *Writer) Reset(dst []byte, rowLen int) {
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
	z.forgetUses() // of a stream left unfinished
}

// keep returns how many bytes of content the window keeps when it slides: whole rows, at least
// the 32K that matches reach (content distances never exceed stream distances) and a row.
func (z *Writer) keep() int {
	rows := (max(maxDistance, z.rowLen) + z.rowLen - 1) / z.rowLen
	return rows * z.rowLen
}

// NextRow returns where the caller puts the next distinct row before CommitRow.
func (z *Writer) NextRow() []byte {
	if len(z.win)+z.rowLen > cap(z.win) {
		drop := len(z.win) - z.keep()
		copy(z.win, z.win[drop:])
		z.win = z.win[:len(z.win)-drop]
		z.winBase += drop
	}
	return z.win[len(z.win) : len(z.win)+z.rowLen]
}

// CommitRow compresses the first n bytes of the row that NextRow returned: n is the row length,
// or less for a final short row.
func (z *Writer) CommitRow(n int) {
	z.addRepeats()
	p0 := len(z.win)
	z.win = z.win[:p0+n]
	s, w := z.matchRow(p0, p0+n)
	z.constRow = 0
	z.addRowSums(n, s, w)
	z.lastCopy = append(z.lastCopy, int32(z.streamRows))
	z.streamRows++
}

// RepeatRows adds k copies of the previous row: a match at the row's distance, or at distance 1
// when the row is one byte repeated, which the previous match usually continues.
func (z *Writer) RepeatRows(k int) {
	n := z.rowLen
	if n > maxDistance || n < minMatch { // too far or too short to copy: new rows
		for range k {
			row := z.NextRow()
			copy(row, z.win[len(z.win)-n:])
			z.CommitRow(n)
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
func (z *Writer) isConstRow() bool {
	if z.constRow == 0 {
		row := z.win[len(z.win)-z.rowLen:]
		z.constRow = 2
		if matchLen(row[1:], row) == len(row)-1 {
			z.constRow = 1
		}
	}
	return z.constRow == 1
}

// Finish ends the stream: the last block, padding to a byte, and the Adler-32 of the
// uncompressed data (RFC 1950 2.2, most significant byte first). It returns dst.
func (z *Writer) Finish() []byte {
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

// literal adds the literal byte b, ending the pending match.
func (z *Writer) literal(b byte) {
	if z.pendLen > 0 {
		z.flushMatch()
	}
	z.litFreq[b]++
	z.addToken(token(b))
}

// match adds a copy of l bytes from d bytes back: it extends the pending match when that has
// the same distance, and otherwise replaces it.
func (z *Writer) match(d, l int) {
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
func (z *Writer) flushMatch() {
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
func (z *Writer) addToken(t token) {
	z.tokens[z.ntok] = t
	z.ntok++
	if z.ntok == blockTokens {
		z.writeBlock(false)
	}
}
