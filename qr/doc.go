// Package qr encodes text as a QR Code symbol, following ISO/IEC 18004:2015.
//
// The encoder supports every version (1 to 40) and error correction level (L, M, Q, H). It
// splits the text into the shortest mix of numeric, alphanumeric and byte segments (7.4.2 to
// 7.4.5, 7.4.7), marks non-ASCII text as UTF-8 with an ECI designator (7.4.2.2, ECI 000026;
// Options.NoECI leaves it out for formats that name their character set themselves),
// computes Reed–Solomon error correction (7.5), places the codewords (7.7), scores all eight
// data masks with the four penalty rules of 7.8.3 and keeps the best, and draws the format and
// version information (7.9, 7.10). Micro QR and Kanji mode are not produced.
//
// The work that does not depend on the text — the function patterns, the placement order of the
// data modules and the eight mask patterns of each version — is computed once per version and
// shared, so an encode only fills in data. The same text and options always give the same
// symbol.
package qr
