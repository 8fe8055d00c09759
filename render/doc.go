// Package render draws QR Code symbols made by package qr for people and scanners to read.
//
// Terminal draws a symbol as lines of text.
package render
