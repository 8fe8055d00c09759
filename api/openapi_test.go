package api

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"reflect"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers/legacy"

	"github.com/bananaqr/bananaqr/payload"
	"github.com/bananaqr/bananaqr/qr"
	"github.com/bananaqr/bananaqr/render"
)

// These tests keep openapi.json, the document /openapi.json serves, true to the code: the
// error codes and their statuses, the request properties the decoder takes, the JSON response's
// fields, and responses of the shapes the service sends validating against it.

// loadOpenAPI parses openapi.json with kin-openapi; the raw JSON comes too.
func loadOpenAPI(t *testing.T) (*openapi3.T, map[string]any) {
	t.Helper()
	data, err := readOpenAPI()
	if err != nil {
		t.Fatal(err)
	}
	var raw map[string]any
	if err := json.Unmarshal(data, &raw); err != nil {
		t.Fatalf("openapi.json is not JSON: %v", err)
	}
	doc, err := openapi3.NewLoader().LoadFromData(data)
	if err != nil {
		t.Fatalf("openapi.json does not load: %v", err)
	}
	return doc, raw
}

// openAPIOperations are the operations the document must have: method, path, operationId.
var openAPIOperations = []struct{ method, path, id string }{
	{http.MethodGet, "/api/qr-code", "createQrCode"},
	{http.MethodPost, "/api/qr-code", "createStructuredQrCode"},
	{http.MethodGet, "/api/qr-code/url", "createUrlQrCode"},
	{http.MethodGet, "/api/qr-code.png", "getQrCodePng"},
	{http.MethodGet, "/api/qr-code.svg", "getQrCodeSvg"},
	{http.MethodGet, "/healthz", "healthz"},
	{http.MethodGet, "/api/qr-code/healthz", "qrCodeHealthz"},
	{http.MethodGet, "/openapi.json", "getOpenApi"},
	{http.MethodPost, "/mcp", "mcp"},
	{http.MethodGet, "/mcp/server-card", "getServerCard"},
	{http.MethodGet, "/.well-known/mcp.json", "getServerCardWellKnown"},
	{http.MethodGet, "/.well-known/ai-catalog.json", "getAiCatalog"},
	{http.MethodGet, "/readyz", "readyz"},
	{http.MethodGet, "/metrics", "metrics"},
	{http.MethodGet, "/", "getPage"},
	{http.MethodGet, "/style.css", "getPageStyle"},
	{http.MethodGet, "/app.js", "getPageScript"},
}

// generationOperations are the operationIds that make codes (and are rate-limited).
var generationOperations = []string{"createQrCode", "createStructuredQrCode", "createUrlQrCode", "getQrCodePng", "getQrCodeSvg"}

func TestOpenAPIValidates(t *testing.T) {
	doc, _ := loadOpenAPI(t)
	if doc.OpenAPI != "3.1.0" || !doc.IsOpenAPI31OrLater() {
		t.Errorf("openapi is %q, want 3.1.0", doc.OpenAPI)
	}
	// Validate checks the structure, every $ref, the schemas (as JSON Schema 2020-12 for a 3.1
	// document), and the defaults and examples against their schemas.
	if err := doc.Validate(context.Background()); err != nil {
		t.Fatalf("openapi.json is not a valid OpenAPI document: %v", err)
	}
}

func TestOpenAPIInfoAndOperations(t *testing.T) {
	doc, raw := loadOpenAPI(t)
	if doc.Info.Version != "1.6.0" {
		t.Errorf("info.version = %q, want 1.6.0", doc.Info.Version)
	}
	if doc.Info.Title != "bananaqr QR code service" {
		t.Errorf("info.title = %q", doc.Info.Title)
	}
	if sec, ok := raw["security"].([]any); !ok || len(sec) != 0 {
		t.Errorf("top-level security = %v, want an empty array (no API key)", raw["security"])
	}
	if len(doc.Servers) != 1 || doc.Servers[0].URL != "/" {
		t.Errorf("servers = %v, want one with url /", doc.Servers)
	}
	ids := map[string]bool{}
	for _, path := range doc.Paths.Keys() {
		for _, op := range doc.Paths.Value(path).Operations() {
			ids[op.OperationID] = true
		}
	}
	for _, want := range openAPIOperations {
		item := doc.Paths.Value(want.path)
		if item == nil {
			t.Errorf("no path %s", want.path)
			continue
		}
		op := item.GetOperation(want.method)
		if op == nil {
			t.Errorf("no operation %s %s", want.method, want.path)
			continue
		}
		if op.OperationID != want.id {
			t.Errorf("%s %s: operationId %q, want %q", want.method, want.path, op.OperationID, want.id)
		}
		delete(ids, want.id)
	}
	if len(ids) > 0 {
		t.Errorf("operations the test does not know (add them to openAPIOperations): %v", ids)
	}
}

// TestOpenAPIErrorCodes checks the Error schema's code enum, the table of codes in
// info.description and the error responses of each operation against Codes.
func TestOpenAPIErrorCodes(t *testing.T) {
	doc, _ := loadOpenAPI(t)
	var want []any
	for _, c := range Codes {
		want = append(want, string(c.Code))
	}
	code := doc.Components.Schemas["Error"].Value.Properties["code"].Value
	if !reflect.DeepEqual(code.Enum, want) {
		t.Errorf("Error.code enum:\n got %v\nwant %v (Codes, in order)", code.Enum, want)
	}
	pattern := regexp.MustCompile(code.Pattern)
	for _, c := range Codes {
		if !pattern.MatchString(string(c.Code)) {
			t.Errorf("code %s does not match the pattern %s", c.Code, code.Pattern)
		}
	}

	// The table in info.description: one row per code, in order, with its status and meaning.
	row := regexp.MustCompile("^\\| `([A-Z0-9_]+)` \\| ([0-9]{3}) \\| (.*) \\|$")
	var rows []CodeInfo
	for line := range strings.SplitSeq(doc.Info.Description, "\n") {
		if m := row.FindStringSubmatch(line); m != nil {
			status, _ := strconv.Atoi(m[2])
			rows = append(rows, CodeInfo{Code(m[1]), status, m[3]})
		}
	}
	if !reflect.DeepEqual(rows, Codes) {
		t.Errorf("the table of codes in info.description differs from Codes:\n got %v\nwant %v", rows, Codes)
	}
	if !strings.Contains(doc.Info.Description, "`"+string(payload.CodeLegacyAndroid)+"`") ||
		!strings.Contains(doc.Components.Schemas["QrResponse"].Value.Properties["warnings"].Value.Description, string(payload.CodeLegacyAndroid)) {
		t.Errorf("the warning code %s is not documented", string(payload.CodeLegacyAndroid))
	}

	// Each generation operation lists every status of Codes but 404 and 405 (which belong to
	// no operation); 415 only with a body.
	for _, id := range generationOperations {
		op := openAPIOperation(t, doc, id)
		var got, want []string
		for status, resp := range op.Responses.Map() {
			if status == "200" {
				continue
			}
			got = append(got, status)
			if !isOpenAPIErrorResponse(resp) {
				t.Errorf("%s: response %s is not the Error object", id, status)
			}
		}
		for _, c := range Codes {
			s := strconv.Itoa(c.Status)
			if c.Status == http.StatusNotFound || c.Status == http.StatusMethodNotAllowed ||
				c.Status == http.StatusUnsupportedMediaType && id != "createStructuredQrCode" || slices.Contains(want, s) {
				continue
			}
			want = append(want, s)
		}
		sort.Strings(got)
		sort.Strings(want)
		if !slices.Equal(got, want) {
			t.Errorf("%s: error statuses %v, want %v", id, got, want)
		}
	}
}

// isOpenAPIErrorResponse reports whether r's only content is application/json with the Error schema.
func isOpenAPIErrorResponse(r *openapi3.ResponseRef) bool {
	c := r.Value.Content
	return len(c) == 1 && c["application/json"] != nil && c["application/json"].Schema.Ref == "#/components/schemas/Error"
}

func openAPIOperation(t *testing.T, doc *openapi3.T, id string) *openapi3.Operation {
	t.Helper()
	for _, path := range doc.Paths.Keys() {
		for _, op := range doc.Paths.Value(path).Operations() {
			if op.OperationID == id {
				return op
			}
		}
	}
	t.Fatalf("no operation %s", id)
	return nil
}

// jsonFieldNames returns the JSON names of the fields of the struct type of v.
func jsonFieldNames(v any) []string {
	var names []string
	typ := reflect.TypeOf(v)
	for i := range typ.NumField() {
		name, _, _ := strings.Cut(typ.Field(i).Tag.Get("json"), ",")
		if name != "" && name != "-" {
			names = append(names, name)
		}
	}
	sort.Strings(names)
	return names
}

func schemaProperties(s *openapi3.Schema) []string {
	var names []string
	for name := range s.Properties {
		names = append(names, name)
	}
	sort.Strings(names)
	return names
}

func TestOpenAPIResponseSchemas(t *testing.T) {
	doc, _ := loadOpenAPI(t)
	schemas := doc.Components.Schemas
	for _, c := range []struct {
		schema string
		of     any
	}{
		{"QrResponse", Response{}}, {"Warning", Warning{}}, {"Error", ErrorBody{}}, {"Health", Health{}},
	} {
		got, want := schemaProperties(schemas[c.schema].Value), jsonFieldNames(c.of)
		if !slices.Equal(got, want) {
			t.Errorf("%s properties %v, want the JSON fields of %T: %v", c.schema, got, c.of, want)
		}
	}
	// Every field of the JSON response is required but logo, color and background (which the
	// service sends anyway).
	var want []string
	for _, name := range jsonFieldNames(Response{}) {
		if name != "logo" && name != "color" && name != "background" {
			want = append(want, name)
		}
	}
	got := slices.Sorted(slices.Values(schemas["QrResponse"].Value.Required))
	if !slices.Equal(got, want) {
		t.Errorf("QrResponse required %v, want %v", got, want)
	}
	for _, name := range []string{"Error", "Warning"} {
		if got, want := slices.Sorted(slices.Values(schemas[name].Value.Required)), schemaProperties(schemas[name].Value); !slices.Equal(got, want) {
			t.Errorf("%s required %v, want all of %v", name, got, want)
		}
	}
}

// decodeJSONCode returns the code of the error DecodeJSON gives body, or "" without one.
func decodeJSONCode(body string) Code {
	_, err := DecodeJSON([]byte(body))
	if err == nil {
		return ""
	}
	return ErrorOf(err).Code
}

// TestOpenAPIRequestProperties checks QrRequest against DecodeJSON: every property is one the
// decoder takes, of the JSON type the schema gives, with the enumerated values and the range
// the schema gives; every property the decoder takes is in the schema; any other is refused.
func TestOpenAPIRequestProperties(t *testing.T) {
	doc, _ := loadOpenAPI(t)
	req := doc.Components.Schemas["QrRequest"].Value
	if req.AdditionalProperties.Has == nil || *req.AdditionalProperties.Has {
		t.Error("QrRequest must have additionalProperties: false")
	}
	body := func(name string, value any) string {
		b, err := json.Marshal(map[string]any{name: value})
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	for _, name := range schemaProperties(req) {
		s := req.Properties[name].Value
		var value, wrong any
		switch {
		case s.Type.Is("string"):
			value, wrong = "x", 1
			if s.Default != nil {
				value = s.Default
			}
		case s.Type.Is("boolean"):
			value, wrong = true, "true"
		case s.Type.Is("integer"):
			value, wrong = int(*s.Min), strconv.Itoa(int(*s.Min))
		default:
			t.Errorf("QrRequest.%s has type %v; the decoder takes strings, booleans and integers", name, s.Type)
			continue
		}
		if code := decodeJSONCode(body(name, value)); code == CodeUnknownField || code == CodeWrongType {
			t.Errorf("QrRequest.%s = %v: DecodeJSON says %s", name, value, code)
		}
		if code := decodeJSONCode(body(name, wrong)); code != CodeWrongType {
			t.Errorf("QrRequest.%s = %#v (not a %v): DecodeJSON says %q, want %s", name, wrong, s.Type.Slice(), code, CodeWrongType)
		}
		for _, v := range s.Enum {
			if code := decodeJSONCode(body(name, v)); code != "" {
				t.Errorf("QrRequest.%s = %v is in the schema's enum, but DecodeJSON says %s", name, v, code)
			}
		}
		if s.Min != nil && s.Max != nil {
			lo, hi := int(*s.Min), int(*s.Max)
			for v, want := range map[int]Code{lo: "", hi: "", lo - 1: CodeInvalidValue, hi + 1: CodeInvalidValue} {
				if code := decodeJSONCode(body(name, v)); code != want {
					t.Errorf("QrRequest.%s = %d (schema range %d..%d): DecodeJSON says %q, want %q", name, v, lo, hi, code, want)
				}
			}
		}
	}
	// Conversely, what the decoder takes is in the schema.
	accepted := []string{"type", "hidden", "download", "size", "margin", "color", "background", "format", "logo", "corners", "ecc"}
	for name := range stringFields {
		accepted = append(accepted, name)
	}
	for _, name := range accepted {
		if req.Properties[name] == nil {
			t.Errorf("DecodeJSON takes %q, but QrRequest does not list it", name)
		}
	}
	for _, name := range []string{"notAField", "Type", "colour", "ssid_hidden"} {
		if code := decodeJSONCode(body(name, "x")); code != CodeUnknownField {
			t.Errorf("made-up property %q: DecodeJSON says %q, want %s", name, code, CodeUnknownField)
		}
	}
}

// TestOpenAPIQueryParameters checks the GET operations' parameters against FromQuery: the
// names it reads, and the enumerated values and ranges it takes.
func TestOpenAPIQueryParameters(t *testing.T) {
	doc, _ := loadOpenAPI(t)
	for _, c := range []struct {
		id    string
		route Route
		omit  []string // read by FromQuery for other routes only
	}{
		{"createQrCode", RouteQRCode, nil},
		{"createUrlQrCode", RouteURL, []string{"type", "text", "data"}},
		{"getQrCodePng", RoutePNG, nil},
		{"getQrCodeSvg", RouteSVG, nil},
	} {
		op := openAPIOperation(t, doc, c.id)
		var names, want []string
		base := ""
		for _, p := range op.Parameters {
			names = append(names, p.Value.Name)
			if p.Value.In != "query" {
				t.Errorf("%s: parameter %s is in %s, not query", c.id, p.Value.Name, p.Value.In)
			}
			if p.Value.Required && p.Value.Name != "url" {
				t.Errorf("%s: parameter %s is required", c.id, p.Value.Name)
			}
		}
		for _, name := range queryNames {
			if !slices.Contains(c.omit, name) {
				want = append(want, name)
			}
		}
		if c.route == RouteURL {
			base = "url=https%3A%2F%2Fexample.com&"
			if p := op.Parameters.GetByInAndName("query", "url"); p == nil || !p.Required {
				t.Errorf("%s: url is not a required parameter", c.id)
			}
		}
		sort.Strings(names)
		sort.Strings(want)
		if !slices.Equal(names, want) {
			t.Errorf("%s: parameters %v, want those FromQuery reads: %v", c.id, names, want)
		}
		for _, p := range op.Parameters {
			s := p.Value.Schema.Value
			values := s.Enum
			if s.Default != nil {
				values = append(values, s.Default)
			}
			if s.Min != nil && s.Max != nil {
				values = append(values, *s.Min, *s.Max)
			}
			for _, v := range values {
				if _, err := FromQuery(base+p.Value.Name+"="+fmt.Sprint(v), c.route); err != nil {
					t.Errorf("%s: %s=%v is allowed by the schema, but FromQuery says %v", c.id, p.Value.Name, v, err)
				}
			}
			if s.Min != nil && s.Max != nil {
				for _, v := range []float64{*s.Min - 1, *s.Max + 1} {
					if _, err := FromQuery(base+p.Value.Name+"="+fmt.Sprint(v), c.route); err == nil {
						t.Errorf("%s: %s=%v is outside the schema's range, but FromQuery takes it", c.id, p.Value.Name, v)
					}
				}
			}
		}
	}
}

// TestOpenAPIResponsesValidate validates responses of the shapes the service sends, and a few
// it must not send, with kin-openapi's response validator (as the HTTP edge's contract test
// does).
func TestOpenAPIResponsesValidate(t *testing.T) {
	doc, _ := loadOpenAPI(t)
	router, err := legacy.NewRouter(doc)
	if err != nil {
		t.Fatal(err)
	}
	validate := func(method, target string, status int, header http.Header, body []byte) error {
		req := httptest.NewRequest(method, target, nil)
		route, params, err := router.FindRoute(req)
		if err != nil {
			t.Fatalf("%s %s: no route: %v", method, target, err)
		}
		in := &openapi3filter.ResponseValidationInput{
			RequestValidationInput: &openapi3filter.RequestValidationInput{Request: req, PathParams: params, Route: route},
			Status:                 status,
			Header:                 header,
			Options:                &openapi3filter.Options{IncludeResponseStatus: true},
		}
		in.SetBodyBytes(body)
		return openapi3filter.ValidateResponse(context.Background(), in)
	}

	sym, err := qr.Encode("https://example.com", qr.Options{Level: qr.M})
	if err != nil {
		t.Fatal(err)
	}
	svg, err := render.SVG(sym, render.Defaults())
	if err != nil {
		t.Fatal(err)
	}
	png, err := render.PNG(sym, render.Defaults())
	if err != nil {
		t.Fatal(err)
	}
	headers := func(contentType, format string, private bool) http.Header {
		h := http.Header{}
		h.Set("Content-Type", contentType)
		h.Set("X-QR-Logo", "none")
		h.Set("X-QR-Size", "1024")
		h.Set("X-QR-Format", format)
		h.Set("Cache-Control", "private, no-store")
		h.Set("RateLimit-Limit", "60")
		h.Set("RateLimit-Remaining", "59")
		h.Set("RateLimit-Reset", "60")
		h.Set("Access-Control-Allow-Origin", "*")
		if private {
			h.Set("X-QR-Payload-Type", "wifi")
			h.Set("Content-Disposition", `attachment; filename="qr-wifi.`+format+`"`)
			h.Set("X-QR-Warning", string(payload.CodeLegacyAndroid))
		} else {
			h.Set("X-QR-Payload-Type", "url")
			h.Set("X-QR-Payload", "https://example.com/caf%C3%A9")
			h.Set("X-QR-Payload-Encoding", "percent")
			h.Set("Content-Disposition", `inline; filename="qr-url.`+format+`"`)
		}
		return h
	}
	response := func(private bool) Response {
		b64 := base64.StdEncoding.EncodeToString(png)
		r := Response{OK: true, Type: "url", PayloadType: "url", Format: "json", MimeType: "image/png", Size: 1024,
			Logo: "none", Color: "#7B260F", Background: "#FFFFFF", SVG: string(svg), PNGBase64: b64,
			PNGDataURL: "data:image/png;base64," + b64, Version: sym.Version(), ECC: sym.Level().String(),
			Modules: sym.Size(), Margin: 4, ModulePx: 1024 / (sym.Size() + 8), Warnings: []Warning{}}
		if private {
			r.Type, r.PayloadType = "wifi", "wifi"
			r.Markdown = "![QR code](" + r.PNGDataURL + ")"
			r.Warnings = []Warning{{Code: string(payload.CodeLegacyAndroid), Field: "password", Message: "Android before 15 misreads a password that ends in a backslash"}}
		} else {
			text, image, svgURL := "https://example.com", "https://qr.example/api/qr-code.png?url=https%3A%2F%2Fexample.com", "/api/qr-code.svg?url=https%3A%2F%2Fexample.com"
			r.Payload, r.ImageURL, r.SVGURL = &text, &image, &svgURL
			r.Markdown = "![QR code](" + image + ")"
		}
		return r
	}
	marshal := func(v any) []byte {
		b, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}

	type check struct {
		name           string
		method, target string
		status         int
		header         http.Header
		body           []byte
	}
	var good []check
	for _, private := range []bool{false, true} {
		for _, target := range []string{"/api/qr-code?url=x&format=json", "/api/qr-code/url?url=x&format=json"} {
			good = append(good, check{fmt.Sprintf("JSON, private %v", private), http.MethodGet, target, 200,
				headers("application/json", "json", private), marshal(response(private))})
		}
		good = append(good,
			check{"POST JSON", http.MethodPost, "/api/qr-code", 200, headers("application/json; charset=utf-8", "json", private), marshal(response(private))},
			check{"POST SVG", http.MethodPost, "/api/qr-code", 200, headers("image/svg+xml", "svg", private), svg},
			check{"POST PNG", http.MethodPost, "/api/qr-code", 200, headers("image/png", "png", private), png},
			check{"SVG", http.MethodGet, "/api/qr-code?url=x", 200, headers("image/svg+xml; charset=utf-8", "svg", private), svg},
			check{"PNG", http.MethodGet, "/api/qr-code?url=x&format=png", 200, headers("image/png", "png", private), png},
			check{".png", http.MethodGet, "/api/qr-code.png?url=x", 200, headers("image/png", "png", private), png},
			check{".svg", http.MethodGet, "/api/qr-code.svg?url=x", 200, headers("image/svg+xml", "svg", private), svg},
		)
	}
	for _, path := range []string{"/healthz", "/api/qr-code/healthz"} {
		good = append(good, check{"health", http.MethodGet, path, 200, http.Header{"Content-Type": {"application/json"}}, []byte(`{"ok":true}`)})
	}
	data, _ := readOpenAPI()
	good = append(good, check{"document", http.MethodGet, "/openapi.json", 200, http.Header{"Content-Type": {"application/json"}}, data})
	for _, c := range Codes {
		if c.Status == http.StatusNotFound || c.Status == http.StatusMethodNotAllowed {
			continue // no operation answers them: the router does
		}
		h := http.Header{"Content-Type": {"application/json; charset=utf-8"}, "Access-Control-Allow-Origin": {"*"}}
		if c.Status == http.StatusTooManyRequests || c.Status == http.StatusServiceUnavailable {
			h.Set("Retry-After", "60")
		}
		body := marshal(NewError(c.Code, "", "Do something else.", "%s", c.Description).Body())
		if c.Status != http.StatusUnsupportedMediaType {
			for _, target := range []string{"/api/qr-code?url=x", "/api/qr-code/url?url=x", "/api/qr-code.png?url=x", "/api/qr-code.svg?url=x"} {
				good = append(good, check{string(c.Code), http.MethodGet, target, c.Status, h, body})
			}
		}
		good = append(good, check{string(c.Code), http.MethodPost, "/api/qr-code", c.Status, h, body})
	}
	for _, c := range good {
		if err := validate(c.method, c.target, c.status, c.header, c.body); err != nil {
			t.Errorf("%s %s %d (%s): the document refuses the response: %v", c.method, c.target, c.status, c.name, err)
		}
	}

	// What the service must not send, so that the checks above are not empty.
	without := func(h http.Header, name string) http.Header {
		h = h.Clone()
		h.Del(name)
		return h
	}
	extra := marshal(response(false))
	extra = append(extra[:len(extra)-1], []byte(`,"extra":1}`)...)
	nullWarnings := response(false)
	nullWarnings.Warnings = nil // "warnings": null; the service sends [] when there are none
	okHeaders := headers("application/json", "json", false)
	errHeader := http.Header{"Content-Type": {"application/json"}}
	bad := []check{
		{"a property the schema does not have", http.MethodGet, "/api/qr-code?url=x", 200, okHeaders, extra},
		{"warnings null", http.MethodGet, "/api/qr-code?url=x", 200, okHeaders, marshal(nullWarnings)},
		{"no X-QR-Size", http.MethodGet, "/api/qr-code?url=x", 200, without(okHeaders, "X-QR-Size"), marshal(response(false))},
		{"no Cache-Control", http.MethodGet, "/api/qr-code.png?url=x", 200, without(headers("image/png", "png", false), "Cache-Control"), png},
		{"JSON from the .png path", http.MethodGet, "/api/qr-code.png?url=x", 200, okHeaders, marshal(response(false))},
		{"an unknown code", http.MethodGet, "/api/qr-code?url=x", 400, errHeader, []byte(`{"error":"e","code":"NOPE","message":"e","hint":"h"}`)},
		{"an error with a fifth property", http.MethodPost, "/api/qr-code", 400, errHeader,
			[]byte(`{"error":"e","code":"INVALID_JSON","message":"e","hint":"h","field":"size"}`)},
		{"an error without hint", http.MethodPost, "/api/qr-code", 400, errHeader, []byte(`{"error":"e","code":"INVALID_JSON","message":"e"}`)},
		{"429 without Retry-After", http.MethodGet, "/api/qr-code?url=x", 429, errHeader,
			[]byte(`{"error":"e","code":"RATE_LIMITED","message":"e","hint":"h"}`)},
		{"health not ok", http.MethodGet, "/healthz", 200, errHeader, []byte(`{"ok":false}`)},
	}
	for _, c := range bad {
		if err := validate(c.method, c.target, c.status, c.header, c.body); err == nil {
			t.Errorf("%s %s %d (%s): the document accepts it", c.method, c.target, c.status, c.name)
		}
	}
}

// readOpenAPI reads the document from the package's folder (openapi.go embeds the same file).
func readOpenAPI() ([]byte, error) {
	data, err := os.ReadFile("openapi.json")
	if err != nil {
		return nil, errors.New("reading openapi.json: " + err.Error())
	}
	return data, nil
}

// TestREADMECodes checks that the README's error code table lists every code with its status
// and meaning, as Codes does.
func TestREADMECodes(t *testing.T) {
	readme, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range Codes {
		row := fmt.Sprintf("| %d | `%s` | %s |", c.Status, c.Code, c.Description)
		if !strings.Contains(string(readme), row) {
			t.Errorf("README lacks the row %s", row)
		}
	}
}
