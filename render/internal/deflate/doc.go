// Package deflate is the compressor behind render.AppendPNG: it writes a zlib stream (RFC 1950)
// holding a DEFLATE stream (RFC 1951), made for the scanlines of scaled-up QR Codes (Writer). It
// is not compress/zlib, nor compress/flate: it knows its input is rows of one length. It knows
// nothing of PNG: package render adapts a Writer, in one place, to the narrow interface its PNG
// writer declares.
//
// Scaled-up QR Codes come in runs of identical rows, and a new row differs from the one above in
// few places. So the caller hands the compressor rows of one fixed length, each either a new
// ("distinct") row, which is matched against a window of earlier distinct rows, or repeats of
// the previous row, which become a copy of it without a look at their bytes: one long match at
// the row's distance (or at distance 1 for a row of one byte), cut into tokens of 258 bytes.
//
// The window holds the distinct rows only, in order (the "content"). A decoder sees the
// uncompressed stream (the "stream"), where each distinct row may be followed by copies of
// itself. Content and stream agree from the last copy of a row to the end of the next row, so
// a match found in the content is a match in the stream at a distance measured from that last
// copy, as long as its source does not run past the next row.
//
// Distinct rows are parsed greedily with one byte of lazy lookahead (see matchRow): at each
// position the candidates are a run (distance 1), the row above (distance rowLen) and a few
// earlier positions with the same 8 bytes (hash chains), weighed by their estimated cost in bits
// from the block's statistics so far. A match at the same distance as the one before extends
// it, so copies flow from row to row. The tokens of a block (up to blockTokens) then get one
// dynamic Huffman code (BTYPE=10, lengths limited to 15 bits, the code lengths run-length coded
// with 16, 17 and 18), or the fixed code if that is shorter (RFC 1951 3.2.6, 3.2.7). Adler-32 is
// kept per row from two sums (see adlerSums), so that repeated rows cost O(1) and a row that
// mostly copies the row above only costs its other bytes.
//
// Rows that the caller knows as a head and a few byte strings from a table made once, on zeros,
// come through PatchRow instead (patch.go): such a row costs a token per string placed, and no
// look at its bytes. Rows of patches that recur in many streams can be compressed once, as a
// Segment of whole blocks that PutSegment copies into a stream at any bit (segment.go).
package deflate
