package accesslog

import (
	"bufio"
	"io"
	"sync"
	"time"
)

// Buffered holds log lines and writes them out every interval, or when 64 KiB have gathered,
// so that an access log line does not cost each request a system call. It is safe for
// concurrent use; Close writes what is left.
type Buffered struct {
	mu   sync.Mutex
	w    *bufio.Writer
	stop chan struct{}
	done chan struct{}
}

// NewBuffered returns a Buffered that writes to w every interval.
func NewBuffered(w io.Writer, interval time.Duration) *Buffered {
	b := &Buffered{w: bufio.NewWriterSize(w, 64<<10), stop: make(chan struct{}), done: make(chan struct{})}
	go func() {
		defer close(b.done)
		t := time.NewTicker(interval)
		defer t.Stop()
		for {
			select {
			case <-t.C:
				b.flush()
			case <-b.stop:
				b.flush()
				return
			}
		}
	}()
	return b
}

// Write holds p until the next interval, or writes out what is held when the buffer is full.
func (b *Buffered) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.w.Write(p)
}

func (b *Buffered) flush() {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.w.Flush()
}

// Close writes the lines still held and stops the flushing.
func (b *Buffered) Close() {
	close(b.stop)
	<-b.done
}
