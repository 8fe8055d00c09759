package render

import (
	"strings"
	"testing"

	"github.com/makiuchi-d/gozxing"
	"github.com/makiuchi-d/gozxing/qrcode/decoder"

	"github.com/bananaqr/bananaqr/qr"
)

// TestSwissCrossDamage measures, with gozxing's codeword reader (independent of package qr),
// what the Swiss cross does to each Reed–Solomon block of Swiss QR Codes of versions up to
// 25, several texts each: a module reads as the cross paints it at its centre (white, black or
// the module itself outside the 7 mm square), and a block's damage is its codewords that differ
// from the symbol's. Every block must stay within half of what it corrects (ISO/IEC 18004:2015
// 7.5.2: half its error correction codewords), the share the encoder spares for a cover. (The
// encoder counts what SwissCrossPaint says the cross draws over the central half of a module,
// more than a reader's sample at the centre: this measures it from outside.)
func TestSwissCrossDamage(t *testing.T) {
	worstShare, versions := 0.0, map[int]bool{}
	base := "SPC\n0200\n1\nCH4431999123000889012\nS\nRobert Schneider AG\nRue du Lac\n1268\n2501\nBiel\nCH\n"
	for n := 1; n < 1100; n += 3 {
		text := strings.Repeat(base, n/len(base)+1)[:n]
		s, err := qr.Encode(text, qr.Options{Level: qr.M, NoBoost: true, NoECI: true, Cover: SwissCrossCover, CoverPaint: SwissCrossPaint})
		if err != nil || s.Version() > SwissMaxVersion {
			break
		}
		share := crossDamage(t, s)
		switch {
		case share > 1:
			t.Errorf("version %d (%d bytes): the cross damages a block beyond what it corrects (%.2f of it)", s.Version(), n, share)
		case share > 0.5:
			t.Errorf("version %d (%d bytes): the cross uses %.2f of a block's correction, more than the cover's half", s.Version(), n, share)
		}
		versions[s.Version()] = true
		worstShare = max(worstShare, share)
	}
	if len(versions) < 20 { // version 14 is rare: its blocks can seldom spare the cross, and the encoder takes 15
		t.Errorf("versions %v, want most of 2 to 25", versions)
	}
	t.Logf("the cross uses at most %.2f of a block's correction capacity", worstShare)
}

// crossDamage returns the largest share of a block's correction capacity that the cross uses on s.
func crossDamage(t *testing.T, s *qr.Symbol) float64 {
	t.Helper()
	n := s.Size()
	r := crossRects(n)
	in := func(c crossRect, x, y float64) bool { return x >= c.x && x < c.x+c.w && y >= c.y && y < c.y+c.h }
	plain, _ := gozxing.NewSquareBitMatrix(n)
	drawn, _ := gozxing.NewSquareBitMatrix(n)
	for y := range n {
		for x := range n {
			dark := s.Dark(x, y)
			if s.Dark(x, y) {
				plain.Set(x, y)
			}
			if cx, cy := float64(x)+.5, float64(y)+.5; in(r[0], cx, cy) {
				dark = in(r[1], cx, cy) && !in(r[2], cx, cy) && !in(r[3], cx, cy)
			}
			if dark {
				drawn.Set(x, y)
			}
		}
	}
	blocks := func(m *gozxing.BitMatrix) []*decoder.DataBlock {
		p, err := decoder.NewBitMatrixParser(m)
		if err != nil {
			t.Fatal(err)
		}
		raw, err := p.ReadCodewords()
		if err != nil {
			t.Fatal(err)
		}
		v, _ := decoder.Version_GetVersionForNumber(s.Version())
		b, err := decoder.DataBlock_GetDataBlocks(raw, v, decoder.ErrorCorrectionLevel_M)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	want, got := blocks(plain), blocks(drawn)
	v, _ := decoder.Version_GetVersionForNumber(s.Version())
	ecc := v.GetECBlocksForLevel(decoder.ErrorCorrectionLevel_M).GetECCodewordsPerBlock()
	correctable := ecc / 2 // versions 2 and up keep no misdecode protection at level M
	worst := 0
	for i := range want {
		damaged := 0
		for k, c := range want[i].GetCodewords() {
			if got[i].GetCodewords()[k] != c {
				damaged++
			}
		}
		worst = max(worst, damaged)
	}
	return float64(worst) / float64(correctable)
}
