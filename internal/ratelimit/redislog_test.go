package ratelimit

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"strings"
	"testing"

	"github.com/redis/go-redis/v9"
)

// TestLogRedisTo: with Redis refusing connections, go-redis's message about the dial comes
// through the slog logger as one JSON line at WARN, and nothing else is written there.
func TestLogRedisTo(t *testing.T) {
	var log bytes.Buffer
	LogRedisTo(slog.New(slog.NewJSONHandler(&log, nil)))
	t.Cleanup(func() { LogRedisTo(slog.New(slog.DiscardHandler)) })
	c := redis.NewClient(&redis.Options{Addr: "127.0.0.1:1", MaxRetries: -1}) // port 1: refused
	defer c.Close()
	if err := c.Ping(context.Background()).Err(); err == nil {
		t.Fatal("a Redis on port 1 answered")
	}
	var dial bool
	for line := range strings.Lines(log.String()) {
		var e struct{ Level, Msg, Component string }
		if err := json.Unmarshal([]byte(line), &e); err != nil {
			t.Fatalf("not JSON: %q", line)
		}
		if e.Level != "WARN" || e.Component != "go-redis" || strings.HasPrefix(e.Msg, "redis: ") {
			t.Errorf("line %s", line)
		}
		dial = dial || strings.Contains(e.Msg, "failed to dial")
	}
	if !dial {
		t.Errorf("no message about the dial:\n%s", log.String())
	}
}
