package accesslog

import (
	"net/http"
	"net/http/httptest"
	"testing"
)

func TestRecorder(t *testing.T) {
	w := httptest.NewRecorder()
	rec := NewRecorder(w)
	if rec.Status != http.StatusOK {
		t.Fatalf("status before anything is written: %d, want 200", rec.Status)
	}
	rec.WriteHeader(http.StatusTeapot)
	rec.WriteHeader(http.StatusInternalServerError) // net/http ignores a second one; so does the log
	rec.Write([]byte("abc"))
	rec.Write([]byte("de"))
	if rec.Status != http.StatusTeapot || rec.Bytes != 5 || w.Code != http.StatusTeapot || w.Body.String() != "abcde" {
		t.Errorf("status %d, bytes %d; written %d %q", rec.Status, rec.Bytes, w.Code, w.Body.String())
	}
	if http.ResponseWriter(w) != rec.Unwrap() {
		t.Error("Unwrap does not give the writer underneath")
	}

	rec = NewRecorder(httptest.NewRecorder())
	rec.Write([]byte("x")) // an implicit 200
	rec.WriteHeader(http.StatusNotFound)
	if rec.Status != http.StatusOK {
		t.Errorf("status after an implicit 200: %d", rec.Status)
	}
}
