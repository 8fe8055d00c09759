package payload

import "strings"

// Bech32 (BIP 173) and bech32m (BIP 350), the encodings of segwit addresses and of Lightning
// invoices (BOLT 11), decoded to check what a bitcoin: URI carries.

// bech32Charset maps the 32 data values to characters (BIP 173, "Bech32").
const bech32Charset = "qpzry9x8gf2tvdw0s3jn54khce6mua7l"

// The constants a valid checksum leaves in the polymod: 1 for bech32 (BIP 173), 0x2bc830a3 for
// bech32m (BIP 350, "Bech32m").
const (
	bech32Constant  uint32 = 1
	bech32mConstant uint32 = 0x2bc830a3
)

// bech32MaxLen is the longest bech32 string BIP 173 allows, 90 characters; BOLT 11 invoices
// may be longer.
const bech32MaxLen = 90

// bech32Polymod is the BCH checksum's generator of BIP 173, over 5-bit values.
func bech32Polymod(values []byte) uint32 {
	generator := [5]uint32{0x3b6a57b2, 0x26508e6d, 0x1ea119fa, 0x3d4233dd, 0x2a1462b3}
	chk := uint32(1)
	for _, v := range values {
		top := chk >> 25
		chk = (chk&0x1ffffff)<<5 ^ uint32(v)
		for i := range 5 {
			if (top>>i)&1 == 1 {
				chk ^= generator[i]
			}
		}
	}
	return chk
}

// bech32String is a decoded bech32 or bech32m string.
type bech32String struct {
	hrp      string // the human-readable part, lower case
	data     []byte // the 5-bit values of the data part, without the checksum
	constant uint32 // bech32Constant or bech32mConstant: which checksum the string has
	upper    bool   // the string was written in upper case
}

// decodeBech32 decodes s as BIP 173 does (section "Bech32"): characters 33 to 126, one case
// (all upper or all lower, never mixed), the human-readable part before the last "1", at least
// 6 data characters of bech32Charset, and a checksum of bech32 or bech32m (BIP 350). maxLen
// bounds the length (bech32MaxLen for addresses, 0 for none). problem says what is wrong, in
// words that quote nothing of s.
func decodeBech32(s string, maxLen int) (b bech32String, problem string) {
	if maxLen > 0 && len(s) > maxLen {
		return b, "is longer than 90 characters"
	}
	for i := 0; i < len(s); i++ {
		if s[i] < 33 || s[i] > 126 {
			return b, "holds a character outside printable ASCII"
		}
	}
	lower := strings.ToLower(s)
	if lower != s && strings.ToUpper(s) != s {
		return b, "mixes upper and lower case"
	}
	sep := strings.LastIndexByte(lower, '1')
	switch {
	case sep < 0:
		return b, "has no separator 1"
	case sep == 0:
		return b, "has an empty human-readable part"
	case len(lower)-sep-1 < 6:
		return b, "has a checksum shorter than 6 characters"
	}
	hrp, rest := lower[:sep], lower[sep+1:]
	values := make([]byte, 0, 2*len(hrp)+1+len(rest))
	for i := 0; i < len(hrp); i++ {
		values = append(values, hrp[i]>>5)
	}
	values = append(values, 0)
	for i := 0; i < len(hrp); i++ {
		values = append(values, hrp[i]&31)
	}
	for i := 0; i < len(rest); i++ {
		v := strings.IndexByte(bech32Charset, rest[i])
		if v < 0 {
			return b, "holds a character that bech32 does not use (b, i, o, or 1 in the data)"
		}
		values = append(values, byte(v))
	}
	c := bech32Polymod(values)
	if c != bech32Constant && c != bech32mConstant {
		return b, "has a wrong checksum"
	}
	data := values[len(values)-len(rest) : len(values)-6]
	return bech32String{hrp: hrp, data: data, constant: c, upper: lower != s}, ""
}

// convertBits regroups 5-bit values into bytes (BIP 173, "Segwit address format"): the padding
// left over must be at most 4 bits, and zero.
func convertBits(values []byte) (out []byte, ok bool) {
	acc, bits := uint(0), uint(0)
	for _, v := range values {
		acc = acc<<5 | uint(v)
		bits += 5
		if bits >= 8 {
			bits -= 8
			out = append(out, byte(acc>>bits))
		}
	}
	if bits >= 5 || acc&(1<<bits-1) != 0 {
		return nil, false
	}
	return out, true
}

// segwitAddress is a decoded segwit address.
type segwitAddress struct {
	hrp     string // bc (mainnet) or tb (testnet and signet)
	version int    // the witness version, 0 to 16
	program []byte // the witness program, 2 to 40 bytes
}

// decodeSegwit decodes a native segwit address (BIP 173 "Segwit address format", BIP 350
// "Addresses for segregated witness outputs"): bech32 of at most 90 characters with the
// human-readable part bc or tb; the first value the witness version (0 to 16); the rest a
// program of 2 to 40 bytes, 20 or 32 for version 0 (BIP 141); bech32 for version 0 and bech32m
// for versions 1 to 16. Versions above 1 are valid recipients, as BIP 350 asks ("all higher
// versions ... should be recognized as valid recipients").
func decodeSegwit(s string) (a segwitAddress, problem string) {
	b, problem := decodeBech32(s, bech32MaxLen)
	if problem != "" {
		return a, problem
	}
	if b.hrp != "bc" && b.hrp != "tb" {
		return a, "is not of a Bitcoin network (its human-readable part is not bc)"
	}
	if len(b.data) == 0 {
		return a, "has an empty data part"
	}
	version := int(b.data[0])
	if version > 16 {
		return a, "has a witness version above 16"
	}
	program, ok := convertBits(b.data[1:])
	switch {
	case !ok:
		return a, "has a wrong padding"
	case len(program) < 2 || len(program) > 40:
		return a, "has a witness program of a wrong length"
	case version == 0 && len(program) != 20 && len(program) != 32:
		return a, "has a version 0 witness program neither 20 nor 32 bytes long"
	case version == 0 && b.constant != bech32Constant:
		return a, "has a bech32m checksum where version 0 needs bech32"
	case version > 0 && b.constant != bech32mConstant:
		return a, "has a bech32 checksum where versions 1 and above need bech32m"
	}
	return segwitAddress{hrp: b.hrp, version: version, program: program}, ""
}
