package payload

import (
	"strconv"
	"strings"
)

// Limits of a geo: URI's numbers (see buildGeo).
const (
	maxCoordinatePlaces = 7      // decimal places of latitude and longitude: 1e-7 degree is about 1 cm
	maxAltitudePlaces   = 2      // decimal places of the altitude: a centimetre
	maxAltitude         = 100000 // metres above or below the WGS-84 ellipsoid: 100 km
)

// buildGeo returns the location of r as a geo: URI (RFC 5870 3.3): geo:<latitude>,<longitude>
// with ,<altitude> when one is given, in WGS-84 decimal degrees and metres, the URI's default
// coordinate reference system, so no crs parameter is written. ZXing's GeoResultParser reads
// exactly this: geo:, then numbers of digits, - and . separated by commas.
//
// Each number is exact decimal text (decimalSyntax: no exponent, no +, no comma) and is written
// in its shortest form: "48.85820" is 48.8582, "-0" is 0 (RFC 5870 3.4.2 compares them equal).
// Latitude is -90 to 90, longitude -180 to 180 (3.4.2), each with at most 7 decimal places
// (about a centimetre: more is noise a GPS does not give, and usually a float's rounding
// error). At a pole the longitude is written as 0, as 3.4.2 asks of producers. The altitude is
// in metres, at most 100 km from the ellipsoid, with at most 2 decimal places.
func buildGeo(r *Request) (string, error) {
	lat, err := coordinate("latitude", r.Latitude, 90, maxCoordinatePlaces, "decimal degrees from -90 (south) to 90 (north), such as 48.8582")
	if err != nil {
		return "", err
	}
	lon, err := coordinate("longitude", r.Longitude, 180, maxCoordinatePlaces, "decimal degrees from -180 (west) to 180 (east), such as 2.2945")
	if err != nil {
		return "", err
	}
	if lat.whole == "90" { // a pole: 90 or -90 exactly, the range being checked
		lon = decimal{}
	}
	uri := "geo:" + lat.String() + "," + lon.String()
	if strings.TrimSpace(r.Altitude) != "" {
		alt, err := coordinate("altitude", r.Altitude, maxAltitude, maxAltitudePlaces, "metres above (or, negative, below) the WGS-84 ellipsoid, within 100 km, such as 35 or -12.5")
		if err != nil {
			return "", err
		}
		uri += "," + alt.String()
	}
	return uri, nil
}

// coordinate parses the number field of a geo: URI: a decimal of at most places decimal places
// whose magnitude is at most limit. what says what the number is, for the hints.
func coordinate(field, value string, limit, places int, what string) (decimal, error) {
	if strings.TrimSpace(value) == "" {
		return decimal{}, missing(field, what)
	}
	d, ok := parseDecimal(value)
	hint := "Give " + field + " in " + what + ": digits with a dot, no exponent, + or comma."
	switch {
	case !ok:
		return d, fail(ReasonInvalidCoordinate, field, hint, "%s is not a decimal number", field)
	case d.exceeds(limit):
		return d, fail(ReasonInvalidCoordinate, field, hint, "%s is out of range -%d..%d", field, limit, limit)
	case d.places() > places:
		return d, fail(ReasonInvalidCoordinate, field, "Round "+field+" to at most "+strconv.Itoa(places)+" decimal places.",
			"%s has %d decimal places, more than %d", field, d.places(), places)
	}
	return d, nil
}
