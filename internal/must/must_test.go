package must_test

import (
	"errors"
	"testing"

	"github.com/bananaqr/bananaqr/internal/must"
)

// recorder is a test that notes Fatal instead of stopping.
type recorder struct {
	testing.TB
	fatal []any
}

func (r *recorder) Helper()           {}
func (r *recorder) Fatal(args ...any) { r.fatal = args }

// TestGet: a value passes through untouched; an error fails the test with that error.
func TestGet(t *testing.T) {
	var ok recorder
	if v := must.Get(42, nil)(&ok); v != 42 || ok.fatal != nil {
		t.Errorf("Get(42, nil) = %d, fatal %v", v, ok.fatal)
	}
	boom := errors.New("boom")
	var failed recorder
	must.Get(0, boom)(&failed)
	if len(failed.fatal) != 1 || failed.fatal[0] != boom {
		t.Errorf("Get(0, boom): fatal %v, want [boom]", failed.fatal)
	}
}
