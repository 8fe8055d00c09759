// Package qrtest reads QR codes back for tests, with gozxing, a decoder written independently
// of bananaqr (a Go port of ZXing).
package qrtest

import (
	"image"

	"github.com/makiuchi-d/gozxing"
	"github.com/makiuchi-d/gozxing/qrcode"
)

// Decode renders a matrix of size×size modules (dark reports each module's colour) at two
// pixels a module in a quiet zone of four modules, and decodes it.
func Decode(size int, dark func(x, y int) bool) (string, error) {
	const quiet, scale = 4, 2
	n := (size + 2*quiet) * scale
	img := image.NewGray(image.Rect(0, 0, n, n))
	for y := range n {
		for x := range n {
			mx, my := x/scale-quiet, y/scale-quiet
			if mx < 0 || my < 0 || mx >= size || my >= size || !dark(mx, my) {
				img.Pix[y*img.Stride+x] = 0xff
			}
		}
	}
	return DecodeImage(img, true)
}

// DecodeImage decodes the QR code in img. pure says that img holds nothing but the code and
// its quiet zone, upright, which lets the decoder skip searching for it.
func DecodeImage(img image.Image, pure bool) (string, error) {
	bmp, err := gozxing.NewBinaryBitmapFromImage(img)
	if err != nil {
		return "", err
	}
	hints := map[gozxing.DecodeHintType]any{gozxing.DecodeHintType_TRY_HARDER: true}
	if pure {
		hints = map[gozxing.DecodeHintType]any{gozxing.DecodeHintType_PURE_BARCODE: true}
	}
	res, err := qrcode.NewQRCodeReader().Decode(bmp, hints)
	if err != nil {
		return "", err
	}
	return res.GetText(), nil
}
