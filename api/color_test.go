package api

import (
	"image/color"
	"testing"
)

func TestParseColor(t *testing.T) {
	for s, want := range map[string]color.RGBA{
		"7B260F": {0x7b, 0x26, 0x0f, 0xff}, "#7b260f": {0x7b, 0x26, 0x0f, 0xff},
		"#FFFFFF": {0xff, 0xff, 0xff, 0xff}, "000000": {0, 0, 0, 0xff}, "#a1B2c3": {0xa1, 0xb2, 0xc3, 0xff},
	} {
		got, err := ParseColor(s)
		if err != nil || got != want {
			t.Errorf("ParseColor(%q) = %v, %v; want %v", s, got, err, want)
		}
		if back, _ := ParseColor(FormatColor(got)); back != got {
			t.Errorf("FormatColor(%v) = %q does not parse back", got, FormatColor(got))
		}
	}
	for _, s := range []string{"", "#", "7B260", "7B260F0", "##7B260F", "#7B260G", "red", " 7B260F", "#7B260F "} {
		if _, err := ParseColor(s); err == nil {
			t.Errorf("ParseColor(%q): no error", s)
		}
	}
	if got := FormatColor(color.RGBA{0xab, 0x01, 0xef, 0xff}); got != "#AB01EF" {
		t.Errorf("FormatColor = %q", got)
	}
}
