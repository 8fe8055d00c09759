package httpapi

import (
	"bytes"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/bananaqr/bananaqr/internal/qrtest"
)

// TestPrintFormats asks for PDF and EPS by GET (format=pdf|eps on /api/qr-code and its /url
// form) and by POST, public and private: the Content-Type, the X-QR-* headers and the
// Content-Disposition as for the other formats, a private payload nowhere in the file, the
// bytes the same for GET and POST; every response passes the OpenAPI contract (ts.do).
// Ghostscript rasterises each file and zbarimg reads the payload back.
func TestPrintFormats(t *testing.T) {
	ts := newTestServer(t, Config{})
	const link = "https://example.com/flyer?ref=print"
	media := map[string]string{"pdf": "application/pdf", "eps": "application/postscript"}
	head := map[string]string{"pdf": "%PDF-1.4\n", "eps": "%!PS-Adobe-3.0 EPSF-3.0\n"}
	files := map[string]string{} // file → payload
	dir := t.TempDir()
	for _, format := range []string{"pdf", "eps"} {
		get := ts.get(t, "/api/qr-code?url="+url.QueryEscape(link)+"&format="+format+"&size=512&corners=rounded&logo=banana")
		viaURL := ts.get(t, "/api/qr-code/url?url="+url.QueryEscape(link)+"&format="+format+"&size=512&corners=rounded&logo=banana&download=1")
		post := ts.post(t, `{"type":"url","url":"`+link+`","format":"`+format+`","size":512,"corners":"rounded","logo":"banana"}`)
		private := ts.post(t, `{"type":"wifi","ssid":"PrintNet","password":"paper-secret","format":"`+format+`","download":true}`)
		for _, c := range []struct {
			name        string
			r           *result
			typ, dispos string
		}{
			{"GET", get, "url", "inline"}, {"GET /url", viaURL, "url", "attachment"}, {"POST", post, "url", "inline"},
			{"POST wifi", private, "wifi", "attachment"},
		} {
			name := format + " " + c.name
			if c.r.status != http.StatusOK {
				t.Fatalf("%s: %d %s", name, c.r.status, c.r.body)
			}
			want := map[string]string{
				"Content-Type": media[format], "Cache-Control": "private, no-store", "X-QR-Payload-Type": c.typ,
				"X-QR-Format": format, "X-QR-Logo": "none", "X-QR-Size": "1024",
				"Content-Disposition": c.dispos + `; filename="qr-` + c.typ + "." + format + `"`,
			}
			if c.typ == "url" {
				want["X-QR-Payload"], want["X-QR-Logo"], want["X-QR-Size"] = link, "banana", "512"
			} else if _, ok := c.r.header["X-Qr-Payload"]; ok {
				t.Errorf("%s: X-QR-Payload of a private payload", name)
			}
			for k, v := range want {
				if got := c.r.header.Get(k); got != v {
					t.Errorf("%s: %s is %q, want %q", name, k, got, v)
				}
			}
			if !bytes.HasPrefix(c.r.body, []byte(head[format])) {
				t.Errorf("%s: starts %.30q", name, c.r.body)
			}
			if bytes.Contains(c.r.body, []byte("paper-secret")) || bytes.Contains(c.r.body, []byte("PrintNet")) {
				t.Errorf("%s: the file shows the private payload", name)
			}
			file := filepath.Join(dir, fmt.Sprintf("%s-%d.%s", c.typ, len(files), format))
			if err := os.WriteFile(file, c.r.body, 0o644); err != nil {
				t.Fatal(err)
			}
			files[file] = map[string]string{"url": link, "wifi": "WIFI:T:WPA;S:PrintNet;P:paper-secret;;"}[c.typ]
		}
		if !bytes.Equal(get.body, post.body) || !bytes.Equal(get.body, viaURL.body) {
			t.Errorf("%s: GET, GET /url and POST give different files", format)
		}
	}
	// The files read back: Ghostscript at 150 dpi, then zbarimg.
	qrtest.NeedTools(t, "gs", "zbarimg")
	var pngs []string
	want := map[string]string{}
	for file, text := range files {
		args := []string{"-q", "-dSAFER", "-dBATCH", "-dNOPAUSE", "-sDEVICE=pnggray", "-r150", "-o", file + ".png"}
		if filepath.Ext(file) == ".eps" {
			args = append(args, "-dEPSCrop")
		}
		if out, err := exec.Command("gs", append(args, file)...).CombinedOutput(); err != nil {
			t.Fatalf("gs %s: %v\n%s", file, err, out)
		}
		pngs = append(pngs, file+".png")
		want[file+".png"] = text
	}
	got := qrtest.Zbarimg(t, pngs)
	for _, f := range pngs {
		if got[f] != want[f] {
			t.Errorf("%s: zbarimg read %q, want %q", filepath.Base(f), got[f], want[f])
		}
	}
}

// TestPrintFormatRoutes: the .png and .svg paths keep their formats whatever format says, and
// an unknown format names the print formats in its hint.
func TestPrintFormatRoutes(t *testing.T) {
	ts := newTestServer(t, Config{})
	if r := ts.get(t, "/api/qr-code.png?text=x&format=pdf"); r.header.Get("Content-Type") != "image/png" {
		t.Errorf(".png with format=pdf: %s", r.header.Get("Content-Type"))
	}
	if r := ts.get(t, "/api/qr-code.svg?text=x&format=eps"); r.header.Get("Content-Type") != "image/svg+xml" {
		t.Errorf(".svg with format=eps: %s", r.header.Get("Content-Type"))
	}
	e := ts.get(t, "/api/qr-code?text=x&format=ps").wantError(t, http.StatusBadRequest, "INVALID_VALUE")
	if e.Hint != "Use json, svg, png, pdf or eps." {
		t.Errorf("hint %q", e.Hint)
	}
}
