package ratelimit

import (
	"context"
	"fmt"
	"os"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// TestMemoryGCRA checks the budget: 60 at once, the 61st refused; then one a second comes back
// (a minute over 60), exactly on time; the whole budget after a quiet minute; callers apart;
// Remaining and Reset as the RateLimit headers say them.
func TestMemoryGCRA(t *testing.T) {
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
		if d := allow("a"); !d.Allowed || d.Remaining != 59-i || d.Limit != 60 || d.Reset != time.Duration(i+1)*time.Second {
			t.Fatalf("request %d: %+v", i+1, d)
		}
	}
	if d := allow("a"); d.Allowed || d.Remaining != 0 || d.Reset != time.Minute {
		t.Fatalf("61st: %+v", d)
	}
	if d := allow("b"); !d.Allowed || d.Remaining != 59 {
		t.Fatalf("another caller: %+v", d)
	}
	now = now.Add(time.Second - time.Nanosecond)
	if d := allow("a"); d.Allowed {
		t.Fatalf("a nanosecond before the next place: %+v", d)
	}
	now = now.Add(time.Nanosecond)
	if d := allow("a"); !d.Allowed || d.Remaining != 0 {
		t.Fatalf("a second later: %+v", d)
	}
	if d := allow("a"); d.Allowed {
		t.Fatalf("one place a second: %+v", d)
	}
	now = now.Add(2 * time.Minute)
	if d := allow("a"); !d.Allowed || d.Remaining != 59 || d.Reset != time.Second {
		t.Fatalf("much later: %+v", d)
	}
}

// TestMemoryForgets checks that callers whose budget is whole again are dropped.
func TestMemoryForgets(t *testing.T) {
	now := time.Unix(1_000_000, 0)
	m := NewMemory(5, time.Minute, func() time.Time { return now })
	for i := range 1000 {
		m.Allow(context.Background(), "caller-"+strconv.Itoa(i))
	}
	now = now.Add(2 * time.Minute)
	m.Allow(context.Background(), "late")
	if n := len(m.tat); n != 1 {
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

// TestMemoryLargeBudget: a budget of 100,000,000 a minute costs a caller no more than 60 do.
func TestMemoryLargeBudget(t *testing.T) {
	now := time.Unix(1_000_000, 0)
	m := NewMemory(100_000_000, time.Minute, func() time.Time { return now })
	for i := range 100_000 {
		if d, _ := m.Allow(context.Background(), "busy"); !d.Allowed || d.Remaining != 100_000_000-1-i {
			t.Fatalf("request %d: %+v", i+1, d)
		}
	}
	if len(m.tat) != 1 {
		t.Fatalf("%d entries", len(m.tat))
	}
}

// TestMemoryMillionCallers: a million distinct callers in one minute, each making a code, with
// one heavy caller in the middle of them. Its limit stays exact (60, then refused, still refused
// after the million), the table stays within its bound, evicting light callers first, and the
// process's memory stays under 150 MB.
func TestMemoryMillionCallers(t *testing.T) {
	if testing.Short() {
		t.Skip("a million callers")
	}
	now := time.Unix(1_000_000, 0)
	m := NewMemory(60, time.Minute, func() time.Time { return now })
	ctx := context.Background()
	const n = 1_000_000
	for i := range n + 100_000 { // 100,000 more than the table holds
		if i == n/2 {
			for j := range 61 {
				if d, _ := m.Allow(ctx, "heavy"); d.Allowed != (j < 60) {
					t.Fatalf("the heavy caller's request %d: %+v", j+1, d)
				}
			}
		}
		if d, _ := m.Allow(ctx, "2001:db8:"+strconv.FormatInt(int64(i), 16)+"::/64"); !d.Allowed {
			t.Fatalf("caller %d refused: %+v", i, d)
		}
		if i%1000 == 0 {
			now = now.Add(time.Millisecond) // the million within about 1.1 seconds
		}
	}
	if d, _ := m.Allow(ctx, "heavy"); d.Allowed {
		t.Fatalf("the heavy caller after the million: %+v", d)
	}
	if len(m.tat) > DefaultMaxCallers {
		t.Fatalf("%d callers remembered, more than %d", len(m.tat), DefaultMaxCallers)
	}
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	rss := vmRSS(t)
	t.Logf("%d callers remembered; heap in use %.1f MB, RSS %.1f MB", len(m.tat), float64(ms.HeapInuse)/(1<<20), float64(rss)/(1<<20))
	if ms.HeapInuse > 100<<20 {
		t.Errorf("heap in use %d MB", ms.HeapInuse>>20)
	}
	if rss > 150<<20 && !raceDetector {
		t.Errorf("RSS %d MB", rss>>20)
	}
}

// vmRSS returns this process's resident set size, from /proc/self/status.
func vmRSS(t *testing.T) int64 {
	status, err := os.ReadFile("/proc/self/status")
	if err != nil {
		t.Skip("no /proc/self/status")
	}
	for line := range strings.Lines(string(status)) {
		if kb, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			var n int64
			fmt.Sscan(kb, &n)
			return n << 10
		}
	}
	t.Fatal("no VmRSS")
	return 0
}
