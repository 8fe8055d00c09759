package render

import (
	"strconv"
	"unicode/utf16"

	"github.com/bananaqr/bananaqr/qr"
)

// PDF returns s drawn as a PDF document, as o says.
func PDF(s *qr.Symbol, o Options) ([]byte, error) { return AppendPDF(nil, s, &o) }

// AppendPDF appends s drawn as a PDF document (ISO 32000-1, PDF 1.4) to dst, as o says: one
// page, exactly as large as the code, o.Size pixels at PrintDPI (PageSide); the same drawing as
// the SVG, in vectors: the background, the dark modules as one path and the logo, in o's
// colours as DeviceRGB. The document is deterministic: no dates and no file identifier (7.5.5:
// /ID is optional without encryption); o.Title, if any, is its /Title. The content stream is
// not compressed: it is a few kilobytes of text.
func AppendPDF(dst []byte, s *qr.Symbol, o *Options) ([]byte, error) {
	l, err := prepare(s, o)
	if err != nil {
		return dst, err
	}
	start := len(dst)
	var offsets [6]int // of objects 1 to 6, from the file's first byte (7.5.4)
	object := func(n int) {
		offsets[n-1] = len(dst) - start
		dst = strconv.AppendInt(dst, int64(n), 10)
		dst = append(dst, " 0 obj\n"...)
	}
	frame := printFrameOf(&l, o)

	dst = append(dst, "%PDF-1.4\n"...) // 7.5.2; the file is 7-bit text, so no binary comment
	object(1)
	dst = append(dst, "<< /Type /Catalog /Pages 2 0 R >>\nendobj\n"...)
	object(2)
	dst = append(dst, "<< /Type /Pages /Kids [3 0 R] /Count 1 >>\nendobj\n"...)
	object(3)
	dst = append(dst, "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 "...)
	dst = appendFixed(dst, frame.side, 4)
	dst = append(dst, ' ')
	dst = appendFixed(dst, frame.side, 4)
	dst = append(dst, "] /Resources << >> /Contents 4 0 R >>\nendobj\n"...)
	object(4)
	dst = append(dst, "<< /Length 5 0 R >>\nstream\n"...) // the length follows the stream (7.3.8.2)
	content := len(dst)
	dst = appendPrintContent(dst, s, o, &l, frame)
	length := len(dst) - content
	dst = append(dst, "endstream\nendobj\n"...)
	object(5)
	dst = append(strconv.AppendInt(dst, int64(length), 10), "\nendobj\n"...)
	object(6)
	dst = append(dst, "<< /Producer (bananaqr)"...)
	if o.Title != "" {
		dst = appendTextString(append(dst, " /Title "...), o.Title)
	}
	dst = append(dst, " >>\nendobj\n"...)

	// The cross-reference table (7.5.4): entries of exactly 20 bytes, the free head first.
	xref := len(dst) - start
	dst = append(dst, "xref\n0 7\n0000000000 65535 f \n"...)
	for _, off := range offsets {
		dst = appendPadded(dst, off, 10)
		dst = append(dst, " 00000 n \n"...)
	}
	dst = append(dst, "trailer\n<< /Size 7 /Root 1 0 R /Info 6 0 R >>\nstartxref\n"...)
	dst = strconv.AppendInt(dst, int64(xref), 10)
	return append(dst, "\n%%EOF\n"...), nil
}

// appendPadded appends n ≥ 0 in decimal with leading zeros to width digits.
func appendPadded(dst []byte, n, width int) []byte {
	var digits [20]byte
	b := strconv.AppendInt(digits[:0], int64(n), 10)
	for range width - len(b) {
		dst = append(dst, '0')
	}
	return append(dst, b...)
}

// appendTextString appends s as a PDF text string (7.9.2.2): UTF-16BE with its byte order mark,
// written as a hexadecimal string, so that any text stays 7-bit and needs no escapes. Invalid
// UTF-8 becomes U+FFFD.
func appendTextString(dst []byte, s string) []byte {
	const hex = "0123456789ABCDEF"
	dst = append(dst, "<FEFF"...)
	for _, r := range s {
		var units [2]uint16
		n := 1
		if r1, r2 := utf16.EncodeRune(r); r1 != '\uFFFD' {
			units, n = [2]uint16{uint16(r1), uint16(r2)}, 2
		} else {
			units[0] = uint16(r)
		}
		for _, u := range units[:n] {
			dst = append(dst, hex[u>>12], hex[u>>8&15], hex[u>>4&15], hex[u&15])
		}
	}
	return append(dst, '>')
}
