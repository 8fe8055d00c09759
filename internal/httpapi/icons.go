// The service's icon, the banana mark that codes carry, at /icon.svg and /icon.png: for the
// MCP server card's icons (MCP 2025-11-25, Icon) and anyone who shows the service in a list.

package httpapi

import (
	"net/http"

	"github.com/bananaqr/bananaqr/render"
)

// iconPolicy is the icons' Content-Security-Policy: an SVG opened on its own runs nothing and
// loads nothing (the MCP spec asks consumers to take care with SVG, which can hold scripts;
// this one holds two paths).
const iconPolicy = "default-src 'none'; sandbox"

// icon returns the handler of an icon of media type contentType: cached and validated as the
// discovery documents are (an hour, an ETag answered with 304), and inert.
func icon(contentType string, body []byte) http.HandlerFunc {
	serve := discovery(contentType, body)
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Security-Policy", iconPolicy)
		serve(w, r)
	}
}

// iconSVG and iconPNG serve the mark as render.IconSVG and render.IconPNG draw it, the bytes
// that the MCP server lists as its icons' data: URIs.
var (
	iconSVG = icon("image/svg+xml", render.IconSVG())
	iconPNG = icon("image/png", render.IconPNG())
)
