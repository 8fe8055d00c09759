// Command benchreport summarises `go test -bench -benchmem` output.
//
// It reads the raw benchmark output (typically several -count runs) on
// standard input, takes the median ns/op, B/op and allocs/op of every
// benchmark, and prints one Markdown table per benchmark family and input.
// Benchmarks are expected to be named Benchmark<Family>/<input>/<library>;
// within a table the bananaqr row is the baseline for the
// "× slower than bananaqr" ratio. Finally it checks the encoder targets
// against the Encode family.
//
// The exit status is 0 even when a target fails (this is a report), 1 when
// the input cannot be parsed or contains no benchmark results, and 2 on
// usage errors.
//
// Usage:
//
//	go test -run '^$' -bench . -benchmem -count 7 . | go run ./cmd/benchreport
package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"
)

// baseline is the library every other library is compared with.
const baseline = "bananaqr"

// Units reported in the tables.
const (
	unitNs     = "ns/op"
	unitBytes  = "B/op"
	unitAllocs = "allocs/op"
)

func main() {
	if len(os.Args) > 1 {
		fmt.Fprintln(os.Stderr, "usage: go test -bench . -benchmem | benchreport")
		os.Exit(2)
	}
	results, err := parse(os.Stdin)
	if err != nil {
		fmt.Fprintln(os.Stderr, "benchreport:", err)
		os.Exit(1)
	}
	groups := group(results)
	writeTables(os.Stdout, groups)
	writeTargets(os.Stdout, groups)
	writeRenderTargets(os.Stdout, groups)
}

// result is the set of samples of one benchmark, merged over all runs.
type result struct {
	// name is the benchmark name without the "Benchmark" prefix and the
	// GOMAXPROCS suffix, e.g. "Encode/url/bananaqr".
	name string
	// samples maps a unit (e.g. "ns/op") to its values, one per run.
	samples map[string][]float64
}

// median returns the median of the samples of unit, and false when there
// are none.
func (r *result) median(unit string) (float64, bool) {
	v := r.samples[unit]
	if len(v) == 0 {
		return 0, false
	}
	return median(v), true
}

// runs returns the number of runs the result was merged from.
func (r *result) runs() int { return len(r.samples[unitNs]) }

// parse reads `go test -bench` output and returns one result per distinct
// benchmark, in order of first appearance. Lines that are not benchmark
// results (goos:, pkg:, PASS, ok, log output, ...) are ignored, as is a bare
// benchmark name that go test prints before a benchmark's log output. A line
// that starts like a result but does not parse is an error, and so is input
// without any result.
func parse(r io.Reader) ([]*result, error) {
	var (
		results []*result
		byName  = map[string]*result{}
	)
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), 1024*1024)
	for lineNo := 1; sc.Scan(); lineNo++ {
		name, samples, ok, err := parseLine(sc.Text())
		if err != nil {
			return nil, fmt.Errorf("line %d: %v: %q", lineNo, err, sc.Text())
		}
		if !ok {
			continue
		}
		res := byName[name]
		if res == nil {
			res = &result{name: name, samples: map[string][]float64{}}
			byName[name] = res
			results = append(results, res)
		}
		for unit, v := range samples {
			res.samples[unit] = append(res.samples[unit], v)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	if len(results) == 0 {
		return nil, errors.New("no benchmark results in input")
	}
	return results, nil
}

// parseLine parses one line of benchmark output such as
//
//	BenchmarkEncode/url/bananaqr-8   123456   9876 ns/op   1234 B/op   5 allocs/op
//
// ok is false for lines that are not results.
func parseLine(line string) (name string, samples map[string]float64, ok bool, err error) {
	f := strings.Fields(line)
	if len(f) == 0 || !strings.HasPrefix(f[0], "Benchmark") {
		return "", nil, false, nil
	}
	if len(f) == 1 {
		return "", nil, false, nil // bare name before log output
	}
	name = trimProcs(strings.TrimPrefix(f[0], "Benchmark"))
	if name == "" {
		return "", nil, false, errors.New("empty benchmark name")
	}
	if n, err := strconv.ParseInt(f[1], 10, 64); err != nil || n <= 0 {
		return "", nil, false, errors.New("want an iteration count after the name")
	}
	rest := f[2:]
	if len(rest) == 0 || len(rest)%2 != 0 {
		return "", nil, false, errors.New("want value/unit pairs after the iteration count")
	}
	samples = map[string]float64{}
	for i := 0; i < len(rest); i += 2 {
		v, err := strconv.ParseFloat(rest[i], 64)
		if err != nil {
			return "", nil, false, fmt.Errorf("bad value %q for unit %q", rest[i], rest[i+1])
		}
		samples[rest[i+1]] = v
	}
	if _, ok := samples[unitNs]; !ok {
		return "", nil, false, errors.New("no ns/op value")
	}
	return name, samples, true, nil
}

// trimProcs removes the "-N" GOMAXPROCS suffix that go test appends to
// benchmark names when GOMAXPROCS > 1. (With GOMAXPROCS=1 there is no
// suffix, so a name whose last element genuinely ends in "-<digits>" would
// be mangled; our benchmark names never do.)
func trimProcs(name string) string {
	i := strings.LastIndexByte(name, '-')
	if i < 0 || i == len(name)-1 {
		return name
	}
	for _, c := range name[i+1:] {
		if c < '0' || c > '9' {
			return name
		}
	}
	return name[:i]
}

// median returns the median of v (the mean of the two middle values for an
// even count). v must not be empty; it is not modified.
func median(v []float64) float64 {
	s := slices.Clone(v)
	slices.Sort(s)
	n := len(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}

// row is one library's result within a table.
type row struct {
	lib string
	res *result
}

// table is the results of one family and input.
type table struct {
	family string // e.g. "Encode"
	input  string // e.g. "url"; empty when the name has no input element
	rows   []row  // baseline first, then in order of appearance
}

// base returns the baseline row, if any.
func (t *table) base() *result {
	return t.lookup(baseline)
}

// lookup returns the result of lib, if any.
func (t *table) lookup(lib string) *result {
	for _, r := range t.rows {
		if r.lib == lib {
			return r.res
		}
	}
	return nil
}

// splitName splits "Family/input/lib" into its parts. Names with more
// elements keep the middle ones in input; a name without "/" is a family
// with a single row named after it.
func splitName(name string) (family, input, lib string) {
	parts := strings.Split(name, "/")
	switch len(parts) {
	case 1:
		return name, "", name
	case 2:
		return parts[0], "", parts[1]
	default:
		return parts[0], strings.Join(parts[1:len(parts)-1], "/"), parts[len(parts)-1]
	}
}

// group arranges results into tables, ordered by first appearance of the
// family and then of the input.
func group(results []*result) []*table {
	var tables []*table
	index := map[[2]string]*table{}
	for _, res := range results {
		family, input, lib := splitName(res.name)
		key := [2]string{family, input}
		t := index[key]
		if t == nil {
			t = &table{family: family, input: input}
			index[key] = t
			tables = append(tables, t)
		}
		t.rows = append(t.rows, row{lib: lib, res: res})
	}
	// Stable sort by family keeps inputs in order of appearance while
	// putting all tables of a family together.
	familyOrder := map[string]int{}
	for _, t := range tables {
		if _, ok := familyOrder[t.family]; !ok {
			familyOrder[t.family] = len(familyOrder)
		}
	}
	slices.SortStableFunc(tables, func(a, b *table) int {
		return familyOrder[a.family] - familyOrder[b.family]
	})
	for _, t := range tables {
		slices.SortStableFunc(t.rows, func(a, b row) int {
			return boolInt(b.lib == baseline) - boolInt(a.lib == baseline)
		})
	}
	return tables
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// writeTables prints one Markdown table per family and input.
func writeTables(w io.Writer, tables []*table) {
	for _, t := range tables {
		title := t.family
		if t.input != "" {
			title += " / " + t.input
		}
		fmt.Fprintf(w, "### %s\n\n", title)
		extra := extraUnits(t)
		fmt.Fprintf(w, "| library | time/op | B/op | allocs/op | × slower than %s | runs |", baseline)
		for _, u := range extra {
			fmt.Fprintf(w, " %s |", u)
		}
		fmt.Fprint(w, "\n|---|---:|---:|---:|---:|---:|")
		for range extra {
			fmt.Fprint(w, "---:|")
		}
		fmt.Fprintln(w)
		base := t.base()
		for _, r := range t.rows {
			ns, _ := r.res.median(unitNs)
			ratio := "–"
			if base != nil {
				b, _ := base.median(unitNs)
				ratio = formatRatio(ns / b)
			}
			fmt.Fprintf(w, "| %s | %s | %s | %s | %s | %d |",
				r.lib, formatDuration(ns),
				formatCount(r.res, unitBytes), formatCount(r.res, unitAllocs),
				ratio, r.res.runs())
			for _, u := range extra {
				fmt.Fprintf(w, " %s |", formatCount(r.res, u))
			}
			fmt.Fprintln(w)
		}
		fmt.Fprintln(w)
	}
}

// extraUnits returns the units of a table's results beyond time, bytes and allocations (such as
// png-bytes, reported with b.ReportMetric), sorted.
func extraUnits(t *table) []string {
	var units []string
	for _, r := range t.rows {
		for u := range r.res.samples {
			if u != unitNs && u != unitBytes && u != unitAllocs && !slices.Contains(units, u) {
				units = append(units, u)
			}
		}
	}
	slices.Sort(units)
	return units
}

// formatDuration formats nanoseconds in a human unit.
func formatDuration(ns float64) string {
	switch {
	case ns < 1e3:
		return strconv.FormatFloat(ns, 'f', 1, 64) + " ns"
	case ns < 1e6:
		return strconv.FormatFloat(ns/1e3, 'f', 2, 64) + " µs"
	case ns < 1e9:
		return strconv.FormatFloat(ns/1e6, 'f', 2, 64) + " ms"
	default:
		return strconv.FormatFloat(ns/1e9, 'f', 2, 64) + " s"
	}
}

// formatCount formats the median of an integral unit such as B/op; a
// median of an even number of runs may end in .5.
func formatCount(r *result, unit string) string {
	v, ok := r.median(unit)
	if !ok {
		return "–"
	}
	return strconv.FormatFloat(v, 'f', -1, 64)
}

// formatRatio formats a time ratio such as 12.3×.
func formatRatio(x float64) string {
	switch {
	case x >= 100:
		return strconv.FormatFloat(x, 'f', 0, 64) + "×"
	case x >= 10:
		return strconv.FormatFloat(x, 'f', 1, 64) + "×"
	default:
		return strconv.FormatFloat(x, 'f', 2, 64) + "×"
	}
}

// targetFamily is the family the encoder targets apply to.
const targetFamily = "Encode"
