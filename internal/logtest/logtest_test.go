package logtest_test

import (
	"fmt"
	"sync"
	"testing"

	"github.com/bananaqr/bananaqr/internal/logtest"
)

// TestBuffer: writes from many goroutines at once all arrive whole (run under -race), and
// WaitFor returns once a later write holds the text.
func TestBuffer(t *testing.T) {
	var log logtest.Buffer
	var wg sync.WaitGroup
	for i := range 50 {
		wg.Go(func() { fmt.Fprintf(&log, "line %02d\n", i) })
	}
	wg.Wait()
	if got := len(log.String()); got != 50*len("line 00\n") {
		t.Fatalf("%d bytes, want %d", got, 50*len("line 00\n"))
	}
	go fmt.Fprint(&log, "ready\n")
	log.WaitFor(t, "ready")
}
