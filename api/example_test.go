package api_test

import (
	"errors"
	"fmt"
	"log"

	"github.com/bananaqr/bananaqr/api"
)

// A POST body becomes a request: the payload's fields, and the style with the defaults where
// the body says nothing.
func ExampleDecodeJSON() {
	body := []byte(`{"type":"wifi","ssid":"home","password":"correct horse","format":"png","size":512,"color":"000000","logo":"banana"}`)
	r, err := api.DecodeJSON(body)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(r.Payload.Type, r.Payload.SSID, r.Format, r.Size, r.Margin, r.ECC)
	fmt.Println(api.FormatColor(r.Color), "on", api.FormatColor(r.Background), "banana:", r.Logo == api.LogoBanana)
	// Output:
	// wifi home png 512 4 M
	// #000000 on #FFFFFF banana: true
}

// A GET request reads its query string (type stays empty: payload.Build takes url from the
// url field); the private types are refused there, with the error that the API sends.
func ExampleFromQuery() {
	r, err := api.FromQuery("url=example.com&size=256&ecc=H&corners=rounded", api.RouteSVG)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("type %q, url %s, %s of %d pixels, ecc %s, rounded: %t\n",
		r.Payload.Type, r.Payload.URL, r.Format, r.Size, r.ECC, r.Corners == api.CornersRounded)

	_, err = api.FromQuery("type=wifi&ssid=home", api.RouteQRCode)
	var e *api.Error
	if errors.As(err, &e) {
		fmt.Println(e.Status, e.Reason, e.Field)
		fmt.Println(e.Hint)
	}
	// Output:
	// type "", url example.com, svg of 256 pixels, ecc H, rounded: true
	// 400 USE_POST type
	// Send wifi codes with POST /api/qr-code and a JSON body.
}

// Any error becomes the API's error object: a request's own, or an internal error that says
// nothing of the cause.
func ExampleErrorOf() {
	_, err := api.DecodeJSON([]byte(`{"type":"url","url":"example.com","size":"big"}`))
	fmt.Printf("%+v\n", api.ErrorOf(err).Body())
	fmt.Printf("%+v\n", api.ErrorOf(errors.New("disk full")).Body())
	// Output:
	// {Error:size must be a JSON integer Reason:WRONG_TYPE Message:size must be a JSON integer Hint:Send size as a JSON integer.}
	// {Error:the service failed to make the code Reason:INTERNAL_ERROR Message:the service failed to make the code Hint:Retry later; if it persists, report it.}
}

// The Markdown image of a public code links its PNG; a private code's embeds it as a data: URL.
func ExampleMarkdownImage() {
	fmt.Println(api.MarkdownImage("https://qr.example.com/api/qr-code.png?url=https%3A%2F%2Fexample.com"))
	// Output: ![QR code](https://qr.example.com/api/qr-code.png?url=https%3A%2F%2Fexample.com)
}
