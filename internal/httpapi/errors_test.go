package httpapi

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/bananaqr/bananaqr/api"
	"github.com/bananaqr/bananaqr/payload"
)

// TestErrors sends a bad request of every kind and checks the status, the code and the error
// object (and, through do, the OpenAPI document).
func TestErrors(t *testing.T) {
	ts := newTestServer(t, Config{})
	long := strings.Repeat("x", 2049)
	for _, c := range []struct {
		method, target, body, contentType string
		status                            int
		code                              api.Reason
	}{
		{"GET", "/api/qr-code", "", "", 400, payload.ReasonMissingPayload},
		{"GET", "/api/qr-code?type=wifi&ssid=x", "", "", 400, api.ReasonUsePost},
		{"GET", "/api/qr-code?type=mecard&text=x", "", "", 400, payload.ReasonInvalidType},
		{"GET", "/api/qr-code?url=a.com&text=b", "", "", 400, payload.ReasonConflictingFields},
		{"GET", "/api/qr-code?url=javascript:alert(1)", "", "", 400, payload.ReasonInvalidURL},
		{"GET", "/api/qr-code?url=", "", "", 400, api.ReasonEmptyValue},
		{"GET", "/api/qr-code?url=a.com&size=100", "", "", 400, api.ReasonInvalidValue},
		{"GET", "/api/qr-code?url=a.com&size=1024.0", "", "", 400, api.ReasonInvalidValue},
		{"GET", "/api/qr-code?url=a.com&size=abc", "", "", 400, api.ReasonInvalidValue},
		{"GET", "/api/qr-code?url=a.com&margin=17", "", "", 400, api.ReasonInvalidValue},
		{"GET", "/api/qr-code?url=a.com&format=gif", "", "", 400, api.ReasonInvalidValue},
		{"GET", "/api/qr-code?url=a.com&logo=Banana", "", "", 400, api.ReasonInvalidValue},
		{"GET", "/api/qr-code?url=a.com&corners=round", "", "", 400, api.ReasonInvalidValue},
		{"GET", "/api/qr-code?url=a.com&ecc=m", "", "", 400, api.ReasonInvalidValue},
		{"GET", "/api/qr-code?url=a.com&download=yes", "", "", 400, api.ReasonInvalidValue},
		{"GET", "/api/qr-code?url=a.com&color=12345", "", "", 400, api.ReasonInvalidColor},
		{"GET", "/api/qr-code?url=a.com&color=FFFFFF&background=000000", "", "", 400, api.ReasonLowContrast},
		{"GET", "/api/qr-code?url=a.com&color=BBBBBB", "", "", 400, api.ReasonLowContrast},
		{"GET", "/api/qr-code?url=a.com&size=1&size=2", "", "", 400, api.ReasonInvalidQuery},
		{"GET", "/api/qr-code?url=a.com&x=%zz", "", "", 400, api.ReasonInvalidQuery},
		{"GET", "/api/qr-code?text=%FF", "", "", 400, payload.ReasonInvalidText},
		{"GET", "/api/qr-code?text=a%00b", "", "", 400, payload.ReasonInvalidText},
		{"GET", "/api/qr-code/url", "", "", 400, payload.ReasonMissingField},
		{"GET", "/api/qr-code.png?text=" + long, "", "", 413, payload.ReasonPayloadTooLarge},
		{"GET", "/api/qr-code.svg?data=" + long, "", "", 413, payload.ReasonPayloadTooLarge},
		{"GET", "/api/qr-code?ecc=H&text=" + strings.Repeat("x", 1300), "", "", 422, api.ReasonNotEncodable},
		{"GET", "/api/qr-code?size=128&text=" + strings.Repeat("x", 1000), "", "", 422, api.ReasonNotEncodable},
		{"POST", "/api/qr-code", `{"type":"url"`, "application/json", 400, api.ReasonInvalidJSON},
		{"POST", "/api/qr-code", `[1]`, "application/json", 400, api.ReasonInvalidJSON},
		{"POST", "/api/qr-code", `{"text":"a"} {}`, "application/json", 400, api.ReasonInvalidJSON},
		{"POST", "/api/qr-code", "{\"text\":\"\xff\"}", "application/json", 400, api.ReasonInvalidJSON},
		{"POST", "/api/qr-code", `{"text":"a\ud800b"}`, "application/json", 400, payload.ReasonInvalidText},
		{"POST", "/api/qr-code", `{"text":"a","colour":"000000"}`, "application/json", 400, api.ReasonUnknownField},
		{"POST", "/api/qr-code", `{"text":"a","size":"1024"}`, "application/json", 400, api.ReasonWrongType},
		{"POST", "/api/qr-code", `{"text":"a","size":1024.5}`, "application/json", 400, api.ReasonWrongType},
		{"POST", "/api/qr-code", `{"type":"wifi","ssid":"x","hidden":"yes","password":"hunter22"}`, "application/json", 400, api.ReasonWrongType},
		{"POST", "/api/qr-code", `{"text":null}`, "application/json", 400, api.ReasonWrongType},
		{"POST", "/api/qr-code", `{"data":""}`, "application/json", 400, api.ReasonEmptyValue},
		{"POST", "/api/qr-code", `{"type":""}`, "application/json", 400, payload.ReasonInvalidType},
		{"POST", "/api/qr-code", `{"type":"wifi","password":"hunter22"}`, "application/json", 400, payload.ReasonMissingField},
		{"POST", "/api/qr-code", `{"type":"wifi","ssid":"x","password":"short"}`, "application/json", 400, payload.ReasonInvalidPassword},
		{"POST", "/api/qr-code", `{"type":"wifi","ssid":"x","security":"WPA","encryption":"WEP","password":"12345"}`, "application/json", 400, payload.ReasonConflictingFields},
		{"POST", "/api/qr-code", `{"type":"vcard","phone":"1"}`, "application/json", 400, payload.ReasonMissingField},
		{"POST", "/api/qr-code", `{"type":"email","to":"not-an-address"}`, "application/json", 400, payload.ReasonInvalidEmail},
		{"POST", "/api/qr-code", `{"type":"sms","phone":"123:456"}`, "application/json", 400, payload.ReasonInvalidPhone},
		{"POST", "/api/qr-code", `{"type":"text","text":"` + long + `"}`, "application/json", 413, payload.ReasonPayloadTooLarge},
		{"POST", "/api/qr-code", `{"type":"vcard","name":"A","organization":"` + strings.Repeat("o", 2040) + `"}`, "application/json", 413, payload.ReasonPayloadTooLarge},
		{"POST", "/api/qr-code", `{"text":"` + strings.Repeat("b", 70_000) + `"}`, "application/json", 413, api.ReasonBodyTooLarge},
		{"POST", "/api/qr-code", `{"text":"a"}`, "text/plain", 415, api.ReasonUnsupportedMedia},
		{"POST", "/api/qr-code", `{"text":"a"}`, "", 415, api.ReasonUnsupportedMedia},
		{"GET", "/api/qr-codes", "", "", 404, api.ReasonNotFound},
		{"GET", "/index.php", "", "", 404, api.ReasonNotFound},
		{"DELETE", "/api/qr-code", "", "", 405, api.ReasonMethodNotAllowed},
		{"POST", "/healthz", `{}`, "application/json", 405, api.ReasonMethodNotAllowed},
		{"POST", "/api/qr-code.png", `{"text":"a"}`, "application/json", 405, api.ReasonMethodNotAllowed},
	} {
		name := c.method + " " + c.target + " " + c.body
		t.Run(name[:min(len(name), 90)], func(t *testing.T) {
			header := map[string]string{}
			if c.contentType != "" || c.method == "POST" {
				header["Content-Type"] = c.contentType
			}
			target := c.target
			if strings.Contains(target, "?") {
				path, query, _ := strings.Cut(target, "?")
				target = path + "?" + escapeLong(query)
			}
			r := ts.doRaw(t, c.method, target, c.body, header)
			e := r.wantError(t, c.status, c.code)
			if c.status == 405 && r.header.Get("Allow") == "" {
				t.Error("405 without Allow")
			}
			if strings.Contains(e.Message, "hunter22") || strings.Contains(e.Hint, "hunter22") {
				t.Error("the error quotes a password")
			}
		})
	}
}

// escapeLong keeps short queries as written (they test the parser) and percent-encodes the
// values of long ones, so that the URL stays valid.
func escapeLong(query string) string {
	if len(query) < 1000 {
		return query
	}
	var parts []string
	for _, kv := range strings.Split(query, "&") {
		k, v, _ := strings.Cut(kv, "=")
		parts = append(parts, k+"="+url.QueryEscape(v))
	}
	return strings.Join(parts, "&")
}

// doRaw is do with the Content-Type exactly as given (none when empty).
func (ts *testServer) doRaw(t *testing.T, method, target, body string, header map[string]string) *result {
	t.Helper()
	ct, set := header["Content-Type"]
	delete(header, "Content-Type")
	if set && ct != "" {
		header["Content-Type"] = ct
	}
	if method == http.MethodPost && (!set || ct == "") {
		header["Content-Type"] = "" // do sets application/json for a body; take it away
	}
	return ts.do(t, method, target, body, header)
}
