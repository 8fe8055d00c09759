package api

import (
	"encoding/json"
	"fmt"
	"regexp"
	"testing"
)

// These tests keep openapi.json in the forms code generators read, with their default options
// (scripts/generated-clients.sh proves it by use, with the generators themselves; this is the
// quick check that needs no Node or network). Each form replaced here is OpenAPI 3.1 that one of
// them refuses or misreads.

// componentRef is a $ref generators resolve: a component by name, never a path into one
// (oapi-codegen v2.8.2: "unexpected reference depth").
var componentRef = regexp.MustCompile(`^#/components/(schemas|parameters|headers|responses|requestBodies)/[^/]+$`)

func TestOpenAPIGeneratorForms(t *testing.T) {
	data, err := readOpenAPI()
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	walkJSON(doc, "#", func(at string, node map[string]any) {
		if ref, ok := node["$ref"].(string); ok && !componentRef.MatchString(ref) {
			t.Errorf("%s: $ref %s points into a component (give the target a component of its own)", at, ref)
		}
		// A type array other than [T, "null"] (oapi-codegen: "unhandled Schema type"): oneOf.
		if types, ok := node["type"].([]any); ok && (len(types) != 2 || types[1] != "null") {
			t.Errorf("%s: type %v (write oneOf, or [type, \"null\"])", at, types)
		}
	})
	schemas := doc["components"].(map[string]any)["schemas"].(map[string]any)
	walkJSON(schemas, "#/components/schemas", func(at string, node map[string]any) {
		// A JSON string with contentMediaType and no contentEncoding is typed as a file, and
		// base64-decoded (oapi-codegen).
		if _, ok := node["contentMediaType"]; ok {
			if _, ok := node["contentEncoding"]; !ok {
				t.Errorf("%s: contentMediaType without contentEncoding", at)
			}
		}
	})
	// A request property with an inline default is required in openapi-typescript's types (its
	// default defaultNonNullable): the default lives in a schema of its own.
	for name, p := range schemas["QrRequest"].(map[string]any)["properties"].(map[string]any) {
		if _, ok := p.(map[string]any)["default"]; ok {
			t.Errorf("QrRequest.%s has an inline default: refer to a schema that holds it", name)
		}
	}
	body := doc["paths"].(map[string]any)["/mcp"].(map[string]any)["post"].(map[string]any)["requestBody"]
	if got := body.(map[string]any)["content"].(map[string]any)["application/json"].(map[string]any)["schema"].(map[string]any)["type"]; got != "object" {
		t.Errorf("/mcp's body has type %v, want object (a batch array is refused)", got)
	}
	info := doc["info"].(map[string]any)
	for _, field := range []string{"license", "contact"} {
		if info[field] == nil {
			t.Errorf("info has no %s (Redocly recommended, Spectral spectral:oas)", field)
		}
	}
}

// walkJSON calls visit on every object in v, with its JSON pointer from at.
func walkJSON(v any, at string, visit func(at string, node map[string]any)) {
	switch v := v.(type) {
	case map[string]any:
		visit(at, v)
		for k, child := range v {
			walkJSON(child, at+"/"+k, visit)
		}
	case []any:
		for i, child := range v {
			walkJSON(child, fmt.Sprintf("%s/%d", at, i), visit)
		}
	}
}
