package render

import (
	"bytes"
	"encoding/hex"
	"errors"
	"fmt"
	"image/color"
	"math"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"unicode/utf16"

	"github.com/bananaqr/bananaqr/api"
	"github.com/bananaqr/bananaqr/qr"
)

// printStyles are the looks of the print tests.
var printStyles = []struct {
	name    string
	corners Corners
	logo    Logo
}{{"square", Square, NoLogo}, {"rounded", Rounded, NoLogo}, {"banana", Square, Banana}, {"rounded-banana", Rounded, Banana}}

// TestPDFStructure reads each PDF's cross-reference table back: startxref points at it, every
// entry at its object, /Length is the stream's; the page is PageSide points square, the
// document has no dates and no /ID, its /Title is o.Title, and its bytes are the same twice.
func TestPDFStructure(t *testing.T) {
	for _, st := range printStyles {
		for _, size := range []int{128, 300, 1024, 2048} {
			s, _ := encodeFor(renderTexts[0], qr.Options{}, st.logo)
			o := Defaults()
			o.Size, o.Corners, o.Logo = size, st.corners, st.logo
			o.Title = "QR code: café 🍌 (a) \\ <b>"
			data, err := PDF(s, o)
			if err != nil {
				t.Fatal(err)
			}
			name := fmt.Sprintf("%s %d", st.name, size)
			checkPDF(t, name, data, PageSide(&o), o.Title)
			if again, _ := PDF(s, o); !bytes.Equal(data, again) {
				t.Errorf("%s: not deterministic", name)
			}
			if want := float64(size) * 72 / 300; math.Abs(PageSide(&o)-want) > 1e-9 {
				t.Errorf("%s: page side %v, want %v", name, PageSide(&o), want)
			}
		}
	}
	s, _ := qr.Encode("x", qr.Options{})
	data, _ := PDF(s, Defaults())
	if bytes.Contains(data, []byte("/Title")) {
		t.Error("a /Title without Options.Title")
	}
	checkPDF(t, "untitled", data, 245.76, "")
}

// checkPDF checks the structure of a PDF written by AppendPDF.
func checkPDF(t *testing.T, name string, data []byte, side float64, title string) {
	t.Helper()
	if !bytes.HasPrefix(data, []byte("%PDF-1.4\n")) || !bytes.HasSuffix(data, []byte("\n%%EOF\n")) {
		t.Fatalf("%s: header or trailer missing", name)
	}
	for _, b := range data {
		if b >= 0x80 || b < 0x20 && b != '\n' {
			t.Fatalf("%s: byte %#x: the file is not 7-bit text", name, b)
		}
	}
	for _, banned := range []string{"CreationDate", "ModDate", "/ID"} {
		if bytes.Contains(data, []byte(banned)) {
			t.Errorf("%s: %s", name, banned)
		}
	}
	tail := data[bytes.LastIndex(data, []byte("startxref\n"))+10:]
	xref, err := strconv.Atoi(string(tail[:bytes.IndexByte(tail, '\n')]))
	if err != nil || !bytes.HasPrefix(data[xref:], []byte("xref\n0 7\n")) {
		t.Fatalf("%s: startxref %d does not point at the table: %v", name, xref, err)
	}
	entries := data[xref+len("xref\n0 7\n"):]
	if !bytes.HasPrefix(entries, []byte("0000000000 65535 f \n")) {
		t.Fatalf("%s: the table's free entry", name)
	}
	for n := 1; n <= 6; n++ {
		e := entries[20*n : 20*n+20]
		off, err := strconv.Atoi(string(e[:10]))
		if err != nil || string(e[10:]) != " 00000 n \n" {
			t.Fatalf("%s: entry %d %q", name, n, e)
		}
		if want := fmt.Sprintf("%d 0 obj\n", n); !bytes.HasPrefix(data[off:], []byte(want)) {
			t.Fatalf("%s: object %d is not at %d", name, n, off)
		}
	}
	if !bytes.HasPrefix(entries[140:], []byte("trailer\n<< /Size 7 /Root 1 0 R /Info 6 0 R >>\n")) {
		t.Errorf("%s: trailer %q", name, entries[140:])
	}
	stream := bytes.Index(data, []byte("stream\n")) + 7
	end := bytes.Index(data, []byte("endstream\n"))
	m := regexp.MustCompile(`5 0 obj\n(\d+)\nendobj`).FindSubmatch(data)
	if m == nil || string(m[1]) != strconv.Itoa(end-stream) {
		t.Errorf("%s: /Length %s, the stream has %d bytes", name, m, end-stream)
	}
	box := fmt.Sprintf("/MediaBox [0 0 %s %s]", strconv.FormatFloat(side, 'f', -1, 64), strconv.FormatFloat(side, 'f', -1, 64))
	if !bytes.Contains(data, []byte(box)) {
		t.Errorf("%s: no %s", name, box)
	}
	if title != "" {
		m := regexp.MustCompile(`/Title <FEFF([0-9A-F]*)>`).FindSubmatch(data)
		if m == nil {
			t.Fatalf("%s: no /Title", name)
		}
		b, _ := hex.DecodeString(string(m[1]))
		units := make([]uint16, len(b)/2)
		for i := range units {
			units[i] = uint16(b[2*i])<<8 | uint16(b[2*i+1])
		}
		if got := string(utf16.Decode(units)); got != title {
			t.Errorf("%s: /Title %q, want %q", name, got, title)
		}
	}
}

// TestEPSStructure checks the EPS's DSC header (the first line, both bounding boxes, no date)
// and that it draws with the PDF's content stream, byte for byte.
func TestEPSStructure(t *testing.T) {
	for _, st := range printStyles {
		for _, size := range []int{128, 300, 1024, 2048} {
			s, _ := encodeFor(renderTexts[1], qr.Options{}, st.logo)
			o := Defaults()
			o.Size, o.Corners, o.Logo = size, st.corners, st.logo
			data, err := EPS(s, o)
			var small *TooSmallError
			if errors.As(err, &small) {
				continue
			}
			if err != nil {
				t.Fatal(err)
			}
			name := fmt.Sprintf("%s %d", st.name, size)
			side := PageSide(&o)
			head := fmt.Sprintf("%%!PS-Adobe-3.0 EPSF-3.0\n%%%%BoundingBox: 0 0 %d %d\n%%%%HiResBoundingBox: 0 0 %s %s\n",
				int(math.Ceil(side)), int(math.Ceil(side)), strconv.FormatFloat(side, 'f', -1, 64), strconv.FormatFloat(side, 'f', -1, 64))
			if !bytes.HasPrefix(data, []byte(head)) {
				t.Errorf("%s: header %.120q, want %q", name, data, head)
			}
			if bytes.Contains(data, []byte("CreationDate")) || !bytes.HasSuffix(data, []byte("showpage\n%%EOF\n")) {
				t.Errorf("%s: a date, or no showpage and %%%%EOF at the end", name)
			}
			pdf, _ := PDF(s, o)
			content := pdf[bytes.Index(pdf, []byte("stream\n"))+7 : bytes.Index(pdf, []byte("endstream\n"))]
			if !bytes.Contains(data, append(append([]byte("%%EndProlog\n"), content...), "end\nshowpage\n"...)) {
				t.Errorf("%s: the EPS does not draw the PDF's content stream", name)
			}
			if again, _ := EPS(s, o); !bytes.Equal(data, again) {
				t.Errorf("%s: not deterministic", name)
			}
		}
	}
}

// TestPrintColours: every 8-bit value written as an rg operand comes back as itself, whether a
// reader rounds or truncates, in single or double precision; and the content paints the
// background and the dark modules in o's colours.
func TestPrintColours(t *testing.T) {
	for v := range 256 {
		text := string(appendRGB(nil, color.RGBA{uint8(v), uint8(v), uint8(v), 255}))
		x, err := strconv.ParseFloat(strings.Fields(text)[0], 64)
		if err != nil || x < 0 || x > 1 {
			t.Fatalf("%d: %q", v, text)
		}
		for _, back := range []float64{x * 255, float64(float32(x) * 255)} {
			if math.Floor(back) != float64(v) || math.Round(back) != float64(v) {
				t.Errorf("%d: written %q, read back as %v", v, text, back)
			}
		}
	}
	s, _ := qr.Encode("x", qr.Options{})
	o := Defaults()
	o.Foreground, _ = api.ParseColor("1A237E")
	o.Background, _ = api.ParseColor("FFF8E1")
	data, _ := PDF(s, o)
	if !bytes.Contains(data, []byte("stream\n1 .9726 .8824 rg\n")) || !bytes.Contains(data, []byte(" cm\n.102 .1373 .4942 rg\n")) {
		t.Errorf("colours: %s", data)
	}
}

// TestPrintGeometry replays the SVG's path and the PDF's and compares them. Rounded outlines
// are the same in both, corner for corner, each quarter circle a cubic Bézier segment between
// the arc's ends with its control points on the tangents; square modules are edges filled
// even-odd in the SVG and rectangles in the PDF, so both are held to paint exactly the dark
// modules. The page's transformation puts module (0, 0) where the SVG's viewBox does.
func TestPrintGeometry(t *testing.T) {
	for _, text := range renderTexts {
		for _, st := range printStyles {
			s, _ := encodeFor(text, qr.Options{}, st.logo)
			o := Defaults()
			o.Corners, o.Logo = st.corners, st.logo
			svg, _ := SVG(s, o)
			pdf, _ := PDF(s, o)
			start := bytes.Index(svg, []byte(`" d="M0 0`)) + 5
			if st.corners == Rounded {
				start = bytes.LastIndex(svg[:bytes.Index(svg, []byte(`a.25.25`))], []byte(`" d="`)) + 5
			}
			svgPoints := replaySVG(t, string(svg[start:start+bytes.IndexByte(svg[start:], '"')]))
			content := string(pdf[bytes.Index(pdf, []byte(" cm\n"))+4 : bytes.Index(pdf, []byte("endstream"))])
			content = content[strings.Index(content, " rg\n")+4:]
			pdfPoints := replayPDF(t, content)
			if st.corners == Square {
				pad := padding{}
				if st.logo == Banana {
					pad = logoPad(s.Size())
				}
				want := paintedModules(s, pad)
				if got := evenOddModules(svgPoints, s.Size()); got != want {
					t.Errorf("%d bytes %s: the SVG paints\n%s\nnot\n%s", len(text), st.name, got, want)
				}
				if got := rectModules(t, pdfPoints, s.Size()); got != want {
					t.Errorf("%d bytes %s: the PDF paints\n%s\nnot\n%s", len(text), st.name, got, want)
				}
			} else if len(svgPoints) == 0 || fmt.Sprint(svgPoints) != fmt.Sprint(withoutCloses(pdfPoints)) {
				t.Errorf("%d bytes %s: the SVG's path\n%.300v\nthe PDF's\n%.300v", len(text), st.name, svgPoints, pdfPoints)
			}
			l, _ := newLayout(s.Size(), &o)
			// x' = a·x + e and y' = −a·y + f, in points: module (0, 0) at the layout's origin.
			want := fmt.Sprintf("%s 0 0 -%s %s %s cm\n", pt(l.module), pt(l.module), pt(l.originX), pt(l.size-l.originY))
			if !bytes.Contains(pdf, []byte(want)) {
				t.Errorf("%s: no %q", st.name, want)
			}
		}
	}
}

// pt returns px pixels in points, as the page writes them.
func pt(px int) string { return strconv.FormatFloat(float64(px*24)/100, 'f', -1, 64) }

// A pathPoint is where a path goes, in modules rounded to 1/1000: m (move), l (line), r (a
// rectangle's corner and size), q (a quarter circle's end), z (close).
type pathPoint struct {
	op   byte
	x, y float64
}

func (p pathPoint) String() string { return fmt.Sprintf("%c%.3f,%.3f", p.op, p.x, p.y) }

// replaySVG turns the module path of AppendSVG into pathPoints: its moves (the first absolute,
// the others relative), lines and arcs, an arc's letter left out when it repeats.
func replaySVG(t *testing.T, d string) []pathPoint {
	t.Helper()
	var out []pathPoint
	var x, y float64
	num := regexp.MustCompile(`^-?(\d+\.?\d*|\.\d+)`)
	next := func() float64 {
		d = strings.TrimLeft(d, " ")
		m := num.FindString(d)
		if m == "" {
			t.Fatalf("no number at %.20q", d)
		}
		d = d[len(m):]
		v, _ := strconv.ParseFloat(m, 64)
		return v
	}
	var op byte
	for d != "" {
		if c := d[0]; c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' {
			op, d = c, d[1:]
		} else if op != 'a' {
			t.Fatalf("SVG path: %.20q after %c", d, op)
		}
		switch op {
		case 'M':
			x, y = next(), next()
			out = append(out, pathPoint{'m', x, y})
		case 'm':
			x, y = x+next(), y+next()
			out = append(out, pathPoint{'m', x, y})
		case 'h':
			x += next()
			out = append(out, pathPoint{'l', x, y})
		case 'v':
			y += next()
			out = append(out, pathPoint{'l', x, y})
		case 'a':
			if rx, ry := next(), next(); rx != cornerRadius || ry != cornerRadius {
				t.Fatalf("arc of radius %v, %v", rx, ry)
			}
			if r, large, sweep := next(), next(), next(); r != 0 || large != 0 || sweep != 1 {
				t.Fatalf("arc flags %v %v %v", r, large, sweep)
			}
			x, y = x+next(), y+next()
			out = append(out, pathPoint{'q', x, y})
		default:
			t.Fatalf("SVG path command %c", op)
		}
	}
	return out
}

// withoutCloses returns points without their closes (z), which the SVG leaves to the fill.
func withoutCloses(points []pathPoint) []pathPoint {
	var out []pathPoint
	for _, p := range points {
		if p.op != 'z' {
			out = append(out, p)
		}
	}
	return out
}

// paintedModules draws the dark modules of s less those under pad, a line a row, # for dark.
func paintedModules(s *qr.Symbol, pad padding) string {
	n := s.Size()
	var b strings.Builder
	for y := range n {
		for x := range n {
			under := uint(x-pad.first) < uint(pad.side) && uint(y-pad.first) < uint(pad.side)
			b.WriteByte(".#"[b2i(s.Dark(x, y) && !under)])
		}
		b.WriteByte('\n')
	}
	return b.String()
}

// evenOddModules draws what a path of whole-module lines paints with the even-odd rule, as
// paintedModules does: a module is painted when a ray from its centre to the right crosses the
// path's vertical lines an odd number of times, each subpath closed by a straight line to its
// start.
func evenOddModules(points []pathPoint, n int) string {
	crossings := make([]int, n*(n+1)) // [y][x]: vertical lines across module row y at boundary x
	addLine := func(a, b pathPoint) {
		if a.x != b.x {
			return
		}
		lo, hi := min(a.y, b.y), max(a.y, b.y)
		for y := int(lo); y < int(hi); y++ {
			crossings[y*(n+1)+int(a.x)]++
		}
	}
	var start, last pathPoint
	for i, p := range points {
		if p.op == 'm' {
			if i > 0 {
				addLine(last, start)
			}
			start = p
		} else {
			addLine(last, p)
		}
		last = p
	}
	addLine(last, start)
	var b strings.Builder
	for y := range n {
		for x := range n {
			odd := 0
			for bx := x + 1; bx <= n; bx++ {
				odd ^= crossings[y*(n+1)+bx] & 1
			}
			b.WriteByte(".#"[odd])
		}
		b.WriteByte('\n')
	}
	return b.String()
}

// rectModules draws what a path of rectangles paints, as paintedModules does, and fails on
// overlapping rectangles.
func rectModules(t *testing.T, points []pathPoint, n int) string {
	t.Helper()
	cells := make([]byte, n*n)
	for i := range cells {
		cells[i] = '.'
	}
	for i := 0; i+1 < len(points); i += 2 {
		at, size := points[i], points[i+1]
		if at.op != 'r' {
			t.Fatalf("PDF path: %v, not a rectangle", at)
		}
		for y := int(at.y); y < int(at.y+size.y); y++ {
			for x := int(at.x); x < int(at.x+size.x); x++ {
				if cells[y*n+x] == '#' {
					t.Fatalf("rectangles overlap at module (%d, %d)", x, y)
				}
				cells[y*n+x] = '#'
			}
		}
	}
	var b strings.Builder
	for y := range n {
		b.Write(cells[y*n : (y+1)*n])
		b.WriteByte('\n')
	}
	return b.String()
}

// replayPDF turns the module path of the PDF's content into pathPoints, up to its f; each c's
// control points are checked to lie on the quarter circle's tangents, kappa·radius from its ends.
func replayPDF(t *testing.T, content string) []pathPoint {
	t.Helper()
	var out []pathPoint
	var x, y float64
	for _, line := range strings.Split(content, "\n") {
		f := strings.Fields(line)
		if len(f) == 0 {
			continue
		}
		v := make([]float64, len(f)-1)
		for i := range v {
			v[i], _ = strconv.ParseFloat(f[i], 64)
		}
		switch f[len(f)-1] {
		case "re":
			out = append(out, pathPoint{'r', v[0], v[1]}, pathPoint{'r', v[2], v[3]})
		case "m", "l":
			x, y = v[0], v[1]
			out = append(out, pathPoint{f[len(f)-1][0], x, y})
		case "c":
			r := cornerRadius * kappa
			d1 := math.Hypot(v[0]-x, v[1]-y)
			d2 := math.Hypot(v[4]-v[2], v[5]-v[3])
			axis := (v[0] == x || v[1] == y) && (v[2] == v[4] || v[3] == v[5])
			if math.Abs(d1-r) > 1e-4 || math.Abs(d2-r) > 1e-4 || !axis {
				t.Fatalf("curve %q from (%v, %v) is not a quarter circle's", line, x, y)
			}
			x, y = v[4], v[5]
			out = append(out, pathPoint{'q', x, y})
		case "h":
			out = append(out, pathPoint{'z', 0, 0})
		case "f":
			return out
		default:
			t.Fatalf("PDF path operator %q", line)
		}
	}
	t.Fatal("no f")
	return nil
}

// TestPrintOptionErrors: the print formats refuse what SVG refuses.
func TestPrintOptionErrors(t *testing.T) {
	s, _ := qr.Encode("x", qr.Options{NoBoost: true})
	for _, change := range []func(*Options){
		func(o *Options) { o.Size = MinSize - 1 },
		func(o *Options) { o.Margin = MaxMargin + 1 },
		func(o *Options) { o.Corners = 2 },
		func(o *Options) { o.Logo = Banana },
	} {
		o := Defaults()
		change(&o)
		_, svgErr := SVG(s, o)
		_, pdfErr := PDF(s, o)
		_, epsErr := EPS(s, o)
		if svgErr == nil || fmt.Sprint(pdfErr) != fmt.Sprint(svgErr) || fmt.Sprint(epsErr) != fmt.Sprint(svgErr) {
			t.Errorf("%+v: SVG %v, PDF %v, EPS %v", o, svgErr, pdfErr, epsErr)
		}
	}
}

// TestAppendFixed: the numbers of the print formats.
func TestAppendFixed(t *testing.T) {
	for _, c := range []struct {
		n        int64
		decimals int
		want     string
	}{{24576, 2, "245.76"}, {0, 2, "0"}, {500, 2, "5"}, {-250, 3, "-.25"}, {10000, 4, "1"}, {4824, 4, ".4824"}, {102, 3, ".102"}, {1020, 4, ".102"}} {
		if got := string(appendFixed(nil, c.n, c.decimals)); got != c.want {
			t.Errorf("appendFixed(%d, %d) = %q, want %q", c.n, c.decimals, got, c.want)
		}
	}
	for v, want := range map[float64]string{1.5: "1.5", -0.0001: "0", 12.3456: "12.346", 3: "3"} {
		if got := string(appendMilli(nil, v)); got != want {
			t.Errorf("appendMilli(%v) = %q, want %q", v, got, want)
		}
	}
}

// TestControlUnits: the arcs' control points are kappa·cornerRadius from their ends.
func TestControlUnits(t *testing.T) {
	if want := math.Round(kappa * cornerRadius * 10000); controlUnits != want || quarterUnits != cornerRadius*10000/quarterRadius {
		t.Errorf("controlUnits %d, want %v", controlUnits, want)
	}
}

// TestPrintConcurrent: writers running at once share the pools of scratch memory and the
// logo's cache; each gets its own, and the files are the ones drawn alone.
func TestPrintConcurrent(t *testing.T) {
	type job struct {
		s *qr.Symbol
		o Options
	}
	var jobs []job
	var want [][]byte
	for i, st := range printStyles {
		s, _ := encodeFor(renderTexts[i%2], qr.Options{}, st.logo)
		o := Defaults()
		o.Corners, o.Logo = st.corners, st.logo
		jobs = append(jobs, job{s, o})
		pdf, _ := PDF(s, o)
		want = append(want, pdf)
	}
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Go(func() {
			for k := range 10 {
				i := (g + k) % len(jobs)
				if got, _ := PDF(jobs[i].s, jobs[i].o); !bytes.Equal(got, want[i]) {
					t.Errorf("goroutine %d: file %d differs", g, i)
					return
				}
			}
		})
	}
	wg.Wait()
}
