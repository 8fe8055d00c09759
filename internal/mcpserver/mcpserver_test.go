package mcpserver

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/bananaqr/bananaqr/api"
	"github.com/bananaqr/bananaqr/internal/buildinfo"
	"github.com/bananaqr/bananaqr/internal/generate"
	"github.com/bananaqr/bananaqr/internal/ratelimit"
)

// TestCardVersion: the server card reports the binary's version (package buildinfo), the one
// serverInfo reports. It is not openapi.json's info.version: that is the API's version, which
// changes with the contract, not with the build; the two are not compared.
func TestCardVersion(t *testing.T) {
	var card struct {
		Version string `json:"version"`
	}
	if err := json.Unmarshal(Card(""), &card); err != nil {
		t.Fatal(err)
	}
	if card.Version == "" || card.Version != buildinfo.Version() {
		t.Errorf("the card's version is %q, buildinfo.Version() %q", card.Version, buildinfo.Version())
	}
}

// TestToolDescription checks that the description states the configured limit: the text of
// old at 60, another number at another limit, none when the limit is off.
func TestToolDescription(t *testing.T) {
	if d := toolDescription(60); !strings.HasSuffix(d, "are not repeated in the answer. Codes count against the caller's 60 codes a minute.") {
		t.Errorf("at 60: %q", d)
	}
	if d := toolDescription(10); !strings.Contains(d, "the caller's 10 codes a minute.") || strings.Contains(d, "60") {
		t.Errorf("at 10: %q", d)
	}
	if d := toolDescription(0); strings.Contains(d, "codes a minute") || !strings.HasSuffix(d, "Codes are not rate-limited.") {
		t.Errorf("off: %q", d)
	}
}

// callArgs is a valid call of the tool.
func callArgs() *mcp.CallToolRequest {
	return &mcp.CallToolRequest{Params: &mcp.CallToolParamsRaw{Name: ToolName, Arguments: json.RawMessage(`{"type":"text","text":"x"}`)},
		Extra: &mcp.RequestExtra{Header: http.Header{}}}
}

// admitAll admits every call.
func admitAll(context.Context, string) (ratelimit.Decision, bool) { return ratelimit.Decision{}, true }

// TestCancelledCallNotLogged checks that a call whose context is cancelled while it waits is
// not logged as a fault, while a real fault is.
func TestCancelledCallNotLogged(t *testing.T) {
	var log bytes.Buffer
	logger := slog.New(slog.NewTextHandler(&log, nil))
	cancelled := &tool{cfg: Config{Admit: admitAll, Logger: logger,
		Code: func(ctx context.Context, _ *api.Request) (*generate.Result, error) {
			<-ctx.Done()
			return nil, ctx.Err()
		}}}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if res, err := cancelled.call(ctx, callArgs()); !errors.Is(err, context.Canceled) || res != nil {
		t.Errorf("a cancelled call: %+v, %v", res, err)
	}
	if log.Len() != 0 {
		t.Errorf("a cancelled call is logged:\n%s", log.String())
	}

	failing := &tool{cfg: Config{Admit: admitAll, Logger: logger,
		Code: func(context.Context, *api.Request) (*generate.Result, error) { return nil, errors.New("boom") }}}
	res, err := failing.call(context.Background(), callArgs())
	if err != nil || res == nil || !res.IsError {
		t.Fatalf("a failing call: %+v, %v", res, err)
	}
	if !strings.Contains(log.String(), "tool call failed") || !strings.Contains(log.String(), "level=ERROR") {
		t.Errorf("a fault is not logged:\n%s", log.String())
	}
}

// TestHandlerDefaults serves the tool with no Logger: a fault is logged to slog.Default()
// rather than panicking, and the description carries the configured limit.
func TestHandlerDefaults(t *testing.T) {
	var log bytes.Buffer
	defer slog.SetDefault(slog.Default())
	slog.SetDefault(slog.New(slog.NewTextHandler(&log, nil)))
	ts := httptest.NewServer(Handler(Config{Admit: admitAll, RateLimit: 25,
		Code: func(context.Context, *api.Request) (*generate.Result, error) { return nil, errors.New("boom") }}))
	defer ts.Close()
	client := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil)
	cs, err := client.Connect(context.Background(), &mcp.StreamableClientTransport{
		Endpoint: ts.URL, DisableStandaloneSSE: true, MaxRetries: -1}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	list, err := cs.ListTools(context.Background(), nil)
	if err != nil || len(list.Tools) != 1 || !strings.Contains(list.Tools[0].Description, "the caller's 25 codes a minute.") {
		t.Fatalf("tools %+v, %v", list, err)
	}
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: ToolName, Arguments: map[string]any{"type": "text", "text": "x"}})
	if err != nil || !res.IsError {
		t.Fatalf("call: %+v, %v", res, err)
	}
	if !strings.Contains(log.String(), "tool call failed") {
		t.Errorf("the fault is not in the default log:\n%s", log.String())
	}
}
