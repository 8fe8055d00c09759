package qr

import (
	"strings"
	"testing"
)

// Inputs of the encoder benchmarks; bench/ runs the same against other libraries.
var benchInputs = []struct{ name, text string }{
	{"url", "https://example.com/products/12345?ref=newsletter"},
	{"digits50", strings.Repeat("31415926535897932384626433832795028841971693993751", 1)},
	{"mixed300", strings.Repeat("Order 20261121-0042: SKU-ABC 123 x2, ", 9)[:300]},
	{"ascii2000", strings.Repeat("The quick brown fox jumps over the lazy dog; ", 45)[:2000]},
}

func BenchmarkEncode(b *testing.B) {
	for _, in := range benchInputs {
		b.Run(in.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := Encode(in.text, Options{}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
