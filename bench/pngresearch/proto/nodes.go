package main

import (
	"math"
	"slices"
)

// parseNodes is the cheap optimal parse: token boundaries only at nodes (row start and end,
// anchors and the byte after each, candidate starts and ends, and the byte after each node
// for a literal), edges: a literal to the next byte, the run of the byte before to the
// farthest node it reaches, and each candidate covering a node to every node up to its end.
func (t *tokenizer) parseNodes(content []byte, p0, end int, cands []cand, c *costs, pend tok, emit func(tok)) {
	L := end - p0
	isNode := make([]bool, L+1)
	isNode[0], isNode[L] = true, true
	for i := 0; i < L; i++ {
		if t.anchors[i] && (!t.changesOnly || p0+i == 0 || content[p0+i] != content[p0+i-1]) {
			isNode[i] = true
		}
	}
	isSwitch := make([]bool, L+1) // where another copy starts
	for _, cd := range cands {
		isSwitch[cd.s-p0] = true
	}
	if !t.coarse {
		for _, cd := range cands {
			isNode[cd.s-p0], isNode[cd.e-p0] = true, true
		}
		for i := L - 1; i >= 0; i-- { // literal targets
			if isNode[i] {
				isNode[i+1] = true
			}
		}
	} else {
		for i := L - 1; i >= 1; i-- { // the two bytes after a change
			if isNode[i] && i+2 <= L {
				isNode[i+1], isNode[i+2] = true, true
			}
		}
	}
	var nodes []int
	for i := 0; i <= L; i++ {
		if isNode[i] {
			nodes = append(nodes, i)
		}
	}
	t.nodes += len(nodes)
	cost := make([]float64, L+1)
	from := make([]tok, L+1)
	for i := 1; i <= L; i++ {
		cost[i] = math.Inf(1)
	}
	runEnd := func(i int) int { // end of the run of content[p0+i-1] from i
		p := p0 + i
		if p == 0 {
			return i
		}
		b := content[p-1]
		q := p
		for q < end && content[q] == b {
			q++
		}
		return q - p0
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
	for ni, i := range nodes {
		if i == L || math.IsInf(cost[i], 1) {
			continue
		}
		b := content[p0+i]
		t.edges++
		if !isNode[i+1] {
			goto matches
		}
		if cc := cost[i] + c.lit[b]; cc < cost[i+1] {
			cost[i+1] = cc
			from[i+1] = tok{lit: b}
		}
	matches:
		if re := runEnd(i); re-i >= 3 || (i == 0 && pend.dist == 1 && re > i) {
			// the farthest node within the run
			k := ni
			for k+1 < len(nodes) && nodes[k+1] <= re {
				k++
			}
			if nodes[k]-i >= 3 || i == 0 {
				relax(i, nodes[k], 1)
			}
		}
		for _, cd := range cands {
			if cd.s-p0 <= i && i < cd.e-p0 {
				for k := ni + 1; k < len(nodes) && nodes[k] <= cd.e-p0; k++ {
					if t.pruneEdges && nodes[k] != cd.e-p0 && !isSwitch[nodes[k]] && !isSwitch[nodes[k]-1] {
						continue
					}
					if nodes[k]-i >= 3 {
						relax(i, nodes[k], cd.d)
					}
				}
			}
		}
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
}
