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
		if !errors.As(err, &e) || e.Reason != payload.ReasonInvalidURL || e.Field != "data" {
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
		if usePost := errors.As(err, &e) && e.Reason == ReasonUsePost; usePost != typ.Private() {
			t.Errorf("type=%s: %v", typ, err)
		}
	}
	if _, err := FromQuery("type=WIFI&data=x", RouteQRCode); ErrorOf(err).Reason != payload.ReasonInvalidType {
		t.Errorf("type=WIFI: %v", err)
	}
}

// TestDecodeJSONDuplicate: a property given twice is refused (INVALID_JSON naming it), as a
// repeated query parameter is: which one was meant? RFC 8259 4 leaves duplicate names to the
// reader, and readers differ (Go's encoding/json keeps the last, others the first). Names are
// compared after unescaping, so "d\u0061ta" is data.
func TestDecodeJSONDuplicate(t *testing.T) {
	for body, field := range map[string]string{
		`{"data":"a","data":"b"}`:                      "data",
		`{"data":"a","d\u0061ta":"b"}`:                 "data",
		`{"size":512,"text":"x","size":512}`:           "size",
		`{"type":"wifi","ssid":"x","ssid":"y"}`:        "ssid",
		`{"bogus":1,"bogus":2}`:                        "bogus",
		`{"text":"a","nested":{"k":1,"k":2},"text":1}`: "text",
	} {
		_, err := DecodeJSON([]byte(body))
		var e *Error
		if !errors.As(err, &e) || e.Reason != ReasonInvalidJSON || e.Field != field || e.Hint == "" {
			t.Errorf("%s: %v; want INVALID_JSON on %s", body, err, field)
		}
	}
	// Distinct names in any order are fine; names repeated inside a nested value are not the
	// request's own (a nested value is a wrong type or an unknown field anyway), so above the
	// repeated top-level "text" is what is reported. Malformed bodies stay INVALID_JSON.
	for _, body := range []string{`{"data":"a","text":"b"}`, `{"text":"a","size":512,"format":"png"}`} {
		if _, err := DecodeJSON([]byte(body)); err != nil {
			t.Errorf("%s: %v", body, err)
		}
	}
	for _, body := range []string{`{"data":"a",}`, `{"data" "a"}`, `{"data":"a"`, `{"data":"a"}x`, `{"data":"a"} {}`, `null`, `[]`, `"x"`, `{`, `{,}`} {
		_, err := DecodeJSON([]byte(body))
		if e := ErrorOf(err); err == nil || e.Reason != ReasonInvalidJSON {
			t.Errorf("%s: %v; want INVALID_JSON", body, err)
		}
	}
}
