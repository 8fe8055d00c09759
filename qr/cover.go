package qr

// A cover is a square of modules that a renderer draws light whatever they hold, such as the
// pad under a logo. Every dark data module under it is then read wrongly, and so is the
// codeword it belongs to: the Reed–Solomon code of that codeword's block has to correct it
// (ISO/IEC 18004:2015 7.5.2), out of the same budget that damage in the field (blur, glare,
// dirt) draws on. Encode (see Options.Cover) keeps the cover's share of every block's budget at
// most maxCoverShare, choosing the level, the version and the data mask to do so.

// maxCoverShare is the largest share of a block's error correction capacity that the cover may
// use. Half leaves the other half for damage in the field; the scan benchmark (bench/scan)
// measured it: with it, codes with the banana read about as often as codes without.
const maxCoverShare = 0.5

// misdecodeProtection is the number of error correction codewords that small symbols keep for
// detecting errors rather than correcting them (ISO/IEC 18004:2015 Table 9, note "p"), by level
// rank (L, M, Q, H) and version 1 to 3; larger symbols keep none.
var misdecodeProtection = [4][4]int{
	{0, 3, 2, 1}, // L
	{0, 2, 0, 0}, // M
	{0, 1, 0, 0}, // Q
	{0, 1, 0, 0}, // H
}

// correctable returns how many codeword errors each block of a version v symbol at level l
// can correct: half its error correction codewords, less the misdecode protection.
func correctable(v int, l Level) int {
	r := l.rank()
	p := 0
	if v < len(misdecodeProtection[r]) {
		p = misdecodeProtection[r][v]
	}
	return (int(eccPerBlock[r][v]) - p) / 2
}

// square is the cover of a symbol: modules first to first+side-1 in both directions.
type square struct{ first, side int }

// covered returns the placement positions (indices into p.order) of the data modules of p
// under c, in order. A renderer covers the same square of a version every time (a logo's pad),
// so the positions are found once per square and kept with the plan.
func (p *plan) covered(c square) []int32 {
	if pos, ok := p.coveredBy.Load(c); ok {
		return pos.([]int32)
	}
	var dst []int32
	for i, idx := range p.order {
		word := int(idx) >> 6
		x := word/p.rows*64 + int(idx)&63
		y := word%p.rows - pad
		if uint(x-c.first) < uint(c.side) && uint(y-c.first) < uint(c.side) {
			dst = append(dst, int32(i))
		}
	}
	if p.coveredSquares.Add(1) <= maxCoveredSquares {
		p.coveredBy.Store(c, dst)
	}
	return dst
}

// maxCoveredSquares bounds the squares whose positions a plan keeps: Options.Cover is the
// caller's function and could name a new square every time.
const maxCoveredSquares = 8

// blockOf returns the block of the k-th codeword of the final sequence of a version v symbol
// at level l, undoing the interleaving of appendCodewords (7.6).
func blockOf(k, v int, l Level) int {
	r := l.rank()
	blocks := int(eccBlocks[r][v])
	total := totalCodewords(v)
	data := dataCodewords(v, l)
	short := blocks - total%blocks
	shortLen := total/blocks - int(eccPerBlock[r][v])
	switch {
	case k < shortLen*blocks:
		return k % blocks
	case k < data:
		return short + k - shortLen*blocks
	default:
		return (k - data) % blocks
	}
}

// coverAllows returns the data masks (bit m for mask m) under which the cover damages no block
// of the symbol in e.matrix beyond maxCoverShare of what it can correct. It uses e.damage as
// scratch.
func (e *encoder) coverAllows(p *plan, l Level, c square) (allowed uint8) {
	covered := p.covered(c)
	budget := int(maxCoverShare * float64(correctable(p.version, l)))
	blocks := int(eccBlocks[l.rank()][p.version])
	total := totalCodewords(p.version)
	for m := range 8 {
		e.damage = resize(e.damage, blocks)
		lastWord, worst := -1, 0
		for _, i := range covered {
			k := int(i) / 8
			if k >= total || k == lastWord {
				continue // a remainder bit, or a codeword already counted
			}
			if idx := p.order[i]; !bit(e.matrix, int(idx)) != !bit(p.mask[m], int(idx)) {
				lastWord = k
				b := blockOf(k, p.version, l)
				e.damage[b]++
				worst = max(worst, e.damage[b])
			}
		}
		if worst <= budget {
			allowed |= 1 << m
		}
	}
	return allowed
}
