// The batch handler: POST /api/qr-code/batch, a JSON array of requests answered as one ZIP
// archive, all or nothing (package batch).

package httpapi

import (
	"bytes"
	"fmt"
	"net/http"
	"time"

	"github.com/bananaqr/bananaqr/api"
	"github.com/bananaqr/bananaqr/internal/accesslog"
	"github.com/bananaqr/bananaqr/internal/batch"
)

// batchError is the error object of a batch with failing requests: the API's four properties
// (code BATCH_INVALID) and the error of each failing request.
type batchError struct {
	api.ErrorBody
	Items []batchItemError `json:"items"`
}

// batchItemError is the error of one request of a batch: its index in the array, from 0, and
// the error it would get alone.
type batchItemError struct {
	Index   int    `json:"index"`
	Code    string `json:"code"`
	Field   string `json:"field"`
	Message string `json:"message"`
	Hint    string `json:"hint"`
}

// batchDisposition is the Content-Disposition of a batch's archive.
var batchDisposition = []string{`attachment; filename="qr-codes.zip"`}

// postBatch answers POST /api/qr-code/batch: a JSON array of 1 to 60 requests of at most
// batch.MaxJSONBody bytes, each the body of POST /api/qr-code with an optional filename. The
// array is read, then its requests are counted against the caller's budget at once (all or, over
// it, none: 429 and nothing counted), then every request is checked (any failing: 400
// BATCH_INVALID with each failing request's index and error, and no code made), then the codes
// are made, each within the bound on work, and sent as one ZIP archive.
func (s *Server) postBatch(w http.ResponseWriter, r *http.Request) {
	setShared(w.Header(), headerCacheControl, "private, no-store")
	body, err := readJSONBody(w, r, batch.MaxJSONBody, "Send at most 256 KiB in a batch; 60 codes' requests need far less.")
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	items, err := batch.ReadJSON(body)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	if !s.admitN(w, r, len(items)) {
		return
	}
	entries, errs := batch.Plan(items, batch.Workers())
	if errs != nil {
		s.writeBatchError(w, len(items), errs)
		return
	}
	var zipped bytes.Buffer
	if err := batch.WriteZip(r.Context(), &zipped, entries, batch.Workers(), s.gate.Code, nil); err != nil {
		if r.Context().Err() != nil {
			if rec, ok := w.(*accesslog.Recorder); ok {
				rec.Status = statusClientClosed // as writeCode: the client is gone
			}
			return
		}
		if api.ErrorOf(err).Code == api.CodeOverloaded {
			setShared(w.Header(), headerRetryAfter, "1")
		}
		s.writeError(w, r, err)
		return
	}
	h := w.Header()
	setShared(h, headerContentType, "application/zip")
	h[headerContentDisposition] = batchDisposition
	writeBody(w, http.StatusOK, zipped.Bytes())
}

// writeBatchError answers 400 BATCH_INVALID with the errors of a batch of n requests.
func (s *Server) writeBatchError(w http.ResponseWriter, n int, errs batch.Errors) {
	e := api.NewError(api.CodeBatchInvalid, "", "Correct the requests that items lists (by index, from 0) and send the whole batch again.",
		"%d of the %d requests are invalid; no code was made", len(errs), n)
	out := batchError{ErrorBody: e.Body(), Items: make([]batchItemError, len(errs))}
	for i, ie := range errs {
		out.Items[i] = batchItemError{Index: ie.Index, Code: string(ie.Err.Code), Field: ie.Err.Field, Message: ie.Err.Message, Hint: ie.Err.Hint}
	}
	writeJSON(w, e.Status, out)
}

// admitN counts n codes of the request's caller against its budget at once and sets the
// RateLimit-* headers, as admit does for one; over the budget it answers 429, counting none.
func (s *Server) admitN(w http.ResponseWriter, r *http.Request, n int) bool {
	h := w.Header()
	d, ok := s.gate.AdmitN(r.Context(), s.caller(r), n)
	s.setBudget(h, d)
	if !ok {
		retry := max(1, int((d.RetryAfter+time.Second-1)/time.Second))
		setNumber(h, headerRetryAfter, retry, nil)
		hint := "Wait the seconds Retry-After says; do not retry in a tight loop."
		if n > d.Limit {
			hint = fmt.Sprintf("Send at most %d requests a batch.", d.Limit)
		}
		s.writeError(w, r, api.NewError(api.CodeRateLimited, "", hint,
			"%d codes would exceed the %d codes a minute (%d left now)", n, d.Limit, d.Remaining))
	}
	return ok
}
