package main

import (
	"errors"
	"flag"
	"regexp"
	"slices"
	"strings"
	"unicode"

	"github.com/bananaqr/bananaqr/api"
	"github.com/bananaqr/bananaqr/payload"
)

// The API's errors name the request's fields ("url is required", "Add url: …"); encode names
// its flags instead (-url), which is what its user typed. The messages stay the API's
// otherwise, code and hint included, so that the CLI and the HTTP API say the same thing.

// fieldCues are the words after which the payload's messages name a field ("Add url:",
// "Remove … from url", "Send reference or remittance", "or set security to nopass"), besides
// the start of a message ("password has 1 character"). Elsewhere a field's name is an English
// word: "the contact's name", "the text to encode", "a creditor reference".
var fieldCues = map[string]bool{
	"add": true, "send": true, "give": true, "write": true, "shorten": true, "round": true, "set": true, "leave": true,
	"from": true, "to": true, "in": true, "as": true, "or": true, "and": true, "after": true, "before": true, "only": true,
}

// word is a word of a message: letters only, so that "iban's" is "iban" and "s".
var word = regexp.MustCompile(`[A-Za-z]+`)

// flagWords returns s, a message or hint of the API about a payload of type t, with t's fields
// named by their flags (-url, -password, -job-title) where s names them: at its start or after
// one of fieldCues. A field of two words (jobTitle) is a flag wherever it is.
func flagWords(s string, t payload.Type) string {
	fields := payload.TypeFields[t]
	ofType := append(slices.Clone(fields.Required), fields.Optional...)
	var b strings.Builder
	last, previous := 0, ""
	for _, m := range word.FindAllStringIndex(s, -1) {
		w := s[m[0]:m[1]]
		named := slices.Contains(ofType, w) && (previous == "" || fieldCues[strings.ToLower(previous)])
		if named || strings.IndexFunc(w, unicode.IsUpper) > 0 && slices.Contains(api.PayloadFields(), w) {
			b.WriteString(s[last:m[0]] + "-" + flagName(w))
			last = m[1]
		}
		previous = w
	}
	return b.String() + s[last:]
}

// flagMessage is apiMessage in encode's words: the fields of type t named by their flags.
func flagMessage(e *api.Error, t payload.Type) string {
	if e.Reason == api.ReasonInternal {
		return apiMessage(e)
	}
	return apiMessage(&api.Error{Status: e.Status, Reason: e.Reason, Field: e.Field,
		Message: flagWords(e.Message, t), Hint: flagWords(e.Hint, t)})
}

// errNoText is encode's answer to an empty text: no argument and nothing on standard input,
// or an empty argument. (The API's MISSING_PAYLOAD speaks of data and type, which encode has
// as its arguments and -type.)
const errNoText = "no text to encode\n" +
	"Give the text as an argument or on standard input, or -type and its fields (bananaqr encode -h lists them)."

// withoutType returns the usage error of a payload flag of f given without -type (the first
// one set, in fs's order, which is the names'), or nil when there is none.
func (f *payloadFields) withoutType(fs *flag.FlagSet) error {
	flags := map[string]bool{"hidden": true}
	for field := range f.values {
		flags[flagName(field)] = field != "type"
	}
	var name string
	fs.Visit(func(fl *flag.Flag) {
		if name == "" && flags[fl.Name] {
			name = fl.Name
		}
	})
	if name == "" {
		return nil
	}
	var types []payload.Type
	for _, t := range payload.Types {
		fields := payload.TypeFields[t]
		if slices.ContainsFunc(append(slices.Clone(fields.Required), fields.Optional...), func(f string) bool { return flagName(f) == name }) {
			types = append(types, t)
		}
	}
	hint := "Add -type with one of them."
	switch {
	case len(types) == 1 && (types[0] == payload.Text || types[0] == payload.URL):
		hint = "Add -type " + string(types[0]) + ", or give the text to encode as an argument, without -" + name + "."
	case len(types) == 1:
		hint = "Add -type " + string(types[0]) + "."
	}
	return errors.New("-" + name + " is a field of -type " + payload.JoinWords(types, "or") + ", and -type is not given\n" + hint)
}
