package batch

import (
	"context"
	"fmt"
	"math/rand/v2"
	"sync"
	"testing"

	"github.com/bananaqr/bananaqr/internal/generate"
)

// TestBound holds every format and style to Bound: payloads from 1 byte to a version 40 symbol,
// square and rounded corners, with and without the logo, margins 0 and 16, the smallest and
// the largest size; the image and its compressed entry both fit.
func TestBound(t *testing.T) {
	rng := rand.New(rand.NewPCG(26, 2))
	worst := 0.0
	for _, n := range []int{1, 30, 150, 400, 800, 1250} {
		text := make([]byte, n)
		for i := range text {
			text[i] = byte('a' + rng.IntN(26))
		}
		for _, format := range Formats() {
			for _, style := range []string{`"corners":"square","logo":"none"`, `"corners":"rounded","logo":"banana"`, `"corners":"rounded","logo":"none"`} {
				for _, size := range []string{`"size":128,"margin":0`, `"size":2048,"margin":16`, `"size":2048,"margin":0`} {
					body := fmt.Sprintf(`{"type":"text","text":%q,"format":%q,"ecc":"H",%s,%s}`, text, format, style, size)
					entries, errs := Plan([]Item{{Request: request(t, body)}}, 1)
					if errs != nil {
						continue // too many modules for 128 pixels
					}
					e := &entries[0]
					err := Local(context.Background(), &e.Prepared, func(res *generate.Result) error {
						image := res.Image(e.Request.Format)
						c, err := Compress(e, image)
						if len(image) > int(Bound(e)) || len(c.Data) > int(Bound(e)) {
							t.Errorf("%d bytes, %s, %s, %s: image %d, entry %d bytes, over the bound of %d", n, format, style, size, len(image), len(c.Data), Bound(e))
						}
						worst = max(worst, float64(len(image))/float64(Bound(e)))
						return err
					})
					if err != nil {
						t.Fatal(err)
					}
				}
			}
		}
	}
	t.Logf("the largest image is %.0f %% of its bound", 100*worst)
}

// TestMakeHoldsWindow: however slow put is, Make holds at most Window(workers) codes made and
// not yet put, so that Held bounds its memory.
func TestMakeHoldsWindow(t *testing.T) {
	items, _ := goodItems(t, 40)
	entries, errs := Plan(items, 2)
	if errs != nil {
		t.Fatal(errs)
	}
	var mu sync.Mutex
	made, held := 0, 0
	counting := func(ctx context.Context, c *generate.Prepared, use func(*generate.Result) error) error {
		mu.Lock()
		made++
		mu.Unlock()
		return Local(ctx, c, use)
	}
	err := Make(context.Background(), entries, 3, counting, CopyImage, func(i int, _ *Entry, _ []byte) error {
		mu.Lock()
		held = max(held, made-i) // made, this one included, and not yet put
		mu.Unlock()
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if held > Window(3) {
		t.Errorf("%d codes held at once, over the window of %d", held, Window(3))
	}
	least, most := Bound(&entries[0]), Bound(&entries[0])
	for i := range entries {
		least, most = min(least, Bound(&entries[i])), max(most, Bound(&entries[i]))
	}
	if h, w := Held(entries, 3), int64(Window(3)); h < w*least || h > w*most {
		t.Errorf("Held %d: not %d entries of bounds %d to %d", h, w, least, most)
	}
}
