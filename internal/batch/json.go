// Reading a batch from a JSON array, as POST /api/qr-code/batch takes it.

package batch

import (
	"bytes"
	"encoding/json"
	"io"
	"unicode/utf8"

	"github.com/bananaqr/bananaqr/api"
)

// MaxJSONItems is the most requests a JSON batch may hold: a minute's budget of codes.
const MaxJSONItems = 60

// MaxJSONBody is the largest JSON batch read (256 KiB): 60 requests of about 4 KiB each, far
// more than 60 codes' payloads need.
const MaxJSONBody = 256 << 10

// ReadJSON reads a JSON batch: one array of 1 to MaxJSONItems objects, each the body of POST
// /api/qr-code (read by api.DecodeJSON, with its rules and errors) with an optional filename
// string besides. An array that cannot be read is an *api.Error; otherwise it returns an item
// a request, with the error of a request that cannot be read (Plan reports it).
func ReadJSON(body []byte) ([]Item, error) {
	if !utf8.Valid(body) {
		return nil, api.NewError(api.ReasonInvalidJSON, "", "Send the body as UTF-8 JSON.", "the body is not valid UTF-8")
	}
	notArray := api.NewError(api.ReasonInvalidJSON, "", `Send one JSON array of request objects, such as [{"url":"https://example.com"}].`,
		"the body is not a JSON array")
	dec := json.NewDecoder(bytes.NewReader(body))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('[') {
		return nil, notArray
	}
	var raws []json.RawMessage
	for dec.More() {
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return nil, notArray
		}
		if len(raws) == MaxJSONItems {
			return nil, tooMany()
		}
		raws = append(raws, raw)
	}
	if tok, err := dec.Token(); err != nil || tok != json.Delim(']') {
		return nil, notArray
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, api.NewError(api.ReasonInvalidJSON, "", "Send exactly one JSON array, with nothing after it.", "the body has data after the JSON array")
	}
	if len(raws) == 0 {
		return nil, api.NewError(api.ReasonInvalidValue, "", "Send at least one request.", "the batch is empty")
	}
	items := make([]Item, len(raws))
	for i, raw := range raws {
		var err error
		if items[i], err = readItem(raw); err != nil {
			items[i].Err = api.ErrorOf(err)
		}
	}
	return items, nil
}

// tooMany is the error of a batch of more than MaxJSONItems requests.
func tooMany() *api.Error {
	return api.NewError(api.ReasonInvalidValue, "", "Send at most 60 requests a batch, and the rest in another batch after a minute.",
		"the batch has more than %d requests", MaxJSONItems)
}

// readItem reads one request of a batch: its filename taken out, the rest read by
// api.DecodeJSON as it is written (a property given twice stays twice, for DecodeJSON to refuse).
func readItem(raw json.RawMessage) (Item, error) {
	var item Item
	notObject := api.NewError(api.ReasonInvalidJSON, "", `Send each request as a JSON object, such as {"url":"https://example.com"}.`,
		"the request is not a JSON object")
	dec := json.NewDecoder(bytes.NewReader(raw))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return item, notObject
	}
	rest := []byte{'{'}
	filenames := 0
	for dec.More() {
		tok, err := dec.Token()
		name, ok := tok.(string)
		if err != nil || !ok {
			return item, notObject
		}
		var value json.RawMessage
		if err := dec.Decode(&value); err != nil {
			return item, notObject
		}
		if name == "filename" {
			if filenames++; filenames > 1 {
				return item, api.NewError(api.ReasonInvalidJSON, name, "Give filename once.", "the request gives \"filename\" more than once")
			}
			if err := json.Unmarshal(value, &item.Filename); err != nil || value[0] != '"' {
				return item, api.NewError(api.ReasonWrongType, name, "Send filename as a JSON string.", "filename must be a JSON string")
			}
			continue
		}
		if len(rest) > 1 {
			rest = append(rest, ',')
		}
		key, _ := json.Marshal(name)
		rest = append(append(append(rest, key...), ':'), value...)
	}
	rest = append(rest, '}')
	var err error
	item.Request, err = api.DecodeJSON(rest)
	return item, err
}
