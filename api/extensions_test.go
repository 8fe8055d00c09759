package api

import (
	"testing"

	"github.com/bananaqr/bananaqr/payload"
)

// TestDecodeNumbers: latitude, longitude, altitude and amount take a JSON number, whose literal
// is kept as written (never through a float64), or a string; anything else is WRONG_TYPE.
func TestDecodeNumbers(t *testing.T) {
	for body, want := range map[string]payload.Request{
		`{"type":"geo","latitude":48.85820,"longitude":-0.1000000000000000055511151231257827,"altitude":1E2}`: {
			Type: payload.Geo, Latitude: "48.85820", Longitude: "-0.1000000000000000055511151231257827", Altitude: "1E2"},
		`{"type":"geo","latitude":"48.8582","longitude":" 2 "}`: {Type: payload.Geo, Latitude: "48.8582", Longitude: " 2 "},
		`{"type":"epc","amount":12.30,"iban":"DE89"}`:           {Type: payload.EPC, Amount: "12.30", IBAN: "DE89"},
		`{"type":"epc","amount":"12.30"}`:                       {Type: payload.EPC, Amount: "12.30"},
		`{"type":"epc","amount": 0 }`:                           {Type: payload.EPC, Amount: "0"},
	} {
		r, err := DecodeJSON([]byte(body))
		if err != nil || r.Payload != want {
			t.Errorf("%s: %+v, %v; want %+v", body, r.Payload, err, want)
		}
	}
	for _, body := range []string{`{"latitude":true}`, `{"amount":null}`, `{"altitude":[1]}`, `{"longitude":{"x":1}}`, `{"iban":12}`, `{"summary":1}`} {
		if _, err := DecodeJSON([]byte(body)); ErrorOf(err).Reason != ReasonWrongType {
			t.Errorf("%s: %v, want WRONG_TYPE", body, err)
		}
	}
	// The number's literal reaches the payload's checks: an exponent is refused there.
	r, _ := DecodeJSON([]byte(`{"type":"geo","latitude":4.8e1,"longitude":2}`))
	if _, err := payload.Build(&r.Payload); ErrorOf(err).Reason != payload.ReasonInvalidCoordinate {
		t.Errorf("4.8e1: %v, want INVALID_COORDINATE", err)
	}
	// EncodeJSON sends them as strings, which DecodeJSON reads back the same.
	r.Payload = payload.Request{Type: payload.EPC, Name: "Anna", IBAN: "DE89370400440532013000", Amount: "12.30", Remittance: "x",
		BIC: "COBADEFFXXX", Reference: "RF18539007547034", Latitude: "1", Longitude: "2", Altitude: "3", Summary: "s", Start: "2026-01-01",
		End: "2026-01-02", Location: "l", Description: "d"}
	body, err := EncodeJSON(&r)
	if err != nil {
		t.Fatal(err)
	}
	back, err := DecodeJSON(body)
	if err != nil || back.Payload != r.Payload {
		t.Errorf("%s read back as %+v, %v", body, back.Payload, err)
	}
}
