package store_test

import (
	"bytes"
	"context"
	"sync"
	"testing"

	"github.com/bananaqr/bananaqr/expenses/store"
	"github.com/bananaqr/bananaqr/expenses/store/storetest"
)

// TestServerKey: a key is made once and then the same for every caller, concurrent ones and
// other connections to the same database included; keys of other names differ.
func TestServerKey(t *testing.T) {
	storetest.Engines(t, func(t *testing.T, st *store.Store) {
		ctx := context.Background()
		keys := make([][]byte, 8)
		var wg sync.WaitGroup
		for i := range keys {
			wg.Go(func() {
				k, err := st.ServerKey(ctx, "form", 32)
				if err != nil {
					t.Error(err)
				}
				keys[i] = k
			})
		}
		wg.Wait()
		for _, k := range keys {
			if len(k) != 32 || !bytes.Equal(k, keys[0]) {
				t.Fatalf("keys differ: %x %x", k, keys[0])
			}
		}
		other, err := st.ServerKey(ctx, "other", 32)
		if err != nil || bytes.Equal(other, keys[0]) {
			t.Errorf("another name: %x %v", other, err)
		}
		if _, err := st.ServerKey(ctx, "form", 16); err == nil {
			t.Error("a key asked for at another size")
		}
		if _, err := st.ServerKey(ctx, "tiny", 4); err == nil {
			t.Error("a 4-byte key")
		}
	})
}
