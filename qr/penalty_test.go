package qr

import (
	"math/rand/v2"
	"testing"
)

// referencePenalty scores a matrix module by module, as Nayuki's qrcodegen getPenaltyScore
// does, to check the word-parallel scoring of mask.go against.
func referencePenalty(dark [][]bool) int {
	n := len(dark)
	at := func(x, y int, columns bool) bool {
		if columns {
			return dark[x][y]
		}
		return dark[y][x]
	}
	points := 0
	for _, columns := range []bool{false, true} {
		for y := range n {
			var runs [7]int
			push := func(length int) {
				if runs[0] == 0 {
					length += n
				}
				copy(runs[1:], runs[:6])
				runs[0] = length
			}
			count := func() int {
				u := runs[1]
				core := u > 0 && runs[2] == u && runs[3] == 3*u && runs[4] == u && runs[5] == u
				k := 0
				if core && runs[0] >= 4*u && runs[6] >= u {
					k++
				}
				if core && runs[6] >= 4*u && runs[0] >= u {
					k++
				}
				return k
			}
			color, length := false, 0
			for x := range n {
				if at(x, y, columns) == color {
					length++
					if length == 5 {
						points += penaltyN1
					} else if length > 5 {
						points++
					}
					continue
				}
				push(length)
				if !color {
					points += count() * penaltyN3
				}
				color, length = at(x, y, columns), 1
			}
			if color {
				push(length)
				length = 0
			}
			push(length + n)
			points += count() * penaltyN3
		}
	}
	for y := 0; y+1 < n; y++ {
		for x := 0; x+1 < n; x++ {
			c := dark[y][x]
			if c == dark[y][x+1] && c == dark[y+1][x] && c == dark[y+1][x+1] {
				points += penaltyN2
			}
		}
	}
	total, darkCount := n*n, 0
	for _, row := range dark {
		for _, d := range row {
			if d {
				darkCount++
			}
		}
	}
	k := (abs(darkCount*20-total*10)+total-1)/total - 1
	return points + k*penaltyN4
}

// fastPenalty scores dark with the word-parallel rules of mask.go.
func fastPenalty(dark [][]bool) int {
	n := len(dark)
	p := &plan{size: n, stride: (n + 63) / 64, rows: n + 2*pad}
	p.columns = make([]uint64, p.stride)
	for x := range n {
		p.columns[x/64] |= 1 << (x % 64)
	}
	m, mt := p.bitmap(), p.bitmap()
	darkCount := 0
	for y := range n {
		for x := range n {
			if dark[y][x] {
				darkCount++
				setBit(m, p.index(x, y))
				setBit(mt, p.index(y, x))
			}
		}
	}
	return balancePenalty(darkCount, n*n) + blockPenalty(m, p) + linePenalty(m, p) + linePenalty(mt, p)
}

// finderLike draws a 1:1:3:1:1 pattern of unit u with light margins along a row or column.
func finderLike(dark [][]bool, x, y, u int, vertical bool, r *rand.Rand) {
	n := len(dark)
	colors := []bool{}
	for range r.IntN(5 * u) {
		colors = append(colors, false)
	}
	for i, k := range []int{1, 1, 3, 1, 1} {
		for range k * u {
			colors = append(colors, i%2 == 0)
		}
	}
	for range r.IntN(5 * u) {
		colors = append(colors, false)
	}
	for i, c := range colors {
		if vertical && y+i < n {
			dark[y+i][x] = c
		} else if !vertical && x+i < n {
			dark[y][x+i] = c
		}
	}
}

func TestPenaltyMatchesReference(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for iter := range 1500 {
		n := symbolSize(1 + r.IntN(maxVersion))
		if iter < 40 {
			n = symbolSize(iter%maxVersion + 1)
		}
		density := r.Float64()
		dark := make([][]bool, n)
		for y := range dark {
			dark[y] = make([]bool, n)
			for x := range dark[y] {
				dark[y][x] = r.Float64() < density
			}
		}
		// Add finder-like patterns of several units, some touching the edges, so that rule 3's
		// scaled and border cases are exercised, and some long runs for rule 1.
		for range r.IntN(12) {
			u := 1 + r.IntN(6)
			finderLike(dark, r.IntN(n), r.IntN(n), u, r.IntN(2) == 0, r)
		}
		if got, want := fastPenalty(dark), referencePenalty(dark); got != want {
			t.Fatalf("size %d density %.2f: fast penalty %d, reference %d", n, density, got, want)
		}
	}
}

// matrix returns the modules of s as rows of booleans.
func matrix(s *Symbol) [][]bool {
	m := make([][]bool, s.Size())
	for y := range m {
		m[y] = make([]bool, s.Size())
		for x := range m[y] {
			m[y][x] = s.Dark(x, y)
		}
	}
	return m
}

// TestChosenMaskScoresLeast checks the mask choice over whole symbols: the chosen mask's
// symbol, format information included, has the fewest reference penalty points of the eight,
// and ties go to the lowest mask number.
func TestChosenMaskScoresLeast(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for v := minVersion; v <= maxVersion; v++ {
		for _, l := range levelsByStrength {
			text := randomText(r, 1+r.IntN(dataCodewords(v, l)-3))
			segs := appendOptimalSegments(nil, text, v, make([]byte, 3*len(text)))
			if streamBits(segs, v) > dataCodewords(v, l)*8 {
				continue
			}
			auto, err := encodeSegments(segs, v, l, -1)
			if err != nil {
				t.Fatal(err)
			}
			best, bestPoints := -1, 0
			for m := range 8 {
				s, err := encodeSegments(segs, v, l, m)
				if err != nil {
					t.Fatal(err)
				}
				if points := referencePenalty(matrix(s)); best < 0 || points < bestPoints {
					best, bestPoints = m, points
				}
			}
			if auto.Mask() != best {
				t.Errorf("version %d-%s: chose mask %d, the least penalty is mask %d", v, l, auto.Mask(), best)
			}
		}
	}
}

// randomText returns n bytes of ASCII mixing digit, upper-case and lower-case runs.
func randomText(r *rand.Rand, n int) string {
	const (
		digits = "0123456789"
		upper  = "ABCDEFGHIJKLMNOPQRSTUVWXYZ $%*+-./:"
		lower  = "abcdefghijklmnopqrstuvwxyz!?&=_~"
	)
	b := make([]byte, 0, n)
	for len(b) < n {
		set := [3]string{digits, upper, lower}[r.IntN(3)]
		for range 1 + r.IntN(20) {
			if len(b) < n {
				b = append(b, set[r.IntN(len(set))])
			}
		}
	}
	return string(b)
}
