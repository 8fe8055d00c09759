package main

import (
	"bytes"
	"reflect"
	"strings"
	"testing"
)

func TestMedian(t *testing.T) {
	tests := []struct {
		in   []float64
		want float64
	}{
		{[]float64{5}, 5},
		{[]float64{3, 1, 2}, 2},
		{[]float64{4, 1, 3, 2}, 2.5},
		{[]float64{10, 10, 1000, 10, 9}, 10},
		{[]float64{7, 7}, 7},
	}
	for _, tt := range tests {
		in := append([]float64(nil), tt.in...)
		if got := median(in); got != tt.want {
			t.Errorf("median(%v) = %v, want %v", tt.in, got, tt.want)
		}
		if !reflect.DeepEqual(in, tt.in) {
			t.Errorf("median modified its input: %v", in)
		}
	}
}

func TestParseLine(t *testing.T) {
	tests := []struct {
		line    string
		name    string
		samples map[string]float64
		ok      bool
		wantErr bool
	}{
		{
			line:    "BenchmarkEncode/url/bananaqr-8   \t  123456\t      9876 ns/op\t    1234 B/op\t       5 allocs/op",
			name:    "Encode/url/bananaqr",
			samples: map[string]float64{"ns/op": 9876, "B/op": 1234, "allocs/op": 5},
			ok:      true,
		},
		{
			line:    "BenchmarkEncode/ascii2000/skip2   10   123456789.5 ns/op",
			name:    "Encode/ascii2000/skip2",
			samples: map[string]float64{"ns/op": 123456789.5},
			ok:      true,
		},
		{
			line:    "BenchmarkPNG/url/rsc-16  1000  1500 ns/op  2.50 MB/s  800 B/op  3 allocs/op",
			name:    "PNG/url/rsc",
			samples: map[string]float64{"ns/op": 1500, "MB/s": 2.5, "B/op": 800, "allocs/op": 3},
			ok:      true,
		},
		{line: "goos: linux"},
		{line: "pkg: github.com/bananaqr/bananaqr/bench"},
		{line: "cpu: AMD EPYC"},
		{line: "PASS"},
		{line: "ok  \tgithub.com/bananaqr/bananaqr/bench\t12.3s"},
		{line: ""},
		{line: "    encode_test.go:42: some log output"},
		{line: "--- FAIL: BenchmarkEncode/url/rsc"},
		{line: "BenchmarkEncode/url/rsc-2"}, // bare name before log output
		{line: "BenchmarkEncode/url/rsc-2  abc  12 ns/op", wantErr: true},
		{line: "BenchmarkEncode/url/rsc-2  100  12", wantErr: true},
		{line: "BenchmarkEncode/url/rsc-2  100  x ns/op", wantErr: true},
		{line: "BenchmarkEncode/url/rsc-2  100  12 B/op", wantErr: true},
		{line: "Benchmark-2  100  12 ns/op", wantErr: true},
	}
	for _, tt := range tests {
		name, samples, ok, err := parseLine(tt.line)
		if (err != nil) != tt.wantErr {
			t.Errorf("parseLine(%q) error = %v, want error %v", tt.line, err, tt.wantErr)
			continue
		}
		if name != tt.name || ok != tt.ok || !reflect.DeepEqual(samples, tt.samples) {
			t.Errorf("parseLine(%q) = %q, %v, %v; want %q, %v, %v",
				tt.line, name, samples, ok, tt.name, tt.samples, tt.ok)
		}
	}
}

func TestTrimProcs(t *testing.T) {
	tests := map[string]string{
		"Encode/url/rsc-8":  "Encode/url/rsc",
		"Encode/url/rsc-16": "Encode/url/rsc",
		"Encode/url/rsc":    "Encode/url/rsc",
		"Encode/url/a-b":    "Encode/url/a-b",
		"Encode/url/rsc-":   "Encode/url/rsc-",
	}
	for in, want := range tests {
		if got := trimProcs(in); got != want {
			t.Errorf("trimProcs(%q) = %q, want %q", in, got, want)
		}
	}
}

// sampleOutput is three -count runs of two inputs, abridged.
const sampleOutput = `goos: linux
goarch: amd64
pkg: github.com/bananaqr/bananaqr/bench
cpu: AMD EPYC
BenchmarkEncode/url/bananaqr-2     100000   1000 ns/op   500 B/op   4 allocs/op
BenchmarkEncode/url/rsc-2           50000   3000 ns/op   900 B/op  20 allocs/op
BenchmarkEncode/url/skip2-2          1000  50000 ns/op  9000 B/op 400 allocs/op
BenchmarkEncode/digits50/rsc-2      50000   2000 ns/op   800 B/op  18 allocs/op
BenchmarkEncode/digits50/bananaqr-2 100000   2500 ns/op   400 B/op  12 allocs/op
BenchmarkEncode/url/bananaqr-2     100000   1200 ns/op   500 B/op   4 allocs/op
BenchmarkEncode/url/rsc-2           50000   2800 ns/op   900 B/op  20 allocs/op
BenchmarkEncode/url/skip2-2          1000  10000 ns/op  9000 B/op 400 allocs/op
BenchmarkEncode/digits50/rsc-2      50000   2100 ns/op   800 B/op  18 allocs/op
BenchmarkEncode/digits50/bananaqr-2 100000   2400 ns/op   400 B/op  12 allocs/op
BenchmarkEncode/url/bananaqr-2     100000    900 ns/op   500 B/op   4 allocs/op
BenchmarkEncode/url/rsc-2           50000   3100 ns/op   900 B/op  20 allocs/op
BenchmarkEncode/url/skip2-2          1000  40000 ns/op  9000 B/op 400 allocs/op
BenchmarkEncode/digits50/rsc-2      50000   1900 ns/op   800 B/op  18 allocs/op
BenchmarkEncode/digits50/bananaqr-2 100000   2600 ns/op   400 B/op  12 allocs/op
BenchmarkPNG/url/rsc-2              10000  20000 ns/op
PASS
ok  	github.com/bananaqr/bananaqr/bench	12.345s
`

func TestParseAndGroup(t *testing.T) {
	results, err := parse(strings.NewReader(sampleOutput))
	if err != nil {
		t.Fatal(err)
	}
	if len(results) != 6 {
		t.Fatalf("got %d results, want 6", len(results))
	}
	tables := group(results)
	var got []string
	for _, tb := range tables {
		s := tb.family + "/" + tb.input + ":"
		for _, r := range tb.rows {
			ns, _ := r.res.median(unitNs)
			s += " " + r.lib + "=" + formatDuration(ns)
		}
		got = append(got, s)
	}
	want := []string{
		"Encode/url: bananaqr=1.00 µs rsc=3.00 µs skip2=40.00 µs",
		"Encode/digits50: bananaqr=2.50 µs rsc=2.00 µs", // baseline moved first
		"PNG/url: rsc=20.00 µs",
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("grouped medians:\n got %q\nwant %q", got, want)
	}

	var buf bytes.Buffer
	writeTables(&buf, tables)
	writeTargets(&buf, tables)
	out := buf.String()
	for _, s := range []string{
		"### Encode / url",
		"| skip2 | 40.00 µs | 9000 | 400 | 40.0× | 3 |",
		"| rsc | 20.00 µs | – | – | – | 1 |",
		"- **FAIL** bananaqr faster than rsc on every input (rsc/bananaqr time > 1): url 3.00× (3.00 µs vs 1.00 µs); digits50 0.80× (2.00 µs vs 2.50 µs) ✗",
		"- **FAIL** bananaqr at least 20× faster than skip2",
		"digits50 missing bananaqr or skip2 result ✗",
		"- **FAIL** bananaqr at most 10 allocs/op on every input: url 4 allocs/op; digits50 12 allocs/op ✗",
	} {
		if !strings.Contains(out, s) {
			t.Errorf("report lacks %q; report:\n%s", s, out)
		}
	}
}

func TestParseErrors(t *testing.T) {
	tests := map[string]string{
		"empty":       "",
		"no results":  "goos: linux\nPASS\nok  \tx\t0.1s\n",
		"bad value":   "BenchmarkEncode/url/rsc-2  100  1.2.3 ns/op\n",
		"odd fields":  "BenchmarkEncode/url/rsc-2  100  12 ns/op 5\n",
		"no ns/op":    "BenchmarkEncode/url/rsc-2  100  12 B/op\n",
		"bad N":       "BenchmarkEncode/url/rsc-2  -3  12 ns/op\n",
		"build error": "# github.com/bananaqr/bananaqr/bench\n./encode_test.go:1: undefined: qr\nFAIL\n",
	}
	for name, in := range tests {
		if _, err := parse(strings.NewReader(in)); err == nil {
			t.Errorf("%s: parse succeeded, want error", name)
		}
	}
}
