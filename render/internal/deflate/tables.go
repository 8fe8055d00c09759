package deflate

// This file holds the format's limits and tables and the compressor's settings.

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
