package main

import (
	"math"
	"runtime/debug"
	"testing"
)

// TestTuneGC: serve sets GOGC=400 and a 100 MiB soft memory limit, unless the environment sets
// either.
func TestTuneGC(t *testing.T) {
	gc, limit := debug.SetGCPercent(100), debug.SetMemoryLimit(math.MaxInt64)
	defer func() { debug.SetGCPercent(gc); debug.SetMemoryLimit(limit) }()

	tuneGC(func(string) string { return "" })
	if got := debug.SetGCPercent(100); got != serveGCPercent {
		t.Errorf("GOGC %d, want %d", got, serveGCPercent)
	}
	if got := debug.SetMemoryLimit(math.MaxInt64); got != serveMemoryLimit {
		t.Errorf("memory limit %d, want %d", got, serveMemoryLimit)
	}

	env := map[string]string{"GOGC": "50", "GOMEMLIMIT": "1GiB"}
	tuneGC(func(k string) string { return env[k] })
	if got := debug.SetGCPercent(100); got != 100 {
		t.Errorf("with GOGC set: GOGC %d, want it left at 100", got)
	}
	if got := debug.SetMemoryLimit(math.MaxInt64); got != math.MaxInt64 {
		t.Errorf("with GOMEMLIMIT set: memory limit %d, want it left alone", got)
	}
}
