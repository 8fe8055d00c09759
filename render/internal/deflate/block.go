package deflate

import (
	"encoding/binary"
	"slices"
)

// This file writes Writer's blocks: the Huffman codes of a block (RFC 1951 3.2.7) and its
// tokens in them.

// writeBlock writes the tokens as one compressed block (RFC 1951 3.2.3), with dynamic Huffman
// codes built from their frequencies (BTYPE=10, 3.2.7) or the fixed codes (BTYPE=01, 3.2.6),
// whichever is shorter, and starts the next block.
func (z *Writer) writeBlock(final bool) {
	z.litFreq[endOfBlock] = 1
	z.countPatches()
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
	extra := 0 // the extra bits of lengths and distances, the same in both codes
	for lc, f := range z.litFreq[257:] {
		extra += int(f) * int(lengthExtra[lc])
	}
	for dc, f := range z.distFreq {
		extra += int(f) * int(distExtra[dc])
	}
	z.bw.dst = slices.Grow(z.bw.dst, (3+min(fixed, dynamic)+extra)/8+16) // and the rest of the file
	lit, dist := &z.lit, &z.dist
	if fixed <= dynamic {
		lit, dist = &fixedLit, &fixedDist
		z.bw.put(last|1<<1, 3) // BFINAL, BTYPE=01
	} else {
		z.bw.put(last|2<<1, 3) // BFINAL, BTYPE=10
		z.writeCodes(nlit, ndist, ncl)
	}
	z.codePatches(lit, dist)
	z.writeTokens(lit, dist)
	z.ntok = 0
	clear(z.litFreq[:])
	clear(z.distFreq[:])
}

// runLengths codes the code lengths of the literal/length and distance codes, one sequence of
// nlit + ndist lengths, with the code length alphabet of RFC 1951 3.2.7: 0..15 a length, 16
// the previous length 3..6 times, 17 a length of 0 3..10 times, 18 11..138 times. It leaves
// the symbols (with their extra bits' values) in clSyms and counts them in clFreq.
func (z *Writer) runLengths(nlit, ndist int) {
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
func (z *Writer) writeCodes(nlit, ndist, ncl int) {
	z.bw.put(uint64(nlit-257), 5)
	z.bw.put(uint64(ndist-1), 5)
	z.bw.put(uint64(ncl-4), 4)
	for _, s := range codeLenOrder[:ncl] {
		z.bw.put(uint64(z.codeLen.lens[s]), 3)
	}
	extraBits := [3]uint{2, 3, 7} // of symbols 16, 17, 18
	for _, cs := range z.clSyms {
		s := cs & 31
		z.bw.put(uint64(z.codeLen.codes[s]), uint(z.codeLen.lens[s]))
		if s >= 16 {
			z.bw.put(uint64(cs>>5), extraBits[s-16])
		}
	}
}

// writeTokens writes the block's tokens with the codes lit and dist, and the end of block. A
// token equal to the one before (the copies of repeated rows come in long runs of them) reuses
// its bits; a patch token's bits are its gap's and its patch's (see codePatches).
func (z *Writer) writeTokens(lit, dist *huffCode) {
	acc, nacc, dst := z.bw.acc, z.bw.n, z.bw.dst // bitWriter.put, inlined by hand
	var last token = 1 << 31                     // no token: a literal has no other bits, a match's symbol is not 0
	var code uint64
	var n uint
	for _, t := range z.tokens[:z.ntok] {
		var v uint64 // the token's bits, and their number
		var m uint
		if t&511 == patchSym {
			g, i := t>>patchGapBits, t>>9&(maxPatches-1)
			gl, pl := uint(z.gapLen[g]), uint(z.patchLen[i])
			if gl+pl > 64 { // one of them is long, or both together
				z.bw = bitWriter{dst, acc, nacc}
				z.bw.putCode(z.gapCode[g], gl, z.longBits)
				z.bw.putCode(z.patchCode[i], pl, z.longBits)
				acc, nacc, dst = z.bw.acc, z.bw.n, z.bw.dst
				continue
			}
			v, m = z.gapCode[g]|z.patchCode[i]<<gl, gl+pl
		} else {
			if t != last {
				last = t
				code, n = tokenBits(t, lit, dist)
			}
			v, m = code, n
		}
		acc |= v << nacc
		if nacc+m < 64 {
			nacc += m
			continue
		}
		dst = binary.LittleEndian.AppendUint64(dst, acc)
		acc = v >> (64 - nacc)
		nacc += m - 64
	}
	z.bw = bitWriter{dst, acc, nacc}
	z.bw.put(uint64(lit.codes[endOfBlock]), uint(lit.lens[endOfBlock]))
}

// A bitWriter appends bits to dst, least significant first (RFC 1951 3.1.1), through a 64-bit
// buffer.
type bitWriter struct {
	dst []byte
	acc uint64 // bits not yet in dst
	n   uint   // number of bits in acc, below 64
}

// put writes the n low bits of v (n ≤ 64, v no wider).
func (b *bitWriter) put(v uint64, n uint) {
	b.acc |= v << b.n
	if b.n+n < 64 {
		b.n += n
		return
	}
	b.dst = binary.LittleEndian.AppendUint64(b.dst, b.acc)
	b.acc = v >> (64 - b.n) // 0 when b.n is 0: Go shifts by 64 give 0
	b.n += n - 64
}

// putCode writes the n bits of code, or when n is longCode the bits that long holds at code:
// their number, then the bits 32 a word (see codeTokens).
func (b *bitWriter) putCode(code uint64, n uint, long []uint32) {
	if n != longCode {
		b.put(code, n)
		return
	}
	n = uint(long[code])
	for _, w := range long[code+1 : code+1+uint64(n+31)/32] {
		b.put(uint64(w), min(n, 32))
		n -= min(n, 32)
	}
}

// align pads the bits to a whole byte with zeros and moves them all to dst.
func (b *bitWriter) align() {
	for ; b.n > 0; b.n -= min(b.n, 8) {
		b.dst = append(b.dst, byte(b.acc))
		b.acc >>= 8
	}
}
