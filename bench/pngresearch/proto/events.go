package main

import (
	"math"
	"slices"
)

// parseEvents is the bounded optimal parse: nodes are the row's ends, where candidates and
// runs start and end, and the byte after each (for a literal); from a node, a literal, and for
// each copy (a candidate or the run) covering it two edges: to the copy's end, and to the next
// node where another copy starts (a switch point). Edges per node ≤ 1 + 2 × the copies live
// there.
func (t *tokenizer) parseEvents(content []byte, p0, end int, cands []cand, c *costs, pend tok, emit func(tok)) {
	if t.sparse && t.parseEventsOnce(content, p0, end, cands, c, pend, emit, true) {
		return
	}
	t.parseEventsOnce(content, p0, end, cands, c, pend, emit, false)
}

func (t *tokenizer) parseEventsOnce(content []byte, p0, end int, cands []cand, c *costs, pend tok, emit func(tok), sparse bool) bool {
	L := end - p0
	// runs as candidates at distance 1: a run of one byte [a, b) is a copy of [a+1, b)
	all := make([]cand, 0, len(cands)+16)
	for _, cd := range cands {
		all = append(all, cand{cd.s - p0, cd.e - p0, cd.d})
	}
	for a := 0; a < L; {
		b := a + 1
		for b < L && content[p0+b] == content[p0+a] {
			b++
		}
		s := a + 1
		if a == 0 && p0 > 0 && content[p0-1] == content[p0] {
			s = 0 // continues the byte before the row
		}
		if b-s >= 3 || (s == 0 && pend.dist == 1) {
			all = append(all, cand{s, b, 1})
		}
		a = b
	}
	if t.dominate { // drop copies inside another no dearer (its distance no costlier)
		dc := func(d int) float64 { k := distCode(d); return c.dist[k] + float64(distExtra[k]) }
		k := 0
		for i, a := range all {
			dominated := false
			for j, b := range all {
				if i != j && b.s <= a.s && b.e >= a.e && (dc(b.d) < dc(a.d) || dc(b.d) == dc(a.d) && (b.s < a.s || b.e > a.e || j < i)) {
					dominated = true
					break
				}
			}
			if !dominated {
				all[k] = a
				k++
			}
		}
		all = all[:k]
	}
	if capture != nil && sparse {
		*capture = append(*capture, capturedRow{row: content[p0:end], prev: content[max(p0-1, 0)], first: p0 == 0, cands: slices.SortedFunc(slices.Values(all), func(a, b cand) int { return a.s - b.s }), pendDist: int(pend.dist)})
	}
	isNode := make([]bool, L+2)
	isStart := make([]bool, L+2)
	isNode[0], isNode[L] = true, true
	for _, cd := range all {
		isNode[cd.s], isNode[cd.e], isStart[cd.s] = true, true, true
	}
	for i := L - 1; i >= 0; i-- {
		if isNode[i] {
			isNode[i+1] = true
		}
	}
	nextStart := make([]int, L+2) // the next start after i
	ns := L
	for i := L; i >= 0; i-- {
		nextStart[i] = ns
		if isStart[i] {
			ns = i
		}
	}
	cost := make([]float64, L+1)
	from := make([]tok, L+1)
	for i := 1; i <= L; i++ {
		cost[i] = math.Inf(1)
	}
	relax := func(i, j, d int) {
		t.edges++
		l := j - i
		cc := cost[i]
		if i == 0 && d == int(pend.dist) {
			cc += 0.1 * c.match(min(l, 258), d)
		} else {
			cc += c.match(min(l, 258), d)
		}
		if l > 258 {
			cc += float64(l/258) * c.match(258, d)
		}
		if cc < cost[j] {
			cost[j] = cc
			from[j] = tok{len: int32(l), dist: int32(d)}
		}
	}
	slices.SortFunc(all, func(a, b cand) int { return a.s - b.s })
	var live []cand
	next := 0
	for i := 0; i < L; i++ {
		for next < len(all) && all[next].s <= i {
			live = append(live, all[next])
			next++
		}
		if math.IsInf(cost[i], 1) || sparse && !isNode[i] {
			continue
		}
		t.nodes++
		k := 0
		for _, cd := range live { // drop the copies that ended
			if cd.e > i {
				live[k] = cd
				k++
			}
		}
		live = live[:k]
		b := content[p0+i]
		t.edges++
		if cc := cost[i] + c.lit[b]; cc < cost[i+1] {
			cost[i+1] = cc
			from[i+1] = tok{lit: b}
		}
		for _, cd := range live {
			cont := i == 0 && cd.d == int(pend.dist)
			if cd.e-i >= 3 || cont {
				relax(i, cd.e, cd.d)
			}
			if s := nextStart[i]; s < cd.e && (s-i >= 3 || cont) {
				relax(i, s, cd.d)
			}
		}
	}
	if false && debugRow == p0 {
		for i := 40; i < 60; i++ {
			println(i, content[p0+i], cost[i], from[i].len, from[i].dist, from[i].lit, isNode[i])
		}
	}
	if math.IsInf(cost[L], 1) {
		return false
	}
	var rt []tok
	for i := L; i > 0; {
		f := from[i]
		rt = append(rt, f)
		if f.dist == 0 {
			i--
		} else {
			i -= int(f.len)
		}
	}
	slices.Reverse(rt)
	for _, x := range rt {
		emit(x)
	}
	return true
}

var debugRow = -1

// capturedRow is a row's parse input, kept for BenchmarkLeanParse.
type capturedRow struct {
	row      []byte
	prev     byte
	first    bool
	cands    []cand // sorted by start, runs included, dominated ones dropped
	pendDist int
}

var capture *[]capturedRow
