package main

import (
	"bytes"
	"log/slog"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/bananaqr/bananaqr/api"
	"github.com/bananaqr/bananaqr/internal/httpapi"
	"github.com/bananaqr/bananaqr/payload"
)

// TestEncodeErrorsNameFlags: encode's errors name its flags (-type, -url, -password), not the
// API's fields or its data, and count in English.
func TestEncodeErrorsNameFlags(t *testing.T) {
	for _, c := range []struct {
		args  []string
		stdin string
		want  string // the whole of stderr
	}{
		{[]string{"-text", "hello"}, "", "bananaqr: -text is a field of -type text, and -type is not given\n" +
			"Add -type text, or give the text to encode as an argument, without -text.\n"},
		{[]string{"-phone", "+15551234567"}, "", "bananaqr: -phone is a field of -type vcard, sms or tel, and -type is not given\n" +
			"Add -type with one of them.\n"},
		{[]string{"-ssid", "home", "hello"}, "", "bananaqr: -ssid is a field of -type wifi, and -type is not given\nAdd -type wifi.\n"},
		{nil, "", "bananaqr: " + errNoText + "\n"},   // no argument, nothing on standard input
		{nil, "\n", "bananaqr: " + errNoText + "\n"}, // an empty line
		{[]string{""}, "", "bananaqr: " + errNoText + "\n"},
		{[]string{"-type", "url"}, "", "bananaqr: -url is required (MISSING_FIELD)\n" +
			"Add -url: the address to open, such as https://example.com.\n"},
		{[]string{"-type", "wifi", "-ssid", "home", "-password", "a"}, "", "bananaqr: -password has 1 character; WPA needs 8 to 63 (or 64 hexadecimal digits) (INVALID_PASSWORD)\n" +
			"A WPA password has 8 to 63 characters, or is a key of 64 hexadecimal digits.\n"},
		{[]string{"-type", "wifi", "-ssid", "home", "-password", "ab"}, "", "bananaqr: -password has 2 characters; WPA needs 8 to 63 (or 64 hexadecimal digits) (INVALID_PASSWORD)\n" +
			"A WPA password has 8 to 63 characters, or is a key of 64 hexadecimal digits.\n"},
		{[]string{"-type", "wifi", "-ssid", "home"}, "", "bananaqr: -password is required for a WPA network (MISSING_FIELD)\n" +
			"Add the network's password, or set -security to nopass for an open network.\n"},
		{[]string{"-type", "vcard", "-name", "Anna", "-email", "anna"}, "", "bananaqr: -email is not one e-mail address (INVALID_EMAIL)\n" +
			"Give one address such as anna@example.com: no spaces, commas, semicolons, ? or second @.\n"},
	} {
		var stdout, stderr bytes.Buffer
		code := run(append([]string{"encode"}, c.args...), strings.NewReader(c.stdin), &stdout, &stderr)
		if code != 2 || stdout.Len() != 0 || stderr.String() != c.want {
			t.Errorf("encode %q: exit %d, stdout %q, stderr\n%s\nwant exit 2 and\n%s", c.args, code, stdout.String(), stderr.String(), c.want)
		}
	}
}

// TestFlagWords: a field of the type becomes its flag where a message names it (its start, or
// after a word such as Add, from, or), and stays a word elsewhere; a field of two words is a
// flag anywhere; a field of another type is left alone.
func TestFlagWords(t *testing.T) {
	for _, c := range []struct {
		t        payload.Type
		in, want string
	}{
		{payload.VCard, "Add name: the contact's name.", "Add -name: the contact's name."},
		{payload.VCard, "the contact's jobTitle", "the contact's -job-title"},
		{payload.Text, "Add text: the text to encode.", "Add -text: the text to encode."},
		{payload.SMS, "Add phone: the number to text, such as +1 555 123 4567.", "Add -phone: the number to text, such as +1 555 123 4567."},
		{payload.EPC, "Shorten remittance or name: an EPC code holds at most 331 bytes", "Shorten -remittance or -name: an EPC code holds at most 331 bytes"},
		{payload.EPC, "Give an ISO 11649 creditor reference such as RF18 5390 0754 7034, or send free text as remittance.",
			"Give an ISO 11649 creditor reference such as RF18 5390 0754 7034, or send free text as -remittance."},
		{payload.URL, "Remove the control characters (tabs, line breaks) from url.", "Remove the control characters (tabs, line breaks) from -url."},
		{"", "url is required", "url is required"},
	} {
		if got := flagWords(c.in, c.t); got != c.want {
			t.Errorf("flagWords(%q, %s) = %q, want %q", c.in, c.t, got, c.want)
		}
	}
}

// TestEncodeRemoteErrorsNameFlags: with -remote, the service's refusal names the flags too.
func TestEncodeRemoteErrorsNameFlags(t *testing.T) {
	svc := httptest.NewServer(httpapi.New(httpapi.Config{OpenAPI: api.OpenAPI, Logger: slog.New(slog.DiscardHandler)}).Handler())
	t.Cleanup(svc.Close)
	var stdout, stderr bytes.Buffer
	code := run([]string{"encode", "-remote", svc.URL, "-type", "wifi", "-password", "x"}, strings.NewReader(""), &stdout, &stderr)
	if lines := strings.Split(stderr.String(), "\n"); code != 2 || len(lines) < 2 ||
		!strings.Contains(lines[0], ": -ssid is required (MISSING_FIELD, HTTP 400") || lines[1] != "Add -ssid: the network name." {
		t.Errorf("exit %d, stderr %q; want 2, -ssid named in the message and the hint", code, stderr.String())
	}
}
