package httpapi

import (
	"bytes"
	"compress/gzip"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"
)

func TestAcceptsGzip(t *testing.T) {
	for _, c := range []struct {
		values []string
		want   bool
	}{
		{nil, false},
		{[]string{""}, false},
		{[]string{"gzip"}, true},
		{[]string{"GZIP"}, true},
		{[]string{"x-gzip"}, true},
		{[]string{"gzip, deflate, br, zstd"}, true}, // Chromium's
		{[]string{"deflate, br"}, false},
		{[]string{"br", "gzip;q=0.5"}, true},
		{[]string{"gzip;q=0"}, false},
		{[]string{"gzip; q=0.000"}, false},
		{[]string{"gzip;q=0.001"}, true},
		{[]string{"gzip;Q=1.0"}, true},
		{[]string{"gzip;q=1.5"}, false},
		{[]string{"gzip;q=abc"}, false},
		{[]string{"*"}, true},
		{[]string{"*;q=0"}, false},
		{[]string{"*, gzip;q=0"}, false},
		{[]string{"gzip;q=0, *"}, false},
		{[]string{"identity"}, false},
		{[]string{"gzipx"}, false},
	} {
		if got := acceptsGzip(c.values); got != c.want {
			t.Errorf("acceptsGzip(%q) = %v, want %v", c.values, got, c.want)
		}
	}
}

// gunzip decompresses body, failing the test unless it is one whole gzip member.
func gunzip(t *testing.T, body []byte) []byte {
	t.Helper()
	zr, err := gzip.NewReader(bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	out, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// Text answers are gzip-compressed for clients that accept it, byte for byte the identity
// answer once decompressed; PNGs and small answers are not; every answer that may be
// compressed says it varies with Accept-Encoding.
func TestCompressedAnswers(t *testing.T) {
	h := benchHandler()
	get := func(target, acceptEncoding string) *httptest.ResponseRecorder {
		r := httptest.NewRequest(http.MethodGet, target, nil)
		r.RemoteAddr = "192.0.2.1:40000"
		if acceptEncoding != "" {
			r.Header.Set("Accept-Encoding", acceptEncoding)
		}
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		return w
	}
	const q = "?url=https%3A%2F%2Fexample.com%2Fproducts%2F12345%3Fref%3Dnewsletter"
	for _, target := range []string{"/api/qr-code.svg" + q, "/api/qr-code" + q + "&format=json",
		"/api/qr-code" + q + "&format=pdf", "/api/qr-code" + q + "&format=eps&corners=rounded", "/", "/app.js", "/style.css", "/payments.html", "/openapi.json"} {
		plain, gz := get(target, ""), get(target, "gzip, deflate, br")
		if plain.Code != http.StatusOK || gz.Code != http.StatusOK {
			t.Fatalf("%s: %d, %d", target, plain.Code, gz.Code)
		}
		if plain.Header().Get("Content-Encoding") != "" || gz.Header().Get("Content-Encoding") != "gzip" ||
			plain.Header().Get("Vary") != "Accept-Encoding" || gz.Header().Get("Vary") != "Accept-Encoding" {
			t.Errorf("%s: Content-Encoding %q and %q, Vary %q and %q", target, plain.Header().Get("Content-Encoding"),
				gz.Header().Get("Content-Encoding"), plain.Header().Get("Vary"), gz.Header().Get("Vary"))
		}
		if got := gunzip(t, gz.Body.Bytes()); !bytes.Equal(got, plain.Body.Bytes()) {
			t.Errorf("%s: decompressed answer differs from the identity one", target)
		}
		if n := gz.Body.Len(); n >= plain.Body.Len() || gz.Header().Get("Content-Length") != itoa(n) {
			t.Errorf("%s: %d bytes compressed, %d plain, Content-Length %s", target, n, plain.Body.Len(), gz.Header().Get("Content-Length"))
		}
		if again := get(target, "gzip"); !bytes.Equal(again.Body.Bytes(), gz.Body.Bytes()) {
			t.Errorf("%s: two compressed answers differ", target)
		}
	}
	png := get("/api/qr-code.png"+q, "gzip")
	if png.Header().Get("Content-Encoding") != "" || png.Header().Get("Vary") != "" {
		t.Errorf("PNG: Content-Encoding %q, Vary %q", png.Header().Get("Content-Encoding"), png.Header().Get("Vary"))
	}
	small := get("/api/qr-code.svg?size=7", "gzip") // a short error object
	if small.Code != http.StatusBadRequest || small.Header().Get("Content-Encoding") != "" {
		t.Errorf("error: %d, Content-Encoding %q", small.Code, small.Header().Get("Content-Encoding"))
	}
}

// The page's files have an ETag per encoding, and If-None-Match is answered 304 for either.
func TestCompressedPageETags(t *testing.T) {
	h := benchHandler()
	get := func(acceptEncoding, ifNoneMatch string) *httptest.ResponseRecorder {
		r := httptest.NewRequest(http.MethodGet, "/app.js", nil)
		r.Header.Set("Accept-Encoding", acceptEncoding)
		if ifNoneMatch != "" {
			r.Header.Set("If-None-Match", ifNoneMatch)
		}
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		return w
	}
	plain, gz := get("identity", ""), get("gzip", "")
	if plain.Header().Get("ETag") == gz.Header().Get("ETag") {
		t.Fatalf("both encodings have ETag %s", gz.Header().Get("ETag"))
	}
	if w := get("gzip", gz.Header().Get("ETag")); w.Code != http.StatusNotModified || w.Body.Len() != 0 || w.Header().Get("Content-Encoding") != "" {
		t.Errorf("gzip revalidated: %d, %d bytes, Content-Encoding %q", w.Code, w.Body.Len(), w.Header().Get("Content-Encoding"))
	}
	if w := get("identity", gz.Header().Get("ETag")); w.Code != http.StatusOK {
		t.Errorf("identity with the gzip ETag: %d, want 200", w.Code)
	}
}

// BenchmarkCompress is the cost of gzip per answer beside the answer itself: each format's
// request with and without Accept-Encoding: gzip, with the bytes sent.
func BenchmarkCompress(b *testing.B) {
	h := benchHandler()
	for _, c := range handlerCases[:3] {
		if c.name == "png" {
			continue
		}
		for _, enc := range []string{"identity", "gzip"} {
			b.Run(c.name+"/"+enc, func(b *testing.B) {
				var n int
				for b.Loop() {
					r := httptest.NewRequest(http.MethodGet, c.target, nil)
					r.RemoteAddr = "192.0.2.1:40000"
					r.Header.Set("Accept-Encoding", enc)
					w := httptest.NewRecorder()
					h.ServeHTTP(w, r)
					n = w.Body.Len()
				}
				b.ReportMetric(float64(n), "bytes")
			})
		}
	}
}
