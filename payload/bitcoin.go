package payload

import "strings"

// bitcoinMaxAmount is the most bitcoins an amount may ask: the 21 million there will ever be.
// BIP 321 sets no limit; the reference implementation (rust-bitcoin's
// bitcoin-payment-instructions) refuses more.
const bitcoinMaxAmount = 21000000

// bitcoinMaxDecimals is the decimals an amount in BTC may have: 8, one satoshi.
const bitcoinMaxDecimals = 8

// buildBitcoin returns r as a bitcoin: URI (BIP 321 "URI Scheme", status Complete, which
// replaced BIP 21):
//
//	bitcoin:<address>?amount=<btc>&label=<label>&message=<message>&lightning=<invoice>
//
// the parameters in that order, each only when given, "?" only before the first.
//
//   - address (the URI's path): a mainnet address, Base58Check P2PKH (1…) or P2SH (3…), its
//     SHA-256d checksum verified, or native segwit (bc1…): bech32 for witness version 0
//     (BIP 173), bech32m for versions 1 to 16 (BIP 350, taproot bc1p…), the program lengths of
//     BIP 141 and BIP 350. It may be empty when lightning is given: BIP 321 allows an empty
//     address with at least one payment instruction in a parameter.
//   - amount: decimal BTC, more than 0 and at most 21000000, at most 8 decimals, written in its
//     shortest form (BIP 321's own example writes 20.30 BTC as amount=20.3), never rounded.
//   - label and message: UTF-8, percent-encoded (RFC 3986 2.1, upper-case hex digits): every
//     octet but the unreserved characters of RFC 3986 2.3 (letters, digits, - . _ ~), so a
//     space is %20 (never +, which BIP 21 parsers built on HTML forms read as a space), and &,
//     =, #, +, %, ? and : never end or split a value.
//   - lightning: a mainnet BOLT 11 invoice (see checkLightningInvoice). When both it and amount
//     carry an amount, they must be equal, as the reference implementation requires.
//
// Decisions the BIP leaves open:
//   - Mainnet only: testnet, signet and regtest addresses (m/n/2, tb1, bcrt1) and invoices
//     (lntb, lntbs, lnbcrt) are refused. BIP 321's examples carry a testnet segwit address in a
//     tb= parameter, not in the path; codes people print pay real bitcoin.
//   - Case, for QR alphanumeric mode (ISO/IEC 18004 7.4.4): a bech32 address and the invoice
//     are written in upper case, as BIP 173 ("for QR code use") and BOLT 11 ("SHOULD use upper
//     case for QR codes") advise; readers must accept either case. The scheme and the keys stay
//     lower case, for BIP 21 parsers that match them exactly. The Base58 address is case-
//     sensitive and kept as given. This is the form of the reference implementation's fixture
//     (bitcoin:BC1Q…?amount=…&label=…&lightning=LNBC…).
//   - No other parameters (pop, req-*, lno, sp, bc, tb): the request has no fields for them.
//   - White space around each field is dropped; label and message may hold line breaks and
//     tabs (percent-encoded), not other control characters (checkText).
//   - An invoice's amount is not copied into amount= when amount is not given: the URI says
//     what was asked, and the invoice carries its own.
//
// The symbol needs no ECI: the URI is ASCII.
func buildBitcoin(r *Request) (string, error) {
	address, lightning := strings.TrimSpace(r.Address), strings.TrimSpace(r.Lightning)
	if address == "" && lightning == "" {
		return "", missing("address", "the bitcoin address to pay (1…, 3… or bc1…), or send lightning with a BOLT 11 invoice")
	}
	var err error
	if address != "" {
		if address, err = normalizeBitcoinAddress(address); err != nil {
			return "", err
		}
	}
	var params []string
	invoiceAmount := ""
	if lightning != "" {
		if invoiceAmount, err = checkLightningInvoice(lightning); err != nil {
			return "", err
		}
	}
	if strings.TrimSpace(r.Amount) != "" {
		amount, err := bitcoinAmount(r.Amount, invoiceAmount)
		if err != nil {
			return "", err
		}
		params = append(params, "amount="+amount)
	}
	for _, p := range []struct{ key, value string }{{"label", r.Label}, {"message", r.Message}} {
		value := strings.TrimSpace(p.value)
		if value == "" {
			continue
		}
		if err := checkText(p.key, value); err != nil {
			return "", err
		}
		params = append(params, p.key+"="+escapeBytes(value, unreserved))
	}
	if lightning != "" {
		params = append(params, "lightning="+strings.ToUpper(lightning))
	}
	uri := "bitcoin:" + address
	if len(params) > 0 {
		uri += "?" + strings.Join(params, "&")
	}
	return uri, nil
}

// normalizeBitcoinAddress returns a mainnet address as the URI carries it: a segwit address
// (bc1…, either case) in upper case, a Base58Check address as it is.
func normalizeBitcoinAddress(address string) (string, error) {
	lower := strings.ToLower(address)
	if strings.HasPrefix(lower, "bc1") || strings.HasPrefix(lower, "tb1") || strings.HasPrefix(lower, "bcrt1") {
		a, problem := decodeSegwit(address)
		switch {
		case problem != "":
			return "", bitcoinAddressError(problem)
		case a.hrp != "bc":
			return "", bitcoinTestnetError()
		}
		return strings.ToUpper(address), nil
	}
	a, problem := decodeBase58Check(address)
	switch {
	case problem != "":
		return "", bitcoinAddressError(problem)
	case a.version == 111 || a.version == 196:
		return "", bitcoinTestnetError()
	case a.version != 0 && a.version != 5:
		return "", bitcoinAddressError("is Base58Check of another kind than a P2PKH (1…) or P2SH (3…) address")
	}
	return address, nil
}

// bitcoinAddressError is the error of an address that is not one; problem says why.
func bitcoinAddressError(problem string) *Error {
	return fail(ReasonInvalidBitcoinAddress, "address", "Copy the address again from the wallet that receives: a mainnet address starts with 1, 3 or bc1, and its checksum catches a mistyped character.",
		"address %s", problem)
}

// bitcoinTestnetError is the error of a valid address of a test network.
func bitcoinTestnetError() *Error {
	return fail(ReasonInvalidBitcoinAddress, "address", "Give a mainnet address (1…, 3… or bc1…): bitcoin codes here pay real bitcoin, not testnet, signet or regtest coins.",
		"address is of a test network")
}

// bitcoinAmount returns the amount as the URI writes it: decimal BTC in its shortest form,
// more than 0, at most 21000000, at most 8 decimals (BIP 321 "Transfer amount": decimal BTC, a
// period, no commas; no exponent, which would hide the decimals). invoiceAmount, when not
// empty, is the invoice's amount in BTC, which amount must equal.
func bitcoinAmount(value, invoiceAmount string) (string, error) {
	d, ok := parseDecimal(value)
	hint := "Give amount in bitcoin (BTC, not satoshis) from 0.00000001 to 21000000, with a dot and at most 8 decimals, such as 0.0015 (no exponent, comma or unit)."
	switch {
	case !ok:
		return "", fail(ReasonInvalidAmount, "amount", hint, "amount is not a decimal number")
	case d.negative || d.zero() || d.exceeds(bitcoinMaxAmount):
		return "", fail(ReasonInvalidAmount, "amount", hint, "amount is out of range 0.00000001..21000000")
	case d.places() > bitcoinMaxDecimals:
		return "", fail(ReasonInvalidAmount, "amount", hint, "amount has %d decimal places, more than 8", d.places())
	case invoiceAmount != "" && d.String() != invoiceAmount:
		return "", fail(ReasonConflictingFields, "amount", "Leave amount out, or give the amount the Lightning invoice asks: the two must agree.",
			"amount differs from the amount of the lightning invoice")
	}
	return d.String(), nil
}
