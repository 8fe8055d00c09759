package batch

import (
	"context"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/bananaqr/bananaqr/api"
)

// BenchmarkBatch checks and makes a batch of 60 codes (the most a JSON batch holds), as POST
// /api/qr-code/batch does, writing the archive to nowhere: Plan alone, and Plan then WriteZip.
// The codes are URLs as SVG, and 300 bytes of text at level H with the logo as PNG, whose
// version the cover decides.
func BenchmarkBatch(b *testing.B) {
	for _, kind := range []string{"url-svg", "text-logo-png"} {
		items := make([]Item, MaxJSONItems)
		for i := range items {
			body := fmt.Sprintf(`{"url":"https://example.com/item/%d","size":512}`, i)
			if kind == "text-logo-png" {
				body = fmt.Sprintf(`{"type":"text","text":"%d %s","format":"png","size":512,"ecc":"H","logo":"banana"}`,
					i, strings.Repeat("Order SKU-ABC 123 x2, ", 14))
			}
			r, err := api.DecodeJSON([]byte(body))
			if err != nil {
				b.Fatal(err)
			}
			items[i].Request = r
		}
		b.Run(kind+"/plan", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, errs := Plan(items, Workers()); errs != nil {
					b.Fatal(errs)
				}
			}
		})
		b.Run(kind+"/plan+zip", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				entries, errs := Plan(items, Workers())
				if errs != nil {
					b.Fatal(errs)
				}
				if err := WriteZip(context.Background(), io.Discard, entries, Workers(), Local, nil); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
