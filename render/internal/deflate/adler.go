package deflate

import "encoding/binary"

// This file keeps the stream's Adler-32 (RFC 1950 8.2) by rows.

// addRowSums adds a row of n bytes with sums s and w (see adlerSums) to the running Adler-32
// (RFC 1950 8.2), and keeps the sums for repeats of the row.
func (z *Writer) addRowSums(n int, s, w uint32) {
	z.adlerB = uint32((uint64(z.adlerB) + uint64(n%adlerMod)*uint64(z.adlerA) + uint64(w)) % adlerMod)
	z.adlerA = (z.adlerA + s) % adlerMod
	z.rowS, z.rowW = s, w
}

// addRepeats adds the pending repeats of the last distinct row to the running Adler-32 (RFC 1950
// 8.2). A row d[0..n) adds s = Σd[i] to A and n·A + w, with w = Σ(n−i)·d[i], to B; so r copies
// add r·s to A and r·w + n·(r·A + s·r(r−1)/2) to B.
func (z *Writer) addRepeats() {
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
