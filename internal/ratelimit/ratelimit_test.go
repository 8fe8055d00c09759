package ratelimit

import (
	"context"
	"sync"
	"testing"
	"time"
)

// TestMemorySlidingWindow checks the budget over a sliding minute: 60 allowed, the 61st
// refused; each request frees its place exactly a window after it was made; callers are apart.
func TestMemorySlidingWindow(t *testing.T) {
	now := time.Unix(1_000_000, 0)
	m := NewMemory(60, time.Minute, func() time.Time { return now })
	allow := func(caller string) Decision {
		d, err := m.Allow(context.Background(), caller)
		if err != nil {
			t.Fatal(err)
		}
		return d
	}
	for i := range 60 {
		d := allow("a")
		if !d.Allowed || d.Remaining != 59-i || d.Limit != 60 {
			t.Fatalf("request %d: %+v", i+1, d)
		}
		now = now.Add(500 * time.Millisecond) // 60 requests over 30 seconds
	}
	// now = start + 30s; the first request leaves the window at start + 60s.
	if d := allow("a"); d.Allowed || d.Remaining != 0 || d.Reset != 30*time.Second {
		t.Fatalf("61st: %+v", d)
	}
	if d := allow("b"); !d.Allowed || d.Remaining != 59 {
		t.Fatalf("another caller: %+v", d)
	}
	now = now.Add(30 * time.Second) // the first request is exactly a window old: out
	if d := allow("a"); !d.Allowed || d.Remaining != 0 {
		t.Fatalf("after the first left: %+v", d)
	}
	if d := allow("a"); d.Allowed {
		t.Fatalf("the second has not left yet: %+v", d)
	}
	now = now.Add(500 * time.Millisecond)
	if d := allow("a"); !d.Allowed {
		t.Fatalf("after the second left: %+v", d)
	}
	now = now.Add(2 * time.Minute)
	if d := allow("a"); !d.Allowed || d.Remaining != 59 || d.Reset != time.Minute {
		t.Fatalf("much later: %+v", d)
	}
}

// TestMemoryForgets checks that callers whose requests have left the window are dropped.
func TestMemoryForgets(t *testing.T) {
	now := time.Unix(1_000_000, 0)
	m := NewMemory(5, time.Minute, func() time.Time { return now })
	for i := range 1000 {
		m.Allow(context.Background(), "caller-"+string(rune('a'+i%26))+string(rune('a'+i/26)))
	}
	now = now.Add(2 * time.Minute)
	m.Allow(context.Background(), "late")
	if n := len(m.callers); n != 1 {
		t.Fatalf("%d callers kept, want 1", n)
	}
}

// TestMemoryConcurrent lets many goroutines share one budget: exactly the limit is allowed.
func TestMemoryConcurrent(t *testing.T) {
	m := NewMemory(100, time.Minute, nil)
	var mu sync.Mutex
	allowed := 0
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			for range 50 {
				if d, _ := m.Allow(context.Background(), "shared"); d.Allowed {
					mu.Lock()
					allowed++
					mu.Unlock()
				}
			}
		})
	}
	wg.Wait()
	if allowed != 100 {
		t.Fatalf("%d allowed, want 100", allowed)
	}
}

// TestMemoryGrowsOnDemand checks that a caller seen once holds room for a few times, not for
// the whole limit, and that the ring still grows to the limit for a caller who stays.
func TestMemoryGrowsOnDemand(t *testing.T) {
	now := time.Unix(1_000_000, 0)
	m := NewMemory(60, time.Minute, func() time.Time { return now })
	m.Allow(context.Background(), "once")
	if c := cap(m.callers["once"].times); c >= 60 {
		t.Errorf("a caller seen once holds room for %d times", c)
	}
	for i := range 61 {
		if d, _ := m.Allow(context.Background(), "stays"); d.Allowed != (i < 60) {
			t.Fatalf("request %d: %+v", i+1, d)
		}
		now = now.Add(time.Millisecond)
	}
	if n := len(m.callers["stays"].times); n != 60 {
		t.Errorf("the ring holds %d times, want 60", n)
	}
}
