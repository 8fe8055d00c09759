package generate

import (
	"bytes"
	"math"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/bananaqr/bananaqr/api"
	"github.com/bananaqr/bananaqr/internal/qrtest"
	"github.com/bananaqr/bananaqr/payload"
	"github.com/bananaqr/bananaqr/qr"
	"github.com/bananaqr/bananaqr/render"
)

// swissSample is a QR-bill's payload (the style guide's sample bill with a QR reference, in the
// form of version 2.3: structured addresses).
const swissSample = "SPC\n0200\n1\nCH4431999123000889012\nS\nRobert Schneider AG\nRue du Lac\n1268\n2501\nBiel\nCH\n" +
	"\n\n\n\n\n\n\n1949.75\nCHF\nS\nPia-Maria Rutschmann-Schnyder\nGrosse Marktgasse\n28\n9400\nRorschach\nCH\n" +
	"QRR\n210000000003139471430009017\nOrder of 15 June 2020\nEPD"

// swissRequest returns a request for a swissqr code of text in format f.
func swissRequest(text string, f api.Format) api.Request {
	r := api.NewRequest()
	r.Format = f
	r.Payload = payload.Request{Type: payload.SwissQR, Data: text}
	return r
}

// swissCode makes the code of r, a swissqr request, as Code does from its symbol on: the payload
// taken as given (its builder is package payload's; Build may not know the type yet).
func swissCode(t *testing.T, r *api.Request) (*Result, error) {
	t.Helper()
	if err := Check(r); err != nil {
		return nil, err
	}
	p := payload.Payload{Type: payload.SwissQR, Text: r.Payload.Data, Private: true}
	s, err := qr.Encode(p.Text, Encoding(r))
	if err = encodeError(err, p, r); err != nil {
		return nil, err
	}
	if err = checkVersion(s.Version(), p, r); err != nil {
		return nil, err
	}
	return Draw(r, p, s)
}

// TestSwissStyle: a swissqr code's style is the guideline's: the defaults and the fixed values
// pass (the default colour stands for the colour left out, and the code is black), and a
// banana, another level, rounded corners, another colour or background are refused as
// INVALID_VALUE on that field, the hint quoting the guideline.
func TestSwissStyle(t *testing.T) {
	for _, set := range [][2]string{{}, {"color", "#000000"}, {"color", "7B260F"}, {"background", "FFFFFF"}, {"ecc", "M"}, {"logo", "none"}, {"corners", "square"}} {
		r := swissRequest(swissSample, api.FormatPNG)
		if set[0] != "" {
			if err := r.SetStyle(set[0], set[1]); err != nil {
				t.Fatal(err)
			}
		}
		if err := Check(&r); err != nil {
			t.Errorf("%s %s: %v", set[0], set[1], err)
		}
		if o := Options(&r); o.Foreground != swissBlack || o.Background != swissWhite || o.Logo != render.SwissCross {
			t.Errorf("%s %s: drawn %v on %v, logo %d", set[0], set[1], o.Foreground, o.Background, o.Logo)
		}
	}
	for _, set := range [][2]string{{"logo", "banana"}, {"ecc", "L"}, {"ecc", "Q"}, {"ecc", "H"}, {"corners", "rounded"},
		{"color", "#123456"}, {"color", "#010101"}, {"background", "#FFFFFE"}, {"background", "#FFFF00"}} {
		r := swissRequest(swissSample, api.FormatPNG)
		if err := r.SetStyle(set[0], set[1]); err != nil {
			t.Fatal(err)
		}
		e := api.ErrorOf(Check(&r))
		if e.Reason != api.ReasonInvalidValue || e.Field != set[0] || !strings.Contains(e.Hint, "Swiss Implementation Guidelines for the QR-bill") {
			t.Errorf("%s %s: %+v", set[0], set[1], e)
		}
	}
}

// TestSwissEncoding: a swissqr code is at level M exactly (not raised, though a short text
// would fit level H in the same version), without an ECI, with the cross's modules covered; and
// its symbol draws in every format.
func TestSwissEncoding(t *testing.T) {
	r := swissRequest("SPC\n0200\n1", api.FormatSVG)
	o := Encoding(&r)
	if o.Level != qr.M || !o.NoBoost || !o.NoECI || o.Cover == nil {
		t.Fatalf("Encoding: %+v", o)
	}
	for _, f := range []api.Format{api.FormatSVG, api.FormatPNG, api.FormatPDF, api.FormatEPS, api.FormatJSON} {
		for _, text := range []string{"SPC\n0200\n1", swissSample, swissSample + "\nÄnderung: Grüße"} {
			r := swissRequest(text, f)
			res, err := swissCode(t, &r)
			if err != nil {
				t.Fatalf("%s: %v", f, err)
			}
			s := res.Symbol
			if s.Level() != qr.M {
				t.Errorf("%s: level %s", f, s.Level())
			}
			first, side := s.Cover()
			if wantFirst, wantSide := render.SwissCrossCover(s.Size()); first != wantFirst || side != wantSide {
				t.Errorf("%s: cover %d, %d", f, first, side)
			}
			if len(res.Image(f)) == 0 && f != api.FormatJSON {
				t.Errorf("%s: no image", f)
			}
			res.Release()
		}
	}
}

// TestSwissVersionCap: a text that needs a symbol above version 25 at level M is NOT_ENCODABLE
// with a hint that says the QR-bill's limit; one of version 25 is made.
func TestSwissVersionCap(t *testing.T) {
	var at25, above string
	for n := len(swissSample); n < 2000 && above == ""; n += 4 {
		text := (swissSample + strings.Repeat("x", n))[:n]
		s, err := qr.Encode(text, qr.Options{Level: qr.M, NoBoost: true, NoECI: true, Cover: render.SwissCrossCover, CoverPaint: render.SwissCrossPaint})
		if err != nil {
			t.Fatal(err)
		}
		switch {
		case s.Version() == render.SwissMaxVersion:
			at25 = text
		case s.Version() > render.SwissMaxVersion:
			above = text
		}
	}
	r := swissRequest(at25, api.FormatPNG)
	if res, err := swissCode(t, &r); err != nil || res.Symbol.Version() != 25 {
		t.Fatalf("version 25: %v", err)
	}
	r = swissRequest(above, api.FormatPNG)
	_, err := swissCode(t, &r)
	e := api.ErrorOf(err)
	if e.Reason != api.ReasonNotEncodable || !strings.Contains(e.Hint, "at most version 25") {
		t.Errorf("above version 25: %+v", e)
	}
	other := api.NewRequest()
	other.Payload.Type = payload.Text
	if err := checkVersion(40, payload.Payload{Type: payload.Text, Text: above}, &other); err != nil {
		t.Errorf("a text code of version 40: %v", err)
	}
}

// TestSwissSize: a swissqr code's PDF, EPS and SVG are 46 mm for the symbol whatever size asks
// (the same bytes at 128 and 2048, though this version's modules do not fit 128 pixels at 2
// pixels a module); its PNG has the pixels asked for.
func TestSwissSize(t *testing.T) {
	text := swissSample + strings.Repeat(" Rechnung", 60) // a large version
	for _, f := range []api.Format{api.FormatPDF, api.FormatEPS, api.FormatSVG} {
		var images [][]byte
		var n int
		for _, size := range []int{api.MinSize, api.MaxSize} {
			r := swissRequest(text, f)
			r.Size = size
			res, err := swissCode(t, &r)
			if err != nil {
				t.Fatalf("%s at %d: %v", f, size, err)
			}
			images, n = append(images, bytes.Clone(res.Image(f))), res.Symbol.Size()
			res.Release()
		}
		if !bytes.Equal(images[0], images[1]) {
			t.Errorf("%s: size changes the image", f)
		}
		wantMM := 46 * float64(n+2*api.DefaultMargin) / float64(n)
		pattern := map[api.Format]string{api.FormatPDF: `/MediaBox \[0 0 ([0-9.]+)`,
			api.FormatEPS: `%%HiResBoundingBox: 0 0 ([0-9.]+)`, api.FormatSVG: `width="([0-9.]+)mm"`}[f]
		m := regexp.MustCompile(pattern).FindSubmatch(images[0])
		if m == nil {
			t.Fatalf("%s: no size: %.200s", f, images[0])
		}
		got, _ := strconv.ParseFloat(string(m[1]), 64)
		if f != api.FormatSVG {
			got /= 72 / 25.4
		}
		if math.Abs(got-wantMM) > 0.001 {
			t.Errorf("%s: %.4f mm, want %.4f", f, got, wantMM)
		}
	}
	r := swissRequest(swissSample, api.FormatPNG)
	r.Size = 700
	res, err := swissCode(t, &r)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Release()
	if _, text := qrtest.DecodePNG(t, res.PNG, res.ModulePx); text != swissSample {
		t.Errorf("PNG read back %.40q", text)
	}
	if w := int(res.PNG[16])<<24 | int(res.PNG[17])<<16 | int(res.PNG[18])<<8 | int(res.PNG[19]); w != 700 {
		t.Errorf("PNG %d pixels wide, want 700", w)
	}
}

// TestSwissCode runs Code, and Prepare and Make, on a swissqr request: the same level, cover and
// geometry as swissCode's.
func TestSwissCode(t *testing.T) {
	r := swissRequest(swissSample, api.FormatPDF)
	res, err := Code(&r)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Release()
	if s := res.Symbol; s.Level() != qr.M || s.Version() > render.SwissMaxVersion {
		t.Errorf("level %s, version %d", s.Level(), s.Version())
	}
	first, side := res.Symbol.Cover()
	if wantFirst, wantSide := render.SwissCrossCover(res.Symbol.Size()); first != wantFirst || side != wantSide {
		t.Errorf("cover %d, %d", first, side)
	}
	if !bytes.Contains(res.PDF, []byte("/MediaBox [0 0 ")) || !res.Payload.Private {
		t.Errorf("PDF or privacy: %.100s", res.PDF)
	}
	c, err := Prepare(&r) // a batch's way: the same symbol
	if err != nil {
		t.Fatal(err)
	}
	made, err := c.Make()
	if err != nil {
		t.Fatal(err)
	}
	defer made.Release()
	if !bytes.Equal(made.PDF, res.PDF) {
		t.Error("Prepare and Make draw another PDF than Code")
	}
}
