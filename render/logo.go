package render

// logoInset is the space, in modules, between the edge of a logo's pad and the mark.
const logoInset = 0.5

// appendLogoSVG appends the logo of layout l, if any, as SVG elements in module units.
func appendLogoSVG(dst []byte, l *layout) []byte {
	if l.pad.side == 0 {
		return dst
	}
	// TODO(banana): bananaSVG lands with banana.go.
	return dst
}
