package payload

import (
	"strings"
	"testing"
)

// TestMessagesCountInEnglish: the messages that count say "1 character" and "1 digit", not
// "1 characters", and keep the plural for other counts.
func TestMessagesCountInEnglish(t *testing.T) {
	for _, c := range []struct {
		r    Request
		want string
	}{
		{Request{Type: WiFi, SSID: "home", Password: "a"}, "password has 1 character; WPA needs"},
		{Request{Type: WiFi, SSID: "home", Password: "ab"}, "password has 2 characters; WPA needs"},
		{Request{Type: WiFi, SSID: "home", Security: "WEP", Password: "a"}, "password has 1 character, which is no WEP key length"},
		{Request{Type: WiFi, SSID: "home", Security: "WEP", Password: "abcd"}, "password has 4 characters, which is no WEP key length"},
		{Request{Type: SMS, Phone: "1"}, "phone has 1 digit; 3 to 15 are needed"},
		{Request{Type: Tel, Phone: "12"}, "phone has 2 digits; 3 to 15 are needed"},
	} {
		_, err := Build(&c.r)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: %v, want %q", c.r, err, c.want)
		}
	}
}
