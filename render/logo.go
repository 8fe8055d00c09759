package render

import "github.com/bananaqr/bananaqr/render/internal/banana"

// logoInset is the space, in modules, between the edge of a logo's pad and the mark.
const logoInset = 0.5

// appendLogoSVG appends the logo of layout l, if any, as SVG elements in module units: the
// mark inside the pad, whose modules the grid leaves light.
func appendLogoSVG(dst []byte, l *layout) []byte {
	if l.pad.side == 0 {
		return dst
	}
	return append(dst, logoSVGs.get(l.pad, newLogoSVG)...)
}

// logoSVGs keeps the mark's SVG elements by logo pad, which alone places them: at most one pad
// per version (logoPad), some 3 KB each.
var logoSVGs = boundedCache[padding, string]{max: 1 << 20}

// newLogoSVG returns the mark's SVG elements inside pad, and their size in bytes.
func newLogoSVG(pad padding) (string, int) {
	at := float64(pad.first) + logoInset
	s := banana.SVG(at, at, float64(pad.side)-2*logoInset)
	return s, len(s)
}

// markRasters keeps the mark's rasters by side in pixels, up to 16 MB.
var markRasters = boundedCache[int, []uint8]{max: 16 << 20}

// markRaster returns banana.Raster(px), kept in markRasters and shared: callers must not modify
// it. Safe for concurrent use.
func markRaster(px int) []uint8 {
	return markRasters.get(px, func(px int) ([]uint8, int) {
		r := banana.Raster(px)
		return r, len(r)
	})
}
