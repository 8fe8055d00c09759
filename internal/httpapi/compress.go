// Compression of answers: gzip (RFC 1952) when the client accepts it (Accept-Encoding,
// RFC 9110 12.5.3), for the text answers that shrink: SVG, JSON, PDF and EPS codes and the web
// page's files. PNG and ZIP answers are compressed already and go out as they are.

package httpapi

import (
	"bytes"
	"compress/gzip"
	"net/http"
	"strconv"
	"strings"
	"sync"
)

// Response headers of compression.
const (
	headerContentEncoding = "Content-Encoding"
	headerVary            = "Vary"
)

// varyEncoding is the Vary value of every answer that may be compressed: a cache must keep
// its encodings apart (RFC 9110 12.5.5).
var varyEncoding = []string{"Accept-Encoding"}

// gzipEncoding is the Content-Encoding value of a compressed answer.
var gzipEncoding = []string{"gzip"}

// minCompressed is the smallest body worth compressing: below it, gzip's header and trailer
// (18 bytes) and the time it takes outweigh what it saves.
const minCompressed = 1024

// acceptsGzip reports whether the Accept-Encoding header values accept gzip (RFC 9110 12.5.3):
// gzip or x-gzip (12.5.3 of RFC 9110 and RFC 9112 7.2) with a q-value above 0, or * above 0
// when gzip is not named. Codings are case-insensitive; a malformed q-value counts as 0.
func acceptsGzip(values []string) bool {
	star := false
	for _, v := range values {
		for part := range strings.SplitSeq(v, ",") {
			coding, params, _ := strings.Cut(part, ";")
			coding = strings.ToLower(strings.TrimSpace(coding))
			if coding != "gzip" && coding != "x-gzip" && coding != "*" {
				continue
			}
			q := qValue(params)
			if coding == "*" {
				star = q > 0
				continue
			}
			return q > 0
		}
	}
	return star
}

// qValue returns the weight of a coding's parameters (";q=0.5"), 1 without one: RFC 9110
// 12.4.2 allows at most three decimals. A malformed weight is 0.
func qValue(params string) float64 {
	for p := range strings.SplitSeq(params, ";") {
		name, value, ok := strings.Cut(strings.TrimSpace(p), "=")
		if !ok || !strings.EqualFold(strings.TrimSpace(name), "q") {
			continue
		}
		value = strings.TrimSpace(value)
		if len(value) == 0 || len(value) > 5 || value[0] != '0' && value[0] != '1' {
			return 0
		}
		q, err := strconv.ParseFloat(value, 64)
		if err != nil || q > 1 {
			return 0
		}
		return q
	}
	return 1
}

// gzipLevel is the compression level of answers made per request: the fastest, which takes
// about a tenth of what a code costs to make and keeps most of the saving (see
// BenchmarkCompress). The page's files, compressed once, take the best.
const gzipLevel = gzip.BestSpeed

// compressor is a gzip writer and its output, reused through compressors.
type compressor struct {
	buf bytes.Buffer
	zw  *gzip.Writer
}

// compressors holds compressors between requests: a gzip writer's state is some 800 KB to make.
var compressors = sync.Pool{New: func() any {
	c := new(compressor)
	c.zw, _ = gzip.NewWriterLevel(&c.buf, gzipLevel) // the level is valid
	return c
}}

// maxPooledCompressed is the largest compressed output kept for other requests.
const maxPooledCompressed = 1 << 20

// writeCompressible writes body as the whole body of a 200 answer to r, gzip-compressed when r
// accepts gzip and body is large enough to gain from it; either way the answer says that it
// varies with Accept-Encoding. The bytes are deterministic: gzip writes no time or name.
func writeCompressible(w http.ResponseWriter, r *http.Request, body []byte) {
	h := w.Header()
	h[headerVary] = varyEncoding
	if len(body) < minCompressed || !acceptsGzip(r.Header.Values("Accept-Encoding")) {
		writeBody(w, http.StatusOK, body)
		return
	}
	c := compressors.Get().(*compressor)
	c.buf.Reset()
	c.zw.Reset(&c.buf)
	c.zw.Write(body) // a bytes.Buffer does not fail
	c.zw.Close()
	h[headerContentEncoding] = gzipEncoding
	writeBody(w, http.StatusOK, c.buf.Bytes())
	if c.buf.Cap() <= maxPooledCompressed {
		compressors.Put(c)
	}
}

// gzipped returns body compressed at the best level, for answers made once.
func gzipped(body []byte) []byte {
	var b bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&b, gzip.BestCompression) // the level is valid
	zw.Write(body)
	zw.Close()
	return b.Bytes()
}
