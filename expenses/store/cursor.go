package store

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"strings"
	"unicode"
)

// A cursor is the sort key of the last row of a page, as opaque text: base64url of a JSON
// array. The next page starts strictly after that key, so paging while nothing changes gives
// every row exactly once, and rows added meanwhile never shift the pages.
func encodeCursor(key ...any) string {
	b, _ := json.Marshal(key)
	return base64.RawURLEncoding.EncodeToString(b)
}

// decodeCursor reads a cursor into the pointers in dst; a malformed cursor gives ErrBadCursor.
func decodeCursor(c string, dst ...any) error {
	b, err := base64.RawURLEncoding.DecodeString(c)
	if err != nil {
		return fmt.Errorf("%w: %v", ErrBadCursor, err)
	}
	var raw []json.RawMessage
	if err := json.Unmarshal(b, &raw); err != nil || len(raw) != len(dst) {
		return fmt.Errorf("%w: %q", ErrBadCursor, c)
	}
	for i, r := range raw {
		if err := json.Unmarshal(r, dst[i]); err != nil {
			return fmt.Errorf("%w: %q", ErrBadCursor, c)
		}
		// No key the store writes holds a control character, and PostgreSQL refuses NUL.
		if p, ok := dst[i].(*string); ok && strings.ContainsFunc(*p, unicode.IsControl) {
			return fmt.Errorf("%w: %q", ErrBadCursor, c)
		}
	}
	return nil
}

// clampLimit applies DefaultLimit and MaxLimit.
func clampLimit(limit int) int {
	switch {
	case limit <= 0:
		return DefaultLimit
	case limit > MaxLimit:
		return MaxLimit
	}
	return limit
}
