package render

// logoInset is the space, in modules, between the edge of a logo's pad and the mark.
const logoInset = 0.5

// appendLogoSVG appends the logo of layout l, if any, as SVG elements in module units: the
// mark inside the pad, whose modules the grid leaves light.
func appendLogoSVG(dst []byte, l *layout) []byte {
	if l.pad.side == 0 {
		return dst
	}
	at := float64(l.pad.first) + logoInset
	return append(dst, bananaSVG(at, at, float64(l.pad.side)-2*logoInset)...)
}
