package client

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"

	"github.com/bananaqr/bananaqr/api"
)

// BatchItem is a request of a batch and the name of its file in the archive ("" for the
// service's default, qr-<n>-<type>.<format>).
type BatchItem struct {
	Request  api.Request
	Filename string
}

// ItemError is the error of one request of a batch that the service refused: its index in
// the batch, from 0, and the error it would get alone.
type ItemError struct {
	Index   int        `json:"index"`
	Reason  api.Reason `json:"code"`
	Field   string     `json:"field"`
	Message string     `json:"message"`
	Hint    string     `json:"hint"`
}

// MaxBatch is the most requests a batch may hold.
const MaxBatch = 60

// Batch makes up to MaxBatch codes at once (POST /api/qr-code/batch, a bananaqr extension) and
// returns them as one ZIP archive, a file a request in their order, with the caller's budget
// after them. Each request's Format is
// svg (the default) or png. The batch is all or nothing: when requests of it are invalid the
// error is an *APIError with code BATCH_INVALID whose Items list each of them, and no code is
// made. All its codes count against the caller's budget at once; a batch larger than what is
// left gets 429, which is waited out as for one code.
func (c *Client) Batch(ctx context.Context, items []BatchItem) (*Archive, error) {
	body, err := batchBody(items)
	if err != nil {
		return nil, err
	}
	a, err := c.send(ctx, http.MethodPost, "/api/qr-code/batch", body, "application/zip")
	if err != nil {
		return nil, err
	}
	return &Archive{ZIP: a.body, RateLimit: rateLimitOf(a.header), RequestID: a.header.Get("X-Request-Id")}, nil
}

// batchBody returns the JSON array of items: each request's POST body (api.EncodeJSON) with
// its filename.
func batchBody(items []BatchItem) ([]byte, error) {
	b := []byte{'['}
	for i, it := range items {
		obj, err := api.EncodeJSON(&it.Request)
		if err != nil {
			return nil, err
		}
		if it.Filename != "" {
			name, err := json.Marshal(it.Filename)
			if err != nil {
				return nil, err
			}
			obj = bytes.TrimSuffix(bytes.TrimSpace(obj), []byte("}"))
			if len(bytes.TrimSpace(obj)) > 1 {
				obj = append(obj, ',')
			}
			obj = append(append(append(obj, `"filename":`...), name...), '}')
		}
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, obj...)
	}
	return append(b, ']'), nil
}
