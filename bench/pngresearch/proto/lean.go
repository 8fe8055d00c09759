package main

// leanParser is the bounded parse of parseEvents written as production code would be: integer
// costs (sixteenths of a bit), arrays reused, no closures or maps. Used only to count its
// instructions (BenchmarkLeanParse).
type leanParser struct {
	litCost   [256]uint32
	lenCost   [259]uint32 // symbol + extra bits, by length
	distCost  [30]uint32  // symbol + extra bits, by distance code
	cost      []uint32
	fromLen   []int32
	fromDist  []int32
	isNode    []bool
	isStart   []bool
	nextSt    []int32
	live      []int32
	dc        []uint32 // per candidate: its distance's cost
	out       []tok
	fallbacks int
}

func newLeanParser(c *costs) *leanParser {
	p := &leanParser{}
	for i := range p.litCost {
		p.litCost[i] = uint32(c.lit[i] * 16)
	}
	for l := 3; l <= 258; l++ {
		lc := lenCode[l]
		p.lenCost[l] = uint32((c.lit[257+lc] + float64(lenExtra[lc])) * 16)
	}
	for d := range p.distCost {
		p.distCost[d] = uint32((c.dist[d] + float64(distExtra[d])) * 16)
	}
	return p
}

const inf = ^uint32(0) >> 1

func (p *leanParser) parse(r *capturedRow) []tok {
	if out, ok := p.parseOnce(r, true); ok {
		return out
	}
	p.fallbacks++
	out, _ := p.parseOnce(r, false)
	return out
}

func (p *leanParser) parseOnce(r *capturedRow, sparse bool) ([]tok, bool) {
	L := len(r.row)
	if cap(p.cost) < L+2 {
		p.cost = make([]uint32, L+2)
		p.fromLen = make([]int32, L+2)
		p.fromDist = make([]int32, L+2)
		p.isNode = make([]bool, L+2)
		p.isStart = make([]bool, L+2)
		p.nextSt = make([]int32, L+2)
	}
	cost, fl, fd := p.cost[:L+1], p.fromLen[:L+1], p.fromDist[:L+1]
	isNode, isStart, nextSt := p.isNode[:L+2], p.isStart[:L+2], p.nextSt[:L+2]
	clear(isNode)
	clear(isStart)
	isNode[0], isNode[L] = true, true
	p.dc = p.dc[:0]
	for _, cd := range r.cands {
		isNode[cd.s], isNode[cd.e], isStart[cd.s] = true, true, true
		p.dc = append(p.dc, p.distCost[distCode(cd.d)])
	}
	ns := int32(L)
	for i := L; i >= 0; i-- {
		nextSt[i] = ns
		if isStart[i] {
			ns = int32(i)
		}
		if i < L && isNode[i] {
			isNode[i+1] = true
		}
		cost[i] = inf
	}
	cost[0] = 0
	live := p.live[:0]
	next := 0
	for i := 0; i < L; i++ {
		for next < len(r.cands) && r.cands[next].s <= i {
			live = append(live, int32(next))
			next++
		}
		ci := cost[i]
		if ci == inf || sparse && !isNode[i] {
			continue
		}
		k := 0
		for _, j := range live {
			if r.cands[j].e > i {
				live[k] = j
				k++
			}
		}
		live = live[:k]
		if c := ci + p.litCost[r.row[i]]; c < cost[i+1] {
			cost[i+1], fl[i+1], fd[i+1] = c, 1, 0
		}
		s := int(nextSt[i])
		for _, j := range live {
			cd := r.cands[j]
			cont := i == 0 && cd.d == r.pendDist
			base := ci + p.dc[j]
			if cont {
				base = ci + 2
			}
			if l := cd.e - i; l >= 3 || cont {
				c := base + p.lenCost[min(max(l, 3), 258)]
				if c < cost[cd.e] {
					cost[cd.e], fl[cd.e], fd[cd.e] = c, int32(l), int32(cd.d)
				}
			}
			if s < cd.e {
				if l := s - i; l >= 3 || cont {
					c := base + p.lenCost[min(max(l, 3), 258)]
					if c < cost[s] {
						cost[s], fl[s], fd[s] = c, int32(l), int32(cd.d)
					}
				}
			}
		}
	}
	p.live = live
	if cost[L] == inf {
		return nil, false
	}
	out := p.out[:0]
	for i := L; i > 0; {
		l := int(fl[i])
		if fd[i] == 0 {
			out = append(out, tok{lit: r.row[i-1]})
			i--
		} else {
			out = append(out, tok{len: int32(l), dist: fd[i]})
			i -= l
		}
	}
	p.out = out
	return out, true
}
