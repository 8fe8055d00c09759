package qr

// bitWriter appends a bit stream to a byte slice, most significant bit first
// (ISO/IEC 18004:2015 7.4.1).
type bitWriter struct {
	buf []byte
	acc uint64 // the latest bits written; the low n of them are not yet in buf
	n   uint
}

// write appends the low n bits of v (n <= 32).
func (w *bitWriter) write(v uint64, n uint) {
	w.acc = w.acc<<n | v
	w.n += n
	for w.n >= 8 {
		w.n -= 8
		w.buf = append(w.buf, byte(w.acc>>w.n))
	}
}

// bits returns the number of bits written since the stream started at byte start of buf.
func (w *bitWriter) bits(start int) int { return (len(w.buf)-start)*8 + int(w.n) }

// writeSegment appends a segment: mode indicator, character count indicator and data
// (ISO/IEC 18004:2015 7.4.2 to 7.4.5).
func (w *bitWriter) writeSegment(s segment, v int) {
	w.write(modeIndicator[s.mode], 4)
	if s.mode == modeECI {
		w.write(eciUTF8, 8) // an assignment number below 128 takes one byte (Table 4)
		return
	}
	w.write(uint64(len(s.data)), uint(charCountBits(s.mode, v)))
	d := s.data
	switch s.mode {
	case modeNumeric: // each three digits as a 10-bit number; two as 7 bits, one as 4 (7.4.3)
		for len(d) >= 3 {
			w.write(uint64(d[0]-'0')*100+uint64(d[1]-'0')*10+uint64(d[2]-'0'), 10)
			d = d[3:]
		}
		switch len(d) {
		case 2:
			w.write(uint64(d[0]-'0')*10+uint64(d[1]-'0'), 7)
		case 1:
			w.write(uint64(d[0]-'0'), 4)
		}
	case modeAlphanumeric: // each pair as 45*first + second in 11 bits; a last one in 6 (7.4.4)
		for len(d) >= 2 {
			w.write(uint64(alphanumericValue[d[0]])*45+uint64(alphanumericValue[d[1]]), 11)
			d = d[2:]
		}
		if len(d) == 1 {
			w.write(uint64(alphanumericValue[d[0]]), 6)
		}
	default: // one byte per 8 bits (7.4.5)
		for i := 0; i < len(d); i++ {
			w.acc = w.acc<<8 | uint64(d[i])
			w.buf = append(w.buf, byte(w.acc>>w.n))
		}
	}
}

// Pad codewords fill the data capacity left after the bit stream (ISO/IEC 18004:2015 7.4.10).
const (
	padCodeword0 = 0b11101100
	padCodeword1 = 0b00010001
)

// appendDataCodewords appends the data codewords of segs in a version v symbol at level l:
// the segments' bit stream, the terminator, zero bits up to a codeword boundary and the
// alternating pad codewords (ISO/IEC 18004:2015 7.4.9, 7.4.10). The segments must fit.
func appendDataCodewords(dst []byte, segs []segment, v int, l Level) []byte {
	start := len(dst)
	capacity := dataCodewords(v, l)
	w := bitWriter{buf: dst}
	for _, s := range segs {
		w.writeSegment(s, v)
	}
	// The terminator is four zero bits, or fewer when the capacity ends first (7.4.9).
	w.write(0, uint(min(4, capacity*8-w.bits(start))))
	if w.n > 0 {
		w.write(0, 8-w.n)
	}
	for pad := byte(padCodeword0); len(w.buf)-start < capacity; pad ^= padCodeword0 ^ padCodeword1 {
		w.buf = append(w.buf, pad)
	}
	return w.buf
}
