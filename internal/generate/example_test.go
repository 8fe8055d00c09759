package generate_test

import (
	"bytes"
	"fmt"
	"image/png"
	"log"

	"github.com/bananaqr/bananaqr/api"
	"github.com/bananaqr/bananaqr/internal/generate"
	"github.com/bananaqr/bananaqr/payload"
)

// A request goes the one way through: payload, symbol, images. A quiet zone below 4 modules is
// valid but warned of.
func ExampleCode() {
	r := api.NewRequest()
	r.Payload = payload.Request{Type: payload.URL, URL: "example.com/menu"}
	r.Format, r.Size, r.Margin = api.FormatJSON, 512, 2
	res, err := generate.Code(&r)
	if err != nil {
		log.Fatal(err)
	}
	defer res.Release()
	fmt.Println(res.Payload.Text, "private:", res.Payload.Private)
	fmt.Printf("version %d, level %s, %d modules a side, %d pixels a module\n",
		res.Symbol.Version(), res.Symbol.Level(), res.Symbol.Size(), res.ModulePx)
	for _, w := range res.Warnings {
		fmt.Println("warning:", w.Reason, w.Field)
	}
	cfg, err := png.DecodeConfig(bytes.NewReader(res.PNG))
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("a %d×%d PNG; the SVG's title: %s\n", cfg.Width, cfg.Height, title(res.SVG))
	// Output:
	// https://example.com/menu private: false
	// version 2, level M, 25 modules a side, 17 pixels a module
	// warning: SMALL_QUIET_ZONE margin
	// a 512×512 PNG; the SVG's title: QR code: https://example.com/menu
}

// A private payload's SVG names only its type; an error is the API's.
func ExampleCode_private() {
	r := api.NewRequest()
	r.Payload = payload.Request{Type: payload.WiFi, SSID: "home", Password: "correct horse"}
	res, err := generate.Code(&r)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("%s; a PNG too: %t\n", title(res.SVG), res.PNG != nil) // the default format is svg
	res.Release()

	r.Size = 128
	r.Payload = payload.Request{Type: payload.Text, Text: string(bytes.Repeat([]byte("banana "), 200))}
	_, err = generate.Code(&r)
	e := api.ErrorOf(err)
	fmt.Println(e.Status, e.Reason, e.Field)
	fmt.Println(e.Hint)
	// Output:
	// QR code (wifi); a PNG too: false
	// 422 NOT_ENCODABLE size
	// Use size 298 or more (2 pixels a module), or a smaller margin.
}

// title returns the text of an SVG's <title>.
func title(svg []byte) string {
	_, after, _ := bytes.Cut(svg, []byte("<title"))
	_, after, _ = bytes.Cut(after, []byte(">"))
	t, _, _ := bytes.Cut(after, []byte("</title>"))
	return string(t)
}
