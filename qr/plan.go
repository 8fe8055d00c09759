package qr

import (
	"sync"
	"sync/atomic"
)

// A plan is everything about a version's symbol that does not depend on the data: where the
// function patterns are and what they look like, the order in which codewords fill the
// remaining modules, and the eight mask patterns over those modules. It is built once per
// version and shared by every encode.
//
// Matrices are bitmaps stored by columns of words: word w of row y holds columns 64w to
// 64w+63, the module in column x in bit x%64, 1 for dark; the words of one word column are
// consecutive, and pad light rows lie above and below the symbol's rows. The penalty rules
// thus find the rows of 64 columns in one run of memory, and look past the edges without
// bounds checks. The transposed copies (suffix T) hold column x as row x, so that the penalty
// rules can treat rows and columns alike.
type plan struct {
	version int
	size    int
	stride  int // words per row
	rows    int // words per word column: size rows and the padding

	// coveredBy holds, by cover square, the placement positions under it (see covered).
	coveredBy      sync.Map
	coveredSquares atomic.Int32

	function []uint64    // 1 for the modules of function patterns and format/version information
	pattern  []uint64    // the function patterns' dark modules; format information left light
	patternT []uint64    // pattern, transposed
	mask     [8][]uint64 // each data mask pattern over the data modules (7.8.2)
	maskT    [8][]uint64 // mask, transposed
	order    []uint16    // the data modules in placement order, as bit indices (7.7.3)
	// format[t][l][m] is the format information of level l and mask m (7.9.1), as words to OR
	// into formatWords[t] of a matrix (t = 0) or its transpose (t = 1).
	format      [2][4][8][]uint64
	formatWords [2][]int32
	columns     []uint64 // per word of a row: 1 for the bits that are modules of the symbol
}

var plans [maxVersion + 1]struct {
	once sync.Once
	plan *plan
}

// planFor returns the plan of version v, building it on first use.
func planFor(v int) *plan {
	p := &plans[v]
	p.once.Do(func() { p.plan = newPlan(v) })
	return p.plan
}

// pad is the number of light rows kept above and below a matrix, so that the scan of rule 3
// of the mask penalty can read a few rows past the symbol's edges, into the quiet zone, without
// bounds checks.
const pad = 6

// index returns the bit index of the module at (x, y).
func (p *plan) index(x, y int) int { return ((x/64)*p.rows+pad+y)*64 + x%64 }

// A module locates one module in a matrix: its word and its bit in that word.
type module struct {
	word int32
	bit  uint64
}

func (p *plan) module(x, y int) module {
	return module{int32((x/64)*p.rows + pad + y), 1 << (x % 64)}
}

func setBit(m []uint64, i int)   { m[i>>6] |= 1 << (i & 63) }
func clearBit(m []uint64, i int) { m[i>>6] &^= 1 << (i & 63) }
func bit(m []uint64, i int) bool { return m[i>>6]>>(i&63)&1 != 0 }

func (p *plan) words() int               { return p.rows * p.stride }
func (p *plan) bitmap() []uint64         { return make([]uint64, p.words()) }
func (p *plan) isFunction(x, y int) bool { return bit(p.function, p.index(x, y)) }

// newPlan builds the plan of version v. Its steps follow ISO/IEC 18004:2015: the function
// patterns (6.3), the format and version information areas (7.9, 7.10), the placement order of
// the data modules (7.7.3) and the data masks (7.8.2). The timing patterns come first, as in
// Nayuki's qrcodegen, so that the finder patterns and separators then overwrite their ends.
func newPlan(v int) *plan {
	p := newBlankPlan(v)
	p.drawTimingPatterns()
	p.drawFinderPatterns()
	p.drawSeparators()
	p.drawAlignmentPatterns()
	p.reserveFormatInformation()
	p.drawDarkModule()
	p.drawVersionInformation()
	p.orderDataModules()
	p.layMasks()
	return p
}

// newBlankPlan returns the plan of version v with its bitmaps allocated and all light, and
// no function pattern, placement order or mask yet.
func newBlankPlan(v int) *plan {
	size := symbolSize(v)
	p := &plan{version: v, size: size, stride: (size + 63) / 64, rows: size + 2*pad}
	p.function, p.pattern, p.patternT = p.bitmap(), p.bitmap(), p.bitmap()
	p.columns = make([]uint64, p.stride)
	for x := range size {
		p.columns[x/64] |= 1 << (x % 64)
	}
	return p
}

// setFunction marks the module at (x, y) as a function module, dark or light, overwriting whatever
// an earlier step drew there.
func (p *plan) setFunction(x, y int, dark bool) {
	setBit(p.function, p.index(x, y))
	if dark {
		setBit(p.pattern, p.index(x, y))
		setBit(p.patternT, p.index(y, x))
	} else {
		clearBit(p.pattern, p.index(x, y))
		clearBit(p.patternT, p.index(y, x))
	}
}

// drawTimingPatterns draws the timing patterns: row and column 6 alternate dark and light,
// dark first (ISO/IEC 18004:2015 6.3.5).
func (p *plan) drawTimingPatterns() {
	for i := range p.size {
		p.setFunction(6, i, i%2 == 0)
		p.setFunction(i, 6, i%2 == 0)
	}
}

// finderCentres returns the centres of the three finder patterns: top left, top right and
// bottom left (ISO/IEC 18004:2015 6.3.3).
func (p *plan) finderCentres() [3][2]int {
	return [3][2]int{{3, 3}, {p.size - 4, 3}, {3, p.size - 4}}
}

// drawFinderPatterns draws the finder patterns in three corners: concentric squares of 7, 5
// and 3 modules, dark, light, dark (ISO/IEC 18004:2015 6.3.3).
func (p *plan) drawFinderPatterns() {
	for _, c := range p.finderCentres() {
		for dy := -3; dy <= 3; dy++ {
			for dx := -3; dx <= 3; dx++ {
				p.setFunction(c[0]+dx, c[1]+dy, max(abs(dx), abs(dy)) != 2)
			}
		}
	}
}

// drawSeparators draws the separators: a light border one module wide around each finder
// pattern, where it lies inside the symbol (ISO/IEC 18004:2015 6.3.4).
func (p *plan) drawSeparators() {
	for _, c := range p.finderCentres() {
		for dy := -4; dy <= 4; dy++ {
			for dx := -4; dx <= 4; dx++ {
				x, y := c[0]+dx, c[1]+dy
				if max(abs(dx), abs(dy)) == 4 && 0 <= x && x < p.size && 0 <= y && y < p.size {
					p.setFunction(x, y, false)
				}
			}
		}
	}
}

// drawAlignmentPatterns draws the alignment patterns: 5×5, dark ring, light ring, dark
// centre, at each pair of the version's centre coordinates except the three that would
// overlap a finder pattern (ISO/IEC 18004:2015 6.3.6, Annex E).
func (p *plan) drawAlignmentPatterns() {
	centres := alignmentCentres(p.version)
	last := len(centres) - 1
	for i, cy := range centres {
		for j, cx := range centres {
			if i == 0 && j == 0 || i == 0 && j == last || i == last && j == 0 {
				continue
			}
			for dy := -2; dy <= 2; dy++ {
				for dx := -2; dx <= 2; dx++ {
					p.setFunction(cx+dx, cy+dy, max(abs(dx), abs(dy)) != 1)
				}
			}
		}
	}
}

// formatModules returns the modules (x, y) of the two copies of format information bit i
// (ISO/IEC 18004:2015 7.9.1, Figure 25). Bits 0–7 of the first copy run up column 8, bits
// 8–14 left along row 8, skipping the timing patterns; the second copy runs left along row 8
// from the right edge (0–7) and down column 8 to the bottom (8–14).
func (p *plan) formatModules(i int) (a, b [2]int) {
	switch {
	case i < 6:
		a = [2]int{8, i}
	case i < 8:
		a = [2]int{8, i + 1}
	case i == 8:
		a = [2]int{7, 8}
	default:
		a = [2]int{14 - i, 8}
	}
	if i < 8 {
		b = [2]int{p.size - 1 - i, 8}
	} else {
		b = [2]int{8, p.size - 15 + i}
	}
	return a, b
}

// reserveFormatInformation reserves the format information areas, light, and fills p.format
// with what each level and mask draws there at encoding (ISO/IEC 18004:2015 7.9.1).
func (p *plan) reserveFormatInformation() {
	var at [2][15][2]module
	for i := range 15 {
		a, b := p.formatModules(i)
		p.setFunction(a[0], a[1], false)
		p.setFunction(b[0], b[1], false)
		at[0][i] = [2]module{p.module(a[0], a[1]), p.module(b[0], b[1])}
		at[1][i] = [2]module{p.module(a[1], a[0]), p.module(b[1], b[0])}
	}
	p.layFormat(&at)
}

// drawDarkModule draws the module above the second copy of format information bit 8, at
// (8, 4v+9), which is always dark (ISO/IEC 18004:2015 7.9.1).
func (p *plan) drawDarkModule() { p.setFunction(8, p.size-8, true) }

// drawVersionInformation draws the version information of versions 7 and up: 18 bits, in 6×3
// blocks beside the top right and bottom left finder patterns, bit i at (size-11+i%3, i/3)
// and its transpose (ISO/IEC 18004:2015 7.10, Figure 27).
func (p *plan) drawVersionInformation() {
	if p.version < 7 {
		return
	}
	bits := versionBits(p.version)
	for i := range 18 {
		dark := bits>>i&1 != 0
		a, b := p.size-11+i%3, i/3
		p.setFunction(a, b, dark)
		p.setFunction(b, a, dark)
	}
}

// orderDataModules lists the data modules in placement order: two-module-wide columns from
// the right edge, going up and down in turn, right module before left, skipping the vertical
// timing pattern in column 6 (ISO/IEC 18004:2015 7.7.3).
func (p *plan) orderDataModules() {
	size := p.size
	p.order = make([]uint16, 0, rawDataModules(p.version))
	for right := size - 1; right >= 1; right -= 2 {
		if right == 6 {
			right = 5
		}
		upward := (right+1)&2 == 0
		for vert := range size {
			y := vert
			if upward {
				y = size - 1 - vert
			}
			for x := right; x >= right-1; x-- {
				if !p.isFunction(x, y) {
					p.order = append(p.order, uint16(p.index(x, y)))
				}
			}
		}
	}
}

// layMasks lays each of the eight data mask patterns over the data modules, and its
// transpose (ISO/IEC 18004:2015 7.8.2, Table 10); i is the row, j the column.
func (p *plan) layMasks() {
	for m := range 8 {
		p.mask[m], p.maskT[m] = p.bitmap(), p.bitmap()
		for i := range p.size {
			for j := range p.size {
				if !p.isFunction(j, i) && maskCondition(m, i, j) {
					setBit(p.mask[m], p.index(j, i))
					setBit(p.maskT[m], p.index(i, j))
				}
			}
		}
	}
}

// layFormat fills p.format from the modules of each format information bit's two copies.
func (p *plan) layFormat(at *[2][15][2]module) {
	for t := range at {
		index := map[int32]int{} // the words holding format bits, in p.formatWords[t]
		for _, copies := range at[t] {
			for _, c := range copies {
				if _, ok := index[c.word]; !ok {
					index[c.word] = len(p.formatWords[t])
					p.formatWords[t] = append(p.formatWords[t], c.word)
				}
			}
		}
		for l := range 4 {
			for m := range 8 {
				words := make([]uint64, len(p.formatWords[t]))
				for i, copies := range at[t] {
					if formatBits[l][m]>>i&1 != 0 {
						for _, c := range copies {
							words[index[c.word]] |= c.bit
						}
					}
				}
				p.format[t][l][m] = words
			}
		}
	}
}

// maskCondition reports whether data mask pattern m inverts the module in row i, column j
// (ISO/IEC 18004:2015 Table 10).
func maskCondition(m, i, j int) bool {
	switch m {
	case 0:
		return (i+j)%2 == 0
	case 1:
		return i%2 == 0
	case 2:
		return j%3 == 0
	case 3:
		return (i+j)%3 == 0
	case 4:
		return (i/2+j/3)%2 == 0
	case 5:
		return i*j%2+i*j%3 == 0
	case 6:
		return (i*j%2+i*j%3)%2 == 0
	default:
		return ((i+j)%2+i*j%3)%2 == 0
	}
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// bch returns data followed by the remainder of data·x^k divided by the generator g of degree
// k: the (BCH) error correction of the format and version information (Annex C, Annex D).
func bch(data, g uint32, k int) uint32 {
	r := data << k
	for i := 31; i >= k; i-- {
		if r>>i&1 != 0 {
			r ^= g << (i - k)
		}
	}
	return data<<k | r
}

// formatBits holds the 15 format information bits of each level and mask: the level's
// indicator and the mask number, their BCH(15,5) code, XORed with 101010000010010 so that the
// bits are never all zero (ISO/IEC 18004:2015 7.9.1, Annex C).
var formatBits = func() (t [4][8]uint32) {
	for l := range t {
		for m := range t[l] {
			t[l][m] = bch(uint32(l)<<3|uint32(m), 0b10100110111, 10) ^ 0b101010000010010
		}
	}
	return t
}()

// versionBits returns the 18 version information bits of version v: the version number and
// its BCH(18,6) code (ISO/IEC 18004:2015 7.10, Annex D).
func versionBits(v int) uint32 { return bch(uint32(v), 0b1111100100101, 12) }
