package render

import "encoding/binary"

// This file writes zlibWriter's blocks: the Huffman codes of a block (RFC 1951 3.2.7) and its
// tokens in them.

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
