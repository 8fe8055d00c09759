package payload

import (
	"regexp"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// buildEvent returns the event of r as an iCalendar VEVENT (RFC 5545 3.6.1), as ZXing's
// VEventResultParser and the phone cameras read it:
//
//	BEGIN:VEVENT⏎SUMMARY:…⏎DTSTART:20261224T170000Z⏎DTEND:…⏎LOCATION:…⏎DESCRIPTION:…⏎END:VEVENT⏎
//
// with CRLF line ends (3.1). Decisions:
//   - A bare VEVENT, not wrapped in BEGIN:VCALENDAR/VERSION:2.0/PRODID: it is the form of
//     ZXing's "Barcode Contents" and what its parser looks for (BEGIN:VEVENT anywhere), Binary
//     Eye offered its calendar action only for it until 2020 (markusfisch/BinaryEye#118), and an
//     iPhone that refused a wrapped event read the bare one (werneckbh/laravel-qr-code#2).
//   - No UID and no DTSTAMP: RFC 5545 asks for them in an iCalendar object, which a bare
//     VEVENT is not, no reader needs them, and a time-based stamp or a random UID would make
//     the same request give a different code. The payload stays a function of the request.
//   - summary and start are required: ZXing ignores an event without DTSTART (it returns no
//     calendar result), and a calendar entry without a title is of no use.
//   - start and end are ISO 8601 (RFC 3339) dates (2026-12-24) or date-times with a time zone
//     (2026-12-24T18:00:00+01:00, 2026-12-24T17:00Z; seconds optional, no fraction). A
//     date-time without a zone is refused: it would be a "floating" time, read in whatever zone
//     the phone is in. iCalendar has no offset form (3.3.5), so a date-time is written in UTC
//     with Z; ZXing's reader takes exactly [0-9]{8}(T[0-9]{6}Z?)?.
//   - A date is written DTSTART;VALUE=DATE:20261224 (3.3.4). end is then the last day of the
//     event, as people say it, and DTEND is the day after: DTEND is exclusive (3.6.1), so
//     start=end is a one-day event. start and end must both be dates or both date-times (3.6.1),
//     and end may not be before start; a date-time end equal to start writes no DTEND (an
//     event of no duration, 3.6.1).
//   - SUMMARY, LOCATION and DESCRIPTION are TEXT (3.3.11): trimmed (readers trim them), line
//     breaks written \n, and \ ; , escaped with a backslash (escapeVCard, the same rule).
//     ZXing reads \n before \\, so a backslash followed by n or N comes back as a backslash and
//     a line break there; the RFC has no other way to write it.
//   - Lines longer than 75 octets are folded (3.1): CRLF and a space, never inside a UTF-8
//     character or an escape. ZXing unfolds CRLF followed by a space before it unescapes.
func buildEvent(r *Request) (string, error) {
	summary := strings.TrimSpace(r.Summary)
	if summary == "" {
		return "", missing("summary", "the event's title")
	}
	if strings.TrimSpace(r.Start) == "" {
		return "", missing("start", "when the event starts: a date such as 2026-12-24, or a date and time with its zone such as 2026-12-24T18:00:00+01:00")
	}
	for _, f := range []struct{ name, value string }{{"summary", r.Summary}, {"location", r.Location}, {"description", r.Description}} {
		if err := checkLineText(f.name, f.value); err != nil {
			return "", err
		}
	}
	start, err := parseEventTime("start", r.Start)
	if err != nil {
		return "", err
	}
	var b strings.Builder
	b.WriteString("BEGIN:VEVENT\r\n")
	writeICalText(&b, "SUMMARY", summary)
	writeFolded(&b, "DTSTART"+start.value())
	if strings.TrimSpace(r.End) != "" {
		end, err := parseEventTime("end", r.End)
		if err != nil {
			return "", err
		}
		switch {
		case end.allDay != start.allDay:
			return "", fail(ReasonInvalidDate, "end", "Give start and end both as dates (2026-12-24) or both as dates and times (2026-12-24T18:00:00+01:00).",
				"start and end are not both dates or both date-times")
		case end.t.Before(start.t):
			return "", fail(ReasonInvalidDate, "end", "Give an end at or after start.", "end is before start")
		case end.allDay:
			end.t = end.t.AddDate(0, 0, 1) // DTEND is exclusive: the day after the last
			if end.t.Year() > 9999 {
				return "", fail(ReasonInvalidDate, "end", "Give an end within the year 9999.", "end is too late for iCalendar")
			}
			writeFolded(&b, "DTEND"+end.value())
		case !end.t.Equal(start.t):
			writeFolded(&b, "DTEND"+end.value())
		}
	}
	writeICalText(&b, "LOCATION", strings.TrimSpace(r.Location))
	writeICalText(&b, "DESCRIPTION", strings.TrimSpace(r.Description))
	b.WriteString("END:VEVENT\r\n")
	return b.String(), nil
}

// eventTime is a start or end: a day (allDay, at midnight UTC), or an instant.
type eventTime struct {
	t      time.Time
	allDay bool
}

// value returns the property's parameters and value, from the colon on: ;VALUE=DATE:20261224
// for a day (RFC 5545 3.3.4), :20261224T170000Z for an instant, in UTC (3.3.5, form #2).
func (e eventTime) value() string {
	if e.allDay {
		return ";VALUE=DATE:" + e.t.Format("20060102")
	}
	return ":" + e.t.UTC().Format("20060102T150405Z")
}

// eventSyntax is an ISO 8601 date, or date and time with a zone, as RFC 3339 5.6 writes them
// (T and Z in either case), with the seconds optional.
var eventSyntax = regexp.MustCompile(`^([0-9]{4})-([0-9]{2})-([0-9]{2})(?:[Tt]([0-9]{2}):([0-9]{2})(?::([0-9]{2}))?([Zz]|[+-][0-9]{2}:?[0-9]{2})?)?$`)

// parseEventTime parses the start or end field.
func parseEventTime(field, value string) (eventTime, error) {
	hint := "Give " + field + " as a date such as 2026-12-24, or a date and time with Z or an offset such as 2026-12-24T18:00:00+01:00."
	bad := func(why string) (eventTime, error) {
		return eventTime{}, fail(ReasonInvalidDate, field, hint, "%s is %s", field, why)
	}
	m := eventSyntax.FindStringSubmatch(strings.TrimSpace(value))
	if m == nil {
		return bad("not an ISO 8601 date or date-time")
	}
	n := func(s string) int { v, _ := strconv.Atoi(s); return v }
	y, mo, d := n(m[1]), n(m[2]), n(m[3])
	if m[4] == "" {
		t := time.Date(y, time.Month(mo), d, 0, 0, 0, 0, time.UTC)
		if y < 1 || t.Year() != y || int(t.Month()) != mo || t.Day() != d {
			return bad("not a day of the calendar")
		}
		return eventTime{t: t, allDay: true}, nil
	}
	if m[7] == "" {
		return eventTime{}, fail(ReasonInvalidDate, field, "Add the time zone to "+field+": Z for UTC, or an offset such as +01:00.",
			"%s has a time but no time zone", field)
	}
	h, mi, s := n(m[4]), n(m[5]), n(m[6])
	offset := 0
	if zone := m[7]; zone != "Z" && zone != "z" {
		digits := strings.ReplaceAll(zone[1:], ":", "")
		oh, om := n(digits[:2]), n(digits[2:])
		if oh > 23 || om > 59 {
			return bad("given with an offset out of range")
		}
		offset = (oh*60 + om) * 60
		if zone[0] == '-' {
			offset = -offset
		}
	}
	t := time.Date(y, time.Month(mo), d, h, mi, s, 0, time.FixedZone("", offset))
	if h > 23 || mi > 59 || s > 59 || t.Year() != y || int(t.Month()) != mo || t.Day() != d {
		return bad("not a time of the calendar")
	}
	if u := t.UTC().Year(); u < 1 || u > 9999 {
		return bad("outside the years 0001 to 9999 in UTC")
	}
	return eventTime{t: t}, nil
}

// writeICalText writes the content line of property name with a TEXT value (RFC 5545 3.3.11),
// escaped and folded, or nothing when value is empty.
func writeICalText(b *strings.Builder, name, value string) {
	if value == "" {
		return
	}
	var line strings.Builder
	line.WriteString(name + ":")
	escapeVCard(&line, value) // RFC 5545 3.3.11 escapes as RFC 2426 4 does
	writeFolded(b, line.String())
}

// maxLineOctets is the longest content line, without its CRLF (RFC 5545 3.1).
const maxLineOctets = 75

// writeFolded writes a content line and its CRLF, folded as RFC 5545 3.1 says: a line longer
// than 75 octets goes on after CRLF and one space, which counts in the next line's 75. A fold
// never splits a UTF-8 character (3.1's note) nor a backslash escape, so that even a reader
// that unescapes before unfolding reads the value whole.
func writeFolded(b *strings.Builder, line string) {
	n := 0
	for i := 0; i < len(line); {
		size := 2 // a backslash and the character it escapes
		if line[i] != '\\' || i+1 == len(line) {
			_, size = utf8.DecodeRuneInString(line[i:])
		}
		if n+size > maxLineOctets {
			b.WriteString("\r\n ")
			n = 1
		}
		b.WriteString(line[i : i+size])
		n += size
		i += size
	}
	b.WriteString("\r\n")
}
