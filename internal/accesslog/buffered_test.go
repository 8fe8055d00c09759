package accesslog

import (
	"bytes"
	"strings"
	"sync"
	"testing"
	"time"
)

// lockedBuffer is a bytes.Buffer that may be written and read at the same time.
type lockedBuffer struct {
	mu     sync.Mutex
	b      bytes.Buffer
	writes int
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.writes++
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// TestBuffered: lines are held, not written one by one; Close writes them out in one write;
// a full buffer is written without waiting.
func TestBuffered(t *testing.T) {
	out := &lockedBuffer{}
	b := NewBuffered(out, time.Hour)
	for range 100 {
		b.Write([]byte("line\n"))
	}
	if out.String() != "" {
		t.Fatal("written before the tick or Close")
	}
	b.Close()
	if got := out.String(); got != strings.Repeat("line\n", 100) || out.writes != 1 {
		t.Fatalf("after Close: %d bytes in %d writes, want 500 in 1", len(got), out.writes)
	}

	full := &lockedBuffer{}
	b = NewBuffered(full, time.Hour)
	defer b.Close()
	b.Write(make([]byte, 64<<10+1))
	if len(full.String()) < 64<<10 {
		t.Fatalf("a full buffer: %d bytes written", len(full.String()))
	}
}

// TestBufferedTick: what is held is written on the tick, without Close.
func TestBufferedTick(t *testing.T) {
	out := &lockedBuffer{}
	b := NewBuffered(out, 10*time.Millisecond)
	defer b.Close()
	b.Write([]byte("line\n"))
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(5 * time.Millisecond) {
		if out.String() == "line\n" {
			return
		}
	}
	t.Fatalf("after 5 s of ticks: %q", out.String())
}
