package qr

// transpose64 transposes a 64×64 bit matrix in place: bit j of a[i] trades places with bit i
// of a[j]. It swaps the off-diagonal 32×32 blocks, then the 16×16 blocks within each, and so
// on down to single bits (Hacker's Delight, 7-3). When only the first 32 rows and columns can
// be set, the 32×32 step is skipped.
func transpose64(a *[64]uint64, small bool) {
	j, m, rows := 32, uint64(0x00000000ffffffff), 64 // m: the low half of each 2j-bit group
	if small {
		j, m, rows = 16, 0x0000ffff0000ffff, 32
	}
	for ; j != 0; j, m = j>>1, m^(m<<(j>>1)) {
		for k := 0; k < rows; k = (k + j + 1) &^ j {
			t := (a[k]>>j ^ a[k+j]) & m
			a[k] ^= t << j
			a[k+j] ^= t
		}
	}
}

// transposeBitmap writes to dst the transpose of the matrix src laid out by plan p.
func transposeBitmap(dst, src []uint64, p *plan, block *[64]uint64) {
	n := p.size
	for by := range p.stride { // rows 64by to 64by+63 of src
		rows := min(64, n-64*by)
		for bx := range p.stride { // columns 64bx to 64bx+63 of src
			from := src[bx*p.rows+pad+64*by:]
			copy(block[:rows], from[:rows])
			clear(block[rows:])
			transpose64(block, n <= 32)
			to := dst[by*p.rows+pad+64*bx:]
			copy(to[:min(64, n-64*bx)], block[:])
		}
	}
}
