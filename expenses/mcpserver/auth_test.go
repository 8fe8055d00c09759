package mcpserver

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/modelcontextprotocol/go-sdk/oauthex"

	"github.com/bananaqr/bananaqr/expenses/service"
	"github.com/bananaqr/bananaqr/expenses/store"
	"github.com/bananaqr/bananaqr/expenses/store/storetest"
)

// answer is an HTTP response, read.
type answer struct {
	status int
	header http.Header
	body   []byte
}

// do sends method url with body (none when "") and the headers in pairs, and reads the answer.
func do(t *testing.T, method, url, body string, headers ...string) answer {
	t.Helper()
	var r io.Reader
	if body != "" {
		r = strings.NewReader(body)
	}
	req, err := http.NewRequest(method, url, r)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return answer{resp.StatusCode, resp.Header, b}
}

// postMCP posts a JSON-RPC body to the endpoint as MCP clients do, with authorization as the
// Authorization header (none when ""), on protocol version (2025-06-18 when "").
func (f *fixture) postMCP(t *testing.T, authorization, version, body string) answer {
	t.Helper()
	if version == "" {
		version = "2025-06-18"
	}
	h := []string{"Content-Type", "application/json", "Accept", "application/json, text/event-stream",
		"Mcp-Protocol-Version", version}
	if authorization != "" {
		h = append(h, "Authorization", authorization)
	}
	return do(t, http.MethodPost, f.url, body, h...)
}

// rpcAnswer is a JSON-RPC response as the tests read it.
type rpcAnswer struct {
	ID     json.RawMessage `json:"id"`
	Result *struct {
		IsError           bool `json:"isError"`
		StructuredContent struct {
			Name string `json:"name"`
		} `json:"structuredContent"`
		Tools []any `json:"tools"`
	} `json:"result"`
	Error *struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
		Data    struct {
			Error string `json:"error"`
			Code  string `json:"code"`
		} `json:"data"`
	} `json:"error"`
}

func decodeRPC(t *testing.T, a answer) rpcAnswer {
	t.Helper()
	var r rpcAnswer
	if err := json.Unmarshal(a.body, &r); err != nil {
		t.Fatalf("status %d, body %.300q: %v", a.status, a.body, err)
	}
	return r
}

// challenge parses the one Bearer challenge of a's WWW-Authenticate with the SDK's parser.
func challenge(t *testing.T, a answer) map[string]string {
	t.Helper()
	cs, err := oauthex.ParseWWWAuthenticate(a.header.Values("WWW-Authenticate"))
	if err != nil || len(cs) != 1 || cs[0].Scheme != "bearer" {
		t.Fatalf("WWW-Authenticate %q: %+v %v", a.header.Values("WWW-Authenticate"), cs, err)
	}
	return cs[0].Params
}

const (
	initializeBody  = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`
	listBody        = `{"jsonrpc":"2.0","id":2,"method":"tools/list","params":{}}`
	callBody        = `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"get_me","arguments":{}}}`
	unknownToolBody = `{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"no_such_tool","arguments":{}}}`
	initializedBody = `{"jsonrpc":"2.0","method":"notifications/initialized"}`
)

// TestHTTPAuth checks every kind of request against every kind of token, over HTTP: a tool
// call needs a valid token and is 401 with a Bearer challenge naming the metadata without
// one; a token sent is always checked (401 invalid_token); discovery needs none; a call of an
// unknown tool is the SDK's JSON-RPC error whatever the token.
func TestHTTPAuth(t *testing.T) {
	storetest.Engines(t, func(t *testing.T, st *store.Store) {
		f := newFixture(t, st)
		time.Sleep(time.Millisecond) // the "expired" token has
		metadataURL := f.base + "/.well-known/oauth-protected-resource/mcp"
		const (
			ok = iota
			accepted
			needToken    // 401 without an error code
			invalidToken // 401 invalid_token
			unknownTool  // 200, JSON-RPC error -32602
		)
		authorizations := []struct{ name, header string }{
			{"none", ""},
			{"valid", "Bearer " + f.tokens["Anna"]},
			{"lower-case scheme", "bearer " + f.tokens["Anna"]},
			{"unknown", "Bearer " + f.tokens["unknown"]},
			{"expired", "Bearer " + f.tokens["expired"]},
			{"another scheme", "Basic " + f.tokens["Anna"]},
			{"empty bearer", "Bearer "},
		}
		for _, c := range []struct {
			name, body string
			want       [7]int // per authorization, in order
		}{
			{"initialize", initializeBody, [7]int{ok, ok, ok, invalidToken, invalidToken, ok, ok}},
			{"tools/list", listBody, [7]int{ok, ok, ok, invalidToken, invalidToken, ok, ok}},
			{"notifications/initialized", initializedBody, [7]int{accepted, accepted, accepted, invalidToken, invalidToken, accepted, accepted}},
			{"tools/call", callBody, [7]int{needToken, ok, ok, invalidToken, invalidToken, needToken, needToken}},
			{"unknown tool", unknownToolBody, [7]int{unknownTool, unknownTool, unknownTool, unknownTool, unknownTool, unknownTool, unknownTool}},
		} {
			for i, a := range authorizations {
				got := f.postMCP(t, a.header, "", c.body)
				where := c.name + " with " + a.name + " token"
				switch c.want[i] {
				case ok:
					r := decodeRPC(t, got)
					if got.status != 200 || r.Result == nil || r.Result.IsError || got.header.Get("WWW-Authenticate") != "" {
						t.Errorf("%s: %d %.300s", where, got.status, got.body)
					}
					if c.body == callBody && r.Result != nil && r.Result.StructuredContent.Name != "Anna" {
						t.Errorf("%s: get_me %s", where, got.body)
					}
				case accepted:
					if got.status != http.StatusAccepted {
						t.Errorf("%s: %d %.300s", where, got.status, got.body)
					}
				case unknownTool:
					r := decodeRPC(t, got)
					if got.status != 200 || r.Error == nil || r.Error.Code != jsonrpc.CodeInvalidParams ||
						!strings.Contains(r.Error.Message, "unknown tool") || string(r.ID) != "4" {
						t.Errorf("%s: %d %.300s", where, got.status, got.body)
					}
				case needToken, invalidToken:
					params := challenge(t, got)
					want := map[string]string{"resource_metadata": metadataURL}
					if c.want[i] == invalidToken {
						want["error"] = "invalid_token"
						if params["error_description"] == "" {
							t.Errorf("%s: no error_description in %q", where, got.header.Get("WWW-Authenticate"))
						}
						delete(params, "error_description")
					}
					if got.status != http.StatusUnauthorized || !reflect.DeepEqual(params, want) {
						t.Errorf("%s: %d, challenge %q, want 401 and %v", where, got.status, got.header.Get("WWW-Authenticate"), want)
						continue
					}
					r := decodeRPC(t, got)
					wantID := strings.TrimSuffix(strings.TrimPrefix(c.body, `{"jsonrpc":"2.0","id":`), c.body[strings.Index(c.body, `,"method"`):])
					if c.body == initializedBody {
						wantID = "null"
					}
					if r.Error == nil || r.Error.Code != JSONRPCUnauthorized || r.Error.Data.Code != "UNAUTHORIZED" ||
						!strings.Contains(r.Error.Message, f.base+"/") || string(r.ID) != wantID ||
						got.header.Get("Content-Type") != "application/json" {
						t.Errorf("%s: body %s (want id %s)", where, got.body, wantID)
					}
				}
			}
		}

		// Without an Authorization header the GET the stateless SDK refuses stays its 405; a
		// wrong token is 401 on any method.
		if got := do(t, http.MethodGet, f.url, ""); got.status != http.StatusMethodNotAllowed {
			t.Errorf("GET without a token: %d", got.status)
		}
		if got := do(t, http.MethodGet, f.url, "", "Authorization", "Bearer "+f.tokens["unknown"]); got.status != http.StatusUnauthorized {
			t.Errorf("GET with an unknown token: %d", got.status)
		}

		// A batch (protocol 2025-03-26) is refused before any token is looked at (batch_test.go).
		batch := "[" + listBody + "," + callBody + "]"
		for _, auth := range []string{"", "Bearer " + f.tokens["Ben"]} {
			if got := f.postMCP(t, auth, "2025-03-26", batch); got.status != http.StatusBadRequest || string(decodeRPC(t, got).ID) != "null" {
				t.Errorf("batch (%q): %d %s", auth, got.status, got.body)
			}
		}
	})
}

// TestSDKClientAuth drives the server with the SDK's own client: it connects and lists tools
// without a token, gets the 401's JSON-RPC error (UNAUTHORIZED) from a tool call and the SDK's
// unknown-tool error from a call of a tool that does not exist, and finds the metadata as an
// OAuth client does, with the SDK's discovery functions (which hold the metadata's resource
// to the endpoint's URL).
func TestSDKClientAuth(t *testing.T) {
	storetest.Engines(t, func(t *testing.T, st *store.Store) {
		f := newFixture(t, st)
		ctx := context.Background()
		cs := f.session(t, "")
		if res, err := cs.ListTools(ctx, nil); err != nil || len(res.Tools) != len(ToolNames) {
			t.Fatalf("tools/list without a token: %v", err)
		}
		_, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "get_me", Arguments: map[string]any{}})
		var rpcErr *jsonrpc.Error
		if !errors.As(err, &rpcErr) || rpcErr.Code != JSONRPCUnauthorized || !strings.Contains(rpcErr.Message, "authentication required") {
			t.Fatalf("get_me without a token: %v", err)
		}
		_, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "no_such_tool", Arguments: map[string]any{}})
		if !errors.As(err, &rpcErr) || rpcErr.Code != jsonrpc.CodeInvalidParams {
			t.Fatalf("unknown tool without a token: %v", err)
		}
		if me := call[struct{ Name string }](t, f.session(t, "Ben"), "get_me", nil); me.Name != "Ben" {
			t.Fatalf("get_me with Ben's token: %+v", me)
		}

		// A client given an unknown token is refused at initialize.
		client := mcp.NewClient(&mcp.Implementation{Name: "expenses-test", Version: "1"}, nil)
		_, err = client.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: f.url,
			HTTPClient: &http.Client{Transport: bearer{f.tokens["unknown"]}}, DisableStandaloneSSE: true, MaxRetries: -1}, nil)
		if !errors.As(err, &rpcErr) || rpcErr.Code != JSONRPCUnauthorized || !strings.Contains(rpcErr.Message, "unknown token") {
			t.Fatalf("connect with an unknown token: %v", err)
		}

		// Discovery as an OAuth client does it: the challenge, then the metadata it names.
		params := challenge(t, f.postMCP(t, "", "", callBody))
		prm, err := oauthex.GetProtectedResourceMetadata(ctx, params["resource_metadata"], f.url, http.DefaultClient)
		if err != nil {
			t.Fatal(err)
		}
		want := &oauthex.ProtectedResourceMetadata{Resource: f.url, BearerMethodsSupported: []string{"header"},
			ResourceName: ResourceName, ResourceDocumentation: f.base + "/"}
		if !reflect.DeepEqual(prm, want) {
			t.Fatalf("metadata %+v, want %+v", prm, want)
		}
		docs := do(t, http.MethodGet, prm.ResourceDocumentation, "")
		for _, s := range []string{"bananaqr expenses token <name>", "Authorization: Bearer <token>", f.url, params["resource_metadata"]} {
			if docs.status != 200 || !bytes.Contains(docs.body, []byte(s)) {
				t.Errorf("documentation page (%d) does not say %q:\n%s", docs.status, s, docs.body)
			}
		}
	})
}

// TestAuthStoreDown: when the database cannot say whose a token is, the answer is 503 with a
// JSON-RPC internal error, not a 401 that would make the client drop a good token.
func TestAuthStoreDown(t *testing.T) {
	st := storetest.Open(t, storetest.SQLitePath(t))
	f := newFixture(t, st)
	st.Close()
	got := f.postMCP(t, "Bearer "+f.tokens["Anna"], "", callBody)
	if r := decodeRPC(t, got); got.status != http.StatusServiceUnavailable || r.Error == nil || r.Error.Code != -32603 ||
		r.Error.Data.Code != ReasonInternal || got.header.Get("WWW-Authenticate") != "" {
		t.Fatalf("%d %s", got.status, got.body)
	}
}

// TestToolsNeedCaller: a tool call that reaches the tools without a caller the HTTP layer
// authenticated (here over an in-memory transport, which has no HTTP layer) is UNAUTHORIZED,
// so no tool runs for a caller the gate did not check, whatever the gate reads of a body; an
// unknown tool is still the SDK's JSON-RPC error.
func TestToolsNeedCaller(t *testing.T) {
	st := storetest.Open(t, storetest.SQLitePath(t))
	svc := service.New(st, nil)
	if _, err := st.CreateUser(t.Context(), "Anna"); err != nil {
		t.Fatal(err)
	}
	serverSide, clientSide := mcp.NewInMemoryTransports()
	ss, err := NewServer(svc, Options{}).Connect(t.Context(), serverSide, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ss.Close()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "t", Version: "1"}, nil).Connect(t.Context(), clientSide, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	for _, tool := range ToolNames {
		wantError(t, cs, tool, nil, service.ReasonUnauthorized)
	}
	_, err = cs.CallTool(t.Context(), &mcp.CallToolParams{Name: "no_such_tool", Arguments: map[string]any{}})
	var rpcErr *jsonrpc.Error
	if !errors.As(err, &rpcErr) || rpcErr.Code != jsonrpc.CodeInvalidParams {
		t.Fatalf("unknown tool: %v", err)
	}
}
