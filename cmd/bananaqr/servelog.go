// The service's log: its handler for --log-format, and the buffer that writes its lines out.

package main

import (
	"bufio"
	"fmt"
	"io"
	"log/slog"
	"sync"
	"time"
)

// logHandler returns the access log's handler for --log-format: text or json.
func logHandler(format string, w io.Writer) (slog.Handler, error) {
	switch format {
	case "text":
		return slog.NewTextHandler(w, nil), nil
	case "json":
		return slog.NewJSONHandler(w, nil), nil
	}
	return nil, fmt.Errorf("--log-format %q: want text or json", format)
}

// bufferedLog holds log lines and writes them out every interval, or when 64 KiB have
// gathered, so that an access log line does not cost each request a system call. Close writes
// what is left.
type bufferedLog struct {
	mu   sync.Mutex
	w    *bufio.Writer
	stop chan struct{}
	done chan struct{}
}

func newBufferedLog(w io.Writer, interval time.Duration) *bufferedLog {
	b := &bufferedLog{w: bufio.NewWriterSize(w, 64<<10), stop: make(chan struct{}), done: make(chan struct{})}
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

func (b *bufferedLog) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.w.Write(p)
}

func (b *bufferedLog) flush() {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.w.Flush()
}

// Close writes the lines still held and stops the flushing.
func (b *bufferedLog) Close() {
	close(b.stop)
	<-b.done
}
