// Package logtest holds the log of a server under test: a buffer that the server's goroutines
// write to while the test reads it. It is imported by tests only.
package logtest

import (
	"bytes"
	"strings"
	"sync"
	"testing"
	"time"
)

// Buffer is a log that may be written and read at the same time. Its zero value is empty and
// ready to use.
type Buffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

// Write appends p to the log.
func (b *Buffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.Write(p)
}

// String returns what the log holds.
func (b *Buffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.String()
}

// WaitFor waits, for at most 5 s, until the log holds text, and fails t if it never does.
func (b *Buffer) WaitFor(t testing.TB, text string) {
	t.Helper()
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(5 * time.Millisecond) {
		if strings.Contains(b.String(), text) {
			return
		}
	}
	t.Fatalf("after 5 s the log holds no %q: %s", text, b.String())
}
