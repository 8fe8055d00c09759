package qr

// A cover is a square of modules that a renderer draws over whatever they hold: light, such as
// the pad under a logo, or a picture of its own, such as the Swiss QR Code's cross (what it
// draws on each module is Options.CoverPaint). Every data module under it whose colour is not
// the one drawn is then read wrongly, and so is the codeword it belongs to: the Reed–Solomon code of that codeword's block has to correct it
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

// CoverPaint says what a renderer draws over the module (x, y) of a symbol of n modules a side,
// inside the cover: light, dark, both (a module split between two colours of the picture, which
// counts as wrong whatever the module holds), or neither (the module shows as it is).
type CoverPaint func(n, x, y int) (light, dark bool)

// What CoverPaint draws over a covered module, as bits of encoder.painted.
const (
	paintLight = 1 << iota
	paintDark
)

// paint returns what paint draws over each of the covered modules of p (placement positions),
// in e.painted; nil for a cover drawn light (paint nil).
func (e *encoder) paint(p *plan, covered []int32, paint CoverPaint) []uint8 {
	if paint == nil {
		return nil
	}
	e.painted = e.painted[:0]
	n := symbolSize(p.version)
	for _, i := range covered {
		idx := p.order[i]
		word := int(idx) >> 6
		light, dark := paint(n, word/p.rows*64+int(idx)&63, word%p.rows-pad)
		var b uint8
		if light {
			b |= paintLight
		}
		if dark {
			b |= paintDark
		}
		e.painted = append(e.painted, b)
	}
	return e.painted
}

// coverAllows returns the data masks (bit m for mask m) under which the cover, drawn as paint
// says (nil: light), damages no block of the symbol in e.matrix beyond maxCoverShare of what it
// can correct. It uses e.damage and e.painted as scratch.
func (e *encoder) coverAllows(p *plan, l Level, c square, paint CoverPaint) (allowed uint8) {
	covered := p.covered(c)
	painted := e.paint(p, covered, paint)
	budget := int(maxCoverShare * float64(correctable(p.version, l)))
	blocks := int(eccBlocks[l.rank()][p.version])
	total := totalCodewords(p.version)
	for m := range 8 {
		e.damage = resize(e.damage, blocks)
		lastWord, worst := -1, 0
		for j, i := range covered {
			k := int(i) / 8
			if k >= total || k == lastWord {
				continue // a remainder bit, or a codeword already counted
			}
			idx := p.order[i]
			dark := !bit(e.matrix, int(idx)) != !bit(p.mask[m], int(idx))
			wrong := dark // drawn light
			if painted != nil {
				wrong = dark && painted[j]&paintLight != 0 || !dark && painted[j]&paintDark != 0
			}
			if wrong {
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
