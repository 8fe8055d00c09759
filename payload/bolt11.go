package payload

import (
	"regexp"
	"strings"
)

// Lightning invoices (BOLT 11 "Invoice Protocol for Lightning Payments", lightning/bolts), as a
// bitcoin: URI's lightning= parameter carries them (BIP 321 "Query Keys").

// bolt11Amount is the amount of a mainnet invoice's human-readable part, after "lnbc": empty,
// or a positive decimal integer without leading zeros and an optional multiplier (BOLT 11
// "Human-Readable Part").
var bolt11Amount = regexp.MustCompile(`^(?:([1-9][0-9]*)([munp]?))?$`)

// bolt11MultiplierPlaces are the decimal places each multiplier shifts an amount in BTC by.
var bolt11MultiplierPlaces = map[string]int{"": 0, "m": 3, "u": 6, "n": 9, "p": 12}

// Sizes of a BOLT 11 data part, in 5-bit values (BOLT 11 "Data Part").
const (
	bolt11TimestampLen = 7   // 35 bits
	bolt11SignatureLen = 104 // 520 bits: R, S and the recovery id
)

// bolt11FixedLengths are the data lengths of the tagged fields whose length is fixed (BOLT 11
// "Tagged Fields", reader: MUST fail otherwise): p (payment hash), h (description hash) and
// s (payment secret) 52, n (payee node key) 53.
var bolt11FixedLengths = map[byte]int{'p': 52, 'h': 52, 's': 52, 'n': 53}

// checkLightningInvoice checks an invoice the way BOLT 11's reader requirements can be checked
// without secp256k1 and without the clock, and returns its amount in BTC in shortest decimal
// form ("" when it has none):
//   - bech32 of BIP 173 without its 90-character limit, one case, a right checksum (bech32,
//     not bech32m);
//   - the human-readable part lnbc (mainnet; lntb, lntbs and lnbcrt are refused, as testnet
//     addresses are) and an amount: digits without leading zeros and a multiplier m, u, n or p,
//     p only with a last digit 0 (whole millisatoshis);
//   - the data part: a 35-bit timestamp, tagged fields that end exactly where the 520-bit
//     signature begins, with a recovery id of 0 to 3; exactly one payment hash (p), a payment
//     secret (s), a description (d) or its hash (h) but not both, and the fixed lengths of p,
//     h, s and n.
//
// Not checked: the signature itself (ECDSA public-key recovery over secp256k1, not in the
// standard library), the description hash against a description, the feature bits, and the
// expiry (the code may be printed for later; the payer's wallet checks it).
func checkLightningInvoice(invoice string) (amount string, err error) {
	b, problem := decodeBech32(invoice, 0)
	switch {
	case problem != "":
		return "", lightningError(problem)
	case b.constant != bech32Constant:
		return "", lightningError("has a bech32m checksum where BOLT 11 uses bech32")
	case strings.HasPrefix(b.hrp, "lntb") || strings.HasPrefix(b.hrp, "lnbcrt"):
		return "", fail(ReasonInvalidLightningInvoice, "lightning", "Give a mainnet invoice (lnbc…): bitcoin codes here pay real bitcoin, not testnet, signet or regtest coins.",
			"lightning is an invoice of a test network")
	case !strings.HasPrefix(b.hrp, "lnbc"):
		return "", lightningError("does not start with lnbc")
	}
	if amount, problem = bolt11BTC(b.hrp[len("lnbc"):]); problem != "" {
		return "", lightningError(problem)
	}
	if problem = checkBolt11Data(b.data); problem != "" {
		return "", lightningError(problem)
	}
	return amount, nil
}

// lightningError is the error of an invoice that is not one; problem says why.
func lightningError(problem string) *Error {
	return fail(ReasonInvalidLightningInvoice, "lightning", "Copy the whole BOLT 11 invoice (lnbc…) again from the wallet that receives, or leave lightning out.",
		"lightning %s", problem)
}

// bolt11BTC returns the amount of the human-readable part's rest after lnbc in BTC, in shortest
// decimal form, or "" when there is none.
func bolt11BTC(s string) (amount, problem string) {
	m := bolt11Amount.FindStringSubmatch(s)
	switch {
	case m == nil:
		return "", "has an amount that is not digits and a multiplier m, u, n or p"
	case m[1] == "":
		return "", ""
	case m[2] == "p" && !strings.HasSuffix(m[1], "0"):
		return "", "has a pico-bitcoin amount that is not a whole number of millisatoshis"
	}
	digits, places := m[1], bolt11MultiplierPlaces[m[2]]
	if len(digits) <= places {
		digits = strings.Repeat("0", places-len(digits)+1) + digits
	}
	d, _ := parseDecimal(digits[:len(digits)-places] + "." + digits[len(digits)-places:] + "0")
	return d.String(), ""
}

// checkBolt11Data checks the layout of an invoice's data part (BOLT 11 "Data Part", "Tagged
// Fields"), the checksum left out.
func checkBolt11Data(data []byte) (problem string) {
	if len(data) < bolt11TimestampLen+bolt11SignatureLen {
		return "is too short for a timestamp and a signature"
	}
	end := len(data) - bolt11SignatureLen
	count := map[byte]int{}
	for i := bolt11TimestampLen; i < end; {
		if i+3 > end {
			return "has a tagged field cut short by the signature"
		}
		tag, n := bech32Charset[data[i]], int(data[i+1])<<5|int(data[i+2])
		if i += 3 + n; i > end {
			return "has a tagged field longer than the data"
		}
		if want, fixed := bolt11FixedLengths[tag]; fixed && n != want {
			return "has a payment hash, secret, description hash or node key of a wrong length"
		}
		count[tag]++
	}
	recovery := (data[len(data)-2]&7)<<5 | data[len(data)-1]
	switch {
	case recovery > 3:
		return "has a signature whose recovery id is not 0 to 3"
	case count['p'] != 1:
		return "does not have exactly one payment hash (p)"
	case count['s'] == 0:
		return "has no payment secret (s)"
	case (count['d'] > 0) == (count['h'] > 0):
		return "does not have either a description (d) or a description hash (h)"
	}
	return ""
}
