package payload

import "testing"

// TestDestinationOf: the host in Unicode (and whether its letters mix scripts, UTS #39), the port,
// and the path decoded when it decodes to printable text, from URLs as NormalizeURL writes them.
func TestDestinationOf(t *testing.T) {
	for _, c := range []struct {
		in   string
		want Destination
	}{
		{"https://example.com/", Destination{Host: "example.com", ASCIIHost: "example.com"}},
		{"https://example.com/menu?table=4#top", Destination{Host: "example.com", ASCIIHost: "example.com", Path: "/menu", RawPath: "/menu"}},
		{"http://xn--bcher-kva.de:8080/stra%C3%9Fe", Destination{Host: "bücher.de:8080", ASCIIHost: "xn--bcher-kva.de:8080", Path: "/straße", RawPath: "/stra%C3%9Fe"}},
		// a Cyrillic а in a Latin name: the homograph's mark
		{"https://xn--pple-43d.com/login", Destination{Host: "аpple.com", ASCIIHost: "xn--pple-43d.com", MixedScripts: true, Path: "/login", RawPath: "/login"}},
		// a Cyrillic name under a Latin top-level domain mixes scripts too
		{"https://xn--e1afmkfd.com/", Destination{Host: "пример.com", ASCIIHost: "xn--e1afmkfd.com", MixedScripts: true}},
		{"https://xn--e1afmkfd.xn--p1ai/", Destination{Host: "пример.рф", ASCIIHost: "xn--e1afmkfd.xn--p1ai"}},
		// Japanese: Han, Hiragana and Latin together are one "Highly Restrictive" set
		{"https://xn--r8jz45g.jp/", Destination{Host: "例え.jp", ASCIIHost: "xn--r8jz45g.jp"}},
		// an encoded space, a control or a bidirectional override stay encoded
		{"https://example.com/a%20b", Destination{Host: "example.com", ASCIIHost: "example.com", Path: "/a%20b", RawPath: "/a%20b"}},
		{"https://example.com/%E2%80%AEtxt.exe", Destination{Host: "example.com", ASCIIHost: "example.com", Path: "/%E2%80%AEtxt.exe", RawPath: "/%E2%80%AEtxt.exe"}},
		{"https://example.com/%FF", Destination{Host: "example.com", ASCIIHost: "example.com", Path: "/%FF", RawPath: "/%FF"}},
		{"https://[2001:db8::1]:8443/x", Destination{Host: "[2001:db8::1]:8443", ASCIIHost: "[2001:db8::1]:8443", Path: "/x", RawPath: "/x"}},
	} {
		got, ok := DestinationOf(c.in)
		if !ok || got != c.want {
			t.Errorf("%s: %+v, %v; want %+v", c.in, got, ok, c.want)
		}
	}
	for _, in := range []string{"mailto:a@example.com", "ftp://example.com/x", "https://", "tel:+1"} {
		if d, ok := DestinationOf(in); ok {
			t.Errorf("%s: %+v, want no destination", in, d)
		}
	}
}
