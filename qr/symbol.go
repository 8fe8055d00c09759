package qr

// Symbol is an encoded QR Code: a square of Size×Size modules, each dark or light, without
// the quiet zone (ISO/IEC 18004:2015 6.3.7), which a renderer adds around it.
type Symbol struct {
	version int
	level   Level
	mask    int
	size    int
	rows    int      // words per word column of modules
	modules []uint64 // bit x%64 of word (x/64)*rows+pad+y is the module at (x, y); 1 is dark
	cover   square   // the modules a renderer will draw light (Options.Cover); side 0: none
}

// Size returns the number of modules on a side: 4·Version()+17.
func (s *Symbol) Size() int { return s.size }

// Dark reports whether the module in column x, row y is dark; (0, 0) is the top left corner.
// Modules outside the symbol belong to the quiet zone and are light.
func (s *Symbol) Dark(x, y int) bool {
	if uint(x) >= uint(s.size) || uint(y) >= uint(s.size) {
		return false
	}
	return s.modules[(x/64)*s.rows+pad+y]>>(x%64)&1 != 0
}

// Row appends to dst the modules of row y as bits, 64 a word: module x is bit x%64 of word
// x/64, 1 for dark. It is the quick way through a whole symbol.
func (s *Symbol) Row(y int, dst []uint64) []uint64 {
	for w := 0; w*64 < s.size; w++ {
		dst = append(dst, s.modules[w*s.rows+pad+y])
	}
	return dst
}

// Version returns the symbol's version, 1 to 40.
func (s *Symbol) Version() int { return s.version }

// Level returns the symbol's error correction level, which may be stronger than the one
// asked for (see Options.NoBoost).
func (s *Symbol) Level() Level { return s.level }

// Mask returns the number of the data mask pattern applied, 0 to 7 (ISO/IEC 18004:2015 7.8.2).
func (s *Symbol) Mask() int { return s.mask }

// Cover returns the square of modules that the symbol was encoded to have drawn light (see
// Options.Cover): its first module in both directions and its side, 0 when there is none.
func (s *Symbol) Cover() (first, side int) { return s.cover.first, s.cover.side }
