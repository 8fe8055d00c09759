// The batch handler: POST /api/qr-code/batch, a JSON array of requests answered as one ZIP
// archive, all or nothing (package batch).

package httpapi

import (
	"log/slog"
	"net/http"
	"time"

	"github.com/bananaqr/bananaqr/api"
	"github.com/bananaqr/bananaqr/internal/accesslog"
	"github.com/bananaqr/bananaqr/internal/admission"
	"github.com/bananaqr/bananaqr/internal/batch"
	"github.com/bananaqr/bananaqr/internal/telemetry"
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
	Reason  string `json:"code"`
	Field   string `json:"field"`
	Message string `json:"message"`
	Hint    string `json:"hint"`
}

// batchDisposition is the Content-Disposition of a batch's archive.
var batchDisposition = []string{`attachment; filename="qr-codes.zip"`}

// postBatch answers POST /api/qr-code/batch: a JSON array of 1 to 60 requests of at most
// batch.MaxJSONBody bytes, each the body of POST /api/qr-code with an optional filename. The
// array is read, then its requests are counted against the caller's budget at once (all or, over
// it, none: 429 and nothing counted), then the batch is admitted to the bound on work and memory
// by the most its codes could hold (503 OVERLOADED when the queue is full or that memory does not
// fit, with its codes given back to the caller's budget), then every request is checked (any
// failing: 400 BATCH_INVALID with each failing request's index and error, and no code made; the
// check encodes no symbol, see batch.Plan), and only then are the codes made, each once and
// within the bound on work, and sent as one ZIP archive, each file as soon as it is made (the
// archive is never held whole). Every refusal comes before the
// first byte of the archive; a failure after it (the client gone, a write failing) cuts the
// connection, so that a part can never pass for a whole archive, and is logged.
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
	// Admitted first by the most its codes could hold, so that a refusal costs no work, then
	// held to what they will once they are checked.
	ticket, err := s.gate.Enter(batch.MaxHeld(len(items), batch.Workers()))
	if err != nil {
		s.writeBusy(w, r, err, len(items))
		return
	}
	defer ticket.Done()
	entries, errs := batch.Plan(items, batch.Workers())
	if errs != nil {
		s.writeBatchError(w, len(items), errs)
		return
	}
	ticket.Shrink(batch.Held(entries, batch.Workers()))
	out := &archiveWriter{w: w}
	rc := http.NewResponseController(w)
	// The write timeout bounds each file rather than the whole (batchFileTimeout); a writer that
	// cannot move it (a test's recorder) has none.
	rc.SetWriteDeadline(time.Now().Add(batchFileTimeout))
	err = batch.WriteZip(r.Context(), out, entries, batch.Workers(), ticket.Code, func(done int) {
		out.done = done
		rc.Flush() // each file on its way as soon as it is made
		rc.SetWriteDeadline(time.Now().Add(batchFileTimeout))
	})
	switch {
	case err == nil:
	case out.started:
		s.cutBatch(w, r, err, out.done, len(entries))
	case r.Context().Err() != nil:
		if rec, ok := w.(*accesslog.Recorder); ok {
			rec.Status = accesslog.StatusClientClosed // as writeCode: the client is gone
		}
	default:
		s.writeError(w, r, err)
	}
}

// batchFileTimeout is how long each file of a batch's archive may take to be made and sent: the
// server's write timeout (serve's 30 s) bounds a whole answer, which for an archive of 60 large
// codes on a busy service may take longer, while it still moves.
const batchFileTimeout = 30 * time.Second

// archiveWriter writes a batch's archive to the client: the first write sends the 200 and the
// archive's headers, then the body streams (chunked, without a Content-Length: its length is
// known only at its end).
type archiveWriter struct {
	w       http.ResponseWriter
	started bool
	done    int // files written whole
}

// Write writes p to the archive's body, sending the 200 and its headers first.
func (a *archiveWriter) Write(p []byte) (int, error) {
	if !a.started {
		a.started = true
		h := a.w.Header()
		setShared(h, headerContentType, "application/zip")
		h[headerContentDisposition] = batchDisposition
		a.w.WriteHeader(http.StatusOK)
	}
	return a.w.Write(p)
}

// cutBatch ends a batch whose archive failed after its 200 was sent: it logs the failure and
// aborts the connection (http.ErrAbortHandler, which net/http does not log), so that the client
// sees a response cut short (no last chunk; the archive without its central directory), never a
// whole archive. The access log has no line for it: the log is this one.
func (s *Server) cutBatch(w http.ResponseWriter, r *http.Request, err error, done, n int) {
	level, why := slog.LevelError, "the service failed"
	if r.Context().Err() != nil {
		level, why = slog.LevelWarn, "the client went away"
	}
	s.cfg.Logger.Log(r.Context(), level, "batch cut off after its 200: "+why+"; the connection is aborted",
		"error", err.Error(), "files_sent", done, "files", n, "request_id", telemetry.ResponseRequestID(w))
	panic(http.ErrAbortHandler)
}

// writeBusy answers 503 OVERLOADED (err, from the bound on work or memory) for a request of n
// codes that were counted and not made: they are given back to the caller's budget (so that only
// what is made is charged), the RateLimit-* headers say the budget after that, and Retry-After
// says how long to wait, in whole seconds, at least one.
func (s *Server) writeBusy(w http.ResponseWriter, r *http.Request, err error, n int) {
	h := w.Header()
	if d := s.gate.Refund(r.Context(), s.caller(r), n); d.Limit > 0 {
		s.setBudget(h, d)
	}
	wait, _ := admission.RetryAfter(err)
	setNumber(h, headerRetryAfter, max(1, int((wait+time.Second-1)/time.Second)), nil)
	s.writeError(w, r, err)
}

// writeBatchError answers 400 BATCH_INVALID with the errors of a batch of n requests.
func (s *Server) writeBatchError(w http.ResponseWriter, n int, errs batch.Errors) {
	e := api.NewError(api.ReasonBatchInvalid, "", "Correct the requests that items lists (by index, from 0) and send the whole batch again.",
		"%d of the %d requests are invalid; no code was made", len(errs), n)
	out := batchError{ErrorBody: e.Body(), Items: make([]batchItemError, len(errs))}
	for i, ie := range errs {
		out.Items[i] = batchItemError{Index: ie.Index, Reason: string(ie.Err.Reason), Field: ie.Err.Field, Message: ie.Err.Message, Hint: ie.Err.Hint}
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
		s.refuse(w, r, d, n)
	}
	return ok
}
