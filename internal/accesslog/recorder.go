package accesslog

import "net/http"

// Recorder is a ResponseWriter that notes the status and size of the response written through
// it, for the request's log line. Status is 200 until WriteHeader says otherwise (as net/http
// answers a handler that writes without it); a handler whose client went away before it
// answered may set it to another value to be logged (nginx's 499), since nothing is sent.
type Recorder struct {
	http.ResponseWriter
	Status int // the status written, or the one to log
	Bytes  int // the body's bytes written
	wrote  bool
}

// NewRecorder returns a Recorder that writes to w.
func NewRecorder(w http.ResponseWriter) *Recorder {
	return &Recorder{ResponseWriter: w, Status: http.StatusOK}
}

// WriteHeader notes the first status written and writes it.
func (r *Recorder) WriteHeader(status int) {
	if !r.wrote {
		r.Status, r.wrote = status, true
	}
	r.ResponseWriter.WriteHeader(status)
}

// Write writes b to the body and counts its bytes.
func (r *Recorder) Write(b []byte) (int, error) {
	r.wrote = true
	n, err := r.ResponseWriter.Write(b)
	r.Bytes += n
	return n, err
}

// Unwrap returns the ResponseWriter underneath, for http.ResponseController.
func (r *Recorder) Unwrap() http.ResponseWriter { return r.ResponseWriter }

// StatusClientClosed is the status recorded for a request whose client went away before it
// was answered: nginx's 499 "client closed request". It is never sent, only logged and counted.
const StatusClientClosed = 499
