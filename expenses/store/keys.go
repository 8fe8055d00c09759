package store

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
)

// ServerKey returns the key of that name, of size random bytes, made by the first call of any
// replica and the same for every later one: inserted if missing (a concurrent insert of another
// value loses), then read.
func (s *Store) ServerKey(ctx context.Context, name string, size int) ([]byte, error) {
	if size < 16 || size > 1024 {
		return nil, fmt.Errorf("store: server key of %d bytes", size)
	}
	fresh := make([]byte, size)
	rand.Read(fresh)
	var value string
	err := s.write(ctx, func(t tx) error {
		if _, err := t.exec(ctx, `INSERT INTO server_keys (name, value) VALUES (?, ?) ON CONFLICT (name) DO NOTHING`,
			name, hex.EncodeToString(fresh)); err != nil {
			return err
		}
		return t.queryRow(ctx, `SELECT value FROM server_keys WHERE name = ?`, name).Scan(&value)
	})
	if err != nil {
		return nil, wrap(err, "server key %q", name)
	}
	key, err := hex.DecodeString(value)
	if err != nil || len(key) != size {
		return nil, fmt.Errorf("store: server key %q is not %d bytes of hex", name, size)
	}
	return key, nil
}
