package service

// This file holds the rules on the text and dates callers write: one table of limits that the
// service enforces and the MCP edge declares in the tools' input schemas.

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"
)

// Limits on text, in characters (Unicode code points).
const (
	MaxNameLength        = 100 // a user's, a person's, a friend's or a group's name
	MaxTitleLength       = 200 // an expense's title
	MaxDescriptionLength = 500 // a payment's note
	MaxTypeLength        = 50  // a group's type
	MaxIDLength          = 64  // an expense's id (32 hexadecimal digits)
	MaxCursorLength      = 512 // a page cursor
)

// TextLimits is the longest text each tool parameter accepts, by its JSON name: for members
// each member's name, for splits each person's name (the keys). Every string parameter of
// every tool is here; the edge declares these as maxLength in the input schemas.
var TextLimits = map[string]int{
	"title": MaxTitleLength, "name": MaxNameLength, "members": MaxNameLength,
	"splits": MaxNameLength, "paidBy": MaxNameLength, "from": MaxNameLength, "to": MaxNameLength,
	"group": MaxNameLength, "type": MaxTypeLength, "description": MaxDescriptionLength,
	"id": MaxIDLength, "cursor": MaxCursorLength, "currency": 3, "date": len(time.DateOnly),
}

// MinDate is the earliest date of an expense or a payment; the latest is one year after today
// (UTC). Dates outside are typing mistakes.
const MinDate = "1970-01-01"

// checkDate returns an INVALID_INPUT error when d, a date YYYY-MM-DD, is before MinDate or
// more than a year after today.
func checkDate(d string, today time.Time) error {
	last := today.UTC().AddDate(1, 0, 0).Format(time.DateOnly)
	if d < MinDate || d > last {
		return invalid("date %s is out of range: give a date from %s to %s (a year from today)", d, MinDate, last)
	}
	return nil
}

// CheckText returns an INVALID_INPUT error when s, the value of field, is not valid UTF-8,
// holds a control character (U+0000–U+001F, U+007F–U+009F: NUL, tabs, line breaks…), or has
// more than max characters. Names, titles and notes are one line of plain text.
func CheckText(field, s string, max int) error {
	if !utf8.ValidString(s) {
		return invalid("%s is not valid UTF-8 text", field)
	}
	n := 0
	for _, r := range s {
		n++
		if unicode.IsControl(r) {
			return invalid("%s holds the control character %U at character %d; write one line of plain text without control characters", field, r, n)
		}
	}
	if n > max {
		return invalid("%s is %d characters long; at most %d are allowed", field, n, max)
	}
	return nil
}

// checkInput applies CheckText to every string of a tool's input struct in (its fields,
// the elements of its lists and the keys of its maps) with the limit TextLimits gives the
// field, and checkItems to its lists and maps. Amounts (json.Number) are numbers, read by package money.
func checkInput(in any) error {
	v := reflect.ValueOf(in)
	for i := range v.NumField() {
		name, _, _ := strings.Cut(v.Type().Field(i).Tag.Get("json"), ",")
		if err := checkValue(name, name, v.Field(i)); err != nil {
			return err
		}
	}
	return nil
}

var numberType = reflect.TypeFor[json.Number]()

// checkValue checks the strings in v, a value of parameter param shown as field.
func checkValue(param, field string, v reflect.Value) error {
	switch {
	case v.Type() == numberType:
		return nil
	case v.Kind() == reflect.String:
		max, ok := TextLimits[param]
		if !ok {
			panic("service: no text limit for parameter " + param)
		}
		return CheckText(field, v.String(), max)
	case v.Kind() == reflect.Slice:
		if err := checkItems(param, v.Len()); err != nil {
			return err
		}
		for i := range v.Len() {
			if err := checkValue(param, fmt.Sprintf("%s[%d]", field, i), v.Index(i)); err != nil {
				return err
			}
		}
	case v.Kind() == reflect.Map:
		if err := checkItems(param, v.Len()); err != nil {
			return err
		}
		for _, k := range v.MapKeys() {
			if err := checkValue(param, field+" (a name)", k); err != nil {
				return err
			}
		}
	}
	return nil
}
