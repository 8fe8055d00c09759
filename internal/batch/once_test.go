package batch

import (
	"context"
	"fmt"
	"runtime"
	"strings"
	"sync"
	"testing"

	"github.com/bananaqr/bananaqr/internal/generate"
)

// planBytes returns the bytes that Plan allocates an item, over a few runs of items, with the
// errors of the last run.
func planBytes(items []Item) (uint64, Errors) {
	var errs Errors
	Plan(items, 1) // the encoders' scratch memory and the plans of the versions, once
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	const runs = 5
	for range runs {
		_, errs = Plan(items, 1)
	}
	runtime.ReadMemStats(&after)
	return (after.TotalAlloc - before.TotalAlloc) / runs / uint64(len(items)), errs
}

// TestPlanAllocsNoSymbol checks that a batch's check encodes no symbol. Its items are version 40
// symbols (1273 bytes at level H), whose modules alone take 177²/8 bytes: Plan allocates less
// than that an item, whether the batch passes or fails (every image too small for the symbol:
// a check that encoded the symbol encoded it once more then, for the error). An allocation
// target ("Allocs": the race detector, whose pools drop memory, skips it).
func TestPlanAllocsNoSymbol(t *testing.T) {
	const n = 20
	symbol := uint64(177 * 177 / 8) // a version 40 symbol's modules, one bit each
	body := `{"type":"text","text":"` + strings.Repeat("x", 1273) + `","ecc":"H","size":%d,"margin":0}`
	items, small := make([]Item, n), make([]Item, n)
	for i := range items {
		items[i].Request = request(t, fmt.Sprintf(body, 2048))
		small[i].Request = request(t, fmt.Sprintf(body, 128))
	}
	if b, errs := planBytes(small); len(errs) != n || errs[0].Err.Field != "size" {
		t.Fatalf("a batch too large for its images: %d errors, the first %v", len(errs), errs[0].Err)
	} else if b >= symbol {
		t.Errorf("checking a failing batch allocates %d bytes an item, a symbol's modules (%d) or more: it encodes", b, symbol)
	}
	b, errs := planBytes(items)
	if errs != nil {
		t.Fatal(errs)
	}
	t.Logf("Plan allocates %d bytes an item; a symbol's modules take %d", b, symbol)
	if b >= symbol {
		t.Errorf("checking a batch allocates %d bytes an item, a symbol's modules (%d) or more: it encodes", b, symbol)
	}
}

// TestMakeOnce checks that Make makes each entry's code once, from the entry Plan checked.
func TestMakeOnce(t *testing.T) {
	items, _ := goodItems(t, 30)
	entries, errs := Plan(items, 2)
	if errs != nil {
		t.Fatal(errs)
	}
	index := map[*generate.Prepared]int{}
	for i := range entries {
		index[&entries[i].Prepared] = i
	}
	var mu sync.Mutex
	made := make([]int, len(entries))
	counting := func(ctx context.Context, c *generate.Prepared, use func(*generate.Result) error) error {
		i, ok := index[c]
		if !ok {
			t.Errorf("a code made of a request that is not an entry's")
			return nil
		}
		mu.Lock()
		made[i]++
		mu.Unlock()
		return Local(ctx, c, use)
	}
	err := Make(context.Background(), entries, 3, counting, CopyImage, func(i int, e *Entry, image []byte) error {
		if len(image) == 0 {
			t.Errorf("entry %d: no image", i)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for i, m := range made {
		if m != 1 {
			t.Errorf("entry %d made %d times", i, m)
		}
	}
}
