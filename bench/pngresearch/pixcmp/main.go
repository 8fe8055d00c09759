// Command pixcmp reports whether two PNG files have the same pixels (as 8-bit RGBA).
package main

import (
	"fmt"
	"image"
	"image/color"
	"image/png"
	"os"
)

func load(p string) image.Image {
	f, err := os.Open(p)
	if err != nil {
		panic(err)
	}
	im, err := png.Decode(f)
	if err != nil {
		panic(err)
	}
	return im
}

func main() {
	a, b := load(os.Args[1]), load(os.Args[2])
	if a.Bounds() != b.Bounds() {
		fmt.Println("DIFFERENT bounds")
		os.Exit(1)
	}
	for y := a.Bounds().Min.Y; y < a.Bounds().Max.Y; y++ {
		for x := a.Bounds().Min.X; x < a.Bounds().Max.X; x++ {
			if color.RGBAModel.Convert(a.At(x, y)) != color.RGBAModel.Convert(b.At(x, y)) {
				fmt.Println("DIFFERENT at", x, y)
				os.Exit(1)
			}
		}
	}
	fmt.Println("same pixels")
}
