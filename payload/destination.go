package payload

import (
	"net/url"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/net/idna"
)

// Destination is where a web link goes, as a printed code shows it beneath itself so that people
// can check it before they scan (issue 32, show_destination; the advice of the FBI's IC3,
// January 2022, and the FTC, December 2023, against QR phishing): the host and the path, without
// the scheme, the query or the fragment.
type Destination struct {
	Host      string // the host in Unicode (UTS #46 ToUnicode), with :port when it has one
	ASCIIHost string // the host as the URL holds it, in ASCII (punycode), with :port
	// MixedScripts says that the host's letters are of more than one script (UTS #39 5.1: not
	// "Highly Restrictive"), the mark of a homograph such as аpple.com with a Cyrillic а:
	// the host is shown in both forms then.
	MixedScripts bool
	Path         string // the path, percent-decoded where it decodes to printable text; "" for /
	RawPath      string // the path as the URL holds it, percent-encoded; "" for /
}

// DestinationOf returns the destination of u, an http or https URL as NormalizeURL writes it;
// ok is false for any other URL.
func DestinationOf(u string) (d Destination, ok bool) {
	parsed, err := url.Parse(u)
	if err != nil || (parsed.Scheme != "http" && parsed.Scheme != "https") || parsed.Host == "" {
		return Destination{}, false
	}
	host, port := parsed.Hostname(), parsed.Port()
	unicodeHost, err := idna.Display.ToUnicode(host)
	if err != nil {
		unicodeHost = host
	}
	d = Destination{Host: unicodeHost, ASCIIHost: host, MixedScripts: mixedScripts(unicodeHost)}
	if strings.HasPrefix(parsed.Host, "[") { // an IPv6 literal keeps its brackets
		d.Host, d.ASCIIHost = "["+host+"]", "["+host+"]"
	}
	if port != "" {
		d.Host += ":" + port
		d.ASCIIHost += ":" + port
	}
	d.Path = displayPath(parsed.EscapedPath())
	if d.Path != "" {
		d.RawPath = parsed.EscapedPath()
	}
	return d, true
}

// displayPath returns the escaped path p as people read it: percent-decoded when that gives
// printable UTF-8 (no controls, format characters such as bidirectional overrides, or spaces,
// which would hide where the path ends), else as it is; "" for the root, "/".
func displayPath(p string) string {
	if p == "/" || p == "" {
		return ""
	}
	decoded, err := url.PathUnescape(p)
	if err != nil || !utf8.ValidString(decoded) {
		return p
	}
	for _, c := range decoded {
		if unicode.IsControl(c) || unicode.Is(unicode.Cf, c) || unicode.IsSpace(c) {
			return p
		}
	}
	return decoded
}

// mixedScripts reports whether the letters of host are of more than one script, as UTS #39
// (Unicode Security Mechanisms) 5.2 judges a "Highly Restrictive" string: one script, or Latin
// with Han, Hiragana and Katakana (Japanese), with Han and Bopomofo (Chinese) or with Han and
// Hangul (Korean). Characters of the Common and Inherited scripts (digits, hyphens, dots,
// combining marks) belong to any.
func mixedScripts(host string) bool {
	var scripts []*unicode.RangeTable
	for _, c := range host {
		if s := scriptOf(c); s != nil && !containsTable(scripts, s) {
			scripts = append(scripts, s)
		}
	}
	if len(scripts) <= 1 {
		return false
	}
	for _, allowed := range [][]*unicode.RangeTable{
		{unicode.Latin, unicode.Han, unicode.Hiragana, unicode.Katakana},
		{unicode.Latin, unicode.Han, unicode.Bopomofo},
		{unicode.Latin, unicode.Han, unicode.Hangul},
	} {
		if allIn(scripts, allowed) {
			return false
		}
	}
	return true
}

// scriptOf returns the script of the letter c among Unicode's scripts, or nil for a character of
// the Common or Inherited script.
func scriptOf(c rune) *unicode.RangeTable {
	if c < utf8.RuneSelf { // ASCII: Latin letters, or Common
		if 'a' <= c|0x20 && c|0x20 <= 'z' {
			return unicode.Latin
		}
		return nil
	}
	if unicode.Is(unicode.Common, c) || unicode.Is(unicode.Inherited, c) {
		return nil
	}
	for _, s := range unicode.Scripts {
		if unicode.Is(s, c) {
			return s
		}
	}
	return nil
}

// containsTable reports whether tables holds t.
func containsTable(tables []*unicode.RangeTable, t *unicode.RangeTable) bool {
	for _, u := range tables {
		if u == t {
			return true
		}
	}
	return false
}

// allIn reports whether every table of tables is in set.
func allIn(tables, set []*unicode.RangeTable) bool {
	for _, t := range tables {
		if !containsTable(set, t) {
			return false
		}
	}
	return true
}
