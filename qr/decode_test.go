package qr

import (
	"errors"
	"image"
	"image/color"
	"testing"

	"github.com/makiuchi-d/gozxing"
	zxingqr "github.com/makiuchi-d/gozxing/qrcode"
)

// toImage renders s at scale pixels per module with a quiet zone of four modules.
func toImage(s *Symbol, scale int) *image.Gray {
	const quiet = 4
	n := (s.Size() + 2*quiet) * scale
	img := image.NewGray(image.Rect(0, 0, n, n))
	for i := range img.Pix {
		img.Pix[i] = 0xff
	}
	for y := range s.Size() {
		for x := range s.Size() {
			if s.Dark(x, y) {
				for dy := range scale {
					for dx := range scale {
						img.SetGray((x+quiet)*scale+dx, (y+quiet)*scale+dy, color.Gray{})
					}
				}
			}
		}
	}
	return img
}

// decode reads s back with gozxing, an independent decoder (a Go port of ZXing).
func decode(t testing.TB, s *Symbol) (string, error) {
	t.Helper()
	bmp, err := gozxing.NewBinaryBitmapFromImage(toImage(s, 2))
	if err != nil {
		return "", err
	}
	hints := map[gozxing.DecodeHintType]any{gozxing.DecodeHintType_PURE_BARCODE: true}
	res, err := zxingqr.NewQRCodeReader().Decode(bmp, hints)
	if err != nil {
		return "", err
	}
	return res.GetText(), nil
}

func TestDecodeSmoke(t *testing.T) {
	for _, text := range []string{"hello", "HELLO WORLD", "0123456789", "https://example.com/products/12345?ref=newsletter", "Grüße, 你好 😀 12345678901234 ABCDEFGHIJ"} {
		s, err := Encode(text, Options{})
		if err != nil {
			t.Fatal(err)
		}
		got, err := decode(t, s)
		if err != nil || got != text {
			t.Errorf("%q: v%d %s mask %d: decoded %q, %v", text, s.Version(), s.Level(), s.Mask(), got, err)
		}
	}
	var tl *TooLongError
	if _, err := Encode(string(make([]byte, 3000)), Options{}); !errors.As(err, &tl) {
		t.Errorf("got %v", err)
	}
}
