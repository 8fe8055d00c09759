package payload

import (
	"errors"
	"strings"
	"testing"
)

// FuzzBitcoin: buildBitcoin never panics; what it refuses is an *Error with a known code, a
// message and a hint; what it accepts is ASCII and parses back field by field.
func FuzzBitcoin(f *testing.F) {
	f.Add("1andreas3batLhQa2FawWjeyjCqyBzypd", "20.30", "Luke-Jr", "Donation for project xyz", "")
	f.Add("bc1qylh3u67j673h6y6alv70m0pl2yz53tzhvxgg7u", "0.00001", "sbddesign: For lunch Tuesday", "For lunch Tuesday",
		"lnbc10u1p3pj257pp5yztkwjcz5ftl5laxkav23zmzekaw37zk6kmv80pk4xaev5qhtz7qdpdwd3xger9wd5kwm36yprx7u3qd36kucmgyp282etnv3shjcqzpgxqyz5vqsp5usyc4lk9chsfp53kvcnvq456ganh60d89reykdngsmtj6yw3nhvq9qyyssqjcewm5cjwz4a6rfjx77c490yced6pemk0upkxhy89cmm7sct66k8gneanwykzgdrwrfje69h9u5u0w57rrcsysas7gadwmzxc8c6t0spjazup6")
	f.Add("", "0.0025", "", "Café & crème = 100%+tip?", bolt11Coffee)
	f.Add("BC1P0XLXVLHEMJA6C4DQV22UAPCTQUPFHLXM9H8Z3K2E72Q4K9HCZ7VQZK5JJ0", "1e3", "a\x00b", "\xff", "lnbc1")
	f.Add("3LRW7jeCvQCRdPF8S3yUCfRAx4eqXFmdcr", "", " x ", "\n", bolt11Pico)
	f.Add("1BgGZ9tcN4rm9KBzDn7KprQz87SZ26SAMH", "21000000", "~", "", "")
	f.Fuzz(func(t *testing.T, address, amount, label, message, lightning string) {
		r := &Request{Type: Bitcoin, Address: address, Amount: amount, Label: label, Message: message, Lightning: lightning}
		uri, err := buildBitcoin(r)
		if err != nil {
			var e *Error
			if !errors.As(err, &e) || e.Message == "" || e.Hint == "" || !bitcoinReasons[e.Reason] {
				t.Fatalf("%+v: error %#v", r, err)
			}
			return
		}
		for i := 0; i < len(uri); i++ {
			if uri[i] <= ' ' || uri[i] > '~' {
				t.Fatalf("%+v: %q is not printable ASCII", r, uri)
			}
		}
		if !strings.HasPrefix(uri, "bitcoin:") {
			t.Fatalf("%+v: %q", r, uri)
		}
		wantBitcoinFields(t, uri, r)
	})
}

// bitcoinReasons are the codes buildBitcoin may refuse with.
var bitcoinReasons = map[Reason]bool{
	ReasonMissingField: true, ReasonInvalidBitcoinAddress: true, ReasonInvalidAmount: true, ReasonConflictingFields: true,
	ReasonInvalidText: true, ReasonInvalidLightningInvoice: true,
}
