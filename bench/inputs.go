// Package bench holds side-by-side benchmarks of the bananaqr encoder
// against other Go QR-code libraries. It is a separate module so that the
// competitors never enter the main module's go.mod.
//
// This file defines the benchmark inputs. It is deliberately not a _test
// file so that every benchmark family (encode, PNG, SVG, ...) shares the
// exact same texts.
package bench

import "strings"

// URL is a typical short link, as printed on flyers and packaging.
const URL = "https://example.com/products/12345?ref=newsletter"

// Mixed300 is a fixed 300-character ASCII text that mixes lowercase words,
// digit runs (order numbers, dates, amounts), UPPER-CASE alphanumeric runs
// (SKUs, department codes), punctuation and spaces. It is the kind of text
// where splitting the data into numeric, alphanumeric and byte segments
// pays: a single byte-mode segment needs 2,420 data bits (version 13 at
// level M, as every competitor here produces), while an optimal
// segmentation needs about 2,250 bits and fits version 12.
const Mixed300 = "order 20240117-0042 for acme shipped on 2024-01-17 09:30 via dock 7. " +
	"items: SKU-ABC 123 X4, SKU-XYZ 987 X12 AND PART NO 55501234 qty 3. " +
	"invoice INV-2024-000381, customer ref 8800231177, TRACKING 1Z999AA10123456784. " +
	"note: call before delivery, gate code 4417#. ATTN RECEIVING DEPT B-12; " +
	"total: 1299.50"

// Digits50 is a 50-digit number (the first 50 digits of pi), which every
// library can encode in numeric mode.
const Digits50 = "31415926535897932384626433832795028841971693993751"

// ascii2000Paragraph is the prose that ASCII2000 repeats.
const ascii2000Paragraph = "The warehouse opens at seven, when the first trucks back up " +
	"to the loading bays and the night shift hands over its clipboards. " +
	"Every parcel carries a small printed square that tells the scanners " +
	"where it came from, where it is going, and which shelf it may rest on " +
	"in between; nobody reads those squares by eye, yet the whole building " +
	"depends on them being sharp, quick to print and impossible to confuse. " +
	"By noon the racks are half empty again, the forklifts hum along the " +
	"aisles, and somebody in the office wonders aloud whether the label " +
	"printer could go any faster if the software behind it simply did less work."

// ASCII2000 is a fixed 2,000-byte ASCII prose text: ascii2000Paragraph
// repeated, separated by single spaces, and cut to exactly 2,000 bytes.
var ASCII2000 = repeatTo(ascii2000Paragraph, 2000)

// repeatTo repeats s, separated by single spaces, and truncates the result
// to exactly n bytes. s must be ASCII and non-empty.
func repeatTo(s string, n int) string {
	var b strings.Builder
	b.Grow(n + len(s) + 1)
	for b.Len() < n {
		if b.Len() > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(s)
	}
	return b.String()[:n]
}

// Input is one named benchmark input.
type Input struct {
	// Name is the sub-benchmark name, e.g. "url".
	Name string
	// Text is the data to encode.
	Text string
}

// Inputs lists the benchmark inputs in reporting order. Benchmark families
// name their sub-benchmarks <Family>/<Input.Name>/<library>.
var Inputs = []Input{
	{Name: "url", Text: URL},
	{Name: "mixed300", Text: Mixed300},
	{Name: "ascii2000", Text: ASCII2000},
	{Name: "digits50", Text: Digits50},
}
