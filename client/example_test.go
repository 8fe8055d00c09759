package client_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"image/color"
	"image/png"
	"log"
	"log/slog"
	"net"
	"net/http/httptest"
	"strings"

	"github.com/bananaqr/bananaqr/api"
	"github.com/bananaqr/bananaqr/client"
	"github.com/bananaqr/bananaqr/internal/httpapi"
	"github.com/bananaqr/bananaqr/payload"
)

// startService runs the service on a local port for the examples, as "bananaqr serve" would,
// and returns its base URL.
func startService() (url string, stop func()) {
	s := httptest.NewServer(httpapi.New(httpapi.Config{OpenAPI: api.OpenAPI, Logger: slog.New(slog.DiscardHandler)}).Handler())
	return s.URL, s.Close
}

// A PNG of a URL, rounded, with the banana.
func Example() {
	base, stop := startService() // such as "https://qr.example.com"
	defer stop()

	c, err := client.New(base)
	if err != nil {
		log.Fatal(err)
	}
	r := api.NewRequest()
	r.Payload = payload.Request{Type: payload.URL, URL: "example.com/menu"}
	r.Size, r.Corners, r.Logo = 512, api.CornersRounded, api.LogoBanana
	img, err := c.PNG(context.Background(), r)
	if err != nil {
		log.Fatal(err)
	}
	cfg, err := png.DecodeConfig(bytes.NewReader(img.Bytes))
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("a %d×%d PNG\n", cfg.Width, cfg.Height)
	// Output:
	// a 512×512 PNG
}

// The JSON response of a Wi-Fi code: the payload is private, so it is not echoed.
func ExampleClient_JSON() {
	base, stop := startService()
	defer stop()
	c, _ := client.New(base)

	r := api.NewRequest()
	r.Payload = payload.Request{Type: payload.WiFi, SSID: "Lab Net", Password: "hunter22"}
	code, err := c.JSON(context.Background(), r)
	if err != nil {
		log.Fatal(err)
	}
	res := code.Response
	fmt.Println(res.PayloadType, res.Payload == nil, res.ImageURL == nil)
	fmt.Printf("version %d, level %s, %d modules a side, %d px each\n", res.Version, res.ECC, res.Modules, res.ModulePx)
	// Output:
	// wifi true true
	// version 3, level Q, 29 modules a side, 27 px each
}

// What to do with each kind of error (spec 7.2).
func ExampleAPIError() {
	base, stop := startService()
	defer stop()
	c, _ := client.New(base)

	r := api.NewRequest()
	r.Payload.Text = strings.Repeat("too long ", 300)
	_, err := c.SVG(context.Background(), r)

	var apiErr *client.APIError
	var netErr *client.TransportError
	switch {
	case errors.As(err, &apiErr) && apiErr.Status == 400:
		fmt.Println("correct the request:", apiErr.Hint)
	case errors.As(err, &apiErr) && (apiErr.Status == 413 || apiErr.Status == 422):
		fmt.Println(apiErr.Reason, "- shorten the content, or encode a URL that points to it")
	case errors.As(err, &apiErr):
		fmt.Println("the service said no:", apiErr)
	case errors.As(err, &netErr):
		fmt.Println("the service was not reached:", netErr)
	}
	// Output:
	// PAYLOAD_TOO_LARGE - shorten the content, or encode a URL that points to it
}

// A request that never reaches the service says so, and says what the liveness check found.
func ExampleTransportError() {
	ln, _ := net.Listen("tcp", "127.0.0.1:0")
	ln.Close() // nothing listens here any more
	c, _ := client.New("http://" + ln.Addr().String())

	r := api.NewRequest()
	r.Payload.URL = "example.com"
	_, err := c.PNG(context.Background(), r)
	var netErr *client.TransportError
	if errors.As(err, &netErr) {
		fmt.Println(netErr.Failure, "- service up:", netErr.Liveness.OK)
	}
	// Output:
	// connection - service up: false
}

// What the answer's headers say beside the code: here a quiet zone of one module, which the
// service makes but warns of.
func ExampleCode() {
	base, stop := startService()
	defer stop()
	c, _ := client.New(base)

	r := api.Request{Payload: payload.Request{URL: "https://example.com/menu"}, Margin: 1, Size: 512}
	code, err := c.SVG(context.Background(), r)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(code.PayloadType, *code.Payload, code.Version, code.ECC, code.Size, code.Warnings)
	// Output:
	// url https://example.com/menu 2 M 512 [SMALL_QUIET_ZONE]
}

// Whether readers can tell a colour from the background before asking for a code in them.
func ExampleClient_Contrast() {
	base, stop := startService()
	defer stop()
	c, _ := client.New(base)

	orange := color.RGBA{0xE0, 0x70, 0x1A, 0xff}
	v, err := c.Contrast(context.Background(), orange, color.RGBA{}) // on the default background
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(v.Readable, v.Suggestion.Color)
	// Output:
	// false #BD5E16
}

func ExampleClient_Health() {
	base, stop := startService()
	defer stop()
	c, _ := client.New(base)
	fmt.Println(c.Health(context.Background()))
	// Output:
	// <nil>
}
