package generate

import (
	"testing"

	"github.com/bananaqr/bananaqr/api"
	"github.com/bananaqr/bananaqr/payload"
)

// TestWordsRules: show_destination is for public url codes only, and a swissqr code takes no
// caption; each refusal is INVALID_VALUE naming its field.
func TestWordsRules(t *testing.T) {
	for _, c := range []struct {
		name  string
		set   func(r *api.Request)
		field string // "" when the request is accepted
	}{
		{"url", func(r *api.Request) { r.Payload = payload.Request{URL: "example.com/menu"}; r.ShowDestination = true }, ""},
		{"url as data", func(r *api.Request) {
			r.Payload = payload.Request{Data: "https://example.com/menu"}
			r.ShowDestination = true
		}, ""},
		{"text", func(r *api.Request) { r.Payload = payload.Request{Text: "hello"}; r.ShowDestination = true }, "show_destination"},
		{"private link", func(r *api.Request) {
			r.Payload = payload.Request{Data: "https://anna:secret@example.com/"}
			r.ShowDestination = true
		}, "show_destination"},
		{"messaging link", func(r *api.Request) { // a url, private: it holds a phone number
			r.Payload = payload.Request{Data: "https://wa.me/15551234567"}
			r.ShowDestination = true
		}, "show_destination"},
		{"wifi", func(r *api.Request) {
			r.Payload = payload.Request{Type: payload.WiFi, SSID: "Cafe", Password: "hunter22"}
			r.ShowDestination = true
		}, "show_destination"},
		{"swissqr caption", func(r *api.Request) {
			r.Payload = payload.Request{Type: payload.SwissQR, Data: swissSample}
			r.Caption = "Pay me"
		}, "caption"},
		{"epc caption", func(r *api.Request) {
			r.Payload = payload.Request{Type: payload.EPC, Name: "Anna", IBAN: "DE89370400440532013000"}
			r.Caption = "Pay me"
		}, ""},
	} {
		r := api.NewRequest()
		c.set(&r)
		_, err := Prepare(&r)
		switch e := api.ErrorOf(err); {
		case c.field == "" && err != nil:
			t.Errorf("%s: %v", c.name, err)
		case c.field != "" && (e == nil || e.Reason != api.ReasonInvalidValue || e.Field != c.field || e.Hint == ""):
			t.Errorf("%s: %v, want INVALID_VALUE on %s", c.name, err, c.field)
		}
	}
}
