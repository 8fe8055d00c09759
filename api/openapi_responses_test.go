package api

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers/legacy"

	"github.com/bananaqr/bananaqr/payload"
	"github.com/bananaqr/bananaqr/qr"
	"github.com/bananaqr/bananaqr/render"
)

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
	pdf, err := render.PDF(sym, render.Defaults())
	if err != nil {
		t.Fatal(err)
	}
	eps, err := render.EPS(sym, render.Defaults())
	if err != nil {
		t.Fatal(err)
	}
	headers := func(contentType, format string, private bool) http.Header {
		h := http.Header{}
		h.Set("Content-Type", contentType)
		h.Set("X-QR-Logo", "none")
		h.Set("X-QR-Size", "1024")
		h.Set("X-QR-Format", format)
		h.Set("X-QR-Version", "2")
		h.Set("X-QR-ECC", "M")
		h.Set("Cache-Control", "private, no-store")
		h.Set("RateLimit-Limit", "60")
		h.Set("RateLimit-Remaining", "59")
		h.Set("RateLimit-Reset", "60")
		h.Set("Access-Control-Allow-Origin", "*")
		if private {
			h.Set("X-QR-Payload-Type", "wifi")
			h.Set("Content-Disposition", `attachment; filename="qr-wifi.`+format+`"`)
			h.Set("X-QR-Warning", string(payload.ReasonLegacyAndroid))
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
			r.Warnings = []Warning{{Reason: string(payload.ReasonLegacyAndroid), Field: "password", Message: "Android before 15 misreads a password that ends in a backslash"}}
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
			check{"PDF", http.MethodGet, "/api/qr-code?url=x&format=pdf", 200, headers("application/pdf", "pdf", private), pdf},
			check{"EPS", http.MethodGet, "/api/qr-code?url=x&format=eps", 200, headers("application/postscript", "eps", private), eps},
			check{"POST PDF", http.MethodPost, "/api/qr-code", 200, headers("application/pdf", "pdf", private), pdf},
			check{"POST EPS", http.MethodPost, "/api/qr-code", 200, headers("application/postscript", "eps", private), eps},
			check{"/url PDF", http.MethodGet, "/api/qr-code/url?url=x&format=pdf", 200, headers("application/pdf", "pdf", private), pdf},
		)
	}
	for _, path := range []string{"/healthz", "/api/qr-code/healthz"} {
		good = append(good, check{"health", http.MethodGet, path, 200, http.Header{"Content-Type": {"application/json"}}, []byte(`{"ok":true}`)})
	}
	data, _ := readOpenAPI()
	good = append(good, check{"document", http.MethodGet, "/openapi.json", 200, http.Header{"Content-Type": {"application/json"}}, data})
	for _, c := range Reasons {
		if c.Status == http.StatusNotFound || c.Status == http.StatusMethodNotAllowed || c.Status == http.StatusRequestHeaderFieldsTooLarge {
			continue // no operation answers them: the router does
		}
		h := http.Header{"Content-Type": {"application/json; charset=utf-8"}, "Access-Control-Allow-Origin": {"*"}}
		if c.Status == http.StatusTooManyRequests || c.Status == http.StatusServiceUnavailable {
			h.Set("Retry-After", "60")
		}
		body := marshal(NewError(c.Reason, "", "Do something else.", "%s", c.Description).Body())
		if c.Status != http.StatusUnsupportedMediaType {
			for _, target := range []string{"/api/qr-code?url=x", "/api/qr-code/url?url=x", "/api/qr-code.png?url=x", "/api/qr-code.svg?url=x"} {
				good = append(good, check{string(c.Reason), http.MethodGet, target, c.Status, h, body})
			}
		}
		good = append(good, check{string(c.Reason), http.MethodPost, "/api/qr-code", c.Status, h, body})
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
		{"a PDF from the .svg path", http.MethodGet, "/api/qr-code.svg?url=x", 200, headers("application/pdf", "pdf", false), pdf},
		{"an unknown X-QR-Format", http.MethodGet, "/api/qr-code?url=x", 200, headers("application/pdf", "ps", false), pdf},
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
