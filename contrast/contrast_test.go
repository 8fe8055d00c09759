package contrast

import (
	"fmt"
	"image/color"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bananaqr/bananaqr/api"
	"github.com/bananaqr/bananaqr/internal/qrtest"
	"github.com/bananaqr/bananaqr/internal/testenv"
	"github.com/bananaqr/bananaqr/qr"
	"github.com/bananaqr/bananaqr/render"
)

func rgb(hex string) color.RGBA {
	c, err := api.ParseColor(hex)
	if err != nil {
		panic(err)
	}
	return c
}

// TestPresets checks the service's default, the page's presets and known pairs.
func TestPresets(t *testing.T) {
	for _, c := range []struct {
		fg, bg   string
		readable bool
	}{
		{"7B260F", "FFFFFF", true}, // the default
		{"000000", "FFFFFF", true},
		{"1A237E", "FFF8E1", true},
		{"7B260F", "FFF3C4", true},
		{"1B5E20", "F1F8E9", true},
		{"E0701A", "FFF8E1", false}, // WCAG 3.04:1, yet zxing-cpp fails to read it
		{"808080", "FFFFFF", false}, // WCAG 3.95:1, luma ratio 0.50
		{"FFFFFF", "000000", false}, // light on dark
		{"000000", "303030", false}, // luma ratio 0 and 48 apart, but WCAG 1.6:1
		{"7B260F", "7B260F", false},
	} {
		v := Judge(rgb(c.fg), rgb(c.bg))
		if v.Readable != c.readable || (v.Problem == "") != c.readable {
			t.Errorf("%s on %s: %+v", c.fg, c.bg, v)
		}
	}
}

// TestBounds checks each bound of the rule on greys just inside and just outside it.
func TestBounds(t *testing.T) {
	grey := func(y uint8) color.RGBA { return color.RGBA{y, y, y, 0xff} }
	for _, c := range []struct {
		fg, bg   uint8
		readable bool
	}{
		{114, 255, true}, {115, 255, false}, // 0.45 of 255 is 114.75
		{90, 200, true}, {91, 200, false},
		{0, 47, false}, {0, 48, false}, // 48 apart, but WCAG under 3:1
		{10, 58, false},
	} {
		if got := Judge(grey(c.fg), grey(c.bg)).Readable; got != c.readable {
			t.Errorf("grey %d on %d: readable %v", c.fg, c.bg, got)
		}
	}
	// The luma difference binds on dark grounds where the ratio does not: 30 is 0.43 of 70.
	v := measure(grey(30), grey(70))
	if p := problem(&v); v.LumaRatio > MaxLumaRatio || !strings.Contains(p, "less than 48 apart") {
		t.Errorf("30 on 70: %+v, %q", v, p)
	}
}

// TestSuggestions checks, on random pairs, that every suggestion is readable, that a readable
// pair is its own suggestion, and that a colour is only ever darkened and a background only
// lightened.
func TestSuggestions(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for range 20000 {
		fg := color.RGBA{uint8(r.IntN(256)), uint8(r.IntN(256)), uint8(r.IntN(256)), 0xff}
		bg := color.RGBA{uint8(r.IntN(256)), uint8(r.IntN(256)), uint8(r.IntN(256)), 0xff}
		v := Judge(fg, bg)
		if !readable(v.Color, v.Background) {
			t.Fatalf("%v on %v: suggestion %v on %v is not readable", fg, bg, v.Color, v.Background)
		}
		if v.Readable && (v.Color != fg || v.Background != bg) {
			t.Fatalf("%v on %v is readable, yet %v on %v is suggested", fg, bg, v.Color, v.Background)
		}
		if Luma(v.Color) > Luma(fg)+0.5 || Luma(v.Background) < Luma(bg)-0.5 {
			t.Fatalf("%v on %v: suggestion %v on %v", fg, bg, v.Color, v.Background)
		}
	}
	// The nearest: E0701A darkened only as far as needed on its background.
	v := Judge(rgb("E0701A"), rgb("FFF8E1"))
	if v.Background != rgb("FFF8E1") || Luma(v.Color) < MaxLumaRatio*v.BackgroundLuma-4 {
		t.Errorf("E0701A on FFF8E1: %v on %v (luma %.1f)", v.Color, v.Background, Luma(v.Color))
	}
}

// TestReadersReadAcceptedPairs sweeps colour pairs across the rule's boundary: random pairs
// near it, the presets, and the suggestions for refused pairs (which lie just inside it). Every
// accepted pair, rendered as PNG at 256 and 1024 pixels, square and rounded, for a short and a
// longer payload, must be read as rendered by zxing-cpp, zbar and OpenCV's WeChat detector.
func TestReadersReadAcceptedPairs(t *testing.T) {
	if testing.Short() {
		t.Skip("renders and decodes some 500 images")
	}
	qrtest.NeedTools(t, "zbarimg")
	qrtest.NeedZXingCPP(t)
	qrtest.NeedWeChat(t)
	r := rand.New(rand.NewPCG(15, 601))
	accepted := [][2]color.RGBA{{rgb("7B260F"), rgb("FFFFFF")}, {rgb("1A237E"), rgb("FFF8E1")}, {rgb("7B260F"), rgb("FFF3C4")},
		{rgb("1B5E20"), rgb("F1F8E9")}, {rgb("000000"), rgb("FFFFFF")}}
	refused := 0
	for len(accepted) < 60 {
		fg := color.RGBA{uint8(r.IntN(256)), uint8(r.IntN(256)), uint8(r.IntN(256)), 0xff}
		bg := color.RGBA{uint8(r.IntN(256)), uint8(r.IntN(256)), uint8(r.IntN(256)), 0xff}
		v := Judge(fg, bg)
		if v.ColorLuma >= v.BackgroundLuma || v.LumaRatio < 0.3 || v.LumaRatio > 0.65 {
			continue // far from the boundary
		}
		if v.Readable {
			accepted = append(accepted, [2]color.RGBA{fg, bg})
		} else {
			refused++
			accepted = append(accepted, [2]color.RGBA{v.Color, v.Background})
		}
	}
	dir := t.TempDir()
	texts := []string{"https://example.com", "https://shop.example.com/products/banana-bread-mix?utm_source=newsletter&utm_medium=email&ref=qr"}
	want := map[string]string{}
	var files []string
	total := 0
	for i, pair := range accepted {
		for j, text := range texts {
			s, err := qr.Encode(text, qr.Options{})
			if err != nil {
				t.Fatal(err)
			}
			for k, size := range []int{256, 1024} {
				for c, corners := range []render.Corners{render.Square, render.Rounded} {
					// Every pair, in a sample of the styles that moves from pair to pair
					// (BANANAQR_FULL=1: all of them).
					if total++; !testenv.Sampled(i + j*4 + k*2 + c) {
						continue
					}
					o := render.Defaults()
					o.Size, o.Corners, o.Foreground, o.Background = size, corners, pair[0], pair[1]
					png, err := render.PNG(s, o)
					if err != nil {
						t.Fatal(err)
					}
					f := filepath.Join(dir, fmt.Sprintf("%s-on-%s-%d-%d-%d.png", render.FormatColor(pair[0])[1:], render.FormatColor(pair[1])[1:], j, size, corners))
					if err := os.WriteFile(f, png, 0o644); err != nil {
						t.Fatal(err)
					}
					files = append(files, f)
					want[f] = text
				}
			}
		}
	}
	for name, read := range map[string]func(testing.TB, []string) map[string]string{
		"zbar": qrtest.Zbarimg, "zxing-cpp": qrtest.ZXingCPP, "WeChat": qrtest.WeChat,
	} {
		got := read(t, files)
		for _, f := range files {
			if got[f] != want[f] {
				t.Errorf("%s: %s reads %q", name, filepath.Base(f), got[f])
			}
		}
	}
	t.Logf("%d accepted pairs (%d of them suggestions for refused ones), %d images, 3 readers", len(accepted), refused, len(files))
	testenv.SampleNote(t, len(files), total)
}
