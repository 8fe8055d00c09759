package payload_test

import (
	"errors"
	"fmt"
	"log"

	"github.com/bananaqr/bananaqr/payload"
)

// A Wi-Fi network's credentials in the WIFI: format that phone cameras read: the name's and
// password's special characters escaped, and the payload private, never to be echoed.
func ExampleBuild() {
	p, err := payload.Build(&payload.Request{Type: payload.WiFi, SSID: "Café; 2.4GHz", Password: `p@ss:word\`})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(p.Text)
	fmt.Println(p.Type, "private:", p.Private)
	for _, w := range p.Warnings {
		fmt.Println(w.Reason, w.Field)
	}
	// Output:
	// WIFI:T:WPA;S:Café\; 2.4GHz;P:p@ss\:word\\;;
	// wifi private: true
	// LEGACY_ANDROID_WIFI password
}

// A URL without a scheme gets https://; URLs and text are public.
func ExampleBuild_url() {
	p, err := payload.Build(&payload.Request{URL: "example.com/menu?table=4"})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(p.Text, p.Type, "private:", p.Private)
	// Output:
	// https://example.com/menu?table=4 url private: false
}

// An error names the field at fault and says what to do, without quoting a private value.
func ExampleBuild_error() {
	_, err := payload.Build(&payload.Request{Type: payload.WiFi, SSID: "home", Password: "short"})
	var e *payload.Error
	if errors.As(err, &e) {
		fmt.Println(e.Reason, e.Field)
		fmt.Println(e.Hint)
	}
	// Output:
	// INVALID_PASSWORD password
	// A WPA password has 8 to 63 characters, or is a key of 64 hexadecimal digits.
}

// Raw data is judged by its content: a Wi-Fi string sent as text is still private.
func ExampleClassify() {
	for _, s := range []string{"https://example.com", "WIFI:T:WPA;S:home;P:secret123;;", "MECARD:N:Doe,Jane;;"} {
		t, private := payload.Classify(s)
		fmt.Println(t, private)
	}
	// Output:
	// url false
	// wifi true
	// vcard true
}
