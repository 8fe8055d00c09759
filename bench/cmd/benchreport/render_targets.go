package main

import (
	"fmt"
	"io"
	"strconv"
)

// renderTarget is one check of the renderer issue: it looks up the results it needs among all
// tables and returns the figure to print and whether the target is met; ok is false when the
// results are missing (the target is then not reported).
type renderTarget struct {
	desc  string
	check func(find finder) (figure string, pass, ok bool)
}

// finder returns the result of a benchmark by family, input and library.
type finder func(family, input, lib string) *result

// renderTargets are the renderer's targets (the URL at 1024 pixels unless said otherwise).
var renderTargets = []renderTarget{
	{"encode + PNG at least 5× faster than rsc's encode + PNG (URL, 1024 px)", func(f finder) (string, bool, bool) {
		return ratioAtLeast(f("PNG", "url", "rsc"), f("PNG", "url", baseline), 5)
	}},
	{"encode + PNG at least 100× faster than skip2 (URL, 1024 px)", func(f finder) (string, bool, bool) {
		return ratioAtLeast(f("PNG", "url", "skip2"), f("PNG", "url", baseline), 100)
	}},
	{"PNG of the URL at most 1,000 bytes", func(f finder) (string, bool, bool) {
		return metricAtMost(f("PNG", "url", baseline), "png-bytes", 1000)
	}},
	{"encode + PNG at least 5× faster than rsc (2,000 characters, 2048 px)", func(f finder) (string, bool, bool) {
		return ratioAtLeast(f("PNG", "ascii2000", "rsc"), f("PNG", "ascii2000", baseline), 5)
	}},
	{"SVG of the URL in under 10 µs", func(f finder) (string, bool, bool) {
		r := f("SVGOnly", "", "SVGOnly")
		if r == nil {
			return "", false, false
		}
		ns, _ := r.median(unitNs)
		return formatDuration(ns), ns < 10e3, true
	}},
	{"SVG of the URL under 4 KB", func(f finder) (string, bool, bool) {
		return metricAtMost(f("SVGOnly", "", "SVGOnly"), "svg-bytes", 3999)
	}},
	{"rounded + banana PNG within 3× of the square one (encode included)", func(f finder) (string, bool, bool) {
		return ratioAtMost(f("Style", "png", "rounded-banana"), f("Style", "png", "square"), 3)
	}},
}

// ratioAtLeast checks that slow takes at least limit times as long as fast.
func ratioAtLeast(slow, fast *result, limit float64) (string, bool, bool) {
	if slow == nil || fast == nil {
		return "", false, false
	}
	s, _ := slow.median(unitNs)
	q, _ := fast.median(unitNs)
	return fmt.Sprintf("%s (%s vs %s)", formatRatio(s/q), formatDuration(s), formatDuration(q)), s/q >= limit, true
}

// ratioAtMost checks that a takes at most limit times as long as b.
func ratioAtMost(a, b *result, limit float64) (string, bool, bool) {
	if a == nil || b == nil {
		return "", false, false
	}
	x, _ := a.median(unitNs)
	y, _ := b.median(unitNs)
	return fmt.Sprintf("%s (%s vs %s)", formatRatio(x/y), formatDuration(x), formatDuration(y)), x/y <= limit, true
}

// metricAtMost checks that the median of a reported metric is at most limit.
func metricAtMost(r *result, unit string, limit float64) (string, bool, bool) {
	if r == nil {
		return "", false, false
	}
	v, ok := r.median(unit)
	if !ok {
		return "no " + unit, false, true
	}
	return strconv.FormatFloat(v, 'f', -1, 64) + " " + unit, v <= limit, true
}

// writeRenderTargets prints the renderer's target checks for which there are results.
func writeRenderTargets(w io.Writer, tables []*table) {
	find := func(family, input, lib string) *result {
		for _, t := range tables {
			if t.family == family && t.input == input {
				return t.lookup(lib)
			}
		}
		return nil
	}
	header := false
	for _, tg := range renderTargets {
		figure, pass, ok := tg.check(find)
		if !ok {
			continue
		}
		if !header {
			fmt.Fprint(w, "\n### Targets (renderers)\n\n")
			header = true
		}
		status := "PASS"
		if !pass {
			status = "FAIL"
		}
		fmt.Fprintf(w, "- **%s** %s: %s\n", status, tg.desc, figure)
	}
}
