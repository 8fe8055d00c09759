package mcphttp

import (
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// failingReader fails every read, as a body whose client stopped sending does; it counts reads.
type failingReader struct{ reads *int }

func (f failingReader) Read([]byte) (int, error) {
	*f.reads++
	return 0, errors.New("connection reset")
}

// serve sends r through Body{Limit: 16}.Handler and returns the answer and the body the next
// handler read ("" when it was not called).
func serve(r *http.Request) (*httptest.ResponseRecorder, string, bool) {
	b := &Body{Limit: 16, ErrorData: func(refusal Refusal, msg string) any {
		return map[string]any{"refusal": int(refusal), "message": msg}
	}}
	var got string
	called := false
	next := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		called = true
		if r.Body != nil {
			data, _ := io.ReadAll(r.Body)
			got = string(data)
		}
		w.WriteHeader(http.StatusTeapot)
	})
	w := httptest.NewRecorder()
	b.Handler(next).ServeHTTP(w, r)
	return w, got, called
}

// TestBody: a POST body of at most Limit bytes that is not a JSON array reaches the next
// handler unchanged; a batch (after any JSON white space), a body over Limit (declared or
// not) and an unreadable body are answered with a JSON-RPC error response of id null, code
// -32600, and the caller's data; other methods pass untouched.
func TestBody(t *testing.T) {
	for _, c := range []struct {
		name     string
		body     string
		length   int64 // Content-Length; -1 unknown
		refusal  Refusal
		contains string
	}{
		{"one message", `{"id":1}`, -1, Accepted, ""},
		{"exactly the limit", `{"id":1}        `, 16, Accepted, ""},
		{"not JSON", `hello`, -1, Accepted, ""},
		{"empty", ``, 0, Accepted, ""},
		{"batch", `[{"id":1}]`, -1, Batch, "batches are not supported since MCP 2025-06-18; send one message per request"},
		{"batch after white space", " \t\r\n[]", -1, Batch, "batches"},
		{"over the limit, declared", `{"id":1}         `, 17, TooLarge, "larger than 16 bytes"},
		{"over the limit, chunked", `{"id":1}         `, -1, TooLarge, "larger than 16 bytes"},
		{"a large batch", "[" + strings.Repeat(`{"id":1},`, 1000) + "]", -1, TooLarge, "16 bytes"},
	} {
		r := httptest.NewRequest(http.MethodPost, "/mcp", strings.NewReader(c.body))
		r.ContentLength = c.length
		w, got, called := serve(r)
		if c.refusal == Accepted {
			if !called || got != c.body || w.Code != http.StatusTeapot {
				t.Errorf("%s: called %v with %q, status %d", c.name, called, got, w.Code)
			}
			continue
		}
		var resp struct {
			JSONRPC string          `json:"jsonrpc"`
			ID      json.RawMessage `json:"id"`
			Error   struct {
				Number  int    `json:"code"`
				Message string `json:"message"`
				Data    struct {
					Refusal int    `json:"refusal"`
					Message string `json:"message"`
				} `json:"data"`
			} `json:"error"`
		}
		err := json.Unmarshal(w.Body.Bytes(), &resp)
		if called || err != nil || w.Code != c.refusal.Status() || resp.JSONRPC != "2.0" || string(resp.ID) != "null" ||
			resp.Error.Number != JSONRPCInvalidRequest || !strings.Contains(resp.Error.Message, c.contains) ||
			resp.Error.Data.Refusal != int(c.refusal) || resp.Error.Data.Message != resp.Error.Message ||
			w.Header().Get("Content-Type") != "application/json" {
			t.Errorf("%s: called %v, %d %s %v", c.name, called, w.Code, w.Body, err)
		}
	}

	// A declared length over the limit is refused without reading; an unreadable body is
	// refused after one read.
	reads := 0
	r := httptest.NewRequest(http.MethodPost, "/mcp", failingReader{&reads})
	r.ContentLength = 17
	if w, _, called := serve(r); called || w.Code != http.StatusRequestEntityTooLarge || reads != 0 {
		t.Errorf("declared 17 bytes: called %v, %d, %d reads", called, w.Code, reads)
	}
	r = httptest.NewRequest(http.MethodPost, "/mcp", failingReader{&reads})
	r.ContentLength = -1
	if w, _, called := serve(r); called || w.Code != http.StatusBadRequest || !strings.Contains(w.Body.String(), "could not be read") {
		t.Errorf("unreadable: called %v, %d %s", called, w.Code, w.Body)
	}

	// GET is not read: the next handler answers it.
	r = httptest.NewRequest(http.MethodGet, "/mcp", strings.NewReader("[]"))
	if w, got, called := serve(r); !called || got != "[]" || w.Code != http.StatusTeapot {
		t.Errorf("GET: called %v with %q, %d", called, got, w.Code)
	}
}
