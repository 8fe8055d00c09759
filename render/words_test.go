package render

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bananaqr/bananaqr/internal/qrtest"
	"github.com/bananaqr/bananaqr/qr"
	"github.com/bananaqr/bananaqr/render/internal/glyph"
)

// wordsOptions returns the defaults with a caption and a destination, the caption above or
// below.
func wordsOptions(size int, above bool) Options {
	o := Defaults()
	o.Size, o.Caption, o.CaptionAbove = size, "Scan for the menu", above
	o.DestinationHost, o.DestinationPath = "example.com", "/menu"
	return o
}

// TestWordsLayout: with words the image keeps its size and the code shrinks to make room; the
// lines lie within the image, clear of the symbol and its quiet zone, the caption above or below
// it and the destination beneath; each line is centred; the caption is captionEm modules when it
// fits and smaller when it does not.
func TestWordsLayout(t *testing.T) {
	s, err := qr.Encode("https://example.com/menu", qr.Options{Level: qr.M})
	if err != nil {
		t.Fatal(err)
	}
	n := s.Size()
	for _, size := range []int{128, 300, 1024, 2048} {
		for _, above := range []bool{false, true} {
			o := wordsOptions(size, above)
			l, err := newLayout(n, &o)
			if err != nil {
				t.Fatalf("%d: %v", size, err)
			}
			plain := Defaults()
			plain.Size = size
			bare, _ := newLayout(n, &plain)
			if l.size != size || l.module > bare.module || l.module < 2 {
				t.Errorf("%d: side %d, module %d (without words %d)", size, l.size, l.module, bare.module)
			}
			k := float64(l.module)
			codeTop, codeBottom := float64(l.originY-o.Margin*l.module), float64(l.originY+(n+o.Margin)*l.module)
			c, d := &l.words.caption, &l.words.destination
			for _, w := range []*wordsLine{c, d} {
				m := w.face.Metrics()
				top, bottom := w.baseline-float64(m.Ascent)*w.scale, w.baseline+float64(m.Descent)*w.scale
				left, right := w.x, w.x+float64(w.run.Advance)*w.scale
				if top < 0 || bottom > float64(size)+1e-9 || left < 0 || right > float64(size)+1e-9 {
					t.Errorf("%d: a line at %.1f..%.1f × %.1f..%.1f leaves the image", size, left, right, top, bottom)
				}
				if bottom > codeTop+1e-9 && top < codeBottom-1e-9 {
					t.Errorf("%d above %v: a line at %.1f..%.1f overlaps the code and its quiet zone %.1f..%.1f", size, above, top, bottom, codeTop, codeBottom)
				}
				if math.Abs(left-(float64(size)-right)) > 1e-6 {
					t.Errorf("%d: a line not centred: %.2f left, %.2f right", size, left, float64(size)-right)
				}
			}
			if above != (c.baseline < codeTop) || d.baseline < codeBottom || d.baseline < c.baseline && !above {
				t.Errorf("%d above %v: caption at %.1f, destination at %.1f, code %.1f..%.1f", size, above, c.baseline, d.baseline, codeTop, codeBottom)
			}
			// The caption's em is captionEm, or less (not below minCaptionEm) where that fills the
			// line's room.
			em := c.scale * float64(c.face.Metrics().UnitsPerEm) / k
			room := float64(size)/k - 2*wordsSide
			if full := float64(c.run.Advance) * em / float64(c.face.Metrics().UnitsPerEm); em > captionEm+1e-9 || em < minCaptionEm-1e-9 ||
				em < captionEm-1e-9 && math.Abs(full-room) > 1e-6 {
				t.Errorf("%d: the caption's em is %.2f modules, %.2f of %.2f modules wide", size, em, full, room)
			}
		}
	}
	// A caption wider than the image at 5 modules is set smaller, to fit, and not below 3: the
	// code shrinks further.
	o := Defaults()
	o.Caption = strings.Repeat("W", 40)
	l, err := newLayout(n, &o)
	if err != nil {
		t.Fatal(err)
	}
	c := &l.words.caption
	em := c.scale * float64(c.face.Metrics().UnitsPerEm) / float64(l.module)
	room := float64(o.Size) - 2*wordsSide*float64(l.module)
	if w := float64(c.run.Advance) * c.scale; math.Abs(w-room) > 1e-6 || em >= captionEm || em < minCaptionEm {
		t.Errorf("a long caption: %.1f pixels wide of %.1f, at an em of %.2f modules", w, room, em)
	}
	plain := Defaults()
	bare, _ := newLayout(n, &plain)
	if short, _ := newLayout(n, func() *Options { o := wordsOptions(1024, false); return &o }()); l.module >= short.module || short.module > bare.module {
		t.Errorf("modules of %d, %d and %d pixels: the longer caption should shrink the code more", l.module, short.module, bare.module)
	}
}

// TestShortenDestination: a destination too long for its line keeps its host whole and the
// start and end of its path around an ellipsis; a host too long alone keeps its end.
func TestShortenDestination(t *testing.T) {
	text := func(run glyph.Run) string {
		var b strings.Builder
		for _, g := range run.Glyphs {
			fmt.Fprintf(&b, "%d,", g.ID)
		}
		return b.String()
	}
	host, path := "menu.example.com", "/"+strings.Repeat("a", 200)+"/end.html"
	run := shortenDestination(host, path, 2, 60)
	if w := width(glyph.Regular, run, 2); w > 60 {
		t.Errorf("%.1f modules wide, want 60 at most", w)
	}
	want := glyph.Regular.Shape(host + "/aaa")
	if got := text(run); !strings.HasPrefix(got, text(want)) || !strings.Contains(got, text(glyph.Regular.Shape("…"))) ||
		!strings.HasSuffix(got, text(glyph.Regular.Shape("end.html"))) {
		t.Errorf("the shortened destination does not keep the host, the path's start and its end around …")
	}
	long := strings.Repeat("sub", 30) + ".example.com"
	run = shortenDestination(long, path, 2, 40)
	if got := text(run); !strings.HasPrefix(got, text(glyph.Regular.Shape("…"))) || !strings.HasSuffix(got, text(glyph.Regular.Shape("example.com"))) {
		t.Errorf("a long host is not shortened at its start")
	}
}

// TestWordsTooSmall: a size too small for the code and its words is a TooSmallError whose
// MinSize fits them.
func TestWordsTooSmall(t *testing.T) {
	s, err := qr.Encode(strings.Repeat("A", 1500), qr.Options{Level: qr.L})
	if err != nil {
		t.Fatal(err)
	}
	o := wordsOptions(MinSize, false)
	var small *TooSmallError
	if _, err := ModulePixels(s.Size(), &o); !errors.As(err, &small) {
		t.Fatalf("%v, want a TooSmallError", err)
	}
	o.Size = small.MinSize
	if small.MinSize > MaxSize {
		return
	}
	if _, err := ModulePixels(s.Size(), &o); err != nil {
		t.Errorf("at MinSize %d: %v", small.MinSize, err)
	}
}

// TestWordsExternal: codes with words, as SVG (rasterised by rsvg-convert), PDF and EPS
// (rasterised by Ghostscript), are read by zbarimg to their payload, whatever the caption's
// place, and the same SVG twice is the same bytes.
func TestWordsExternal(t *testing.T) {
	qrtest.NeedTools(t, "zbarimg", "rsvg-convert", "gs")
	dir := t.TempDir()
	want := map[string]string{}
	for i, c := range []struct {
		text    string
		above   bool
		corners Corners
		logo    Logo
	}{
		{"https://example.com/menu", false, Square, NoLogo},
		{"https://example.com/menu", true, Rounded, NoLogo},
		{"https://bücher.example/straße/" + strings.Repeat("x", 60), false, Square, Banana},
		{strings.Repeat("Grüße aus Köln ", 20), true, Square, NoLogo},
	} {
		o := wordsOptions(1024, c.above)
		o.Corners, o.Logo = c.corners, c.logo
		qo := qr.Options{Level: qr.M}
		if c.logo == Banana {
			qo.Cover = LogoPad
		}
		s, err := qr.Encode(c.text, qo)
		if err != nil {
			t.Fatal(err)
		}
		svg, err := SVG(s, o)
		if err != nil {
			t.Fatal(err)
		}
		if again, _ := SVG(s, o); !bytes.Equal(svg, again) {
			t.Errorf("%d: two SVGs differ", i)
		}
		pdf, err := PDF(s, o)
		if err != nil {
			t.Fatal(err)
		}
		eps, err := EPS(s, o)
		if err != nil {
			t.Fatal(err)
		}
		name := filepath.Join(dir, fmt.Sprint(i))
		for ext, data := range map[string][]byte{".svg": svg, ".pdf": pdf, ".eps": eps} {
			if err := os.WriteFile(name+ext, data, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		if out, err := exec.Command("rsvg-convert", "-w", "1024", "-h", "1024", "-o", name+"-svg.png", name+".svg").CombinedOutput(); err != nil {
			t.Fatalf("rsvg-convert: %v\n%s", err, out)
		}
		ghostscript(t, name+".pdf", name+"-pdf.png", "pnggray", 300, true)
		ghostscript(t, name+".eps", name+"-eps.png", "pnggray", 300, true)
		for _, f := range []string{"-svg.png", "-pdf.png", "-eps.png"} {
			want[name+f] = c.text
		}
	}
	var files []string
	for f := range want {
		files = append(files, f)
	}
	got := qrtest.Zbarimg(t, files)
	for f, text := range want {
		if got[f] != text {
			t.Errorf("%s: zbarimg reads %q, want %q", filepath.Base(f), got[f], text)
		}
	}
}
