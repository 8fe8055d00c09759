package main

import (
	"bytes"
	"strings"
	"testing"
)

func TestRenderTargets(t *testing.T) {
	in := `BenchmarkPNG/url/bananaqr-2   100   50000 ns/op   985 png-bytes   6000 B/op   13 allocs/op
BenchmarkPNG/url/rsc-2        100  400000 ns/op  5622 png-bytes  42000 B/op   44 allocs/op
BenchmarkPNG/url/skip2-2      100 9000000 ns/op  1172 png-bytes 2000000 B/op 3458 allocs/op
BenchmarkSVGOnly-2          10000    12000 ns/op  2437 svg-bytes   7000 B/op   12 allocs/op
BenchmarkStyle/png/square-2    100   60000 ns/op   985 png-bytes   7000 B/op   13 allocs/op
BenchmarkStyle/png/rounded-banana-2 100 170000 ns/op 16000 png-bytes 80000 B/op 22 allocs/op
`
	results, err := parse(strings.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	tables := group(results)
	writeTables(&out, tables)
	writeRenderTargets(&out, tables)
	got := out.String()
	for _, want := range []string{
		"| png-bytes |", "| 985 |",
		"**PASS** encode + PNG at least 5× faster than rsc's encode + PNG (URL, 1024 px): 8.00×",
		"**PASS** encode + PNG at least 100× faster than skip2 (URL, 1024 px): 180×",
		"**PASS** PNG of the URL at most 1,000 bytes: 985 png-bytes",
		"**FAIL** SVG of the URL in under 10 µs: 12.00 µs",
		"**PASS** SVG of the URL under 4 KB: 2437 svg-bytes",
		"**PASS** rounded + banana PNG within 3× of the square one (encode included): 2.83×",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("missing %q in\n%s", want, got)
		}
	}
	if strings.Contains(got, "2,000 characters") {
		t.Error("a target without results was reported")
	}
}
