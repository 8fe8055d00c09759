package generate_test

import (
	"strings"
	"testing"

	"github.com/bananaqr/bananaqr/api"
	"github.com/bananaqr/bananaqr/internal/generate"
)

// BenchmarkCode makes single codes, as GET and POST /api/qr-code do: a URL as SVG and as PNG,
// the same with the banana logo (whose cover decides the version, see qr.Options.Cover), and
// 300 bytes of mixed text as PNG.
func BenchmarkCode(b *testing.B) {
	url := text("https://example.com/products/12345?ref=newsletter")
	mixed := text(strings.Repeat("Order 20261121-0042: SKU-ABC 123 x2, ", 9)[:300])
	cases := []struct {
		name string
		req  func(r *api.Request)
	}{
		{"url/svg", func(r *api.Request) { r.Payload = url }},
		{"url/png", func(r *api.Request) { r.Payload, r.Format, r.Size = url, api.FormatPNG, 512 }},
		{"url-logo/svg", func(r *api.Request) { r.Payload, r.Logo, r.ECC = url, api.LogoBanana, api.LevelH }},
		{"mixed300/png", func(r *api.Request) { r.Payload, r.Format, r.Size = mixed, api.FormatPNG, 512 }},
	}
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			r := api.NewRequest()
			c.req(&r)
			b.ReportAllocs()
			for b.Loop() {
				res, err := generate.Code(&r)
				if err != nil {
					b.Fatal(err)
				}
				res.Release()
			}
		})
	}
}
