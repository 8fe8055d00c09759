// Package qrtest reads QR codes back for tests, with gozxing, a decoder written independently
// of bananaqr (a Go port of ZXing).
package qrtest

import (
	"bytes"
	"errors"
	"image"
	"image/color"
	"image/png"
	"testing"

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

// DecodePNG decodes the PNG data, a rendered code of modulePx pixels a module (0 when not
// known: then the image is not reduced), and returns the image and the payload that gozxing
// reads in it, as DecodeRendered does. Data that is no PNG, or no code that reads, fails t.
func DecodePNG(t testing.TB, data []byte, modulePx int) (image.Image, string) {
	t.Helper()
	img, err := png.Decode(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("PNG: %v", err)
	}
	text, err := DecodeRendered(img, modulePx)
	if err != nil {
		t.Fatalf("gozxing: %v", err)
	}
	return img, text
}

// DecodeRendered decodes a rendered code: img holds the code and its quiet zone, modules of
// modulePx pixels. It reads img as it is, first as a pure barcode, then by searching for the
// code. gozxing's detector fails on large versions drawn with many pixels a module (its
// alignment pattern search leaves the image), and its pure mode cannot place rounded modules;
// then the image is reduced, averaging blocks of pixels, to about two pixels a module.
func DecodeRendered(img image.Image, modulePx int) (string, error) {
	text, err := DecodeImage(img, true)
	if err == nil {
		return text, nil
	}
	if text, err = DecodeImage(img, false); err == nil {
		return text, nil
	}
	if f := modulePx / 2; f >= 2 {
		if text, err2 := DecodeImage(shrink(img, f), false); err2 == nil {
			return text, nil
		} else {
			err = errors.Join(err, err2)
		}
	}
	return "", err
}

// shrink returns img in grey, f times smaller, each pixel the mean of f×f pixels.
func shrink(img image.Image, f int) *image.Gray {
	b := img.Bounds()
	out := image.NewGray(image.Rect(0, 0, b.Dx()/f, b.Dy()/f))
	for y := range out.Rect.Dy() {
		for x := range out.Rect.Dx() {
			sum := 0
			for j := range f {
				for i := range f {
					sum += int(color.GrayModel.Convert(img.At(b.Min.X+x*f+i, b.Min.Y+y*f+j)).(color.Gray).Y)
				}
			}
			out.Pix[y*out.Stride+x] = uint8(sum / (f * f))
		}
	}
	return out
}
