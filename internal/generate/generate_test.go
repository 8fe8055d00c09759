package generate_test

import (
	"bytes"
	"errors"
	"fmt"
	"html"
	"image/color"
	"image/png"
	"slices"
	"strings"
	"testing"
	"unicode/utf16"

	"github.com/bananaqr/bananaqr/api"
	"github.com/bananaqr/bananaqr/internal/generate"
	"github.com/bananaqr/bananaqr/internal/qrtest"
	"github.com/bananaqr/bananaqr/payload"
	"github.com/bananaqr/bananaqr/qr"
	"github.com/bananaqr/bananaqr/render"
)

// request returns a request with the defaults and payload p.
func request(p payload.Request) api.Request {
	r := api.NewRequest()
	r.Payload = p
	return r
}

// text is a request of a text payload.
func text(s string) payload.Request { return payload.Request{Type: payload.Text, Text: s} }

// TestCodeErrors checks the errors Code returns, as api.ErrorOf gives them to the edges: the
// colour rule first, the payload's own errors, and NOT_ENCODABLE for a payload too long at its
// level, a logo that no symbol can spare and an image too small for its modules; Prepare returns
// the same.
func TestCodeErrors(t *testing.T) {
	long := strings.Repeat("x", 2000) // byte mode: fits level L (2953 bytes), not H (1273)
	tests := []struct {
		name   string
		req    func(r *api.Request)
		status int
		code   api.Reason
		field  string
		hint   string // the whole hint, or its start when it ends in "…"
	}{
		{"low contrast", func(r *api.Request) { r.Color = color.RGBA{0xcc, 0xcc, 0xcc, 0xff} },
			400, api.ReasonLowContrast, "color", "Use a darker color, such as #…"},
		{"contrast before payload", func(r *api.Request) {
			r.Color, r.Payload = color.RGBA{0xcc, 0xcc, 0xcc, 0xff}, payload.Request{Type: payload.WiFi}
		}, 400, api.ReasonLowContrast, "color", "Use a darker color…"},
		{"payload error", func(r *api.Request) { r.Payload = payload.Request{Type: payload.WiFi, Password: "correct horse"} },
			400, payload.ReasonMissingField, "ssid", "…"},
		{"payload too large", func(r *api.Request) { r.Payload = text(strings.Repeat("x", payload.MaxLen+1)) },
			413, payload.ReasonPayloadTooLarge, "text", "…"},
		{"too long at H", func(r *api.Request) { r.ECC, r.Payload = api.LevelH, text(long) },
			422, api.ReasonNotEncodable, "",
			"At error correction level H a code holds at most 1273 bytes of this text; shorten it, lower ecc, or encode a URL that points to it."},
		// Not ASCII: the ECI designator that declares UTF-8 takes 12 bits of the room.
		{"too long at M, not ASCII", func(r *api.Request) { r.ECC, r.Payload = api.LevelM, text(strings.Repeat("ü", 1200)) },
			422, api.ReasonNotEncodable, "",
			"At error correction level M a code holds at most 2330 bytes of this text; shorten it, lower ecc, or encode a URL that points to it."},
		{"logo not spared", func(r *api.Request) {
			r.ECC, r.Logo, r.Payload = api.LevelL, api.LogoBanana, text(strings.Repeat("ü", 1200))
		},
			422, api.ReasonNotEncodable, "logo",
			"Leave out the logo (logo=none), or shorten the payload: the logo hides modules that this code's error correction cannot spare."},
		{"image too small", func(r *api.Request) { r.ECC, r.Size, r.Margin, r.Payload = api.LevelL, 128, 16, text(long) },
			422, api.ReasonNotEncodable, "size", "Use size 362 or more (2 pixels a module), or a smaller margin."},
		{"image too small, default margin", func(r *api.Request) { r.ECC, r.Size, r.Payload = api.LevelL, 256, text(long) },
			422, api.ReasonNotEncodable, "size", "Use size 314 or more (2 pixels a module), or a smaller margin."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := request(text("hello"))
			tt.req(&r)
			res, err := generate.Code(&r)
			if err == nil {
				res.Release()
				t.Fatal("no error")
			}
			var ae *api.Error
			var pe *payload.Error
			if !errors.As(err, &ae) && !errors.As(err, &pe) {
				t.Fatalf("%T %v: neither an *api.Error nor a *payload.Error", err, err)
			}
			e := api.ErrorOf(err)
			if e.Status != tt.status || e.Reason != tt.code || e.Field != tt.field {
				t.Errorf("got %d %s field %q (%s), want %d %s field %q", e.Status, e.Reason, e.Field, e.Message, tt.status, tt.code, tt.field)
			}
			if prefix, ok := strings.CutSuffix(tt.hint, "…"); ok {
				if !strings.HasPrefix(e.Hint, prefix) || e.Hint == "" {
					t.Errorf("hint %q, want it to start %q", e.Hint, prefix)
				}
			} else if e.Hint != tt.hint {
				t.Errorf("hint %q\nwant %q", e.Hint, tt.hint)
			}
			if e.Message == "" {
				t.Error("no message")
			}
			if _, err := generate.Prepare(&r); *api.ErrorOf(err) != *e {
				t.Errorf("Prepare's error %+v, Code's %+v", api.ErrorOf(err), e)
			}
		})
	}
}

// TestCodeErrorsNotPrivate checks that the errors of a private payload do not quote it.
func TestCodeErrorsNotPrivate(t *testing.T) {
	secret := "hunter2-" + strings.Repeat("ü", 60)
	r := request(payload.Request{Type: payload.WiFi, SSID: "home", Password: secret})
	// The password is too long for WPA: a payload error that must not show it.
	_, err := generate.Code(&r)
	e := api.ErrorOf(err)
	if e.Reason != payload.ReasonInvalidPassword {
		t.Fatalf("got %s, want %s", e.Reason, payload.ReasonInvalidPassword)
	}
	if body := fmt.Sprintf("%+v", e.Body()); strings.Contains(body, "hunter2") {
		t.Errorf("the error shows the password: %s", body)
	}
}

// TestCodeSmallestSize checks that the size the hint of a too small image names is the smallest
// that works: Code makes the code at that size, at 2 pixels a module, and refuses one less.
func TestCodeSmallestSize(t *testing.T) {
	for _, margin := range []int{0, 4, 16} {
		r := request(text(strings.Repeat("x", 2000)))
		r.ECC, r.Margin, r.Size = api.LevelL, margin, render.MinSize
		_, err := generate.Code(&r)
		e := api.ErrorOf(err)
		var size int
		if _, serr := fmt.Sscanf(e.Hint, "Use size %d or more", &size); serr != nil || e.Field != "size" {
			t.Fatalf("margin %d: %s %q: no size in the hint", margin, e.Reason, e.Hint)
		}
		r.Size = size
		res, err := generate.Code(&r)
		if err != nil {
			t.Fatalf("margin %d: size %d from the hint: %v", margin, size, err)
		}
		if res.ModulePx != 2 || size != 2*(res.Symbol.Size()+2*margin) {
			t.Errorf("margin %d: size %d gives %d pixels a module for %d modules", margin, size, res.ModulePx, res.Symbol.Size())
		}
		res.Release()
		r.Size = size - 1
		if _, err := generate.Code(&r); api.ErrorOf(err).Field != "size" {
			t.Errorf("margin %d: size %d, one less than the hint's: %v", margin, size-1, err)
		}
	}
}

// TestCodeSpareLogo checks that the payload a logo cannot spare is made without the logo, and
// that a logo raises the version rather than failing when a larger symbol can spare its pad.
func TestCodeSpareLogo(t *testing.T) {
	r := request(text(strings.Repeat("ü", 1200)))
	r.ECC, r.Size = api.LevelL, 2048
	res, err := generate.Code(&r)
	if err != nil {
		t.Fatalf("without the logo: %v", err)
	}
	if res.Symbol.Level() != qr.L {
		t.Errorf("level %s, want L", res.Symbol.Level())
	}
	res.Release()

	r = request(text("https://example.com/a/rather/longer/path?with=a&query=string"))
	r.ECC = api.LevelH
	plain, err := generate.Code(&r)
	if err != nil {
		t.Fatal(err)
	}
	r.Logo = api.LogoBanana
	logo, err := generate.Code(&r)
	if err != nil {
		t.Fatalf("with the logo: %v", err)
	}
	if first, side := logo.Symbol.Cover(); side == 0 || logo.Symbol.Version() < plain.Symbol.Version() {
		t.Errorf("with the logo: version %d, cover %d+%d; without: version %d", logo.Symbol.Version(), first, side, plain.Symbol.Version())
	}
	plain.Release()
	logo.Release()
}

// svgTitle returns the <title> of svg, and whether it has one.
func svgTitle(svg []byte) (string, bool) {
	_, after, ok := bytes.Cut(svg, []byte("<title"))
	if !ok {
		return "", false
	}
	_, after, _ = bytes.Cut(after, []byte(">"))
	t, _, ok := bytes.Cut(after, []byte("</title>"))
	return string(t), ok
}

// TestCodeTitle checks the SVG's accessible name: a public payload itself (escaped as XML), a
// private one only its type, whatever type it was sent as; and that nothing of a private
// payload shows in the SVG.
func TestCodeTitle(t *testing.T) {
	tests := []struct {
		name   string
		p      payload.Request
		title  string
		secret string // a part of the payload that must not show, for private ones
	}{
		{"url", payload.Request{URL: "example.com/menu?a=1&b=2"}, "QR code: https://example.com/menu?a=1&amp;b=2", ""},
		{"text", text(`a <b> & "c"`), "QR code: a &lt;b&gt; &amp; &#34;c&#34;", ""},
		{"wifi", payload.Request{Type: payload.WiFi, SSID: "home-net", Password: "correct horse"}, "QR code (wifi)", "correct horse"},
		{"vcard", payload.Request{Type: payload.VCard, Name: "Jane Doe", Phone: "+15551234567"}, "QR code (vcard)", "Jane"},
		{"email", payload.Request{Type: payload.Email, To: "jane@example.com", Subject: "hi"}, "QR code (email)", "jane@"},
		{"sms", payload.Request{Type: payload.SMS, Phone: "+15551234567", Message: "hello"}, "QR code (sms)", "5551234567"},
		{"wifi sent as text", text("WIFI:T:WPA;S:home;P:secret-pass;;"), "QR code (text)", "secret-pass"},
		{"wifi sent as data", payload.Request{Data: "WIFI:T:WPA;S:home;P:secret-pass;;"}, "QR code (wifi)", "secret-pass"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := request(tt.p)
			res, err := generate.Code(&r)
			if err != nil {
				t.Fatal(err)
			}
			defer res.Release()
			if got, ok := svgTitle(res.SVG); !ok || got != tt.title {
				t.Errorf("title %q, want %q", got, tt.title)
			}
			if res.Payload.Private != (tt.secret != "") {
				t.Errorf("private %t", res.Payload.Private)
			}
			if tt.secret != "" && bytes.Contains(res.SVG, []byte(tt.secret)) {
				t.Errorf("the SVG shows %q", tt.secret)
			}
			if want := html.UnescapeString(tt.title); generate.Title(res.Payload) != want {
				t.Errorf("Title %q, want %q", generate.Title(res.Payload), want)
			}
		})
	}
}

// TestTitle checks Title alone: the text of a public payload, the type of a private one.
func TestTitle(t *testing.T) {
	if got := generate.Title(payload.Payload{Text: "https://example.com", Type: payload.URL}); got != "QR code: https://example.com" {
		t.Errorf("public: %q", got)
	}
	if got := generate.Title(payload.Payload{Text: "BEGIN:VCARD…", Type: payload.VCard, Private: true}); got != "QR code (vcard)" {
		t.Errorf("private: %q", got)
	}
	if got := generate.Title(payload.Payload{Text: "otpauth://totp/x?secret=ABC", Type: payload.Text, Private: true}); got != "QR code (text)" {
		t.Errorf("private text: %q", got)
	}
}

// TestCodeWarnings checks the warnings: none for a plain code, SMALL_QUIET_ZONE below a margin
// of 4, the payload's LEGACY_ANDROID_WIFI, the payload's first.
func TestCodeWarnings(t *testing.T) {
	wifi := func(ssid, password string) payload.Request {
		return payload.Request{Type: payload.WiFi, SSID: ssid, Password: password}
	}
	tests := []struct {
		name   string
		p      payload.Request
		margin int
		want   []string // code field
	}{
		{"none", text("hello"), 4, nil},
		{"wide margin", text("hello"), 16, nil},
		{"margin 3", text("hello"), 3, []string{"SMALL_QUIET_ZONE margin"}},
		{"margin 0", text("hello"), 0, []string{"SMALL_QUIET_ZONE margin"}},
		{"password ends in a backslash", wifi("home", `correct horse\`), 4, []string{"LEGACY_ANDROID_WIFI password"}},
		{"quoted ssid", wifi(`"home"`, "correct horse"), 4, []string{"LEGACY_ANDROID_WIFI ssid"}},
		{"both, and the margin", wifi(`"home"`, `correct horse\`), 1,
			[]string{"LEGACY_ANDROID_WIFI ssid", "LEGACY_ANDROID_WIFI password", "SMALL_QUIET_ZONE margin"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := request(tt.p)
			r.Margin = tt.margin
			res, err := generate.Code(&r)
			if err != nil {
				t.Fatal(err)
			}
			defer res.Release()
			var got []string
			for _, w := range res.Warnings {
				got = append(got, w.Reason+" "+w.Field)
				if w.Message == "" {
					t.Errorf("%s: no message", w.Reason)
				}
				if w.Reason == api.ReasonSmallQuietZone && !strings.Contains(w.Message, fmt.Sprintf("quiet zone of %d modules", tt.margin)) {
					t.Errorf("%s: %q does not name the margin %d", w.Reason, w.Message, tt.margin)
				}
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("warnings %q, want %q", got, tt.want)
			}
		})
	}
}

// TestCodeDecodes checks that the PNG is the size asked for and decodes, with gozxing, to the
// exact payload, and that the symbol, its module pixels and the SVG agree with the request.
func TestCodeDecodes(t *testing.T) {
	tests := []struct {
		name string
		req  func(r *api.Request)
		want string // the payload
	}{
		{"url", func(r *api.Request) { r.Payload = payload.Request{URL: "example.com/menu"} }, "https://example.com/menu"},
		{"wifi", func(r *api.Request) {
			r.Payload = payload.Request{Type: payload.WiFi, SSID: "Café;1", Password: "correct horse", Hidden: true}
		}, `WIFI:T:WPA;S:Café\;1;P:correct horse;H:true;;`},
		{"sms", func(r *api.Request) {
			r.Payload = payload.Request{Type: payload.SMS, Phone: "+1 555 123 4567", Message: "hi"}
		},
			"SMSTO:+15551234567:hi"},
		{"unicode text, small", func(r *api.Request) { r.Payload, r.Size = text("Grüße, 香蕉 🍌"), 128 }, "Grüße, 香蕉 🍌"},
		{"banana, rounded, H", func(r *api.Request) {
			r.Payload, r.Logo, r.Corners, r.ECC = text("https://example.com/banana"), api.LogoBanana, api.CornersRounded, api.LevelH
		}, "https://example.com/banana"},
		{"colours, margin 1", func(r *api.Request) {
			r.Payload, r.Margin = text("dark blue on cream"), 1
			r.Color, r.Background = color.RGBA{0x10, 0x20, 0x60, 0xff}, color.RGBA{0xff, 0xf8, 0xe0, 0xff}
		}, "dark blue on cream"},
		{"long, level L", func(r *api.Request) {
			r.Payload, r.ECC, r.Size = text(strings.Repeat("0123456789abcdef", 120)), api.LevelL, 2048
		},
			strings.Repeat("0123456789abcdef", 120)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := request(payload.Request{})
			r.Format = api.FormatJSON
			tt.req(&r)
			res, err := generate.Code(&r)
			if err != nil {
				t.Fatal(err)
			}
			defer res.Release()
			if res.Payload.Text != tt.want {
				t.Errorf("payload %q, want %q", res.Payload.Text, tt.want)
			}
			s := res.Symbol
			if s.Level() < generate.Encoding(&r).Level || s.Size() != 4*s.Version()+17 {
				t.Errorf("version %d, level %s, %d modules for level %s", s.Version(), s.Level(), s.Size(), r.ECC)
			}
			if want := r.Size / (s.Size() + 2*r.Margin); res.ModulePx != want || want < 2 {
				t.Errorf("%d pixels a module, want %d", res.ModulePx, want)
			}
			img, err := png.Decode(bytes.NewReader(res.PNG))
			if err != nil {
				t.Fatalf("PNG: %v", err)
			}
			if b := img.Bounds(); b.Dx() != r.Size || b.Dy() != r.Size {
				t.Errorf("PNG of %v, want %d pixels", b, r.Size)
			}
			got, err := qrtest.DecodeRendered(img, res.ModulePx)
			if err != nil {
				t.Fatalf("decoding the PNG: %v", err)
			}
			if got != tt.want {
				t.Errorf("the PNG decodes to %q, want %q", got, tt.want)
			}
			head := fmt.Sprintf(`<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" `, r.Size, r.Size)
			if !bytes.HasPrefix(res.SVG, []byte(head)) || !bytes.HasSuffix(res.SVG, []byte("</svg>")) {
				t.Errorf("SVG %.120q…", res.SVG)
			}
		})
	}
}

// TestCodeFormats checks that Code draws the images the format needs: svg the SVG, png the PNG,
// json both; and that the PNG has no title, even of a public payload.
func TestCodeFormats(t *testing.T) {
	for _, f := range []api.Format{api.FormatSVG, api.FormatPNG, api.FormatJSON} {
		r := request(text("formats"))
		r.Format = f
		res, err := generate.Code(&r)
		if err != nil {
			t.Fatal(err)
		}
		if (res.SVG != nil) != (f != api.FormatPNG) || (res.PNG != nil) != (f != api.FormatSVG) {
			t.Errorf("format %s: SVG %d bytes, PNG %d bytes", f, len(res.SVG), len(res.PNG))
		}
		if res.PNG != nil && !bytes.HasPrefix(res.PNG, []byte("\x89PNG\r\n\x1a\n")) {
			t.Errorf("format %s: PNG starts %q", f, res.PNG[:8])
		}
		if bytes.Contains(res.PNG, []byte("formats")) || bytes.Contains(res.PNG, []byte("tEXt")) {
			t.Errorf("format %s: the PNG has text", f)
		}
		res.Release()
	}
}

// TestRelease checks that Release drops the images, may be called twice, and that a released
// result's memory, reused by the next code, never changes a result still held.
func TestRelease(t *testing.T) {
	code := func(s string) *generate.Result {
		r := request(text(s))
		r.Format, r.Size = api.FormatJSON, 256
		res, err := generate.Code(&r)
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	decode := func(res *generate.Result) string {
		img, err := png.Decode(bytes.NewReader(res.PNG))
		if err != nil {
			t.Fatal(err)
		}
		s, err := qrtest.DecodeRendered(img, res.ModulePx)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	held := code("held")
	svg, pngb := bytes.Clone(held.SVG), bytes.Clone(held.PNG)
	for i := range 20 {
		res := code(fmt.Sprintf("released %d", i))
		if got := decode(res); got != fmt.Sprintf("released %d", i) {
			t.Errorf("code %d decodes to %q", i, got)
		}
		res.Release()
		if res.SVG != nil || res.PNG != nil {
			t.Fatalf("after Release: SVG %d bytes, PNG %d bytes", len(res.SVG), len(res.PNG))
		}
		res.Release() // a second time does nothing
	}
	if !bytes.Equal(held.SVG, svg) || !bytes.Equal(held.PNG, pngb) {
		t.Error("codes made after others were released changed a result still held")
	}
	if got := decode(held); got != "held" {
		t.Errorf("the held code decodes to %q", got)
	}
	held.Release()
}

// TestCodePrintFormats checks that Code draws for pdf the PDF alone and for eps the EPS alone,
// that Image gives each format's image, and that the PDF's /Title is the SVG's: a public
// payload itself, a private one only its type, nothing of it in either file.
func TestCodePrintFormats(t *testing.T) {
	utf16Hex := func(s string) string {
		var b strings.Builder
		for _, u := range utf16.Encode([]rune(s)) {
			fmt.Fprintf(&b, "%04X", u)
		}
		return b.String()
	}
	for _, c := range []struct {
		p      payload.Request
		title  string
		secret string
	}{
		{text("print me, café"), "QR code: print me, café", ""},
		{payload.Request{Type: payload.WiFi, SSID: "home-net", Password: "correct horse"}, "QR code (wifi)", "correct horse"},
	} {
		for _, f := range []api.Format{api.FormatPDF, api.FormatEPS} {
			r := request(c.p)
			r.Format = f
			res, err := generate.Code(&r)
			if err != nil {
				t.Fatal(err)
			}
			if res.SVG != nil || res.PNG != nil || (res.PDF != nil) != (f == api.FormatPDF) || (res.EPS != nil) != (f == api.FormatEPS) {
				t.Errorf("format %s: SVG %d, PNG %d, PDF %d, EPS %d bytes", f, len(res.SVG), len(res.PNG), len(res.PDF), len(res.EPS))
			}
			image := res.Image(f)
			head := map[api.Format]string{api.FormatPDF: "%PDF-1.4\n", api.FormatEPS: "%!PS-Adobe-3.0 EPSF-3.0\n"}[f]
			if !bytes.HasPrefix(image, []byte(head)) {
				t.Errorf("format %s: Image starts %.30q", f, image)
			}
			if f == api.FormatPDF && !bytes.Contains(image, []byte("/Title <FEFF"+utf16Hex(c.title)+">")) {
				t.Errorf("PDF: no /Title %q", c.title)
			}
			if c.secret != "" && (bytes.Contains(image, []byte(c.secret)) || bytes.Contains(image, []byte(utf16Hex(c.secret)))) {
				t.Errorf("format %s shows %q", f, c.secret)
			}
			res.Release()
			if res.PDF != nil || res.EPS != nil || res.Image(f) != nil {
				t.Errorf("format %s: images kept after Release", f)
			}
		}
	}
	for _, f := range []api.Format{api.FormatSVG, api.FormatPNG} {
		r := request(text("image"))
		r.Format = f
		res, _ := generate.Code(&r)
		if img := res.Image(f); len(img) == 0 || (f == api.FormatSVG) != bytes.Equal(img, res.SVG) {
			t.Errorf("Image(%s) is not the %s", f, f)
		}
		if res.Image(api.FormatJSON) != nil {
			t.Error("Image(json) is not nil")
		}
		res.Release()
	}
}
