package qr

import (
	"math"
	"math/bits"
)

// Penalty points of the four rules that rate a masked symbol (ISO/IEC 18004:2015 7.8.3,
// Table 11): N1 for each run of five or more modules of one colour in a row or column, plus
// one per module beyond five; N2 for each 2×2 block of one colour; N3 for each finder-like
// pattern 1:1:3:1:1 with four light modules on one side; N4 for each 5% by which the share of
// dark modules strays from 50%.
//
// The rules are scored as Nayuki's qrcodegen scores them, a careful reading of the standard:
// on the symbol with the format information of the candidate mask drawn; a finder-like pattern
// may be scaled (n:n:3n:n:n, its light sides at least n and 4n) and its runs must be exact;
// the area outside the symbol counts as light.
const (
	penaltyN1 = 3
	penaltyN2 = 3
	penaltyN3 = 40
	penaltyN4 = 10
)

// chooseMask returns the data mask, of those in allowed (bit m for mask m, at least one), with
// the fewest penalty points for the data modules in matrix (and its transpose matrixT) at level
// l; ties go to the lower mask number (ISO/IEC 18004:2015 7.8.3). It uses e.cand and e.candT as
// scratch.
func (e *encoder) chooseMask(p *plan, l Level, allowed uint8) int {
	e.cand = resize(e.cand, p.words())
	e.candT = resize(e.candT, p.words())
	best, bestPoints := 0, math.MaxInt
	for m := range 8 {
		if allowed>>m&1 == 0 {
			continue
		}
		// The parts of the score are added from the cheapest; as none is negative, a mask is
		// dropped as soon as it cannot beat the best so far.
		dark := p.draw(e.cand, e.matrix, p.pattern, p.mask[m], l, m, false)
		points := balancePenalty(dark, p.size*p.size)
		if points += blockPenalty(e.cand, p); points >= bestPoints {
			continue
		}
		if points += linePenalty(e.cand, p); points >= bestPoints {
			continue
		}
		p.draw(e.candT, e.matrixT, p.patternT, p.maskT[m], l, m, true)
		if points += linePenalty(e.candT, p); points < bestPoints {
			best, bestPoints = m, points
		}
	}
	return best
}

// draw writes to dst the symbol with data modules data under mask pattern mask, function
// patterns pattern, and the format information of level l and mask m, transposed or not, and
// returns the number of dark modules.
func (p *plan) draw(dst, data, pattern, mask []uint64, l Level, m int, transposed bool) (dark int) {
	for w := range p.stride {
		lo, hi := w*p.rows+pad, w*p.rows+pad+p.size // the symbol's rows; padding stays light
		out, d, pt, mk := dst[lo:hi], data[lo:hi], pattern[lo:hi], mask[lo:hi]
		for i := range out {
			v := pt[i] | (d[i] ^ mk[i])
			out[i] = v
			dark += bits.OnesCount64(v)
		}
	}
	t := 0
	if transposed {
		t = 1
	}
	for i, w := range p.formatWords[t] {
		dst[w] |= p.format[t][l][m][i]
	}
	return dark + 2*bits.OnesCount32(formatBits[l][m])
}

// balancePenalty returns the rule 4 points for dark modules out of total: N4 for each full 5%
// by which the dark share strays from 50%, that is the least k with
// (45−5k)% ≤ dark/total ≤ (55+5k)%.
func balancePenalty(dark, total int) int {
	k := (abs(dark*20-total*10)+total-1)/total - 1
	return k * penaltyN4
}

// blockPenalty returns the rule 2 points of the candidate m: N2 for each 2×2 block of
// modules of one colour, overlapping blocks counted separately.
func blockPenalty(m []uint64, p *plan) int {
	blocks := 0
	for w := range p.stride {
		col := m[w*p.rows : (w+1)*p.rows]
		var right []uint64 // the next word column, whose first bits continue col's rows
		if w+1 < p.stride {
			right = m[(w+1)*p.rows : (w+2)*p.rows]
		}
		valid := p.columns[w]
		if w == p.stride-1 {
			valid &^= 1 << ((p.size - 1) % 64) // no block starts in the last column
		}
		for y := pad; y < pad+p.size-1; y++ {
			a, b := col[y], col[y+1]
			aNext, bNext := a>>1, b>>1 // the modules one column to the right
			if right != nil {
				aNext |= right[y] << 63
				bNext |= right[y+1] << 63
			}
			blocks += bits.OnesCount64(^(a ^ b) & ^(a ^ aNext) & ^(aNext ^ bNext) & valid)
		}
	}
	return blocks * penaltyN2
}

// linePenalty returns the rule 1 and rule 3 points of the columns of the candidate m (of the
// rows, when m is a transposed matrix). It works on 64 columns at once.
func linePenalty(m []uint64, p *plan) (points int) {
	n := p.size
	for w := range p.stride {
		col := m[w*p.rows : (w+1)*p.rows]
		valid := p.columns[w]
		r := col[pad : pad+n]

		// Rule 1: run marks the columns whose rows y to y+4 are alike. A run of length L ≥ 5
		// holds L−4 such windows and scores N1 + (L−5): its windows, plus N1−1 once, at the
		// window where it starts.
		var prev uint64
		for y := 0; y+5 <= n; y++ {
			c := r[y : y+5 : y+5]
			run := ^((c[0] ^ c[1]) | (c[0] ^ c[2]) | (c[0] ^ c[3]) | (c[0] ^ c[4])) & valid
			points += bits.OnesCount64(run) + (penaltyN1-1)*bits.OnesCount64(run&^prev)
			prev = run
		}

		// Rule 3. For unit 1: dark, light, three dark, light, dark (rows s to s+6), light on
		// both sides (exact runs), and four light rows before or after. A pattern of unit
		// u ≥ 2 has a dark run of exactly 3u, checked where it is found.
		for s := 0; s+6 <= n; s++ {
			c := col[pad+s-4 : pad+s+12] // c[4] is row s
			three := c[6] & c[7] & c[8]
			if core := c[4] & three & c[10] &^ (c[3] | c[5] | c[9] | c[11]); core != 0 {
				before := ^(c[0] | c[1] | c[2])
				after := ^(c[12] | c[13] | c[14])
				points += penaltyN3 * (bits.OnesCount64(core&before) + bits.OnesCount64(core&after))
			}
			six := c[4] & c[5] & three & c[9] &^ c[3] // a dark run of 6 or more starts at s
			if six == 0 {
				continue
			}
			if exact := six &^ c[10]; exact != 0 && s >= 2*2 && s+5*2 <= n {
				points += penaltyN3 * scaledFinderPatternsAt(col, n, s, 2, exact)
			}
			nine := six & c[10] & c[11] & c[12]
			if exact := nine &^ c[13]; exact != 0 && s >= 2*3 && s+5*3 <= n {
				points += penaltyN3 * scaledFinderPatternsAt(col, n, s, 3, exact)
			}
			// Runs of 12 or more are rare: each is measured, and checked when its length is
			// a multiple of 3.
			for long := nine & c[13] & c[14] & c[15]; long != 0; long &= long - 1 {
				bit := long & -long
				end := s + 12
				for end < n && col[pad+end]&bit != 0 {
					end++
				}
				if u := (end - s) / 3; (end-s)%3 == 0 && s >= 2*u && s+5*u <= n {
					points += penaltyN3 * scaledFinderPatternsAt(col, n, s, u, bit)
				}
			}
		}
	}
	return points
}

// scaledFinderPatternsAt counts the finder-like patterns of unit u in the columns col of a
// symbol of n rows whose three-unit dark run is the exact run of rows t to t+3u−1 in the
// columns of exact.
func scaledFinderPatternsAt(col []uint64, n, t, u int, exact uint64) int {
	// The exact runs around the three-unit run, nearest first: most candidates fail early.
	core := exact & lightRows(col, n, t-u, t) & lightRows(col, n, t+3*u, t+4*u)
	if core == 0 {
		return 0
	}
	s := t - 2*u // the first row of the pattern
	core &= darkRows(col, s, s+u) & darkRows(col, s+6*u, s+7*u) &
		lightRows(col, n, s-1, s) & lightRows(col, n, s+7*u, s+7*u+1)
	if core == 0 {
		return 0
	}
	before, after := lightRows(col, n, s-u, s), lightRows(col, n, s+7*u, s+8*u)
	before4, after4 := lightRows(col, n, s-4*u, s), lightRows(col, n, s+7*u, s+11*u)
	return bits.OnesCount64(core&before4&after) + bits.OnesCount64(core&after4&before)
}

// darkRows returns the columns whose rows from to to−1, all within the symbol, are dark.
func darkRows(col []uint64, from, to int) uint64 {
	all := ^uint64(0)
	for _, r := range col[pad+from : pad+to] {
		all &= r
	}
	return all
}

// lightRows returns the columns whose rows from to to−1 are light; rows beyond the padding
// lie in the quiet zone, which is light.
func lightRows(col []uint64, n, from, to int) uint64 {
	any := uint64(0)
	for _, r := range col[pad+max(from, -pad) : pad+min(to, n+pad)] {
		any |= r
	}
	return ^any
}
