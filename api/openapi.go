package api

import _ "embed"

// OpenAPI is the OpenAPI 3.1 document of the HTTP API, served at /openapi.json.
//
//go:embed openapi.json
var OpenAPI []byte
