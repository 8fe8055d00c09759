package main

// The targets of the Encode family, checked against its tables (see render_targets.go for
// the renderers').

import (
	"fmt"
	"io"
	"strconv"
	"strings"
)

// target is one check of the encoder issue.
type target struct {
	desc string
	// check evaluates one input's table and returns the figure to print
	// and whether the input passes. A missing result must fail.
	check func(t *table) (figure string, pass bool)
}

// targets are the encoder performance targets, checked per input of the
// Encode family.
var targets = []target{
	{
		desc:  "bananaqr faster than rsc on every input (rsc/bananaqr time > 1)",
		check: func(t *table) (string, bool) { return timeRatio(t, "rsc", 1, false) },
	},
	{
		desc:  "bananaqr at least 20× faster than skip2 on every input (skip2/bananaqr time ≥ 20)",
		check: func(t *table) (string, bool) { return timeRatio(t, "skip2", 20, true) },
	},
	{
		desc: "bananaqr at most 10 allocs/op on every input",
		check: func(t *table) (string, bool) {
			base := t.base()
			if base == nil {
				return "no bananaqr result", false
			}
			a, ok := base.median(unitAllocs)
			if !ok {
				return "no allocs/op (run with -benchmem)", false
			}
			return strconv.FormatFloat(a, 'f', -1, 64) + " allocs/op", a <= 10
		},
	},
}

// timeRatio compares lib's median time with the baseline's. The input
// passes when lib/baseline > limit, or ≥ limit when inclusive.
func timeRatio(t *table, lib string, limit float64, inclusive bool) (string, bool) {
	base, other := t.base(), t.lookup(lib)
	if base == nil || other == nil {
		return "missing bananaqr or " + lib + " result", false
	}
	b, _ := base.median(unitNs)
	o, _ := other.median(unitNs)
	x := o / b
	pass := x > limit || inclusive && x == limit
	return fmt.Sprintf("%s (%s vs %s)", formatRatio(x), formatDuration(o), formatDuration(b)), pass
}

// writeTargets prints the target checks for the Encode family: one line
// per target, PASS or FAIL, followed by the figure of every input.
func writeTargets(w io.Writer, tables []*table) {
	fmt.Fprintf(w, "### Targets (%s family)\n\n", targetFamily)
	var enc []*table
	for _, t := range tables {
		if t.family == targetFamily {
			enc = append(enc, t)
		}
	}
	if len(enc) == 0 {
		fmt.Fprintf(w, "No %s results: targets not checked.\n", targetFamily)
		return
	}
	for _, tg := range targets {
		status := "PASS"
		var figures []string
		for _, t := range enc {
			fig, pass := tg.check(t)
			mark := ""
			if !pass {
				status = "FAIL"
				mark = " ✗"
			}
			figures = append(figures, fmt.Sprintf("%s %s%s", t.input, fig, mark))
		}
		fmt.Fprintf(w, "- **%s** %s: %s\n", status, tg.desc, strings.Join(figures, "; "))
	}
}
