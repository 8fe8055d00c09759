package api

import (
	"errors"
	"testing"

	"github.com/bananaqr/bananaqr/payload"
)

// build reads a GET query string and builds its payload.
func build(query string) (payload.Payload, error) {
	r, err := FromQuery(query, RouteQRCode)
	if err != nil {
		return payload.Payload{}, err
	}
	return payload.Build(&r.Payload)
}

// TestQueryDataTypedURL: GET data with type=url must be a URL by the URL rule, or it is refused
// as INVALID_URL on data; without a type, the same data is raw text and taken as it is.
func TestQueryDataTypedURL(t *testing.T) {
	for _, q := range []string{"type=url&data=javascript:alert(1)", "type=url&data=JavaScript%3Aalert(1)",
		"type=url&data=https://bank.example@evil.example/", "type=url&data=https://1.2.3.4.5/"} {
		_, err := build(q)
		var e *payload.Error
		if !errors.As(err, &e) || e.Code != payload.CodeInvalidURL || e.Field != "data" {
			t.Errorf("%s: %v; want INVALID_URL on data", q, err)
		}
	}
	for q, want := range map[string]payload.Type{
		"type=url&data=https://example.com/a": payload.URL,
		"data=javascript:alert(1)":            payload.Text,
		"type=text&data=javascript:alert(1)":  payload.Text,
	} {
		p, err := build(q)
		if err != nil || p.Type != want || p.Private {
			t.Errorf("%s: %s, private %v, %v; want %s", q, p.Type, p.Private, err, want)
		}
	}
}

// TestQueryPrivateTypes: every private type, and only those, is refused on GET with USE_POST
// (payload.Type.Private is the one list); unknown types are INVALID_TYPE.
func TestQueryPrivateTypes(t *testing.T) {
	for _, typ := range payload.Types {
		_, err := FromQuery("type="+string(typ)+"&data=x", RouteQRCode)
		var e *Error
		if usePost := errors.As(err, &e) && e.Code == CodeUsePost; usePost != typ.Private() {
			t.Errorf("type=%s: %v", typ, err)
		}
	}
	if _, err := FromQuery("type=WIFI&data=x", RouteQRCode); ErrorOf(err).Code != payload.CodeInvalidType {
		t.Errorf("type=WIFI: %v", err)
	}
}
