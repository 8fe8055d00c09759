package api

import (
	"net/url"
	"reflect"
	"testing"
	"unicode/utf8"

	"github.com/bananaqr/bananaqr/payload"
)

// fromParsedQuery is FromQuery as it was written on url.ParseQuery's map: the model that the
// scanning query must answer like.
func fromParsedQuery(rawQuery string, route Route) (Request, error) {
	r := NewRequest()
	q, err := url.ParseQuery(rawQuery)
	if err != nil {
		return r, badQuery
	}
	switch route {
	case RouteURL:
		delete(q, "type")
		delete(q, "text")
		delete(q, "data")
		if _, ok := q["url"]; !ok {
			return r, NewError(payload.ReasonMissingField, "url", "Add url: the address to encode, percent-encoded.", "url is required")
		}
		r.Payload.Type = payload.URL
	case RoutePNG, RouteSVG:
		delete(q, "format")
	}
	for _, name := range queryNames {
		values, ok := q[name]
		switch {
		case !ok:
			continue
		case len(values) > 1:
			return r, NewError(ReasonInvalidQuery, name, "Give "+name+" once.", "%s is given %d times", name, len(values))
		case !utf8.ValidString(values[0]):
			return r, NewError(payload.ReasonInvalidText, name, "Percent-encode "+name+" as UTF-8.", "%s is not valid UTF-8", name)
		}
		if err := r.setQuery(name, values[0]); err != nil {
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

// FuzzQueryAsParseQuery: FromQuery, which scans the query string, answers every query on every
// route as the same rules read from url.ParseQuery's map do: the same request, or the same error.
func FuzzQueryAsParseQuery(f *testing.F) {
	for _, q := range []string{"", "url=https%3A%2F%2Fexample.com", "text=a+b&size=512&margin=2", "data=x&data=y",
		"url=a;b", "url=%zz", "%75rl=x", "u%72l=x&url=y", "text=%ff", "type=wifi", "text=x&format=svg&format=png",
		"=x&&text=y&utm_source=%41", "text=x&foo=%", "color=000000&background=fff", "download=1&ecc=H&logo=banana"} {
		for route := range 4 {
			f.Add(q, route)
		}
	}
	f.Fuzz(func(t *testing.T, q string, route int) {
		rt := Route(route & 3)
		got, gotErr := FromQuery(q, rt)
		want, wantErr := fromParsedQuery(q, rt)
		if (gotErr == nil) != (wantErr == nil) || gotErr != nil && *ErrorOf(gotErr) != *ErrorOf(wantErr) {
			t.Fatalf("FromQuery(%q, %d): error %v, the model's %v", q, rt, gotErr, wantErr)
		}
		if gotErr == nil && !reflect.DeepEqual(got, want) {
			t.Fatalf("FromQuery(%q, %d) = %+v, the model's %+v", q, rt, got, want)
		}
	})
}
