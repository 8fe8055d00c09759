package deflate

import (
	"bytes"
	"fmt"
	"hash/adler32"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/bananaqr/bananaqr/internal/qrtest"
)

// ztInput is the input of a Writer: rows of rowLen bytes (the last may be shorter), and
// after each, how many times it repeats (RepeatRows).
type ztInput struct {
	rowLen  int
	rows    [][]byte
	repeats []int
}

// data returns the uncompressed stream the input stands for.
func (in *ztInput) data() []byte {
	var out []byte
	for i, r := range in.rows {
		for range 1 + in.repeats[i] {
			out = append(out, r...)
		}
	}
	return out
}

// compress runs the input through z, after prefix.
func (in *ztInput) compress(z *Writer, prefix []byte) []byte {
	z.Reset(prefix, in.rowLen)
	for i, r := range in.rows {
		copy(z.NextRow(), r)
		z.CommitRow(len(r))
		if in.repeats[i] > 0 {
			z.RepeatRows(in.repeats[i])
		}
	}
	return z.Finish()
}

// ztSplit cuts data into rows of rowLen bytes, none repeated.
func ztSplit(data []byte, rowLen int) *ztInput {
	in := &ztInput{rowLen: rowLen}
	for len(data) > 0 {
		n := min(rowLen, len(data))
		in.rows = append(in.rows, data[:n])
		in.repeats = append(in.repeats, 0)
		data = data[n:]
	}
	return in
}

// ztRoundTrip compresses in and checks that it inflates back, and returns the stream.
func ztRoundTrip(tb testing.TB, z *Writer, in *ztInput) []byte {
	tb.Helper()
	stream := in.compress(z, nil)
	want := in.data()
	if got := qrtest.Inflate(tb, stream); !bytes.Equal(got, want) {
		i := 0
		for i < min(len(got), len(want)) && got[i] == want[i] {
			i++
		}
		tb.Fatalf("inflated %d bytes, want %d; first difference at %d", len(got), len(want), i)
	}
	return stream
}

// ztRandom returns n random bytes.
func ztRandom(r *rand.Rand, n int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(r.Uint32())
	}
	return b
}

// ztRuns returns n bytes in runs of random bytes with random lengths up to maxRun.
func ztRuns(r *rand.Rand, n, maxRun int) []byte {
	var b []byte
	for len(b) < n {
		b = append(b, bytes.Repeat([]byte{byte(r.Uint32())}, 1+r.IntN(maxRun))...)
	}
	return b[:n]
}

func TestDeflateBytes(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	block := ztRandom(r, 40<<10)
	cases := []struct {
		name string
		data []byte
	}{
		{"empty", nil},
		{"one byte", []byte{7}},
		{"three bytes", []byte("abc")},
		{"high bytes (fixed code)", []byte{200, 255, 144, 143, 0, 1, 255}},
		{"all zero", make([]byte, 100<<10)},
		{"random 1K", ztRandom(r, 1<<10)},
		{"random 100K", ztRandom(r, 100<<10)},
		{"random 300K (several blocks)", ztRandom(r, 300<<10)},
		{"long runs", ztRuns(r, 200<<10, 1000)},
		{"short runs", ztRuns(r, 100<<10, 4)},
		{"text", bytes.Repeat([]byte("the quick brown fox jumps over the lazy dog. "), 3000)},
		// A 40K block twice: the second copy is out of reach (beyond 32K).
		{"repeat beyond the window", append(append([]byte(nil), block...), block...)},
		// Two random 20K blocks alternating: in reach.
		{"repeat within the window", bytes.Repeat(block[:20<<10], 4)},
		// A pattern, then zeros (which stay out of the hash chains), then the pattern again:
		// the only candidate for a match is too far, or just in reach.
		{"pattern beyond the window", slices.Concat(block[:64], make([]byte, maxDistance-30), block[:64])},
		{"pattern at the window's edge", slices.Concat(block[:64], make([]byte, maxDistance-64), block[:64])},
	}
	z := NewWriter()
	for _, c := range cases {
		for _, rowLen := range []int{1, 2, 3, 7, 129, 1000, 4096, 32768, 40000, 70000} {
			t.Run(fmt.Sprintf("%s/row %d", c.name, rowLen), func(t *testing.T) {
				ztRoundTrip(t, z, ztSplit(c.data, rowLen))
			})
		}
	}
}

func TestDeflateRepeatedRows(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	z := NewWriter()
	for _, rowLen := range []int{1, 2, 3, 4, 9, 129, 257, 513, 4097, 33000, 70000} {
		for trial := range 5 {
			in := &ztInput{rowLen: rowLen}
			total := 0
			for total < 300<<10 {
				var row []byte
				switch r.IntN(4) {
				case 0:
					row = make([]byte, rowLen) // blank
				case 1:
					row = ztRandom(r, rowLen)
				case 2:
					row = ztRuns(r, rowLen, 30)
				default: // the last row with a few changes
					if len(in.rows) == 0 {
						row = make([]byte, rowLen)
					} else {
						row = bytes.Clone(in.rows[len(in.rows)-1])
					}
					for range 1 + r.IntN(4) {
						row[r.IntN(rowLen)] ^= byte(1 + r.IntN(255))
					}
				}
				rep := r.IntN(30)
				if r.IntN(3) == 0 {
					rep = 0
				}
				in.rows = append(in.rows, row)
				in.repeats = append(in.repeats, rep)
				total += rowLen * (1 + rep)
			}
			if trial%2 == 1 { // a short last row
				last := in.rows[len(in.rows)-1]
				in.rows[len(in.rows)-1] = last[:1+r.IntN(len(last))]
				in.repeats[len(in.repeats)-1] = 0
			}
			t.Run(fmt.Sprintf("row %d trial %d", rowLen, trial), func(t *testing.T) {
				ztRoundTrip(t, z, in)
			})
		}
	}
}

// A long run of repeated rows becomes a handful of tokens per 258 bytes, and identical
// repeated rows of zeros become one run at distance 1.
func TestDeflateRepeatsAreCheap(t *testing.T) {
	z := NewWriter()
	in := &ztInput{rowLen: 129, rows: [][]byte{make([]byte, 129)}, repeats: []int{10000}}
	if stream := ztRoundTrip(t, z, in); len(stream) > 2000 {
		t.Errorf("%d blank rows: %d bytes", 10001, len(stream))
	}
	row := ztRandom(rand.New(rand.NewPCG(5, 6)), 129)
	in = &ztInput{rowLen: 129, rows: [][]byte{row}, repeats: []int{10000}}
	// 10,000 copies of 129 bytes: 5,000 tokens of 258 bytes, about 8 bits each.
	if stream := ztRoundTrip(t, z, in); len(stream) > 5500 {
		t.Errorf("%d repeated random rows: %d bytes", 10001, len(stream))
	}
}

// The writer keeps its tables between streams; they must not leak into the next one, also
// when content positions wrap around.
func TestDeflateReuse(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	z := NewWriter()
	a := ztSplit(bytes.Repeat(ztRandom(r, 3000), 20), 500)
	b := ztSplit(ztRuns(r, 50000, 20), 700)
	for i := range 6 {
		if i == 3 {
			z.nextPos = 1<<30 + 12345 // the next reset clears the tables
		}
		first := ztRoundTrip(t, z, a)
		ztRoundTrip(t, z, b)
		if again := ztRoundTrip(t, z, a); !bytes.Equal(first, again) {
			t.Fatalf("round %d: the same input compressed differently", i)
		}
	}
	// A fresh writer gives the same bytes: the tables only speed things up.
	if !bytes.Equal(a.compress(z, nil), a.compress(NewWriter(), nil)) {
		t.Error("a used writer and a fresh one disagree")
	}
}

func TestDeflateAppends(t *testing.T) {
	in := ztSplit([]byte("hello, hello, hello"), 5)
	prefix := []byte("prefix")
	out := in.compress(NewWriter(), bytes.Clone(prefix))
	if !bytes.HasPrefix(out, prefix) {
		t.Fatalf("prefix lost: %q", out)
	}
	if got := qrtest.Inflate(t, out[len(prefix):]); string(got) != "hello, hello, hello" {
		t.Errorf("got %q", got)
	}
}

func TestSums(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	for _, n := range []int{0, 1, 7, 8, 9, 15, 16, 100, 1 << 16, 1<<16 + 3, 200000} {
		for _, b := range [][]byte{ztRandom(r, n), bytes.Repeat([]byte{0xFF}, n)} {
			var s, w uint64
			for _, c := range b {
				s += uint64(c)
				w += s
			}
			gs, gw := adlerSums(b)
			if uint64(gs) != s%adlerMod || uint64(gw) != w%adlerMod {
				t.Errorf("%d bytes: sums %d, %d, want %d, %d", n, gs, gw, s%adlerMod, w%adlerMod)
			}
			// And as Adler-32 sees them: A = 1 + s, B = n + w.
			want := adler32.Checksum(b)
			if got := uint32((uint64(n)+uint64(gw))%adlerMod)<<16 | uint32((1+uint64(gs))%adlerMod); got != want {
				t.Errorf("%d bytes: Adler-32 %08x, want %08x", n, got, want)
			}
		}
	}
}

func TestRowOf(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	z := NewWriter()
	for range 100000 {
		z.rowLen = 1 + r.IntN(1<<17)
		z.recip = (1<<40 + uint64(z.rowLen) - 1) / uint64(z.rowLen)
		x := r.IntN(1 << 31)
		if r.IntN(2) == 0 {
			x = r.IntN(z.rowLen * 300)
		}
		if got := z.rowOf(x); got != x/z.rowLen {
			t.Fatalf("rowOf(%d) with rows of %d = %d, want %d", x, z.rowLen, got, x/z.rowLen)
		}
	}
}

// ztHuffmanCost returns the cost of an optimal (unlimited) Huffman code for freq, by repeatedly
// merging the two lightest weights: each merge adds its weight to the total.
func ztHuffmanCost(freq []uint32) int {
	var w []int
	for _, f := range freq {
		if f > 0 {
			w = append(w, int(f))
		}
	}
	if len(w) < 2 {
		return 0
	}
	cost := 0
	for len(w) > 1 {
		for i := range 2 { // move the two smallest to the end
			m := i
			for j := i; j < len(w); j++ {
				if w[j] < w[m] {
					m = j
				}
			}
			w[i], w[m] = w[m], w[i]
		}
		s := w[0] + w[1]
		cost += s
		w = append(w[2:], s)
	}
	return cost
}

func TestHuffmanLengths(t *testing.T) {
	r := rand.New(rand.NewPCG(13, 14))
	var cases [][]uint32
	fib := make([]uint32, numLitLen) // depths up to 40 without a limit
	a, b := uint32(1), uint32(1)
	for i := range 40 {
		fib[i*7] = a
		a, b = b, a+b
	}
	cases = append(cases, fib, make([]uint32, numLitLen), []uint32{0, 0, 5}, []uint32{3, 0, 0, 9})
	for range 300 {
		f := make([]uint32, 2+r.IntN(numLitLen-1))
		for i := range f {
			switch r.IntN(3) {
			case 0:
			case 1:
				f[i] = uint32(1 + r.IntN(10))
			default:
				f[i] = uint32(1) << r.IntN(24)
			}
		}
		cases = append(cases, f)
	}
	var hs huffScratch
	for _, freq := range cases {
		for _, maxBits := range []int{maxCLBits, maxCodeBits} {
			if len(freq) > 1<<maxBits {
				continue
			}
			var h huffCode
			h.build(freq, maxBits, &hs)
			kraft, used := 0, 0
			for s, l := range h.lens[:len(freq)] {
				if int(l) > maxBits {
					t.Fatalf("length %d > %d", l, maxBits)
				}
				if freq[s] > 0 && l == 0 {
					t.Fatalf("symbol %d used but without a code", s)
				}
				if l > 0 {
					kraft += 1 << (maxBits - int(l))
					used++
				}
			}
			if kraft != 1<<maxBits {
				t.Fatalf("frequencies %v: Kraft sum %d/%d, want a complete code", freq, kraft, 1<<maxBits)
			}
			// Without the limit, the code is optimal.
			if opt := ztHuffmanCost(freq); opt > 0 && maxBits == maxCodeBits && used < 200 {
				deepest := 0
				for _, l := range h.lens {
					deepest = max(deepest, int(l))
				}
				if deepest < maxBits && h.cost(freq) != opt {
					t.Fatalf("frequencies %v: cost %d, optimal %d", freq, h.cost(freq), opt)
				}
			}
			ztPrefixFree(t, &h, len(freq))
		}
	}
}

// ztPrefixFree checks that no code is a prefix of another (codes are bit-reversed).
func ztPrefixFree(t *testing.T, h *huffCode, n int) {
	t.Helper()
	for a := range n {
		for b := range n {
			la, lb := h.lens[a], h.lens[b]
			if a == b || la == 0 || lb == 0 || la > lb {
				continue
			}
			if h.codes[b]&(1<<la-1) == h.codes[a] {
				t.Fatalf("code of %d (%d bits) is a prefix of that of %d (%d bits)", a, la, b, lb)
			}
		}
	}
}

func TestFixedCodes(t *testing.T) {
	// RFC 1951 3.2.6: literal 0 is 00110000, 144 is 110010000, 256 is 0000000, 280 is 11000000.
	for _, c := range []struct {
		sym  int
		code uint16
		len  uint8
	}{{0, 0x30, 8}, {143, 0xBF, 8}, {144, 0x190, 9}, {255, 0x1FF, 9}, {256, 0, 7}, {279, 0x17, 7}, {280, 0xC0, 8}} {
		rev := fixedLit.codes[c.sym]
		var code uint16
		for i := range c.len {
			code = code<<1 | rev>>i&1
		}
		if fixedLit.lens[c.sym] != c.len || code != c.code {
			t.Errorf("symbol %d: code %b (%d bits), want %b (%d bits)", c.sym, code, fixedLit.lens[c.sym], c.code, c.len)
		}
	}
}

func BenchmarkDeflate(b *testing.B) {
	r := rand.New(rand.NewPCG(15, 16))
	for _, c := range []struct {
		name string
		in   *ztInput
	}{
		{"random-64K", ztSplit(ztRandom(r, 64<<10), 1024)},
		{"runs-64K", ztSplit(ztRuns(r, 64<<10, 40), 1024)},
	} {
		b.Run(c.name, func(b *testing.B) {
			z := NewWriter()
			var out []byte
			b.SetBytes(int64(len(c.in.data())))
			for b.Loop() {
				out = c.in.compress(z, out[:0])
			}
			b.ReportMetric(float64(len(out)), "bytes")
		})
	}
}

// ztPatchData returns the data of a random patch: n bytes in runs, first and last not zero.
func ztPatchData(r *rand.Rand, n int) []byte {
	b := ztRuns(r, n, 1+r.IntN(40))
	for _, i := range []int{0, n - 1} {
		if b[i] == 0 {
			b[i] = 1 + byte(r.IntN(255))
		}
	}
	return b
}

// TestDeflatePatches compresses random patched rows, with random patch tables (short and long patches, gaps beyond a token's reach, rows beyond a block), and
// checks that they inflate to the rows meant.
func TestDeflatePatches(t *testing.T) {
	r := rand.New(rand.NewPCG(41, 42))
	z := NewWriter()
	for round := range 12 {
		rowLen := 1 + []int{2, 7, 200, 2048, 5000}[round%5]
		table := []*Patch{EmptyPatch}
		for range 1 + r.IntN(300) {
			n := 1 + r.IntN(min(rowLen-1, []int{4, 40, 400}[r.IntN(3)]))
			table = append(table, NewPatch(r.IntN(5), ztPatchData(r, n)))
		}
		var want []byte
		z.Reset([]byte("prefix"), rowLen)
		head := NewPatch(0, []byte{byte(1 + r.IntN(255))})
		z.UsePatches(table, head)
		rows := 50 + r.IntN(100)
		if round%4 == 3 {
			rows = 3000 // more tokens than a block holds
		}
		for range rows {
			row := make([]byte, rowLen)
			row[0] = head.data[0]
			var anchors []int32
			var entries []uint16
			for at := 1; at < rowLen && len(entries) < 60; {
				i := r.IntN(len(table))
				p := table[i]
				anchor := at + r.IntN(1+rowLen/8) - 1 // the place's data starts at 1 + anchor + offset
				if 1+anchor+p.offset+len(p.data) > rowLen || r.IntN(8) == 0 {
					break
				}
				anchors, entries = append(anchors, int32(anchor)), append(entries, uint16(i))
				copy(row[1+anchor+p.offset:], p.data)
				at = 1 + anchor + p.offset + len(p.data)
			}
			z.PatchRow(anchors, entries)
			want = append(want, row...)
		}
		stream := z.Finish()
		if !bytes.HasPrefix(stream, []byte("prefix")) {
			t.Fatal("the prefix is lost")
		}
		if got := qrtest.Inflate(t, stream[len("prefix"):]); !bytes.Equal(got, want) {
			t.Fatalf("round %d, rows of %d bytes: inflated %d bytes, want %d", round, rowLen, len(got), len(want))
		}
	}
}

// ztPatchedRow returns a random row of rowLen bytes as head and patches of table placed on
// zeros: its bytes, and the anchors and entries that PatchRow takes. One row in five is bare.
func ztPatchedRow(r *rand.Rand, rowLen int, table []*Patch, head *Patch) ([]byte, []int32, []uint16) {
	row := make([]byte, rowLen)
	copy(row, head.data)
	var anchors []int32
	var entries []uint16
	for at := 1; at < rowLen && len(entries) < 60 && r.IntN(5) != 0; {
		i := r.IntN(len(table))
		p := table[i]
		anchor := at + r.IntN(1+rowLen/8) - 1
		if 1+anchor+p.offset+len(p.data) > rowLen {
			break
		}
		anchors, entries = append(anchors, int32(anchor)), append(entries, uint16(i))
		copy(row[1+anchor+p.offset:], p.data)
		at = 1 + anchor + p.offset + len(p.data)
	}
	return row, anchors, entries
}

// TestDeflateSegments compresses random patched rows with stretches of them put as segments made
// once (at any bit of the stream, several segments a stream, the same segment in several
// streams, segments beyond a block), and checks that the streams inflate to the rows meant, their
// Adler-32 included.
func TestDeflateSegments(t *testing.T) {
	r := rand.New(rand.NewPCG(43, 44))
	z := NewWriter()
	for round := range 8 {
		rowLen := 1 + []int{5, 300, 2500}[round%3]
		table := []*Patch{EmptyPatch}
		for range 1 + r.IntN(200) {
			n := 1 + r.IntN(min(rowLen-1, []int{4, 40}[r.IntN(2)]))
			table = append(table, NewPatch(r.IntN(3), ztPatchData(r, n)))
		}
		head := NewPatch(0, []byte{2})
		type segment struct {
			seg  *Segment
			data []byte
		}
		var segs []segment
		for range 3 {
			rows := 1 + r.IntN(40)
			if round == 7 {
				rows = 3000 // more tokens than a block holds
			}
			var data []byte
			var anchors [][]int32
			var entries [][]uint16
			for range rows {
				row, a, e := ztPatchedRow(r, rowLen, table, head)
				data = append(data, row...)
				anchors, entries = append(anchors, a), append(entries, e)
			}
			seg := NewSegment(rowLen, table, head, rows, func(i int) ([]int32, []uint16) {
				return anchors[i], entries[i]
			})
			segs = append(segs, segment{seg, data})
		}
		for stream := range 3 {
			var want []byte
			z.Reset(nil, rowLen)
			z.UsePatches(table, head)
			for range 2 + r.IntN(4) {
				for range r.IntN(30) {
					row, anchors, entries := ztPatchedRow(r, rowLen, table, head)
					z.PatchRow(anchors, entries)
					want = append(want, row...)
				}
				s := segs[r.IntN(len(segs))]
				z.PutSegment(s.seg)
				want = append(want, s.data...)
			}
			if got := qrtest.Inflate(t, z.Finish()); !bytes.Equal(got, want) {
				t.Fatalf("round %d, stream %d, rows of %d bytes: inflated %d bytes, want %d", round, stream, rowLen, len(got), len(want))
			}
		}
	}
}
