package api

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"os"
	"reflect"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/bananaqr/bananaqr/payload"
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
	{http.MethodPost, "/api/qr-code/batch", "createQrCodeBatch"},
	{http.MethodGet, "/api/qr-code/url", "createUrlQrCode"},
	{http.MethodGet, "/api/qr-code.png", "getQrCodePng"},
	{http.MethodGet, "/api/qr-code.svg", "getQrCodeSvg"},
	{http.MethodGet, "/api/contrast", "checkContrast"},
	{http.MethodGet, "/healthz", "healthz"},
	{http.MethodGet, "/api/qr-code/healthz", "qrCodeHealthz"},
	{http.MethodGet, "/openapi.json", "getOpenApi"},
	{http.MethodPost, "/mcp", "mcp"},
	{http.MethodGet, "/mcp/server-card", "getServerCard"},
	{http.MethodGet, "/.well-known/mcp.json", "getServerCardWellKnown"},
	{http.MethodGet, "/.well-known/ai-catalog.json", "getAiCatalog"},
	{http.MethodGet, "/icon.svg", "getIconSvg"},
	{http.MethodGet, "/icon.png", "getIconPng"},
	{http.MethodGet, "/readyz", "readyz"},
	{http.MethodGet, "/metrics", "metrics"},
	{http.MethodGet, "/", "getPage"},
	{http.MethodGet, "/style.css", "getPageStyle"},
	{http.MethodGet, "/app.js", "getPageScript"},
	{http.MethodGet, "/payments.html", "getPagePayments"},
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
	if doc.Info.Version != "1.7.0" {
		t.Errorf("info.version = %q, want 1.7.0", doc.Info.Version)
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

// TestOpenAPIReasons checks the Error schema's code enum, the table of codes in
// info.description and the error responses of each operation against Reasons.
func TestOpenAPIReasons(t *testing.T) {
	doc, _ := loadOpenAPI(t)
	var want []any
	for _, c := range Reasons {
		want = append(want, string(c.Reason))
	}
	code := doc.Components.Schemas["Error"].Value.Properties["code"].Value
	if !reflect.DeepEqual(code.Enum, want) {
		t.Errorf("Error.code enum:\n got %v\nwant %v (Reasons, in order)", code.Enum, want)
	}
	pattern := regexp.MustCompile(code.Pattern)
	for _, c := range Reasons {
		if !pattern.MatchString(string(c.Reason)) {
			t.Errorf("code %s does not match the pattern %s", c.Reason, code.Pattern)
		}
	}

	// The table in info.description: one row per code, in order, with its status and meaning.
	row := regexp.MustCompile("^\\| `([A-Z0-9_]+)` \\| ([0-9]{3}) \\| (.*) \\|$")
	var rows []ReasonInfo
	for line := range strings.SplitSeq(doc.Info.Description, "\n") {
		if m := row.FindStringSubmatch(line); m != nil {
			status, _ := strconv.Atoi(m[2])
			rows = append(rows, ReasonInfo{Reason(m[1]), status, m[3]})
		}
	}
	if !reflect.DeepEqual(rows, Reasons) {
		t.Errorf("the table of codes in info.description differs from Reasons:\n got %v\nwant %v", rows, Reasons)
	}
	if !strings.Contains(doc.Info.Description, "`"+string(payload.ReasonLegacyAndroid)+"`") ||
		!strings.Contains(doc.Components.Schemas["QrResponse"].Value.Properties["warnings"].Value.Description, string(payload.ReasonLegacyAndroid)) {
		t.Errorf("the warning code %s is not documented", string(payload.ReasonLegacyAndroid))
	}

	// Each generation operation lists every status of Reasons but 404 and 405 (which belong to
	// no operation); 415 only with a body.
	// Every operation lists 431, which every path answers before it looks at the method.
	for _, want := range openAPIOperations {
		r := openAPIOperation(t, doc, want.id).Responses.Status(http.StatusRequestHeaderFieldsTooLarge)
		if r == nil || !isOpenAPIErrorResponse(r) {
			t.Errorf("%s: no 431 response with the Error object", want.id)
		}
	}
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
		for _, c := range Reasons {
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

// decodeJSONReason returns the code of the error DecodeJSON gives body, or "" without one.
func decodeJSONReason(body string) Reason {
	_, err := DecodeJSON([]byte(body))
	if err == nil {
		return ""
	}
	return ErrorOf(err).Reason
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
		case isNumberOrString(s):
			// A bananaqr extension's number (numberFields): a JSON number or a string.
			if !numberFields[name] {
				t.Errorf("QrRequest.%s is a number or a string, but DecodeJSON takes strings only", name)
			}
			for _, v := range []any{json.Number("12.5"), "12.5"} {
				if code := decodeJSONReason(body(name, v)); code != "" {
					t.Errorf("QrRequest.%s = %#v: DecodeJSON says %s", name, v, code)
				}
			}
			value, wrong = json.Number("1"), true
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
		if code := decodeJSONReason(body(name, value)); code == ReasonUnknownField || code == ReasonWrongType {
			t.Errorf("QrRequest.%s = %v: DecodeJSON says %s", name, value, code)
		}
		if numberFields[name] && !isNumberOrString(s) {
			t.Errorf("DecodeJSON takes QrRequest.%s as a number or a string, but the schema says %v", name, s.Type.Slice())
		}
		if code := decodeJSONReason(body(name, wrong)); code != ReasonWrongType {
			t.Errorf("QrRequest.%s = %#v (not a %v): DecodeJSON says %q, want %s", name, wrong, s.Type.Slice(), code, ReasonWrongType)
		}
		for _, v := range s.Enum {
			if code := decodeJSONReason(body(name, v)); code != "" {
				t.Errorf("QrRequest.%s = %v is in the schema's enum, but DecodeJSON says %s", name, v, code)
			}
		}
		if s.Min != nil && s.Max != nil {
			lo, hi := int(*s.Min), int(*s.Max)
			for v, want := range map[int]Reason{lo: "", hi: "", lo - 1: ReasonInvalidValue, hi + 1: ReasonInvalidValue} {
				if code := decodeJSONReason(body(name, v)); code != want {
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
		if code := decodeJSONReason(body(name, "x")); code != ReasonUnknownField {
			t.Errorf("made-up property %q: DecodeJSON says %q, want %s", name, code, ReasonUnknownField)
		}
	}
}

// isNumberOrString reports whether s is oneOf a number and a string, and nothing else: the form
// of a type array ["number", "string"] that code generators read (oapi-codegen refuses the array).
func isNumberOrString(s *openapi3.Schema) bool {
	if s.Type != nil || len(s.OneOf) != 2 {
		return false
	}
	return s.OneOf[0].Value.Type.Is("number") && s.OneOf[1].Value.Type.Is("string")
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

func readOpenAPI() ([]byte, error) {
	data, err := os.ReadFile("openapi.json")
	if err != nil {
		return nil, errors.New("reading openapi.json: " + err.Error())
	}
	return data, nil
}

// TestREADMEReasons checks that the error code table the README links to, docs/errors.md,
// lists every code with its status and meaning, as Reasons does.
func TestREADMEReasons(t *testing.T) {
	readme, err := os.ReadFile("../docs/errors.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range Reasons {
		row := fmt.Sprintf("| %d | `%s` | %s |", c.Status, c.Reason, c.Description)
		if !strings.Contains(string(readme), row) {
			t.Errorf("docs/errors.md lacks the row %s", row)
		}
	}
}

// TestOpenAPIWarningReasons: the document's table of warnings is WarningReasons, row for row.
func TestOpenAPIWarningReasons(t *testing.T) {
	var doc struct {
		Info struct{ Description string } `json:"info"`
	}
	if err := json.Unmarshal(OpenAPI, &doc); err != nil {
		t.Fatal(err)
	}
	_, table, ok := strings.Cut(doc.Info.Description, "## Warnings")
	if !ok {
		t.Fatal("the document has no Warnings section")
	}
	var rows []string
	for _, line := range strings.Split(table, "\n") {
		if strings.HasPrefix(line, "| `") {
			rows = append(rows, line)
		}
	}
	var want []string
	for _, w := range WarningReasons {
		want = append(want, "| `"+w.Reason+"` | "+w.Description+" |")
	}
	if !slices.Equal(rows, want) {
		t.Errorf("the Warnings table:\n%s\nwant:\n%s", strings.Join(rows, "\n"), strings.Join(want, "\n"))
	}
}
