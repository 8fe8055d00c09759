// Package render draws QR Code symbols made by package qr for people and scanners to read:
// as SVG and PNG images (SVG and PNG), as PDF and EPS files for print (PDF and EPS, a page of
// Options.Size pixels at PrintDPI) and as text for terminals (Terminal).
//
// Images are exactly Options.Size pixels square. Every module is the same whole number of
// pixels, at least two; the symbol and its quiet zone are centred and the pixels left over are
// background, so a code is crisp at its native size. Dark modules can have square or rounded
// outer corners, and the service's own mark, a banana, can sit in the centre.
package render
