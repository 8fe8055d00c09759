package qr

import "fmt"

// Level is an error correction level (ISO/IEC 18004:2015 7.5.1). The constants' values are the
// two-bit error correction indicator of the format information (Table 12), which makes M, the
// service's default, the zero value.
type Level uint8

const (
	M Level = 0b00 // about 15% of the codewords can be restored
	L Level = 0b01 // about 7% of the codewords can be restored
	H Level = 0b10 // about 30% of the codewords can be restored
	Q Level = 0b11 // about 25% of the codewords can be restored
)

// levelsByStrength lists the levels from the weakest to the strongest.
var levelsByStrength = [4]Level{L, M, Q, H}

// rank is the position of l in levelsByStrength: the index into the block tables of version.go.
func (l Level) rank() int {
	return [4]int{M: 1, L: 0, H: 3, Q: 2}[l&3]
}

func (l Level) valid() bool { return l <= Q }

// String returns the level's letter: "L", "M", "Q" or "H".
func (l Level) String() string {
	if !l.valid() {
		return fmt.Sprintf("Level(%d)", uint8(l))
	}
	return [4]string{M: "M", L: "L", H: "H", Q: "Q"}[l]
}
