package accesslog

import (
	"bytes"
	"context"
	"log/slog"
	"math/rand/v2"
	"strings"
	"testing"
	"time"
)

// slogLine is the line slog's handler of format writes for e: the reference, at ERROR for a
// 5xx and INFO else, with the duration in milliseconds to the microsecond.
func slogLine(format string, e Entry) string {
	var b bytes.Buffer
	h := slog.Handler(slog.NewTextHandler(&b, nil))
	if format == "json" {
		h = slog.NewJSONHandler(&b, nil)
	}
	level := slog.LevelInfo
	if e.Status/100 == 5 {
		level = slog.LevelError
	}
	r := slog.NewRecord(e.Time, level, "request", 0)
	r.AddAttrs(slog.String("method", e.Method), slog.String("route", e.Route), slog.Int("status", e.Status),
		slog.Int("bytes", e.Bytes), slog.Float64("duration_ms", float64(e.Duration.Round(time.Microsecond))/1e6),
		slog.String("request_id", e.RequestID))
	if e.TraceID != "" {
		r.AddAttrs(slog.String("trace_id", e.TraceID))
	}
	h.Handle(context.Background(), r)
	return b.String()
}

// TestSameAsSlog: for random entries, in both formats, Log writes byte for byte the line slog's
// handler writes, on the fast path and on the slow one (methods, routes and ids that need
// escaping or quoting, zero and far times).
func TestSameAsSlog(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	methods := []string{"GET", "POST", "HEAD", "OPTIONS", "PATCH", "M&M", "GE T", "x=y", `q"`, "é", ""}
	routes := []string{"/api/qr-code.svg", "/", "(unknown)", "/.well-known/mcp.json", "/a b"}
	ids := []string{"c73cf16c42013ab5", "abc-DEF_1.2", "", "id with space", "\x00", "日本"}
	traces := []string{"", "", "4bf92f3577b34da6a3ce929d0e0e4736", "a b"}
	zones := []*time.Location{time.UTC, time.FixedZone("X", -7*3600-1800), time.FixedZone("Y", 5*3600+45*60)}
	fast := 0
	for i := range 20000 {
		e := Entry{
			Time: time.Unix(rng.Int64N(4_000_000_000), rng.Int64N(1_000_000_000)*int64(rng.IntN(2))).
				In(zones[rng.IntN(len(zones))]),
			Method: methods[rng.IntN(len(methods))], Route: routes[rng.IntN(len(routes))],
			Status: []int{200, 304, 400, 404, 429, 499, 500, 503}[rng.IntN(8)], Bytes: rng.IntN(1 << 22),
			Duration: time.Duration(rng.Int64N(int64(10 * time.Second))), RequestID: ids[rng.IntN(len(ids))],
			TraceID: traces[rng.IntN(len(traces))],
		}
		switch i % 10 {
		case 1: // under a microsecond, or just over
			e.Duration = time.Duration(rng.IntN(2000))
		case 2: // over 1000 s: the text form's exponent
			e.Duration = time.Duration(rng.Int64N(int64(100 * time.Hour)))
		}
		if i%1000 == 0 {
			e.Time = time.Time{} // slog leaves the time out
		}
		if plain(e.Method) && plain(e.Route) && plain(e.RequestID) {
			fast++
		}
		for _, format := range []string{"json", "text"} {
			var b bytes.Buffer
			New(&b, format).Write(e)
			if want := slogLine(format, e); b.String() != want {
				t.Fatalf("%s: %+v:\n got %q\nwant %q", format, e, b.String(), want)
			}
		}
	}
	if fast < 1000 {
		t.Fatalf("only %d entries took the fast path", fast)
	}
}

// TestLine: the milliseconds and the level, as a log pipeline reads them.
func TestLine(t *testing.T) {
	at := time.Date(2026, 11, 26, 12, 0, 0, 0, time.UTC)
	for _, c := range []struct {
		status int
		d      time.Duration
		json   string
		text   string
		ms     string
	}{
		{200, 1234567 * time.Nanosecond, `"level":"INFO"`, "level=INFO", `"duration_ms":1.235,`},
		{404, 400 * time.Nanosecond, `"level":"INFO"`, "level=INFO", `"duration_ms":0,`},
		{499, 2 * time.Second, `"level":"INFO"`, "level=INFO", `"duration_ms":2000,`},
		{500, 1500 * time.Microsecond, `"level":"ERROR"`, "level=ERROR", `"duration_ms":1.5,`},
		{503, 20 * time.Minute, `"level":"ERROR"`, "level=ERROR", `"duration_ms":1200000,`},
	} {
		e := Entry{Time: at, Method: "GET", Route: "/", Status: c.status, Duration: c.d, RequestID: "x"}
		var j, x bytes.Buffer
		New(&j, "json").Write(e)
		New(&x, "text").Write(e)
		if !strings.Contains(j.String(), c.json) || !strings.Contains(j.String(), c.ms) || !strings.Contains(x.String(), c.text+" ") {
			t.Errorf("%d in %v:\n%s%s", c.status, c.d, j.String(), x.String())
		}
	}
}

// TestFromLogger: a Log made from a logger writes through its handler.
func TestFromLogger(t *testing.T) {
	var b bytes.Buffer
	e := Entry{Time: time.Unix(1_700_000_000, 123), Method: "GET", Route: "/", Status: 200, Bytes: 5, Duration: time.Millisecond, RequestID: "x"}
	FromLogger(slog.New(slog.NewJSONHandler(&b, nil))).Write(e)
	if want := slogLine("json", e); b.String() != want {
		t.Fatalf("got %q, want %q", b.String(), want)
	}
}

// BenchmarkWrite: a line of each format, the fast path against slog's handler.
func BenchmarkWrite(b *testing.B) {
	e := Entry{Time: time.Now(), Method: "GET", Route: "/api/qr-code.svg", Status: 200, Bytes: 3373,
		Duration: 123456 * time.Nanosecond, RequestID: "c73cf16c42013ab5"}
	for _, format := range []string{"json", "text"} {
		b.Run(format, func(b *testing.B) {
			l := New(discard{}, format)
			b.ReportAllocs()
			for b.Loop() {
				l.Write(e)
			}
		})
		b.Run(format+"-slog", func(b *testing.B) {
			l := &Log{slow: New(discard{}, format).slow}
			b.ReportAllocs()
			for b.Loop() {
				l.Write(e)
			}
		})
	}
}

// discard is io.Discard as a distinct type, so that nothing special-cases it.
type discard struct{}

func (discard) Write(p []byte) (int, error) { return len(p), nil }
