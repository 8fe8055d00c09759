package qr

import "fmt"

// encodeSegments builds the version v symbol at level l from segs, with mask pattern mask, or
// the best one when mask is -1. It lets tests force what Encode chooses.
func encodeSegments(segs []segment, v int, l Level, mask int) (*Symbol, error) {
	if bits := streamBits(segs, v); bits < 0 || bits > dataCodewords(v, l)*8 {
		return nil, fmt.Errorf("segments of %d bits do not fit version %d-%s", bits, v, l)
	}
	return encodeCodewords(appendDataCodewords(nil, segs, v, l), v, l, mask), nil
}

// encodeCodewords builds the version v symbol at level l from its data codewords.
func encodeCodewords(data []byte, v int, l Level, mask int) *Symbol {
	e := new(encoder)
	e.data = data
	return e.symbol(v, l, mask, square{})
}
