package main

import (
	"bufio"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/bananaqr/bananaqr/api"
)

// plainTextAnswers are the requests that Go's net/http server answers itself, before any handler
// of ours runs, as plain text rather than the error object: what is sent, the status line and
// body that come back, and a word of the OpenAPI description's row that lists the case.
var plainTextAnswers = []struct {
	name, request string
	status, body  string // the status line after "HTTP/1.1 ", and the whole body
	listed        string // a word of the description's row of this case
}{
	{"a request line it cannot parse", "GARBAGE\r\n\r\n",
		"400 Bad Request", "400 Bad Request", "request line"},
	{"a control character in a header value", "GET /healthz HTTP/1.1\r\nHost: x\r\nX-Note: a\x01b\r\n\r\n",
		"400 Bad Request", "400 Bad Request", "control character"},
	{"NUL in a header value", "GET /healthz HTTP/1.1\r\nHost: x\r\nX-Note: a\x00b\r\n\r\n",
		"400 Bad Request", "400 Bad Request", "control character"},
	{"two Content-Length values", "POST /api/qr-code HTTP/1.1\r\nHost: x\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n",
		"400 Bad Request", "400 Bad Request", "Content-Length"},
	{"DEL in a header value", "GET /healthz HTTP/1.1\r\nHost: x\r\nX-Note: a\x7fb\r\n\r\n",
		"400 Bad Request", "400 Bad Request", "DEL"},
	{"a negative Content-Length", "POST /api/qr-code HTTP/1.1\r\nHost: x\r\nContent-Length: -1\r\n\r\n",
		"400 Bad Request", "400 Bad Request", "negative"},
	{"two Host headers", "GET /healthz HTTP/1.1\r\nHost: x\r\nHost: y\r\n\r\n",
		"400 Bad Request", "400 Bad Request", "two `Host`"},
	{"a header name that is no token", "GET /healthz HTTP/1.1\r\nHost: x\r\nX Note: a\r\n\r\n",
		"400 Bad Request: invalid header name", "400 Bad Request: invalid header name", "header name"},
	{"HTTP/1.1 without Host", "GET /healthz HTTP/1.1\r\n\r\n",
		"400 Bad Request: missing required Host header", "400 Bad Request: missing required Host header", "without `Host`"},
	{"a Host with a space", "GET /healthz HTTP/1.1\r\nHost: a b\r\n\r\n",
		"400 Bad Request: malformed Host header", "400 Bad Request: malformed Host header", "`Host`"},
	{"a Host with user information", "GET /healthz HTTP/1.1\r\nHost: user@example.com\r\n\r\n",
		"400 Bad Request: malformed Host header", "400 Bad Request: malformed Host header", "`Host`"},
	{"Transfer-Encoding: chunked, identity", "POST /api/qr-code HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked, identity\r\n\r\n",
		"501 Not Implemented", "Unsupported transfer encoding", "Transfer-Encoding"},
	{"Transfer-Encoding: gzip", "POST /api/qr-code HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: gzip\r\n\r\n",
		"501 Not Implemented", "Unsupported transfer encoding", "Transfer-Encoding"},
	{"HTTP/2.0 in an HTTP/1 request line", "GET /healthz HTTP/2.0\r\nHost: x\r\n\r\n",
		"505 HTTP Version Not Supported: unsupported protocol version", "505 HTTP Version Not Supported: unsupported protocol version", "HTTP/2.0"},
	{"HTTP/3.0 in an HTTP/1 request line", "GET /healthz HTTP/3.0\r\nHost: x\r\n\r\n",
		"505 HTTP Version Not Supported: unsupported protocol version", "505 HTTP Version Not Supported: unsupported protocol version", "HTTP/3.0"},
	{"an Expect other than 100-continue", "POST /api/qr-code HTTP/1.1\r\nHost: x\r\nExpect: later\r\nContent-Length: 2\r\n\r\n{}",
		"417 Expectation Failed", "", "Expect"},
	{"headers beyond 64 KiB", "GET /healthz HTTP/1.1\r\nHost: x\r\n" + strings.Repeat("X-Padding: "+strings.Repeat("a", 1000)+"\r\n", 80) + "\r\n",
		"431 Request Header Fields Too Large", "431 Request Header Fields Too Large", "64 KiB"},
}

// TestPlainTextAnswers sends each request of plainTextAnswers to the service (its own
// http.Server, as serve makes it) and checks the answer against the table, and that the OpenAPI
// description lists each case, and no other, in its table of plain-text answers, with the Go
// version that decides them: a new Go may change these answers, so a new minor version fails
// this test until the table is checked again.
func TestPlainTextAnswers(t *testing.T) {
	addr := startServer(t, hostileConfig())
	for _, c := range plainTextAnswers {
		conn, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		conn.SetDeadline(time.Now().Add(5 * time.Second))
		if _, err := io.WriteString(conn, c.request); err != nil {
			t.Fatal(err)
		}
		res, err := http.ReadResponse(bufio.NewReader(conn), nil)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		body, _ := io.ReadAll(res.Body)
		conn.Close()
		wantType := "text/plain; charset=utf-8"
		if c.body == "" {
			wantType = ""
		}
		if res.Status != c.status || string(body) != c.body || res.Header.Get("Content-Type") != wantType {
			t.Errorf("%s: %q %q %q, want %q %q %q", c.name, res.Status, res.Header.Get("Content-Type"), body, c.status, wantType, c.body)
		}
	}

	rows := plainTextRows(t)
	for _, c := range plainTextAnswers {
		body := "empty"
		if c.body != "" {
			body = "`" + c.body + "`"
		}
		found := false
		for _, row := range rows {
			found = found || strings.HasSuffix(row, " | `"+c.status+"` | "+body+" |") && strings.Contains(row, c.listed)
		}
		if !found {
			t.Errorf("%s: no row of the description's plain-text table mentions %q with `%s` | %s", c.name, c.listed, c.status, body)
		}
	}
	for _, row := range rows {
		tested := false
		for _, c := range plainTextAnswers {
			tested = tested || strings.Contains(row, " | `"+c.status+"` | ")
		}
		if !tested {
			t.Errorf("the description's row %q is not tested here", row)
		}
	}
}

// plainTextRows returns the rows of the table of plain-text answers in the OpenAPI document's
// info.description, after checking that it names the Go version the test runs with.
func plainTextRows(t *testing.T) []string {
	t.Helper()
	var doc struct {
		Info struct{ Description string } `json:"info"`
	}
	if err := json.Unmarshal(api.OpenAPI, &doc); err != nil {
		t.Fatal(err)
	}
	_, table, ok := strings.Cut(doc.Info.Description, "| what net/http refuses | status line | body |")
	if !ok {
		t.Fatal("the OpenAPI description has no table of the answers net/http gives as plain text")
	}
	minor := runtime.Version() // go1.26.8
	if i := strings.LastIndexByte(minor, '.'); strings.Count(minor, ".") == 2 {
		minor = minor[:i]
	}
	if !strings.Contains(doc.Info.Description, "Go "+strings.TrimPrefix(minor, "go")+" ") {
		t.Errorf("the description does not name Go %s, which this test runs with: check the plain-text answers again and update the table",
			strings.TrimPrefix(minor, "go"))
	}
	lines := strings.Split(table, "\n") // the header's end, the separator, the rows
	var rows []string
	for _, line := range lines[min(2, len(lines)):] {
		if !strings.HasPrefix(line, "| ") {
			break
		}
		rows = append(rows, line)
	}
	return rows
}
