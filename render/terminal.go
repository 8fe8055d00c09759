package render

import (
	"fmt"
	"io"
)

// Modules is a square of modules, each dark or light, such as a *qr.Symbol or a symbol read
// back from an image. Dark is false outside 0..Size()-1.
type Modules interface {
	Size() int
	Dark(x, y int) bool
}

// Terminal writes s to w as lines of UTF-8 half blocks, each character two modules high,
// surrounded by a quiet zone of margin modules (ISO/IEC 18004:2015 6.3.7 asks for 4).
//
// A scanner needs dark modules on a light ground. By default the blocks stand for light
// modules, which suits terminals with a dark background, where the glyphs are light; invert
// draws the dark modules as blocks instead, for light backgrounds and for paper.
func Terminal(w io.Writer, s Modules, margin int, invert bool) error {
	if margin < 0 || margin > MaxMargin {
		return fmt.Errorf("render: margin %d out of range 0..%d", margin, MaxMargin)
	}
	// lit reports whether the glyph colour belongs at (x, y), in symbol coordinates.
	lit := func(x, y int) bool { return s.Dark(x, y) == invert }
	n := s.Size() + 2*margin
	var out []byte
	for y := 0; y < n; y += 2 {
		for x := range n {
			top := lit(x-margin, y-margin)
			bottom := y+1 < n && lit(x-margin, y+1-margin) // below the last row: the terminal's own ground
			out = append(out, halfBlocks[b2i(top)<<1|b2i(bottom)]...)
		}
		out = append(out, '\n')
	}
	_, err := w.Write(out)
	return err
}

// halfBlocks are the characters for a top and a bottom half: neither, bottom, top, both.
var halfBlocks = [4]string{" ", "▄", "▀", "█"}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// Cleared returns m with the square of modules from (first, first) to
// (first+side-1, first+side-1) light, as a logo's pad (LogoPad) draws them: the terminal shows
// the code that an image of it holds, less the mark.
func Cleared(m Modules, first, side int) Modules {
	if side == 0 {
		return m
	}
	return cleared{m, padding{first, side}}
}

// cleared is a Modules with a pad drawn light.
type cleared struct {
	Modules
	pad padding
}

func (c cleared) Dark(x, y int) bool {
	return c.Modules.Dark(x, y) && !(uint(x-c.pad.first) < uint(c.pad.side) && uint(y-c.pad.first) < uint(c.pad.side))
}
