package render

import "sync"

// A boundedCache keeps values made on demand, up to a total cost (bytes, roughly): values that
// do not fit any more are still made and returned, just not kept, so that requests cycling
// through many keys cannot grow memory without bound. Values are shared: callers must not
// modify them. Safe for concurrent use.
type boundedCache[K comparable, V any] struct {
	mu   sync.Mutex
	m    map[K]V
	cost int // of the values in m
	max  int
}

// get returns the value of key, made by build (which also returns its cost) if not kept yet.
// Goroutines that build the same key at once all get the value kept first.
func (c *boundedCache[K, V]) get(key K, build func(K) (V, int)) V {
	c.mu.Lock()
	v, ok := c.m[key]
	c.mu.Unlock()
	if ok {
		return v
	}
	v, cost := build(key)
	c.mu.Lock()
	defer c.mu.Unlock()
	if old, ok := c.m[key]; ok {
		return old
	}
	if c.cost+cost <= c.max {
		if c.m == nil {
			c.m = make(map[K]V)
		}
		c.m[key] = v
		c.cost += cost
	}
	return v
}
