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
		code                              api.ErrorCode
	}{
		{"GET", "/api/qr-code", "", "", 400, payload.CodeMissingPayload},
		{"GET", "/api/qr-code?type=wifi&ssid=x", "", "", 400, api.CodeUsePost},
		{"GET", "/api/qr-code?type=mecard&text=x", "", "", 400, payload.CodeInvalidType},
		{"GET", "/api/qr-code?url=a.com&text=b", "", "", 400, payload.CodeConflictingFields},
		{"GET", "/api/qr-code?url=javascript:alert(1)", "", "", 400, payload.CodeInvalidURL},
		{"GET", "/api/qr-code?url=", "", "", 400, api.CodeEmptyValue},
		{"GET", "/api/qr-code?url=a.com&size=100", "", "", 400, api.CodeInvalidValue},
		{"GET", "/api/qr-code?url=a.com&size=1024.0", "", "", 400, api.CodeInvalidValue},
		{"GET", "/api/qr-code?url=a.com&size=abc", "", "", 400, api.CodeInvalidValue},
		{"GET", "/api/qr-code?url=a.com&margin=17", "", "", 400, api.CodeInvalidValue},
		{"GET", "/api/qr-code?url=a.com&format=gif", "", "", 400, api.CodeInvalidValue},
		{"GET", "/api/qr-code?url=a.com&logo=Banana", "", "", 400, api.CodeInvalidValue},
		{"GET", "/api/qr-code?url=a.com&corners=round", "", "", 400, api.CodeInvalidValue},
		{"GET", "/api/qr-code?url=a.com&ecc=m", "", "", 400, api.CodeInvalidValue},
		{"GET", "/api/qr-code?url=a.com&download=yes", "", "", 400, api.CodeInvalidValue},
		{"GET", "/api/qr-code?url=a.com&color=12345", "", "", 400, api.CodeInvalidColor},
		{"GET", "/api/qr-code?url=a.com&color=FFFFFF&background=000000", "", "", 400, api.CodeLowContrast},
		{"GET", "/api/qr-code?url=a.com&color=BBBBBB", "", "", 400, api.CodeLowContrast},
		{"GET", "/api/qr-code?url=a.com&size=1&size=2", "", "", 400, api.CodeInvalidQuery},
		{"GET", "/api/qr-code?url=a.com&x=%zz", "", "", 400, api.CodeInvalidQuery},
		{"GET", "/api/qr-code?text=%FF", "", "", 400, payload.CodeInvalidText},
		{"GET", "/api/qr-code?text=a%00b", "", "", 400, payload.CodeInvalidText},
		{"GET", "/api/qr-code/url", "", "", 400, payload.CodeMissingField},
		{"GET", "/api/qr-code.png?text=" + long, "", "", 413, payload.CodePayloadTooLarge},
		{"GET", "/api/qr-code.svg?data=" + long, "", "", 413, payload.CodePayloadTooLarge},
		{"GET", "/api/qr-code?ecc=H&text=" + strings.Repeat("x", 1300), "", "", 422, api.CodeNotEncodable},
		{"GET", "/api/qr-code?size=128&text=" + strings.Repeat("x", 1000), "", "", 422, api.CodeNotEncodable},
		{"POST", "/api/qr-code", `{"type":"url"`, "application/json", 400, api.CodeInvalidJSON},
		{"POST", "/api/qr-code", `[1]`, "application/json", 400, api.CodeInvalidJSON},
		{"POST", "/api/qr-code", `{"text":"a"} {}`, "application/json", 400, api.CodeInvalidJSON},
		{"POST", "/api/qr-code", "{\"text\":\"\xff\"}", "application/json", 400, api.CodeInvalidJSON},
		{"POST", "/api/qr-code", `{"text":"a\ud800b"}`, "application/json", 400, payload.CodeInvalidText},
		{"POST", "/api/qr-code", `{"text":"a","colour":"000000"}`, "application/json", 400, api.CodeUnknownField},
		{"POST", "/api/qr-code", `{"text":"a","size":"1024"}`, "application/json", 400, api.CodeWrongType},
		{"POST", "/api/qr-code", `{"text":"a","size":1024.5}`, "application/json", 400, api.CodeWrongType},
		{"POST", "/api/qr-code", `{"type":"wifi","ssid":"x","hidden":"yes","password":"hunter22"}`, "application/json", 400, api.CodeWrongType},
		{"POST", "/api/qr-code", `{"text":null}`, "application/json", 400, api.CodeWrongType},
		{"POST", "/api/qr-code", `{"data":""}`, "application/json", 400, api.CodeEmptyValue},
		{"POST", "/api/qr-code", `{"type":""}`, "application/json", 400, payload.CodeInvalidType},
		{"POST", "/api/qr-code", `{"type":"wifi","password":"hunter22"}`, "application/json", 400, payload.CodeMissingField},
		{"POST", "/api/qr-code", `{"type":"wifi","ssid":"x","password":"short"}`, "application/json", 400, payload.CodeInvalidPassword},
		{"POST", "/api/qr-code", `{"type":"wifi","ssid":"x","security":"WPA","encryption":"WEP","password":"12345"}`, "application/json", 400, payload.CodeConflictingFields},
		{"POST", "/api/qr-code", `{"type":"vcard","phone":"1"}`, "application/json", 400, payload.CodeMissingField},
		{"POST", "/api/qr-code", `{"type":"email","to":"not-an-address"}`, "application/json", 400, payload.CodeInvalidEmail},
		{"POST", "/api/qr-code", `{"type":"sms","phone":"123:456"}`, "application/json", 400, payload.CodeInvalidPhone},
		{"POST", "/api/qr-code", `{"type":"text","text":"` + long + `"}`, "application/json", 413, payload.CodePayloadTooLarge},
		{"POST", "/api/qr-code", `{"type":"vcard","name":"A","organization":"` + strings.Repeat("o", 2040) + `"}`, "application/json", 413, payload.CodePayloadTooLarge},
		{"POST", "/api/qr-code", `{"text":"` + strings.Repeat("b", 70_000) + `"}`, "application/json", 413, api.CodeBodyTooLarge},
		{"POST", "/api/qr-code", `{"text":"a"}`, "text/plain", 415, api.CodeUnsupportedMedia},
		{"POST", "/api/qr-code", `{"text":"a"}`, "", 415, api.CodeUnsupportedMedia},
		{"GET", "/api/qr-codes", "", "", 404, api.CodeNotFound},
		{"GET", "/index.php", "", "", 404, api.CodeNotFound},
		{"DELETE", "/api/qr-code", "", "", 405, api.CodeMethodNotAllowed},
		{"POST", "/healthz", `{}`, "application/json", 405, api.CodeMethodNotAllowed},
		{"POST", "/api/qr-code.png", `{"text":"a"}`, "application/json", 405, api.CodeMethodNotAllowed},
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
