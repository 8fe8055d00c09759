package payload

import (
	"encoding/hex"
	"errors"
	"net/url"
	"strings"
	"testing"

	"github.com/bananaqr/bananaqr/internal/qrtest"
	"github.com/bananaqr/bananaqr/qr"
)

// Tests of the bitcoin type (BIP 321): the published vectors byte for byte, the address and
// invoice checks against the BIPs' and BOLT 11's own vectors, one refusal per rule, and the
// payloads read back by QR readers and parsed field by field.

// TestBitcoinVectors builds each vector byte for byte and parses it back field by field.
func TestBitcoinVectors(t *testing.T) {
	vectors := readPaymentVectors(t, Bitcoin).Build
	if len(vectors) < 10 {
		t.Fatalf("%d vectors", len(vectors))
	}
	for _, v := range vectors {
		t.Run(v.Name, func(t *testing.T) {
			got, err := buildBitcoin(v.request(t))
			if err != nil || got != v.Expected {
				t.Fatalf("got %q, %v\nwant %q", got, err, v.Expected)
			}
			wantBitcoinFields(t, got, v.request(t))
		})
	}
}

// bitcoinURI is a bitcoin: URI as parseBitcoinURI reads it.
type bitcoinURI struct {
	address string
	params  map[string]string // by lower-case key, percent-decoded
}

// parseBitcoinURI reads s as a BIP 321 reader does: the scheme in any case, the address up to
// "?", then key=value pairs split at "&", keys in any case, values percent-decoded (RFC 3986
// 2.1, no + for space); label, message and amount at most once. Only what is RFC 3986 query
// text (qchar, or % and two hex digits) is accepted.
func parseBitcoinURI(s string) (u bitcoinURI, ok bool) {
	if len(s) < 8 || !strings.EqualFold(s[:8], "bitcoin:") {
		return u, false
	}
	body, query, hasQuery := strings.Cut(s[8:], "?")
	u = bitcoinURI{address: body, params: map[string]string{}}
	if !hasQuery {
		return u, true
	}
	for _, param := range strings.Split(query, "&") {
		k, v, _ := strings.Cut(param, "=")
		k = strings.ToLower(k)
		if _, dup := u.params[k]; dup || k == "" || strings.ContainsAny(v, " +#?") {
			return u, false
		}
		value, err := url.PathUnescape(v)
		if err != nil {
			return u, false
		}
		u.params[k] = value
	}
	return u, true
}

// wantBitcoinFields parses the URI and checks each field against the request: the address (a
// valid one, in the case the builder chose), the amount as the decimal asked, label and message
// exactly (trimmed), the invoice in any case; and no other parameter.
func wantBitcoinFields(t *testing.T, uri string, r *Request) {
	t.Helper()
	u, ok := parseBitcoinURI(uri)
	if !ok {
		t.Fatalf("%q does not parse as a bitcoin: URI", uri)
	}
	address := strings.TrimSpace(r.Address)
	if !strings.EqualFold(u.address, address) || (u.address != address && !strings.HasPrefix(u.address, "BC1")) {
		t.Errorf("%q: address %q, want %q", uri, u.address, address)
	}
	if a, err := normalizeBitcoinAddress(u.address); u.address != "" && (err != nil || a != u.address) {
		t.Errorf("%q: address read back is %q, %v", uri, a, err)
	}
	want := map[string]string{"label": strings.TrimSpace(r.Label), "message": strings.TrimSpace(r.Message),
		"lightning": strings.ToUpper(strings.TrimSpace(r.Lightning))}
	if d, ok := parseDecimal(r.Amount); ok {
		want["amount"] = d.String()
	}
	for k, v := range want {
		if got, present := u.params[k]; got != v || present != (v != "") {
			t.Errorf("%q: %s %q (present %v), want %q", uri, k, got, present, v)
		}
	}
	for k := range u.params {
		if _, known := want[k]; !known {
			t.Errorf("%q: unexpected parameter %s", uri, k)
		}
	}
}

// TestBitcoinAddressVectors checks the segwit address vectors of BIP 173 and BIP 350 ("Test
// vectors for v0-v16 native segregated witness addresses") with their scriptPubKeys, and the
// Base58Check vectors of bitcoinjs-lib's test/fixtures/address.json with their hashes: mainnet
// ones are taken, valid testnet ones refused as of a test network, invalid ones refused.
func TestBitcoinAddressVectors(t *testing.T) {
	valid := map[string]string{ // address: scriptPubKey (segwit) or version and hash (Base58Check)
		"BC1QW508D6QEJXTDG4Y5R3ZARVARY0C5XW7KV8F3T4":                                 "0014751e76e8199196d454941c45d1b3a323f1433bd6",
		"tb1qrp33g0q5c5txsp9arysrx4k6zdkfs4nce4xj0gdcccefvpysxf3q0sl5k7":             "00201863143c14c5166804bd19203356da136c985678cd4d27a1b8c6329604903262",
		"bc1pw508d6qejxtdg4y5r3zarvary0c5xw7kw508d6qejxtdg4y5r3zarvary0c5xw7kt5nd6y": "5128751e76e8199196d454941c45d1b3a323f1433bd6751e76e8199196d454941c45d1b3a323f1433bd6",
		"BC1SW50QGDZ25J":                       "6002751e",
		"bc1zw508d6qejxtdg4y5r3zarvaryvaxxpcs": "5210751e76e8199196d454941c45d1b3a323",
		"tb1qqqqqp399et2xygdj5xreqhjjvcmzhxw4aywxecjdzew6hylgvsesrxh6hy": "0020000000c4a5cad46221b2a187905e5266362b99d5e91c6ce24d165dab93e86433",
		"tb1pqqqqp399et2xygdj5xreqhjjvcmzhxw4aywxecjdzew6hylgvsesf3hn0c": "5120000000c4a5cad46221b2a187905e5266362b99d5e91c6ce24d165dab93e86433",
		"bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vqzk5jj0": "512079be667ef9dcbbac55a06295ce870b07029bfcdb2dce28d959f2815b16f81798",
		"1BgGZ9tcN4rm9KBzDn7KprQz87SZ26SAMH":                             "00751e76e8199196d454941c45d1b3a323f1433bd6",
		"3LRW7jeCvQCRdPF8S3yUCfRAx4eqXFmdcr":                             "05cd7b44d0b03f2d026d1e586d7ae18903b0d385f6",
		"mrCDrCybB6J1vRfbwM5hemdJz73FwDBC8r":                             "6f751e76e8199196d454941c45d1b3a323f1433bd6",
		"2NByiBUaEXrhmqAsg7BbLpcQSAQs1EDwt5w":                            "c4cd7b44d0b03f2d026d1e586d7ae18903b0d385f6",
	}
	for address, script := range valid {
		wantBitcoinAddressDecodes(t, address, script)
		testnet := strings.HasPrefix(strings.ToLower(address), "tb1") || script[:2] == "6f" || script[:2] == "c4"
		got, err := buildBitcoin(&Request{Address: address})
		var e *Error
		switch {
		case testnet && (!errors.As(err, &e) || e.Reason != ReasonInvalidBitcoinAddress || !strings.Contains(e.Message, "test network")):
			t.Errorf("testnet %s: %q, %v", address, got, err)
		case !testnet && err != nil:
			t.Errorf("%s: %v", address, err)
		}
	}
	for _, address := range []string{
		// BIP 173, invalid segwit addresses (those with witness versions 1 and above in bech32
		// are invalid since BIP 350).
		"tc1qw508d6qejxtdg4y5r3zarvary0c5xw7kg3g4ty", "bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t5",
		"BC13W508D6QEJXTDG4Y5R3ZARVARY0C5XW7KN40WF2", "bc1rw5uspcuh",
		"bc10w508d6qejxtdg4y5r3zarvary0c5xw7kw508d6qejxtdg4y5r3zarvary0c5xw7kw5rljs90", "BC1QR508D6QEJXTDG4Y5R3ZARVARYV98GJ9P",
		"tb1qrp33g0q5c5txsp9arysrx4k6zdkfs4nce4xj0gdcccefvpysxf3q0sL5k7", "bc1zw508d6qejxtdg4y5r3zarvaryvqyzf3du",
		"tb1qrp33g0q5c5txsp9arysrx4k6zdkfs4nce4xj0gdcccefvpysxf3pjxtptv", "bc1gmk9yu",
		"bc1pw508d6qejxtdg4y5r3zarvary0c5xw7kw508d6qejxtdg4y5r3zarvary0c5xw7k7grplx", "BC1SW50QA3JX3S", "bc1zw508d6qejxtdg4y5r3zarvaryvg6kdaj",
		// BIP 350, invalid segwit addresses.
		"tc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vq5zuyut", "bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vqh2y7hd",
		"tb1z0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vqglt7rf", "BC1S0XLXVLHEMJA6C4DQV22UAPCTQUPFHLXM9H8Z3K2E72Q4K9HCZ7VQ54WELL",
		"bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kemeawh", "tb1q0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vq24jc47",
		"bc1p38j9r5y49hruaue7wxjce0updqjuyyx0kh56v8s25huc6995vvpql3jow4", "BC130XLXVLHEMJA6C4DQV22UAPCTQUPFHLXM9H8Z3K2E72Q4K9HCZ7VQ7ZWS8R",
		"bc1pw5dgrnzv", "bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7v8n0nx0muaewav253zgeav",
		"tb1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vq47Zagq", "bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7v07qwwzcrf",
		"tb1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vpggkg4j",
		// BIP 321's deliberately invalid example addresses.
		"bc1qufgy354j3kmvuch987xe4s40836x3h0lg8f5nq", "bc1p5swkugezn97763tl0yty6556856uug0q6jflljvep9m4p7339x5qzyrh4q",
		"175tWpb8K1S7NmH4Zx6rewF9WQrcZv245W",
		// bitcoinjs-lib, invalid fromBase58Check; a Litecoin address (version 50); a mistyped
		// P2PKH.
		"7SeEnXWPaCCALbVrTnszCVGfRU8cGfx", "j9ywUkWg2fTQrouxxh5rSZhRvrjMkEUfuiKe", "MCZjFcwYJwwYqXAbd3bbnxaCVGs81cp43Z",
		"1BgGZ9tcN4rm9KBzDn7KprQz87SZ26SAMh",
	} {
		got, err := buildBitcoin(&Request{Address: address})
		var e *Error
		if !errors.As(err, &e) || e.Reason != ReasonInvalidBitcoinAddress || e.Field != "address" || strings.Contains(e.Message, "test network") {
			t.Errorf("%s: %q, %v; want an invalid address", address, got, err)
		}
	}
}

// wantBitcoinAddressDecodes checks that a valid address decodes to its scriptPubKey (segwit:
// OP_n, the push of the program) or its version byte and hash (Base58Check).
func wantBitcoinAddressDecodes(t *testing.T, address, want string) {
	t.Helper()
	var got []byte
	if l := strings.ToLower(address); strings.HasPrefix(l, "bc1") || strings.HasPrefix(l, "tb1") {
		a, problem := decodeSegwit(address)
		op := byte(0)
		if a.version > 0 {
			op = byte(0x50 + a.version)
		}
		got = append([]byte{op, byte(len(a.program))}, a.program...)
		if problem != "" {
			t.Errorf("%s: %s", address, problem)
		}
	} else {
		a, problem := decodeBase58Check(address)
		got = append([]byte{a.version}, a.hash...)
		if problem != "" {
			t.Errorf("%s: %s", address, problem)
		}
	}
	if hex.EncodeToString(got) != want {
		t.Errorf("%s decodes as %x, want %s", address, got, want)
	}
}

// TestBech32Checksums checks the bech32 and bech32m strings of BIP 173 and BIP 350 ("Test
// vectors", "Test vectors for Bech32m"): the valid ones with their constant (and so invalid as
// the other), the invalid ones refused.
func TestBech32Checksums(t *testing.T) {
	for constant, strs := range map[uint32][]string{
		bech32Constant: {"A12UEL5L", "a12uel5l", "an83characterlonghumanreadablepartthatcontainsthenumber1andtheexcludedcharactersbio1tt5tgs",
			"abcdef1qpzry9x8gf2tvdw0s3jn54khce6mua7lmqqqxw", "11qqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqc8247j",
			"split1checkupstagehandshakeupstreamerranterredcaperred2y9e3w", "?1ezyfcl"},
		bech32mConstant: {"A1LQFN3A", "a1lqfn3a", "an83characterlonghumanreadablepartthatcontainsthetheexcludedcharactersbioandnumber11sg7hg6",
			"abcdef1l7aum6echk45nj3s0wdvt2fg8x9yrzpqzd3ryx", "11llllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllludsr8",
			"split1checkupstagehandshakeupstreamerranterredcaperredlc445v", "?1v759aa"},
	} {
		for _, s := range strs {
			if b, problem := decodeBech32(s, bech32MaxLen); problem != "" || b.constant != constant {
				t.Errorf("%s: %s, constant %#x", s, problem, b.constant)
			}
		}
	}
	for _, s := range []string{"\x201nwldj5", "\x7f1axkwrx", "\x801eym55h",
		"an84characterslonghumanreadablepartthatcontainsthenumber1andtheexcludedcharactersbio1569pvx",
		"pzry9x0s0muk", "1pzry9x0s0muk", "x1b4n0q5v", "li1dgmt3", "de1lg7wt\xff", "A1G7SGD8", "10a06t8", "1qzzfhee",
		"\x201xj0phk", "\x7f1g6xzxy", "\x801vctc34",
		"an84characterslonghumanreadablepartthatcontainsthetheexcludedcharactersbioandnumber11d6pts4",
		"qyrz8wqd2c9m", "1qyrz8wqd2c9m", "y1b0jsk6g", "lt1igcx5c0", "in1muywd", "mm1crxm3i", "au1s5cgom", "M1VUXWEZ",
		"16plkw9", "1p2gdwpf"} {
		if _, problem := decodeBech32(s, bech32MaxLen); problem == "" {
			t.Errorf("%q decodes", s)
		}
	}
}

// The invoices of BOLT 11's Examples (lightning/bolts 11-payment-encoding.md).
const (
	bolt11Donation = "lnbc1pvjluezsp5zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zygspp5qqqsyqcyq5rqwzqfqqqsyqcyq5rqwzqfqqqsyqcyq5rqwzqfqypqdpl2pkx2ctnv5sxxmmwwd5kgetjypeh2ursdae8g6twvus8g6rfwvs8qun0dfjkxaq9qrsgq357wnc5r2ueh7ck6q93dj32dlqnls087fxdwk8qakdyafkq3yap9us6v52vjjsrvywa6rt52cm9r9zqt8r2t7mlcwspyetp5h2tztugp9lfyql"
	bolt11Coffee   = "lnbc2500u1pvjluezsp5zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zygspp5qqqsyqcyq5rqwzqfqqqsyqcyq5rqwzqfqqqsyqcyq5rqwzqfqypqdq5xysxxatsyp3k7enxv4jsxqzpu9qrsgquk0rl77nj30yxdy8j9vdx85fkpmdla2087ne0xh8nhedh8w27kyke0lp53ut353s06fv3qfegext0eh0ymjpf39tuven09sam30g4vgpfna3rh"
	bolt11Hashed   = "lnbc20m1pvjluezsp5zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zygspp5qqqsyqcyq5rqwzqfqqqsyqcyq5rqwzqfqqqsyqcyq5rqwzqfqypqhp58yjmdan79s6qqdhdzgynm4zwqd5d7xmw5fk98klysy043l2ahrqs9qrsgq7ea976txfraylvgzuxs8kgcw23ezlrszfnh8r6qtfpr6cxga50aj6txm9rxrydzd06dfeawfk6swupvz4erwnyutnjq7x39ymw6j38gp7ynn44"
	bolt11Pico     = "lnbc9678785340p1pwmna7lpp5gc3xfm08u9qy06djf8dfflhugl6p7lgza6dsjxq454gxhj9t7a0sd8dgfkx7cmtwd68yetpd5s9xar0wfjn5gpc8qhrsdfq24f5ggrxdaezqsnvda3kkum5wfjkzmfqf3jkgem9wgsyuctwdus9xgrcyqcjcgpzgfskx6eqf9hzqnteypzxz7fzypfhg6trddjhygrcyqezcgpzfysywmm5ypxxjemgw3hxjmn8yptk7untd9hxwg3q2d6xjcmtv4ezq7pqxgsxzmnyyqcjqmt0wfjjq6t5v4khxsp5zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zygsxqyjw5qcqp2rzjq0gxwkzc8w6323m55m4jyxcjwmy7stt9hwkwe2qxmy8zpsgg7jcuwz87fcqqeuqqqyqqqqlgqqqqn3qq9q9qrsgqrvgkpnmps664wgkp43l22qsgdw4ve24aca4nymnxddlnp8vh9v2sdxlu5ywdxefsfvm0fq3sesf08uf6q9a2ke0hc9j6z6wlxg5z5kqpu2v9wz"
	bolt11Testnet  = "lntb20m1pvjluezsp5zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zygshp58yjmdan79s6qqdhdzgynm4zwqd5d7xmw5fk98klysy043l2ahrqspp5qqqsyqcyq5rqwzqfqqqsyqcyq5rqwzqfqqqsyqcyq5rqwzqfqypqfpp3x9et2e20v6pu37c5d9vax37wxq72un989qrsgqdj545axuxtnfemtpwkc45hx9d2ft7x04mt8q7y6t0k2dge9e7h8kpy9p34ytyslj3yu569aalz2xdk8xkd7ltxqld94u8h2esmsmacgpghe9k8"
)

// TestLightningInvoices checks BOLT 11's example invoices: the valid ones taken with their
// amounts in BTC, in either case; the invalid ones the checks can see refused.
func TestLightningInvoices(t *testing.T) {
	for invoice, amount := range map[string]string{bolt11Donation: "", bolt11Coffee: "0.0025", bolt11Hashed: "0.02",
		bolt11Pico: "0.00967878534", strings.ToUpper(bolt11Coffee): "0.0025"} {
		if got, err := checkLightningInvoice(invoice); err != nil || got != amount {
			t.Errorf("%.20s…: %q, %v; want %q", invoice, got, err, amount)
		}
	}
	for name, invoice := range map[string]string{
		"bad checksum":     "lnbc2500u1pvjluezpp5qqqsyqcyq5rqwzqfqqqsyqcyq5rqwzqfqqqsyqcyq5rqwzqfqypqdpquwpc4curk03c9wlrswe78q4eyqc7d8d0xqzpuyk0sg5g70me25alkluzd2x62aysf2pyy8edtjeevuv4p2d5p76r4zkmneet7uvyakky2zr4cusd45tftc9c5fh0nnqpnl2jfll544esqchsrnt",
		"no separator":     "pvjluezpp5qqqsyqcyq5rqwzqfqqqsyqcyq5rqwzqfqqqsyqcyq5rqwzqfqypqdpquwpc4curk03c9wlrswe78q4eyqc7d8d0xqzpuyk0sg5g70me25alkluzd2x62aysf2pyy8edtjeevuv4p2d5p76r4zkmneet7uvyakky2zr4cusd45tftc9c5fh0nnqpnl2jfll544esqchsrny",
		"mixed case":       "LNBC2500u1pvjluezpp5qqqsyqcyq5rqwzqfqqqsyqcyq5rqwzqfqqqsyqcyq5rqwzqfqypqdpquwpc4curk03c9wlrswe78q4eyqc7d8d0xqzpuyk0sg5g70me25alkluzd2x62aysf2pyy8edtjeevuv4p2d5p76r4zkmneet7uvyakky2zr4cusd45tftc9c5fh0nnqpnl2jfll544esqchsrny",
		"too short":        "lnbc1pvjluezpp5qqqsyqcyq5rqwzqfqqqsyqcyq5rqwzqfqqqsyqcyq5rqwzqfqypqdpl2pkx2ctnv5sxxmmwwd5kgetjypeh2ursdae8g6na6hlh",
		"multiplier":       "lnbc2500x1pvjluezpp5qqqsyqcyq5rqwzqfqqqsyqcyq5rqwzqfqqqsyqcyq5rqwzqfqypqdq5xysxxatsyp3k7enxv4jsxqzpusp5zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zygs9qrsgqrrzc4cvfue4zp3hggxp47ag7xnrlr8vgcmkjxk3j5jqethnumgkpqp23z9jclu3v0a7e0aruz366e9wqdykw6dxhdzcjjhldxq0w6wgqcnu43j",
		"sub-millisatoshi": "lnbc2500000001p1pvjluezpp5qqqsyqcyq5rqwzqfqqqsyqcyq5rqwzqfqqqsyqcyq5rqwzqfqypqdq5xysxxatsyp3k7enxv4jsxqzpusp5zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zygs9qrsgq0lzc236j96a95uv0m3umg28gclm5lqxtqqwk32uuk4k6673k6n5kfvx3d2h8s295fad45fdhmusm8sjudfhlf6dcsxmfvkeywmjdkxcp99202x",
		"no s field":       "lnbc20m1pvjluezpp5qqqsyqcyq5rqwzqfqqqsyqcyq5rqwzqfqqqsyqcyq5rqwzqfqypqhp58yjmdan79s6qqdhdzgynm4zwqd5d7xmw5fk98klysy043l2ahrqs9qrsgq7ea976txfraylvgzuxs8kgcw23ezlrszfnh8r6qtfpr6cxga50aj6txm9rxrydzd06dfeawfk6swupvz4erwnyutnjq7x39ymw6j38gp49qdkj",
		"testnet":          bolt11Testnet,
		"BIP 321 bogus":    "lnbc420bogusinvoice",
		"an address":       "bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4",
	} {
		if got, err := checkLightningInvoice(invoice); err == nil {
			t.Errorf("%s: taken, amount %q", name, got)
		}
	}
}

// TestBitcoinErrors checks one refusal per rule: its code and field, a message and a hint, and
// that neither quotes a value.
func TestBitcoinErrors(t *testing.T) {
	addr := "bc1qylh3u67j673h6y6alv70m0pl2yz53tzhvxgg7u"
	for _, c := range []struct {
		name  string
		req   Request
		code  Reason
		field string
	}{
		{"nothing", Request{Label: "Secret shop"}, ReasonMissingField, "address"},
		{"blank", Request{Address: "  ", Lightning: " "}, ReasonMissingField, "address"},
		{"address checksum", Request{Address: "bc1qylh3u67j673h6y6alv70m0pl2yz53tzhvxgg7v"}, ReasonInvalidBitcoinAddress, "address"},
		{"address mixed case", Request{Address: "bc1qylh3u67j673h6y6alv70m0pl2yz53tzhvxgG7u"}, ReasonInvalidBitcoinAddress, "address"},
		{"address bech32 for taproot", Request{Address: "bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vqh2y7hd"}, ReasonInvalidBitcoinAddress, "address"},
		{"address v0 length", Request{Address: "BC1QR508D6QEJXTDG4Y5R3ZARVARYV98GJ9P"}, ReasonInvalidBitcoinAddress, "address"},
		{"address base58 checksum", Request{Address: "1BgGZ9tcN4rm9KBzDn7KprQz87SZ26SAMh"}, ReasonInvalidBitcoinAddress, "address"},
		{"address base58 letter", Request{Address: "1BgGZ9tcN4rm9KBzDn7KprQz87SZ26SAM0"}, ReasonInvalidBitcoinAddress, "address"},
		{"address other coin", Request{Address: "LUxXFcwXFPpRZdMv4aYu6bDwPdC2skQ5YW"}, ReasonInvalidBitcoinAddress, "address"},
		{"address testnet", Request{Address: "mrCDrCybB6J1vRfbwM5hemdJz73FwDBC8r"}, ReasonInvalidBitcoinAddress, "address"},
		{"address testnet segwit", Request{Address: "tb1qrp33g0q5c5txsp9arysrx4k6zdkfs4nce4xj0gdcccefvpysxf3q0sl5k7"}, ReasonInvalidBitcoinAddress, "address"},
		{"address regtest", Request{Address: "bcrt1qjh3dnrafy8f2zszh5sdqn6c3ycfljh930yza9nt72v30dkw8mlvscn82zx"}, ReasonInvalidBitcoinAddress, "address"},
		{"address as URI", Request{Address: "bitcoin:" + addr}, ReasonInvalidBitcoinAddress, "address"},
		{"amount exponent", Request{Address: addr, Amount: "1e-3"}, ReasonInvalidAmount, "amount"},
		{"amount comma", Request{Address: addr, Amount: "50,000.00"}, ReasonInvalidAmount, "amount"},
		{"amount zero", Request{Address: addr, Amount: "0.00000000"}, ReasonInvalidAmount, "amount"},
		{"amount negative", Request{Address: addr, Amount: "-1"}, ReasonInvalidAmount, "amount"},
		{"amount above 21 million", Request{Address: addr, Amount: "21000000.00000001"}, ReasonInvalidAmount, "amount"},
		{"amount 9 decimals", Request{Address: addr, Amount: "0.000000001"}, ReasonInvalidAmount, "amount"},
		{"amount unit", Request{Address: addr, Amount: "0.1 BTC"}, ReasonInvalidAmount, "amount"},
		{"amount against invoice", Request{Lightning: bolt11Coffee, Amount: "0.0026"}, ReasonConflictingFields, "amount"},
		{"label control", Request{Address: addr, Label: "Secret\x1bshop"}, ReasonInvalidText, "label"},
		{"message UTF-8", Request{Address: addr, Message: "Secret \xff"}, ReasonInvalidText, "message"},
		{"message C1", Request{Address: addr, Message: "Secret\u009bnote"}, ReasonInvalidText, "message"},
		{"invoice checksum", Request{Lightning: bolt11Coffee[:len(bolt11Coffee)-1] + "q"}, ReasonInvalidLightningInvoice, "lightning"},
		{"invoice testnet", Request{Lightning: bolt11Testnet}, ReasonInvalidLightningInvoice, "lightning"},
		{"invoice as URI", Request{Lightning: "lightning:" + bolt11Coffee}, ReasonInvalidLightningInvoice, "lightning"},
		{"invoice is an address", Request{Address: addr, Lightning: addr}, ReasonInvalidLightningInvoice, "lightning"},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, err := buildBitcoin(&c.req)
			var e *Error
			if !errors.As(err, &e) || e.Reason != c.code || e.Field != c.field || e.Message == "" || e.Hint == "" {
				t.Fatalf("got %q, %#v; want %s on %q", got, err, c.code, c.field)
			}
			for _, secret := range []string{c.req.Address, c.req.Amount, c.req.Label, c.req.Message, c.req.Lightning, "Secret"} {
				if len(secret) >= 3 && (strings.Contains(e.Message, secret) || strings.Contains(e.Hint, secret)) {
					t.Fatalf("%+v quotes %q", e, secret)
				}
			}
		})
	}
}

// bitcoinSymbols builds each vector and encodes it at level M, as the service does: ASCII, so
// no ECI.
func bitcoinSymbols(t *testing.T) ([]string, []*qr.Symbol) {
	var texts []string
	var symbols []*qr.Symbol
	for _, v := range readPaymentVectors(t, Bitcoin).Build {
		s, err := qr.Encode(v.Expected, qr.Options{Level: qr.M})
		if err != nil {
			t.Fatalf("%s: %v", v.Name, err)
		}
		texts, symbols = append(texts, v.Expected), append(symbols, s)
	}
	return texts, symbols
}

// TestBitcoinScan reads each vector's symbol back with gozxing, byte for byte, and parses the
// URI read back field by field.
func TestBitcoinScan(t *testing.T) {
	texts, symbols := bitcoinSymbols(t)
	vectors := readPaymentVectors(t, Bitcoin).Build
	for i, s := range symbols {
		got, err := qrtest.Decode(s.Size(), s.Dark)
		if err != nil || got != texts[i] {
			t.Errorf("%q decoded as %q, %v", texts[i], got, err)
			continue
		}
		wantBitcoinFields(t, got, vectors[i].request(t))
	}
}

// TestBitcoinScanExternal draws each vector as a PNG and reads it with zbarimg and zxing-cpp:
// the URI must come back byte for byte, and parse back field by field.
func TestBitcoinScanExternal(t *testing.T) {
	qrtest.NeedTools(t, "zbarimg")
	qrtest.NeedZXingCPP(t)
	texts, symbols := bitcoinSymbols(t)
	vectors := readPaymentVectors(t, Bitcoin).Build
	files := pngFiles(t, symbols, 800)
	zbar, zxing := qrtest.Zbarimg(t, files), qrtest.ZXingCPP(t, files)
	for i, f := range files {
		for reader, got := range map[string]string{"zbarimg": zbar[f], "zxing-cpp": zxing[f]} {
			if got != texts[i] {
				t.Errorf("%s read %q as %q", reader, texts[i], got)
				continue
			}
			wantBitcoinFields(t, got, vectors[i].request(t))
		}
	}
}

// TestBitcoinUpperCaseSmaller: the upper-case address and invoice let the encoder use
// alphanumeric mode for them, so the unified QR code (an address, an amount, a label, a message
// and an invoice) takes a smaller symbol than the same URI in lower case.
func TestBitcoinUpperCaseSmaller(t *testing.T) {
	for _, v := range readPaymentVectors(t, Bitcoin).Build {
		if v.Name != "unified QR" {
			continue
		}
		address, lightning := v.Input["address"], v.Input["lightning"]
		lower := strings.NewReplacer(strings.ToUpper(address), address, strings.ToUpper(lightning), lightning).Replace(v.Expected)
		upper, err1 := qr.Encode(v.Expected, qr.Options{Level: qr.M, NoBoost: true})
		low, err2 := qr.Encode(lower, qr.Options{Level: qr.M, NoBoost: true})
		if err1 != nil || err2 != nil || lower == v.Expected || upper.Version() >= low.Version() {
			t.Fatalf("upper case: version %d, lower case: version %d (%v, %v)", upper.Version(), low.Version(), err1, err2)
		}
		t.Logf("upper case: version %d-M; lower case: version %d-M", upper.Version(), low.Version())
		return
	}
	t.Fatal("no unified QR vector")
}
