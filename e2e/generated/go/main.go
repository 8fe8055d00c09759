// Command generated calls a running bananaqr serve through the client oapi-codegen generates
// from the served /openapi.json (package genclient, which scripts/generated-clients.sh writes
// beside this file in a module of its own, outside bananaqr's). It makes each kind of call the
// TypeScript clients make, checks the answers, and writes the images and the archive to a
// directory for the script to decode.
//
// Usage: generated BASE_URL LIMITED_BASE_URL OUT_DIR
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"log"
	"net/http"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"

	"example.com/bananaqr-generated/genclient"
)

func main() {
	if len(os.Args) != 4 {
		log.Fatal("usage: generated BASE_URL LIMITED_BASE_URL OUT_DIR")
	}
	base, limitedBase, out := os.Args[1], os.Args[2], os.Args[3]
	if err := os.MkdirAll(out, 0o755); err != nil {
		log.Fatal(err)
	}
	c, err := genclient.NewClientWithResponses(base)
	check(err)
	limited, err := genclient.NewClientWithResponses(limitedBase)
	check(err)
	ctx := context.Background()
	save := func(name string, body []byte) { check(os.WriteFile(filepath.Join(out, name), body, 0o644)) }
	images(ctx, c, save)
	wifiJSON(ctx, c, save)
	refusals(ctx, c, limited)
	batch(ctx, c, save)
}

// images asks for an SVG and a PNG by GET.
func images(ctx context.Context, c *genclient.ClientWithResponses, save func(string, []byte)) {
	svg, err := c.GetQrCodeSvgWithResponse(ctx, &genclient.GetQrCodeSvgParams{Url: ptr("https://example.com/generated/oapi-codegen")})
	check(err)
	want(svg.StatusCode() == http.StatusOK && strings.HasPrefix(svg.HTTPResponse.Header.Get("Content-Type"), "image/svg+xml") &&
		bytes.HasPrefix(svg.Body, []byte("<svg")), "GET /api/qr-code.svg: %d %s", svg.StatusCode(), svg.Body)
	save("code.svg", svg.Body)
	ok("GET /api/qr-code.svg: an SVG")

	png, err := c.GetQrCodePngWithResponse(ctx, &genclient.GetQrCodePngParams{Text: ptr("bananaqr oapi-codegen PNG"), Size: ptr(256)})
	check(err)
	want(png.StatusCode() == http.StatusOK && png.HTTPResponse.Header.Get("Content-Type") == "image/png", "GET /api/qr-code.png: %d", png.StatusCode())
	save("code.png", png.Body)
	ok("GET /api/qr-code.png: a PNG")
}

// wifiJSON asks for a Wi-Fi code as JSON and compares the typed answer with the raw JSON it was
// decoded from, and encoded again.
func wifiJSON(ctx context.Context, c *genclient.ClientWithResponses, save func(string, []byte)) {
	wifi, err := c.CreateStructuredQrCodeWithResponse(ctx, genclient.QrRequest{
		Type: ptr(genclient.QrRequestTypeWifi), Ssid: ptr("Lab-oapi-codegen"), Password: ptr("hunter22"), Format: ptr(genclient.ResponseFormatJson),
	})
	check(err)
	want(wifi.JSON200 != nil, "POST /api/qr-code format=json: %d %s", wifi.StatusCode(), wifi.Body)
	got := wifi.JSON200
	var raw map[string]any
	check(json.Unmarshal(wifi.Body, &raw))
	pngBytes, err := got.PngBase64.Bytes()
	check(err)
	want(got.PayloadType == "wifi" && got.Payload == nil && got.ImageUrl == nil && got.SvgUrl == nil && got.Format == "json" &&
		got.Size == 1024 && got.Modules == 17+4*got.Version && strings.HasPrefix(got.Svg, "<svg") &&
		got.Svg == raw["svg"] && got.PngDataUrl == raw["png_data_url"] && float64(got.Version) == raw["version"] &&
		string(got.Ecc) == raw["ecc"] && len(got.Warnings) == 0, "the typed answer %+v differs from the raw JSON", got)
	reencoded, err := json.Marshal(got)
	check(err)
	var again map[string]any
	check(json.Unmarshal(reencoded, &again))
	want(reflect.DeepEqual(again, raw), "the typed answer encodes again as %s, not as the raw %s", reencoded, wifi.Body)
	save("wifi.png", pngBytes)
	ok("POST /api/qr-code format=json (wifi): the fields, the PNG")
}

// refusals checks a 400 and a 413 with their codes and hints, and a 429 with Retry-After from
// limited, the server that makes one code a minute.
func refusals(ctx context.Context, c, limited *genclient.ClientWithResponses) {
	bad, err := c.CreateStructuredQrCodeWithResponse(ctx, genclient.QrRequest{Type: ptr(genclient.QrRequestTypeUrl), Url: ptr("javascript:alert(1)")})
	check(err)
	checkError(bad.JSON400, bad.StatusCode(), http.StatusBadRequest, genclient.INVALIDURL)
	ok("400 INVALID_URL, hint: " + bad.JSON400.Hint)

	big, err := c.CreateStructuredQrCodeWithResponse(ctx, genclient.QrRequest{Type: ptr(genclient.QrRequestTypeText), Text: ptr(strings.Repeat("x", 2049))})
	check(err)
	checkError(big.JSON413, big.StatusCode(), http.StatusRequestEntityTooLarge, genclient.PAYLOADTOOLARGE)
	ok("413 PAYLOAD_TOO_LARGE")

	refused := false
	for i := 0; i < 3 && !refused; i++ {
		r, err := limited.CreateStructuredQrCodeWithResponse(ctx, genclient.QrRequest{Type: ptr(genclient.QrRequestTypeText), Text: ptr("again"), Format: ptr(genclient.ResponseFormatPng)})
		check(err)
		if r.StatusCode() == http.StatusTooManyRequests {
			checkError(r.JSON429, r.StatusCode(), http.StatusTooManyRequests, genclient.RATELIMITED)
			retry := r.HTTPResponse.Header.Get("Retry-After")
			want(regexp.MustCompile(`^[1-9][0-9]*$`).MatchString(retry), "Retry-After %q", retry)
			refused = true
		} else {
			want(r.StatusCode() == http.StatusOK, "limited POST: %d %s", r.StatusCode(), r.Body)
		}
	}
	want(refused, "no 429 after 3 codes at one a minute")
	ok("429 RATE_LIMITED with Retry-After")
}

// batch asks for a batch of two codes, a ZIP archive.
func batch(ctx context.Context, c *genclient.ClientWithResponses, save func(string, []byte)) {
	menu := genclient.BatchItem{Filename: ptr("menu")}
	menu.Set("url", "https://example.com/menu")
	text := genclient.BatchItem{}
	text.Set("type", "text")
	text.Set("text", "hello oapi-codegen")
	text.Set("format", "png")
	zip, err := c.CreateQrCodeBatchWithResponse(ctx, genclient.CreateQrCodeBatchJSONRequestBody{menu, text})
	check(err)
	want(zip.StatusCode() == http.StatusOK && zip.HTTPResponse.Header.Get("Content-Type") == "application/zip", "POST /api/qr-code/batch: %d %s", zip.StatusCode(), zip.Body)
	save("batch.zip", zip.Body)
	ok("POST /api/qr-code/batch: a ZIP archive")
}

// checkError fails unless an answer of status wantStatus decoded to the error object with code
// and a hint.
func checkError(e *genclient.Error, status, wantStatus int, code genclient.ErrorCode) {
	want(status == wantStatus && e != nil && e.Code == code && e.Hint != "" && e.Message == e.Error,
		"status %d, want %d with %s: %+v", status, wantStatus, code, e)
}

func ptr[T any](v T) *T { return &v }

func check(err error) {
	if err != nil {
		log.Fatal(err)
	}
}

func want(cond bool, format string, args ...any) {
	if !cond {
		log.Fatalf("FAIL: "+format, args...)
	}
}

func ok(what string) { fmt.Println("ok: " + what) }
