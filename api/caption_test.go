package api

import (
	"errors"
	"strings"
	"testing"
)

// TestCaptionFields: caption, caption_position and show_destination are read from a JSON body
// and a query string alike, written back by EncodeJSON and Query only when they differ from the
// defaults, and refused with their codes when malformed.
func TestCaptionFields(t *testing.T) {
	body := `{"url":"https://example.com","caption":"Scan for the menu","caption_position":"above","show_destination":true}`
	fromJSON, err := DecodeJSON([]byte(body))
	if err != nil {
		t.Fatal(err)
	}
	fromQuery, err := FromQuery("url=https://example.com&caption=Scan+for+the+menu&caption_position=above&show_destination=1", RouteQRCode)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range []Request{fromJSON, fromQuery} {
		if r.Caption != "Scan for the menu" || r.CaptionPosition != CaptionAbove || !r.ShowDestination {
			t.Errorf("%+v", r)
		}
	}
	again, err := EncodeJSON(&fromJSON)
	if err != nil {
		t.Fatal(err)
	}
	if back, err := DecodeJSON(again); err != nil || back != fromJSON {
		t.Errorf("EncodeJSON and back: %s gives %+v, %v", again, back, err)
	}
	if d := NewRequest(); strings.Contains(mustEncode(t, &d), "caption") || strings.Contains(mustEncode(t, &d), "destination") {
		t.Errorf("the defaults write %s", mustEncode(t, &d))
	}

	for _, c := range []struct {
		body   string
		reason Reason
		field  string
	}{
		{`{"text":"x","caption":"` + strings.Repeat("é", MaxCaption+1) + `"}`, ReasonInvalidCaption, "caption"},
		{`{"text":"x","caption":"two\nlines"}`, ReasonInvalidCaption, "caption"},
		{`{"text":"x","caption":"a\u2028b"}`, ReasonInvalidCaption, "caption"},
		{`{"text":"x","caption":"bell\u0007"}`, ReasonInvalidCaption, "caption"},
		{`{"text":"x","caption":7}`, ReasonWrongType, "caption"},
		{`{"text":"x","caption_position":"left"}`, ReasonInvalidValue, "caption_position"},
		{`{"text":"x","show_destination":"yes"}`, ReasonWrongType, "show_destination"},
	} {
		_, err := DecodeJSON([]byte(c.body))
		var e *Error
		if !errors.As(err, &e) || e.Reason != c.reason || e.Field != c.field || e.Hint == "" {
			t.Errorf("%s: %v, want %s on %s", c.body, err, c.reason, c.field)
		}
	}
	if _, err := FromQuery("text=x&show_destination=yes", RouteQRCode); ErrorOf(err).Reason != ReasonInvalidValue {
		t.Errorf("show_destination=yes: %v", err)
	}
	if r, err := DecodeJSON([]byte(`{"text":"x","caption":"` + strings.Repeat("Ж", MaxCaption) + `"}`)); err != nil || len([]rune(r.Caption)) != MaxCaption {
		t.Errorf("a caption of %d letters: %v", MaxCaption, err)
	}
}

func mustEncode(t *testing.T, r *Request) string {
	t.Helper()
	b, err := EncodeJSON(r)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
