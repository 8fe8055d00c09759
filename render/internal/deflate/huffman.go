package deflate

import (
	"math/bits"
	"slices"
)

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
