package api

import (
	"image/color"
	"reflect"
	"testing"

	"github.com/bananaqr/bananaqr/payload"
)

// TestEncodeJSONZeroValue: a Request that sets only its payload asks for the service's
// defaults (its zero Size, Margin, colours and Format are unset, not values), while a Request
// with a Size keeps a Margin of 0. Before, the zero Request was sent as size 0, margin 0 and
// black on black, which the service refuses.
func TestEncodeJSONZeroValue(t *testing.T) {
	r := Request{Payload: payload.Request{Text: "hello"}}
	body, err := EncodeJSON(&r)
	if err != nil || string(body) != `{"text":"hello"}` {
		t.Fatalf("a Request with only its payload encodes as %s, %v; want {\"text\":\"hello\"}", body, err)
	}
	back, err := DecodeJSON(body)
	want := NewRequest()
	want.Payload = r.Payload
	if err != nil || !reflect.DeepEqual(back, want) {
		t.Errorf("which the service reads as %+v, %v; want NewRequest's defaults", back, err)
	}
	if body, err := EncodeJSON(&Request{}); err != nil || string(body) != `{}` {
		t.Errorf("the zero Request encodes as %s, %v; want {}", body, err)
	}

	r = Request{Payload: payload.Request{Text: "hello"}, Size: 512, Color: color.RGBA{0, 0, 0, 0xff}}
	body, err = EncodeJSON(&r)
	if want := `{"color":"000000","margin":0,"size":512,"text":"hello"}`; err != nil || string(body) != want {
		t.Errorf("a Request with a Size encodes as %s, %v; want %s", body, err, want)
	}
}
