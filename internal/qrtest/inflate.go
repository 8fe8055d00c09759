package qrtest

import (
	"bytes"
	"compress/zlib"
	"io"
	"testing"
)

// Inflate decompresses a zlib stream (RFC 1950) with the standard library's compress/zlib, a
// reader written independently of bananaqr's compressor, which checks the header and the
// Adler-32 sum; any fault fails tb.
func Inflate(tb testing.TB, stream []byte) []byte {
	tb.Helper()
	r, err := zlib.NewReader(bytes.NewReader(stream))
	if err != nil {
		tb.Fatalf("zlib header: %v", err)
	}
	out, err := io.ReadAll(r)
	if err != nil {
		tb.Fatalf("inflate: %v", err)
	}
	if err := r.Close(); err != nil {
		tb.Fatalf("close: %v", err)
	}
	return out
}
