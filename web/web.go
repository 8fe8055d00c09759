// Package web holds the service's page: plain HTML, CSS and JavaScript, embedded in the binary
// and served at / with no external request of any kind.
package web

import "embed"

// Files are the page's files: index.html, style.css, app.js (and whatever else sits beside
// them), served at /<name>.
//
//go:embed index.html style.css app.js
var Files embed.FS
