package qr

import "slices"

// mode is a data encoding mode (ISO/IEC 18004:2015 7.3, 7.4). The first three are the modes
// the optimal segmentation chooses among, in its order of preference when costs tie.
type mode uint8

const (
	modeByte         mode = iota // 8 bits per byte (7.4.5)
	modeAlphanumeric             // 11 bits per pair of characters of the 45-character set (7.4.4)
	modeNumeric                  // 10 bits per three digits (7.4.3)
	modeECI                      // an ECI designator; bananaqr writes only ECI 000026, UTF-8 (7.4.2)
)

// modeIndicator is each mode's 4-bit indicator (ISO/IEC 18004:2015 Table 2).
var modeIndicator = [4]uint64{
	modeByte:         0b0100,
	modeAlphanumeric: 0b0010,
	modeNumeric:      0b0001,
	modeECI:          0b0111,
}

// eciUTF8 is the ECI assignment number of UTF-8 (AIM ECI specification), written as one
// 8-bit designator (ISO/IEC 18004:2015 7.4.2.2, Table 4).
const eciUTF8 = 26

// charCountBits returns the length of the character count indicator of mode m in a version v
// symbol (ISO/IEC 18004:2015 Table 3).
func charCountBits(m mode, v int) int {
	group := 0 // versions 1 to 9
	if v >= 27 {
		group = 2
	} else if v >= 10 {
		group = 1
	}
	return int([3][3]uint8{
		modeByte:         {8, 16, 16},
		modeAlphanumeric: {9, 11, 13},
		modeNumeric:      {10, 12, 14},
	}[m][group])
}

// alphanumericValue maps each byte to its value in the alphanumeric character set
// (ISO/IEC 18004:2015 Table 5), or to -1 when it is not in the set.
var alphanumericValue = func() (t [256]int8) {
	for i := range t {
		t[i] = -1
	}
	for i, c := range "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ $%*+-./:" {
		t[c] = int8(i)
	}
	return t
}()

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

// segment is a run of the data encoded in one mode. For modeECI, data is empty and the
// segment designates UTF-8.
type segment struct {
	mode mode
	data string
}

// bitLen returns the segment's length in bits in a version v symbol: mode indicator, character
// count indicator and data (ISO/IEC 18004:2015 7.4.3 to 7.4.5).
func (s segment) bitLen(v int) int {
	n := len(s.data)
	switch s.mode {
	case modeECI:
		return 4 + 8
	case modeNumeric:
		return 4 + charCountBits(modeNumeric, v) + 10*(n/3) + [3]int{0, 4, 7}[n%3]
	case modeAlphanumeric:
		return 4 + charCountBits(modeAlphanumeric, v) + 11*(n/2) + 6*(n%2)
	default:
		return 4 + charCountBits(modeByte, v) + 8*n
	}
}

// fitsCount reports whether the segment's character count fits its count indicator in a
// version v symbol.
func (s segment) fitsCount(v int) bool {
	return s.mode == modeECI || len(s.data) < 1<<charCountBits(s.mode, v)
}

// streamBits returns the length in bits of the segments in a version v symbol, or -1 when a
// segment's character count does not fit its indicator.
func streamBits(segs []segment, v int) int {
	bits := 0
	for _, s := range segs {
		if !s.fitsCount(v) {
			return -1
		}
		bits += s.bitLen(v)
	}
	return bits
}

// Costs of the optimal segmentation, in sixths of a bit so that the numeric (10 bits per 3
// digits) and alphanumeric (11 bits per 2 characters) rates are whole numbers.
const (
	sixthsPerByte         = 8 * 6
	sixthsPerAlphanumeric = 11 * 6 / 2
	sixthsPerDigit        = 10 * 6 / 3
)

// appendOptimalSegments appends to dst the segmentation of text into numeric, alphanumeric
// and byte segments whose bit stream in a version v symbol is the shortest of all
// (ISO/IEC 18004:2015 7.4.7 and Annex J describe mixing modes; the shortest mix is found by
// dynamic programming over the text, as in Nayuki's QrSegmentAdvanced). trace must hold at
// least 3*len(text) bytes; it is scratch memory.
//
// The program works on bytes, not characters: a byte outside ASCII can only go in byte mode,
// and two byte segments are never better than one, so no UTF-8 sequence is ever split.
func appendOptimalSegments(dst []segment, text string, v int, trace []byte) []segment {
	if len(text) == 0 {
		return dst
	}
	last := chooseModes(text, v, trace)
	return appendTraced(dst, text, trace, last)
}

// chooseModes is the forward pass of the optimal segmentation of text in a version v symbol:
// it fills trace (3*len(text) bytes or more) and returns the mode of the last segment of the
// cheapest segmentation, the first in mode order on ties.
func chooseModes(text string, v int, trace []byte) mode {
	var head [3]int // the cost of starting a segment in each mode: indicators, in sixths
	for m := range head {
		head[m] = (4 + charCountBits(mode(m), v)) * 6
	}
	// cost[m] is the least cost of the text so far such that its last segment is in mode m
	// (possibly just started, with no character yet); trace[3*i+m] is the mode of byte i in
	// the segmentation that achieves cost[m] after byte i.
	cost := head
	for i := 0; i < len(text); i++ {
		c := text[i]
		// Extend each segment by c where c can go in its mode; impossible costs are
		// replaced below, as a segment in any mode can start after c.
		b, a, n := cost[modeByte]+sixthsPerByte, impossible, impossible
		if alphanumericValue[c] >= 0 {
			a = cost[modeAlphanumeric] + sixthsPerAlphanumeric
		}
		if isDigit(c) {
			n = cost[modeNumeric] + sixthsPerDigit
		}
		// Ending a segment after c rounds its length up to whole bits; the cheapest end (the
		// first in mode order on ties) may be followed by a new segment in any mode.
		end, endMode := b, modeByte // byte segments are always whole bits
		if a != impossible {
			if e := ceilBits(a); e < end {
				end, endMode = e, modeAlphanumeric
			}
		}
		if n != impossible {
			if e := ceilBits(n); e < end {
				end, endMode = e, modeNumeric
			}
		}
		tb, ta, tn := modeByte, modeAlphanumeric, modeNumeric
		if e := end + head[modeByte]; e < b {
			b, tb = e, endMode
		}
		if e := end + head[modeAlphanumeric]; e < a {
			a, ta = e, endMode
		}
		if e := end + head[modeNumeric]; e < n {
			n, tn = e, endMode
		}
		t := trace[3*i : 3*i+3 : 3*i+3]
		t[modeByte], t[modeAlphanumeric], t[modeNumeric] = byte(tb), byte(ta), byte(tn)
		cost = [3]int{b, a, n}
	}
	last := modeByte
	for m := modeAlphanumeric; m <= modeNumeric; m++ {
		if cost[m] < cost[last] {
			last = m
		}
	}
	return last
}

// appendTraced appends to dst the segments of the non-empty text that chooseModes traced, the
// last in mode last. Going back from the end, byte i is in mode trace[3*i+m] when the state
// after it is m; the segments come out last to first and are put in order afterwards.
func appendTraced(dst []segment, text string, trace []byte, last mode) []segment {
	start, end := len(dst), len(text)
	cur := mode(trace[3*(len(text)-1)+int(last)])
	run := cur // the mode of the segment that ends at end
	for i := len(text) - 2; i >= 0; i-- {
		cur = mode(trace[3*i+int(cur)])
		if cur != run {
			dst = append(dst, segment{run, text[i+1 : end]})
			end, run = i+1, cur
		}
	}
	dst = append(dst, segment{run, text[:end]})
	slices.Reverse(dst[start:])
	return dst
}

// impossible is the cost of putting a character in a mode that cannot hold it.
const impossible = 1 << 40

// ceilBits rounds a cost in sixths of a bit up to whole bits.
func ceilBits(sixths int) int { return (sixths + 5) / 6 * 6 }
