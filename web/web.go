// Package web holds the service's page: plain HTML, CSS and JavaScript, embedded in the binary
// and served at / with no external request of any kind.
package web

import "embed"

// Files are the page's files: index.html, style.css, app.js, and payments.html (the payment
// types' panels, which app.js loads when one is chosen), served at /<name>.
//
//go:embed index.html payments.html style.css app.js
var Files embed.FS
