package payload

import (
	"bytes"
	"crypto/sha256"
	"strings"
)

// Base58Check, the encoding of Bitcoin's legacy addresses (P2PKH and P2SH): Bitcoin Core's
// base58.cpp, described on the Bitcoin wiki's "Base58Check encoding" page and in BIP 13.

// base58Alphabet is Bitcoin's Base58 alphabet: no 0, O, I or l.
const base58Alphabet = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"

// decodeBase58 returns the bytes of s: the number s writes in base 58, big-endian, with a zero
// byte for each leading "1". ok is false when s holds a character outside the alphabet.
func decodeBase58(s string) (out []byte, ok bool) {
	var num []byte // big-endian, grown as needed
	for i := 0; i < len(s); i++ {
		d := strings.IndexByte(base58Alphabet, s[i])
		if d < 0 {
			return nil, false
		}
		carry := d
		for j := len(num) - 1; j >= 0; j-- {
			carry += int(num[j]) * 58
			num[j] = byte(carry)
			carry >>= 8
		}
		for carry > 0 {
			num = append([]byte{byte(carry)}, num...)
			carry >>= 8
		}
	}
	zeros := len(s) - len(strings.TrimLeft(s, "1"))
	return append(make([]byte, zeros), num...), true
}

// legacyAddress is a decoded Base58Check address.
type legacyAddress struct {
	version byte   // 0 P2PKH, 5 P2SH (mainnet); 111 and 196 on testnet
	hash    []byte // the 20-byte HASH160 of the key or script
}

// decodeBase58Check decodes a legacy address: 25 bytes of Base58, a version byte, a 20-byte
// hash and a checksum, the first 4 bytes of SHA-256(SHA-256(version and hash)). problem says
// what is wrong, in words that quote nothing of s.
func decodeBase58Check(s string) (a legacyAddress, problem string) {
	raw, ok := decodeBase58(s)
	switch {
	case !ok:
		return a, "holds a character outside Base58 (0, O, I and l are not used) and is not bech32 (bc1...)"
	case len(raw) != 25:
		return a, "is not 25 bytes of Base58Check (a version, a 20-byte hash and a checksum)"
	}
	first := sha256.Sum256(raw[:21])
	second := sha256.Sum256(first[:])
	if !bytes.Equal(second[:4], raw[21:]) {
		return a, "has a wrong checksum"
	}
	return legacyAddress{version: raw[0], hash: raw[1:21]}, ""
}
