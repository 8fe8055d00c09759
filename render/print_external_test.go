package render

import (
	"bytes"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/bananaqr/bananaqr/api"
	"github.com/bananaqr/bananaqr/internal/qrtest"
	"github.com/bananaqr/bananaqr/qr"
)

// printTexts are the payloads of the external print tests: a URL, a long text and a text
// beyond ASCII (encoded with ECI 26, UTF-8, which zbar needs to read it back exact).
var printTexts = []string{renderTexts[0], renderTexts[1], "Grüße aus Köln, 香蕉 🍌 — ½ € «ok»"}

// printDPIs are the resolutions at which Ghostscript rasterises each file.
var printDPIs = []int{72, 150, 300}

// ghostscript rasterises the PDF or EPS file in to the PNG file out at dpi dots an inch with
// device (pnggray, png16m), an EPS cropped to its bounding box; antialias smooths edges as
// rsvg-convert does.
func ghostscript(t *testing.T, in, out, device string, dpi int, antialias bool) {
	t.Helper()
	args := []string{"-q", "-dSAFER", "-dBATCH", "-dNOPAUSE", "-sDEVICE=" + device, "-r" + strconv.Itoa(dpi), "-o", out}
	if antialias {
		args = append(args, "-dGraphicsAlphaBits=4", "-dTextAlphaBits=4")
	}
	if filepath.Ext(in) == ".eps" {
		args = append(args, "-dEPSCrop")
	}
	if output, err := exec.Command("gs", append(args, in)...).CombinedOutput(); err != nil {
		t.Fatalf("gs %s: %v\n%s", filepath.Base(in), err, output)
	}
}

// TestPrintExternal writes each payload in each style and several colours as PDF and EPS:
// qpdf --check passes every PDF, Ghostscript rasterises every file at 72, 150 and 300 dpi (at
// least 3 pixels a module), and zbarimg and zxing-cpp read the exact payload from each.
func TestPrintExternal(t *testing.T) {
	qrtest.NeedTools(t, "gs", "qpdf", "zbarimg")
	qrtest.NeedZXingCPP(t)
	dir := t.TempDir()
	want := map[string]string{}
	var files []string
	i := 0
	for _, text := range printTexts {
		for _, st := range printStyles {
			s, err := encodeFor(text, qr.Options{Level: qr.M}, st.logo)
			if err != nil {
				t.Fatal(err)
			}
			o := Defaults()
			o.Corners, o.Logo = st.corners, st.logo
			pair := colourPairs[i%len(colourPairs)]
			o.Foreground, _ = api.ParseColor(pair[0])
			o.Background, _ = api.ParseColor(pair[1])
			module, _ := ModulePixels(s.Size(), &o)
			for _, format := range []string{"pdf", "eps"} {
				i++
				write := PDF
				if format == "eps" {
					write = EPS
				}
				data, err := write(s, o)
				if err != nil {
					t.Fatal(err)
				}
				name := filepath.Join(dir, fmt.Sprintf("%02d-%s.%s", i, st.name, format))
				if err := os.WriteFile(name, data, 0o644); err != nil {
					t.Fatal(err)
				}
				if format == "pdf" {
					if out, err := exec.Command("qpdf", "--check", name).CombinedOutput(); err != nil {
						t.Fatalf("qpdf --check %s: %v\n%s", filepath.Base(name), err, out)
					}
				}
				for _, dpi := range printDPIs {
					if module*dpi < 3*PrintDPI {
						continue // under 3 pixels a module
					}
					out := fmt.Sprintf("%s-%d.png", name, dpi)
					ghostscript(t, name, out, "pnggray", dpi, false)
					want[out] = text
					files = append(files, out)
				}
			}
		}
	}
	for decoder, got := range map[string]map[string]string{"zbarimg": qrtest.Zbarimg(t, files), "zxing-cpp": qrtest.ZXingCPP(t, files)} {
		for _, f := range files {
			if got[f] != want[f] {
				t.Errorf("%s: %s decoded %.40q, want %.40q", decoder, filepath.Base(f), got[f], want[f])
			}
		}
	}
	if len(files) < 50 {
		t.Fatalf("only %d images", len(files))
	}
	t.Logf("%d rasterised PDF and EPS files read by zbarimg and zxing-cpp", len(files))
}

// TestPrintMatchesSVG rasterises the PDF and the EPS at 300 dpi (the page's own pixels) with
// Ghostscript and the SVG at its size with rsvg-convert, both anti-aliased: every pixel away
// from an edge (its 3×3 neighbourhood uniform in the SVG's raster) is the same colour in all
// three, and the pixels that differ are a few edge pixels.
func TestPrintMatchesSVG(t *testing.T) {
	qrtest.NeedTools(t, "gs", "rsvg-convert")
	dir := t.TempDir()
	for k, st := range printStyles {
		s, _ := encodeFor(printTexts[k%len(printTexts)], qr.Options{Level: qr.M}, st.logo)
		o := Defaults()
		o.Size, o.Corners, o.Logo = []int{1024, 600, 2048, 777}[k], st.corners, st.logo
		pair := colourPairs[k%len(colourPairs)]
		o.Foreground, _ = api.ParseColor(pair[0])
		o.Background, _ = api.ParseColor(pair[1])
		base := filepath.Join(dir, st.name)
		svg, _ := SVG(s, o)
		// Anti-aliased like the others: the hint changes nothing of the modules, whose edges
		// fall on pixels, but makes slivers of the logo thinner than a pixel vanish or not.
		svg = bytes.Replace(svg, []byte(` shape-rendering="crispEdges"`), nil, 1)
		pdf, _ := PDF(s, o)
		eps, _ := EPS(s, o)
		for ext, data := range map[string][]byte{".svg": svg, ".pdf": pdf, ".eps": eps} {
			if err := os.WriteFile(base+ext, data, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		size := strconv.Itoa(o.Size)
		if out, err := exec.Command("rsvg-convert", "-w", size, "-h", size, "-o", base+"-svg.png", base+".svg").CombinedOutput(); err != nil {
			t.Fatalf("rsvg-convert: %v\n%s", err, out)
		}
		ref := readPNG(t, base+"-svg.png")
		for _, ext := range []string{".pdf", ".eps"} {
			ghostscript(t, base+ext, base+ext+".png", "png16m", PrintDPI, true)
			img := readPNG(t, base+ext+".png")
			if img.Bounds() != ref.Bounds() {
				t.Fatalf("%s%s: %v, the SVG's %v", st.name, ext, img.Bounds(), ref.Bounds())
			}
			differ, inside := 0, 0
			for y := range o.Size {
				for x := range o.Size {
					if rgbaAt(img, x, y) == rgbaAt(ref, x, y) {
						continue
					}
					differ++
					if uniform(ref, x, y) {
						inside++
						if inside <= 3 {
							t.Errorf("%s%s: pixel (%d, %d) away from edges is %v, the SVG's %v", st.name, ext, x, y, rgbaAt(img, x, y), rgbaAt(ref, x, y))
						}
					}
				}
			}
			if differ > o.Size*o.Size/10 {
				t.Errorf("%s%s: %d pixels of %d differ from the SVG's", st.name, ext, differ, o.Size*o.Size)
			}
			t.Logf("%s%s at %d px: %d edge pixels differ from the SVG's (anti-aliasing), %d elsewhere", st.name, ext, o.Size, differ, inside)
		}
	}
}

// uniform reports whether the 3×3 pixels around (x, y) are all the same colour.
func uniform(img image.Image, x, y int) bool {
	c := rgbaAt(img, x, y)
	b := img.Bounds()
	for dy := -1; dy <= 1; dy++ {
		for dx := -1; dx <= 1; dx++ {
			if p := (image.Point{x + dx, y + dy}); p.In(b) && rgbaAt(img, p.X, p.Y) != c {
				return false
			}
		}
	}
	return true
}

// rgbaAt returns the colour of pixel (x, y) as color.RGBA, whatever the image's model.
func rgbaAt(img image.Image, x, y int) color.RGBA {
	return color.RGBAModel.Convert(img.At(x, y)).(color.RGBA)
}

// readPNG decodes the PNG file name.
func readPNG(t *testing.T, name string) image.Image {
	t.Helper()
	f, err := os.Open(name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return img
}
