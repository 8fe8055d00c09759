// Package mcphttp is what both MCP endpoints (bananaqr serve's /mcp and bananaqr expenses')
// do with a POST body before the MCP SDK, or any authentication, sees it: read it within a
// bound, refuse a JSON-RPC batch, and answer each refusal with a JSON-RPC 2.0 error response
// whose data is the server's own error object, instead of the SDK's plain text.
//
// Batches. JSON-RPC 2.0 (section 6) lets a client send an array of messages in one request,
// and MCP 2025-03-26 allowed it over HTTP; MCP 2025-06-18 removed it ("Remove support for
// JSON-RPC batching", changelog). The SDK refuses a batch only when the request's
// Mcp-Protocol-Version header says 2025-06-18 or later, and otherwise serves every message of
// it and holds every answer until the last is made: one request of 830 KB made 15,000 answers
// and 2 GB. A body whose JSON value is an array is refused here whatever the header, after
// reading at most the bound and before the messages are decoded, so one request is one message
// and its work and answer are bounded like any other's.
//
// Oversized bodies. The SDK's own bound (http.MaxBytesReader) answers 413 in plain text; a body
// over the bound is refused here first, from its Content-Length when it declares one, so the
// SDK's bound is never what answers.
package mcphttp

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
)

// JSON-RPC 2.0 error codes (section 5.1) of the refusals.
const (
	// JSONRPCInvalidRequest is "Invalid Request": the JSON sent is not a valid Request object;
	// a batch, which the server does not take, and a body it cannot read.
	JSONRPCInvalidRequest = -32600
)

// Refusal is why Read refused a body, or Accepted.
type Refusal int

// The refusals.
const (
	// Accepted: the body is read and given back to the next handler.
	Accepted Refusal = iota
	// Batch: the body's JSON value is an array, a JSON-RPC batch (HTTP 400).
	Batch
	// TooLarge: the body is larger than the bound (HTTP 413).
	TooLarge
	// Unreadable: the body could not be read to its end, such as when the client stopped
	// sending it (HTTP 400).
	Unreadable
)

// Status returns the HTTP status of the refusal: 400 Bad Request, or 413 Content Too Large
// (RFC 9110 15.5.14) for TooLarge.
func (f Refusal) Status() int {
	if f == TooLarge {
		return http.StatusRequestEntityTooLarge
	}
	return http.StatusBadRequest
}

// Body reads the POST bodies of an MCP endpoint.
type Body struct {
	// Limit is the largest body, in bytes, that is read and given to the next handler.
	Limit int64
	// ErrorData returns the server's own error object, which a refusal's JSON-RPC error
	// carries as its data: its code for the refusal and message, the JSON-RPC error's message.
	ErrorData func(refusal Refusal, message string) any
}

// Message returns what the JSON-RPC error of refusal says: what is wrong, then what to do.
func (b *Body) Message(refusal Refusal) string {
	switch refusal {
	case Batch:
		return "JSON-RPC batches are not supported since MCP 2025-06-18; send one message per request"
	case TooLarge:
		return fmt.Sprintf("the request body is larger than %d bytes; send one message of at most %d bytes", b.Limit, b.Limit)
	default:
		return "the request body could not be read; send the whole message"
	}
}

// Read returns the body of r, a POST, and gives the same bytes back to the next handler as
// r.Body; for any other method it reads nothing and returns nil, Accepted. A body that is a
// batch, larger than b.Limit or unreadable is answered on w with a JSON-RPC error response
// (WriteError) and Read returns why.
func (b *Body) Read(w http.ResponseWriter, r *http.Request) ([]byte, Refusal) {
	if r.Method != http.MethodPost || r.Body == nil {
		return nil, Accepted
	}
	data, refusal := b.read(w, r)
	if refusal == Accepted && isBatch(data) {
		refusal = Batch
	}
	if refusal != Accepted {
		msg := b.Message(refusal)
		WriteError(w, refusal.Status(), nil, JSONRPCInvalidRequest, msg, b.ErrorData(refusal, msg))
		return nil, refusal
	}
	r.Body = io.NopCloser(bytes.NewReader(data))
	return data, Accepted
}

// read reads r's body up to b.Limit bytes. An http.MaxBytesReader bounds it, which also tells
// the server to close the connection after the answer rather than read the rest.
func (b *Body) read(w http.ResponseWriter, r *http.Request) ([]byte, Refusal) {
	if r.ContentLength > b.Limit {
		return nil, TooLarge
	}
	data, err := io.ReadAll(http.MaxBytesReader(w, r.Body, b.Limit))
	var tooLarge *http.MaxBytesError
	switch {
	case errors.As(err, &tooLarge):
		return nil, TooLarge
	case err != nil:
		return nil, Unreadable
	}
	return data, Accepted
}

// Handler returns next behind b.Read: a POST reaches next only when its body is read and is
// not a batch.
func (b *Body) Handler(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if _, refusal := b.Read(w, r); refusal == Accepted {
			next.ServeHTTP(w, r)
		}
	})
}

// isBatch reports whether data's JSON value is an array: whether its first character after
// JSON's white space (RFC 8259 section 2: space, tab, line feed, carriage return) is "[". The
// rest is not read: an array is refused whatever it holds, and a value that is not valid JSON
// is the SDK's to answer.
func isBatch(data []byte) bool {
	data = bytes.TrimLeft(data, " \t\n\r")
	return len(data) > 0 && data[0] == '['
}

// errorResponse is a JSON-RPC 2.0 error response (section 5).
type errorResponse struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Error   errorObject     `json:"error"`
}

// errorObject is a JSON-RPC 2.0 error object (section 5.1).
type errorObject struct {
	Number  int    `json:"code"`
	Message string `json:"message"`
	Data    any    `json:"data"`
}

// WriteError writes status with a JSON-RPC 2.0 error response (section 5) to the message whose
// id is id (null when id is empty: a body that was not read as one message, section 5 "If
// there was an error in detecting the id"), with code, message and data.
func WriteError(w http.ResponseWriter, status int, id json.RawMessage, code int, message string, data any) {
	if len(id) == 0 {
		id = json.RawMessage("null")
	}
	var out bytes.Buffer
	enc := json.NewEncoder(&out)
	enc.SetEscapeHTML(false) // "<token>", not "\u003ctoken\u003e"
	enc.Encode(errorResponse{JSONRPC: "2.0", ID: id, Error: errorObject{code, message, data}})
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	w.Write(out.Bytes())
}
