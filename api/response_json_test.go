package api

import (
	"bytes"
	"encoding/json"
	"testing"
)

// encodeJSON is r as an encoding/json Encoder without HTML escaping writes it: the reference.
func encodeJSON(r *Response) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.Encode(r)
	return b.String()
}

// FuzzResponseJSON: AppendJSON writes every response, whatever its strings, byte for byte as
// encoding/json does.
func FuzzResponseJSON(f *testing.F) {
	f.Add("https://example.com/?a=1&b=<2>", `<svg xmlns="x"><title>QR code: "a" & 'b'</title></svg>`, "WIFI:S:\x00\x1f\x7f;;", 1024, true, 2)
	f.Add("\xff\xfe\u2028\u2029\U0001F34C\b\f", "", "\t\r\n\\", -1, false, 0)
	f.Fuzz(func(t *testing.T, a, svg, c string, n int, public bool, warnings int) {
		r := &Response{OK: public, Type: c, PayloadType: c, Format: "json", MimeType: "image/png", Size: n, Logo: a,
			Color: "#7B260F", Background: c, SVG: svg, PNGBase64: a, PNGDataURL: "data:image/png;base64," + a,
			Markdown: "![QR code](" + a + ")", Version: n, ECC: c, Modules: -n, Margin: n / 3, ModulePx: n % 7}
		if public {
			r.Payload, r.ImageURL, r.SVGURL = &a, &svg, &c
		}
		for i := range warnings % 4 {
			r.Warnings = append(r.Warnings, Warning{Reason: c, Field: a[:min(i, len(a))], Message: svg})
		}
		if warnings%4 == 0 && warnings%8 == 0 {
			r.Warnings = []Warning{}
		}
		if got, want := string(r.AppendJSON(nil)), encodeJSON(r); got != want {
			t.Fatalf("AppendJSON:\n got %q\nwant %q", got, want)
		}
	})
}
