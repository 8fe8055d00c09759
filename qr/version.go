package qr

// The symbol versions, ISO/IEC 18004:2015 5.3.1: a version v symbol has 4v+17 modules a side.
const (
	minVersion = 1
	maxVersion = 40
)

// symbolSize returns the number of modules on a side of a version v symbol.
func symbolSize(v int) int { return 4*v + 17 }

// eccPerBlock is the number of error correction codewords in each block, by level rank
// (L, M, Q, H) and version (ISO/IEC 18004:2015 Table 9). Index 0 is unused.
var eccPerBlock = [4][maxVersion + 1]uint8{
	{0, 7, 10, 15, 20, 26, 18, 20, 24, 30, 18, 20, 24, 26, 30, 22, 24, 28, 30, 28, 28, 28, 28, 30, 30, 26, 28, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30},
	{0, 10, 16, 26, 18, 24, 16, 18, 22, 22, 26, 30, 22, 22, 24, 24, 28, 28, 26, 26, 26, 26, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28},
	{0, 13, 22, 18, 26, 18, 24, 18, 22, 20, 24, 28, 26, 24, 20, 30, 24, 28, 28, 26, 30, 28, 30, 30, 30, 30, 28, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30},
	{0, 17, 28, 22, 16, 22, 28, 26, 26, 24, 28, 24, 28, 22, 24, 24, 30, 28, 28, 26, 28, 30, 24, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30},
}

// eccBlocks is the number of error correction blocks, by level rank (L, M, Q, H) and version
// (ISO/IEC 18004:2015 Table 9). Index 0 is unused.
var eccBlocks = [4][maxVersion + 1]uint8{
	{0, 1, 1, 1, 1, 1, 2, 2, 2, 2, 4, 4, 4, 4, 4, 6, 6, 6, 6, 7, 8, 8, 9, 9, 10, 12, 12, 12, 13, 14, 15, 16, 17, 18, 19, 19, 20, 21, 22, 24, 25},
	{0, 1, 1, 1, 2, 2, 4, 4, 4, 5, 5, 5, 8, 9, 9, 10, 10, 11, 13, 14, 16, 17, 17, 18, 20, 21, 23, 25, 26, 28, 29, 31, 33, 35, 37, 38, 40, 43, 45, 47, 49},
	{0, 1, 1, 2, 2, 4, 4, 6, 6, 8, 8, 8, 10, 12, 16, 12, 17, 16, 18, 21, 20, 23, 23, 25, 27, 29, 34, 34, 35, 38, 40, 43, 45, 48, 51, 53, 56, 59, 62, 65, 68},
	{0, 1, 1, 2, 4, 4, 4, 5, 6, 8, 8, 11, 11, 16, 16, 18, 16, 19, 21, 25, 25, 25, 34, 30, 32, 35, 37, 40, 42, 45, 48, 51, 54, 57, 60, 63, 66, 70, 74, 77, 81},
}

// rawDataModules returns the number of modules of a version v symbol that carry codewords and
// remainder bits: all modules but the function patterns and the format and version information
// (ISO/IEC 18004:2015 6.3, Table 1).
func rawDataModules(v int) int {
	n := (16*v+128)*v + 64 // all modules less finders, separators, timing and format areas
	if v >= 2 {
		align := v/7 + 2
		n -= (25*align-10)*align - 55 // alignment patterns, less their overlap with timing
		if v >= 7 {
			n -= 36 // two version information blocks of 18 modules
		}
	}
	return n
}

// totalCodewords returns the number of data and error correction codewords of version v; the
// rawDataModules that are left over are remainder bits (ISO/IEC 18004:2015 7.6).
func totalCodewords(v int) int { return rawDataModules(v) / 8 }

// dataCodewords returns the number of data codewords of a version v symbol at level l
// (ISO/IEC 18004:2015 Table 7).
func dataCodewords(v int, l Level) int {
	r := l.rank()
	return totalCodewords(v) - int(eccPerBlock[r][v])*int(eccBlocks[r][v])
}

// alignmentCentres returns the row and column coordinates of the alignment pattern centres of
// version v (ISO/IEC 18004:2015 6.3.6, Annex E): the first is 6, the last is size-7, and the
// others are spaced evenly by an even step, rounded so that the gap next to 6 is the odd one
// out.
func alignmentCentres(v int) []int {
	if v == 1 {
		return nil
	}
	n := v/7 + 2
	step := (v*8 + n*3 + 5) / (n*4 - 4) * 2
	centres := make([]int, n)
	centres[0] = 6
	for i, pos := n-1, symbolSize(v)-7; i >= 1; i, pos = i-1, pos-step {
		centres[i] = pos
	}
	return centres
}
