package httpapi

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"sync"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"
	"github.com/getkin/kin-openapi/routers/legacy"

	"github.com/bananaqr/bananaqr/api"
)

// The contract: every response the tests receive is checked against the OpenAPI document, so
// that the document and the code cannot drift apart.

var contract = sync.OnceValues(func() (routers.Router, error) {
	doc, err := openapi3.NewLoader().LoadFromData(api.OpenAPI)
	if err != nil {
		return nil, err
	}
	if err := doc.Validate(context.Background()); err != nil {
		return nil, err
	}
	doc.Servers = nil // match requests to any host
	return legacy.NewRouter(doc)
})

// checkContract validates the response r to req against the document: its status must be one
// the operation documents, its headers and body must match the schemas. Unknown paths and
// methods (404, 405) and oversized headers (431) have no operation; their bodies are checked by
// errorBody.
func checkContract(t *testing.T, req *http.Request, body string, r *result) {
	t.Helper()
	router, err := contract()
	if err != nil {
		t.Fatalf("OpenAPI document: %v", err)
	}
	if r.status == http.StatusNotFound || r.status == http.StatusMethodNotAllowed || r.status == http.StatusRequestHeaderFieldsTooLarge {
		r.errorBody(t)
		return
	}
	route, params, err := router.FindRoute(req)
	if err != nil && req.Method == http.MethodOptions {
		return // CORS preflights are not operations of the document
	}
	if err != nil {
		t.Fatalf("%s %s: no operation in the OpenAPI document: %v", req.Method, req.URL.Path, err)
	}
	req.Body = io.NopCloser(bytes.NewReader([]byte(body)))
	in := &openapi3filter.ResponseValidationInput{
		RequestValidationInput: &openapi3filter.RequestValidationInput{
			Request: req, PathParams: params, Route: route,
			Options: &openapi3filter.Options{IncludeResponseStatus: true, MultiError: true},
		},
		Status:  r.status,
		Header:  r.header,
		Body:    io.NopCloser(bytes.NewReader(r.body)),
		Options: &openapi3filter.Options{IncludeResponseStatus: true, MultiError: true},
	}
	if err := openapi3filter.ValidateResponse(context.Background(), in); err != nil {
		t.Fatalf("%s %s → %d breaks the OpenAPI document: %v", req.Method, req.URL.RequestURI(), r.status, err)
	}
}
