package render

import (
	"testing"
	"github.com/bananaqr/bananaqr/qr"
)

func TestZZCount(t *testing.T) {
	s, _ := qr.Encode("https://example.com/products/12345?ref=newsletter", qr.Options{Level: qr.H})
	o := Defaults()
	o.Corners, o.Logo = Rounded, Banana
	l, _ := prepare(s, &o)
	var r rasterizer
	r.start(s, &l, &o)
	runs, drawn := 0, 0
	buf := make([]byte, (l.size+1)/2)
	for y := range l.size {
		_, d := r.patchRow(y, buf)
		if d { drawn++; for i := 0; i < len(buf); { i += runLen(buf[i:]); runs++ } }
	}
	used := 0
	t.Logf("drawn %d runs %d table %d", drawn, runs, len(r.table))
	_ = used
}
