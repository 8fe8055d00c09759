// Discovery: the documents that tell clients and agents what the service offers (the MCP
// server card, the AI catalog, the OpenAPI document), and /mcp, handed to the MCP edge.

package httpapi

import (
	"net/http"

	"github.com/bananaqr/bananaqr/internal/mcpserver"
)

// discovery serves a discovery document: the same bytes for everyone, cacheable for an hour,
// with an ETag.
func discovery(contentType string, body []byte) http.HandlerFunc {
	doc := newStatic(contentType, body)
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Cache-Control", "public, max-age=3600")
		doc.write(w, r)
	}
}

// mcp serves /mcp with h, the MCP SDK's handler, telling the tool in the request's context who
// calls and where the service is (the base URL empty when there is none: no link).
func (s *Server) mcp(h http.Handler) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		ctx := mcpserver.WithCaller(r.Context(), mcpserver.Caller{Key: s.caller(r), BaseURL: s.baseURL(r)})
		h.ServeHTTP(w, r.WithContext(ctx))
	}
}
