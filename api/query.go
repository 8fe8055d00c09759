// Reading a GET request from its query string.

package api

import (
	"net/url"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/bananaqr/bananaqr/payload"
)

// Route is a GET endpoint that reads its request from the query string.
type Route int

// The GET routes.
const (
	RouteQRCode Route = iota // /api/qr-code: format from the query
	RouteURL                 // /api/qr-code/url: the url parameter only, as type url
	RoutePNG                 // /api/qr-code.png: always PNG
	RouteSVG                 // /api/qr-code.svg: always SVG
)

// queryNames are the parameters a GET request reads; others are ignored (links get tracking
// parameters appended).
var queryNames = []string{"type", "url", "text", "data", "color", "background", "logo", "corners", "size",
	"format", "download", "ecc", "margin", "caption", "caption_position", "show_destination"}

// FromQuery reads a GET request from its raw query string (spec 4.1, 4.3 to 4.5): url, text or
// raw data, and the style parameters; type may be url or text (the structured types need POST);
// download is 0, 1, true or false. A parameter the route reads may be given once only. The
// parameters are read in queryNames' order, so that a query with several faults always gets
// the same error.
func FromQuery(rawQuery string, route Route) (Request, error) {
	r := NewRequest()
	q := query(rawQuery)
	if err := q.check(); err != nil {
		return r, err
	}
	if route == RouteURL {
		if !q.has("url") {
			return r, NewError(payload.ReasonMissingField, "url", "Add url: the address to encode, percent-encoded.", "url is required")
		}
		r.Payload.Type = payload.URL
	}
	for _, name := range queryNames {
		if !route.reads(name) {
			continue
		}
		v, ok, err := q.get(name)
		if err != nil {
			return r, err
		}
		if !ok {
			continue
		}
		if err := r.setQuery(name, v); err != nil {
			return r, err
		}
	}
	switch route {
	case RoutePNG:
		r.Format = FormatPNG
	case RouteSVG:
		r.Format = FormatSVG
	}
	return r, nil
}

// reads reports whether route reads the parameter name: /url takes the url parameter only, as
// type url; the .png and .svg routes fix the format (spec 4.3 to 4.5).
func (route Route) reads(name string) bool {
	switch route {
	case RouteURL:
		return name != "type" && name != "text" && name != "data"
	case RoutePNG, RouteSVG:
		return name != "format"
	}
	return true
}

// setQuery sets the request's property name to the query parameter's value v: type, the style
// sizes (size, margin), download, or one of the string properties.
func (r *Request) setQuery(name, v string) error {
	switch name {
	case "type":
		t, err := queryType(v)
		if err != nil {
			return err
		}
		r.Payload.Type = t
	case "size", "margin":
		return r.SetStyle(name, v)
	case "download":
		b, err := parseBool(name, v)
		r.Download = b
		return err
	default:
		return r.setString(name, v)
	}
	return nil
}

// queryType returns the payload type v of a GET request: url or text.
func queryType(v string) (payload.Type, error) {
	// The private types are made with POST, so that their fields stay out of URLs and
	// logs; which types are private is payload's one judgement (Type.Private).
	switch t := payload.Type(v); {
	case !slices.Contains(payload.Types, t):
		return "", NewError(payload.ReasonInvalidType, "type", "Use "+payload.JoinWords(payload.PublicTypes(), "or")+" with GET; "+
			payload.JoinWords(payload.PrivateTypes(), "and")+" with POST.",
			"type %q is not a payload type", v)
	case t.Private():
		return "", NewError(ReasonUsePost, "type", "Send "+v+" codes with POST /api/qr-code and a JSON body.",
			"type %s is made with POST, not GET", v)
	default:
		return t, nil
	}
}

// ColorsFromQuery reads the query string of GET /api/contrast: color and background, each at
// most once, the defaults where absent; other parameters are ignored.
func ColorsFromQuery(rawQuery string) (Request, error) {
	r := NewRequest()
	q := query(rawQuery)
	if err := q.check(); err != nil {
		return r, err
	}
	for _, name := range []string{"color", "background"} {
		v, ok, err := q.get(name)
		if err == nil && ok {
			_, err = r.setStyle(name, v)
		}
		if err != nil {
			return r, err
		}
	}
	return r, nil
}

// query is a raw query string (RFC 3986 3.4) of name=value pairs joined by &, each percent-
// encoded with + for a space (application/x-www-form-urlencoded), read as url.ParseQuery reads
// it, but without building its map: a request reads a dozen names, and only those it finds
// are unescaped.
type query string

// badQuery is the error of a query string that url.ParseQuery cannot parse.
var badQuery = NewError(ReasonInvalidQuery, "", "Percent-encode the parameter values (a ; as %3B, a % as %25).",
	"the query string cannot be parsed")

// pairs calls yield with each pair of q, as written: empty pairs are skipped.
func (q query) pairs(yield func(name, value string) bool) {
	for pair := range strings.SplitSeq(string(q), "&") {
		if pair == "" {
			continue
		}
		name, value, _ := strings.Cut(pair, "=")
		if !yield(name, value) {
			return
		}
	}
}

// check returns INVALID_QUERY when url.ParseQuery fails on q: a pair holds a ; (which older
// servers took for a separator), or a % that starts no escape.
func (q query) check() error {
	for name, value := range q.pairs {
		if strings.ContainsRune(name, ';') || strings.ContainsRune(value, ';') || !validEscapes(name) || !validEscapes(value) {
			return badQuery
		}
	}
	return nil
}

// has reports whether q gives the parameter name.
func (q query) has(name string) bool {
	for n := range q.pairs {
		if unescape(n) == name {
			return true
		}
	}
	return false
}

// get returns the value of the parameter name, unescaped, and whether q gives it: an error when
// it is given more than once or is not UTF-8. q must have passed check.
func (q query) get(name string) (string, bool, error) {
	value, count := "", 0
	for n, v := range q.pairs {
		if unescape(n) == name {
			if count++; count == 1 {
				value = v
			}
		}
	}
	switch {
	case count == 0:
		return "", false, nil
	case count > 1:
		return "", true, NewError(ReasonInvalidQuery, name, "Give "+name+" once.", "%s is given %d times", name, count)
	}
	if value = unescape(value); !utf8.ValidString(value) {
		return "", true, NewError(payload.ReasonInvalidText, name, "Percent-encode "+name+" as UTF-8.", "%s is not valid UTF-8", name)
	}
	return value, true, nil
}

// unescape returns s with its escapes decoded and + as a space; s as it is, with nothing
// copied, when it has neither. s must have valid escapes (validEscapes).
func unescape(s string) string {
	if !strings.ContainsAny(s, "%+") {
		return s
	}
	u, _ := url.QueryUnescape(s)
	return u
}

// validEscapes reports whether every % in s starts an escape: two hexadecimal digits.
func validEscapes(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] == '%' {
			if i+2 >= len(s) || !isHexDigit(s[i+1]) || !isHexDigit(s[i+2]) {
				return false
			}
			i += 2
		}
	}
	return true
}

// isHexDigit reports whether c is a hexadecimal digit.
func isHexDigit(c byte) bool { return '0' <= c && c <= '9' || 'a' <= c|0x20 && c|0x20 <= 'f' }
