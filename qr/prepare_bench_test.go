package qr

import "testing"

// BenchmarkEncodeCover encodes the benchmark inputs with the logo's cover (logoSquare, as
// render.LogoPad) at level H: the path where the version depends on the placed codewords
// (ISO/IEC 18004:2015 7.5.2), as a code with the banana logo takes it.
func BenchmarkEncodeCover(b *testing.B) {
	for _, in := range benchInputs[:3] {
		b.Run(in.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := Encode(in.text, Options{Level: H, Cover: logoSquare}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
