package qr

import "sync"

// Arithmetic in GF(2⁸) with the primitive polynomial x⁸+x⁴+x³+x²+1 (ISO/IEC 18004:2015 7.5.2).
const gfPolynomial = 0x11d

// gfExp[i] is α^i (doubled in length so that a sum of two logarithms needs no reduction);
// gfLog[x] is the logarithm of x ≠ 0.
var gfExp, gfLog = func() (exp [510]byte, log [256]byte) {
	x := 1
	for i := range 255 {
		exp[i], exp[i+255] = byte(x), byte(x)
		log[x] = byte(i)
		x <<= 1
		if x&0x100 != 0 {
			x ^= gfPolynomial
		}
	}
	return exp, log
}()

func gfMul(a, b byte) byte {
	if a == 0 || b == 0 {
		return 0
	}
	return gfExp[int(gfLog[a])+int(gfLog[b])]
}

// A remainder holds up to 32 error correction codewords packed in four words, the first
// codeword in the top byte of the first word: division by the generator polynomial then moves
// whole words instead of single bytes.
type remainder [4]uint64

// divisor is the generator polynomial of degree n (ISO/IEC 18004:2015 7.5.2, Annex A), kept as
// the product of each of its coefficients with every byte: product[f] is the remainder
// f·(g(x) − xⁿ), which the division subtracts when the leading term is f.
type divisor struct {
	once    sync.Once
	product [256]remainder
}

// maxBlocks is the largest number of error correction blocks (version 40-H, Table 9).
const maxBlocks = 81

// divisors holds the generator polynomials by degree; ISO/IEC 18004 uses degrees 7 to 30.
var divisors [31]divisor

// divisorOf returns the generator polynomial of degree n, built on first use.
func divisorOf(n int) *[256]remainder {
	d := &divisors[n]
	d.once.Do(func() {
		// g(x) = (x − α⁰)(x − α¹)…(x − αⁿ⁻¹); coef holds its coefficients below xⁿ,
		// highest power first.
		coef := make([]byte, n)
		coef[n-1] = 1
		root := byte(1)
		for range n {
			for j := range coef {
				coef[j] = gfMul(coef[j], root)
				if j+1 < n {
					coef[j] ^= coef[j+1]
				}
			}
			root = gfMul(root, 2)
		}
		for f := range 256 {
			var r remainder
			for j, c := range coef {
				r[j/8] |= uint64(gfMul(c, byte(f))) << (56 - 8*(j%8))
			}
			d.product[f] = r
		}
	})
	return &d.product
}

// appendECC appends to dst the n error correction codewords of the data block: the remainder
// of data(x)·xⁿ divided by the generator polynomial (ISO/IEC 18004:2015 7.5.2).
func appendECC(dst, data []byte, n int) []byte {
	product := divisorOf(n)
	var r remainder
	for _, b := range data {
		p := &product[b^byte(r[0]>>56)]
		r[0] = (r[0]<<8 | r[1]>>56) ^ p[0]
		r[1] = (r[1]<<8 | r[2]>>56) ^ p[1]
		r[2] = (r[2]<<8 | r[3]>>56) ^ p[2]
		r[3] = r[3]<<8 ^ p[3]
	}
	for j := range n {
		dst = append(dst, byte(r[j/8]>>(56-8*(j%8))))
	}
	return dst
}

// appendCodewords appends the final codeword sequence of a version v symbol at level l: the
// data codewords split into blocks, each block's error correction codewords, and both
// interleaved block by block (ISO/IEC 18004:2015 7.5.2, 7.6). ecc is scratch memory.
func appendCodewords(dst, data []byte, v int, l Level, ecc []byte) ([]byte, []byte) {
	r := l.rank()
	blocks := int(eccBlocks[r][v])
	eccLen := int(eccPerBlock[r][v])
	total := totalCodewords(v)
	short := blocks - total%blocks    // the first blocks are one data codeword shorter
	shortLen := total/blocks - eccLen // data codewords in a short block
	var starts [maxBlocks + 1]int     // where each block's data codewords start
	ecc = ecc[:0]
	for b := range blocks {
		n := shortLen
		if b >= short {
			n++
		}
		starts[b+1] = starts[b] + n
		ecc = appendECC(ecc, data[starts[b]:starts[b+1]], eccLen)
	}
	// Data codewords: the i-th of every block in turn; only long blocks have a last one.
	for i := range shortLen {
		for _, start := range starts[:blocks] {
			dst = append(dst, data[start+i])
		}
	}
	for _, start := range starts[short:blocks] {
		dst = append(dst, data[start+shortLen])
	}
	for i := range eccLen {
		for b := range blocks {
			dst = append(dst, ecc[b*eccLen+i])
		}
	}
	return dst, ecc
}
