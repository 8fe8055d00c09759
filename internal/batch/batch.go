// Package batch makes many codes at once, the same way for both edges: bananaqr encode -batch
// reads them from a CSV file, POST /api/qr-code/batch from a JSON array. Every item is checked
// first, as package generate would check it, and each failing item is reported; only when all
// pass are the codes made, in parallel, and handed on in item order, for a ZIP archive whose
// bytes depend on the items alone (zip.go) or for files in a folder.
package batch

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/bananaqr/bananaqr/api"
	"github.com/bananaqr/bananaqr/internal/generate"
	"github.com/bananaqr/bananaqr/render"
)

// Item is one code of a batch: its request and the file name asked for ("" for the default),
// the line of the CSV file where its row starts (0 for JSON), and the error of reading it, if
// it could not be read (Plan reports it with the others).
type Item struct {
	Request  api.Request
	Filename string
	Line     int
	Err      *api.Error
}

// ItemError is the error of one item of a batch: its place (from 0), the line of the CSV file
// where its row starts (0 for JSON), and the API's error.
type ItemError struct {
	Index int
	Line  int
	Err   *api.Error
}

// Errors are the errors of a batch's failing items, in item order.
type Errors []ItemError

// Error lists the failing items, one a line.
func (e Errors) Error() string {
	if len(e) == 0 {
		return "batch: no errors"
	}
	return fmt.Sprintf("batch: %d items are invalid, the first (item %d): %s", len(e), e[0].Index, e[0].Err.Message)
}

// Entry is an item that passed the checks: its request as generate.Prepare checked it (the
// request, its payload, its symbol's version; a few words more than the request, whatever the
// symbol's size, so that a batch's entries hold no symbol or image before they are made), its
// file's name, and the modules a side of its image, the quiet zone included (for Bound).
type Entry struct {
	generate.Prepared
	Name    string
	Modules int
}

// Formats returns the formats a batch may hold, each written as one file: the API's formats
// (api.StyleValues) but json, which is an answer about a code rather than an image of it.
func Formats() []string {
	var out []string
	for _, f := range api.StyleValues("format") {
		if api.Format(f) != api.FormatJSON {
			out = append(out, f)
		}
	}
	return out
}

// Workers is how many codes are made at once by default: one a processor.
func Workers() int { return runtime.GOMAXPROCS(0) }

// Plan checks every item that could be read as generate.Code would, with generate.Prepare (the
// colours, the payload, whether it fits a symbol at its level and the symbol its image), and
// that its format and file name suit a batch, with workers at once; it returns the entries, or
// the error of every failing item, those of reading it included. It encodes no symbol: Make
// does, once an entry. A file name
// is the one asked for, with the format's extension added unless it has it, or
// qr-<n>-<type>.<format> with n the item's number from 1, zero-padded to the same width for
// all, so that the names sort in item order; a payload never shows in a default name. Names
// that differ only in case or in Unicode normalization are refused, for file systems that do
// not tell them apart (name.go).
func Plan(items []Item, workers int) ([]Entry, Errors) {
	entries := make([]Entry, len(items))
	errs := make([]*api.Error, len(items))
	forEach(len(items), workers, func(i int) {
		if errs[i] = items[i].Err; errs[i] == nil {
			entries[i], errs[i] = check(&items[i])
		}
	})
	width := len(strconv.Itoa(len(items)))
	seen := map[string]int{} // nameKey → item index
	var out Errors
	for i := range items {
		if errs[i] == nil && items[i].Filename == "" {
			// check left the default name's type and extension: "-url.svg".
			n := strconv.Itoa(i + 1)
			entries[i].Name = "qr-" + strings.Repeat("0", width-len(n)) + n + entries[i].Name
		}
		if errs[i] == nil {
			if prev, dup := seen[nameKey(entries[i].Name)]; dup {
				errs[i] = api.NewError(api.ReasonInvalidValue, "filename", "Give each item a file name of its own: names are compared in any case and in Unicode NFC, as Windows and macOS compare them.",
					"the file name %q is item %d's too", entries[i].Name, prev)
			}
		}
		if errs[i] != nil {
			out = append(out, ItemError{Index: i, Line: items[i].Line, Err: errs[i]})
			continue
		}
		seen[nameKey(entries[i].Name)] = i
	}
	if len(out) > 0 {
		return nil, out
	}
	return entries, nil
}

// check checks one item and names its file; a default name is completed by Plan.
func check(it *Item) (Entry, *api.Error) {
	r := it.Request
	ext, ok := extension(r.Format)
	if !ok {
		formats := Formats()
		allowed := strings.Join(formats[:len(formats)-1], ", ") + " or " + formats[len(formats)-1]
		return Entry{}, api.NewError(api.ReasonInvalidValue, "format", "Use "+allowed+" in a batch: a file a code.",
			"format %s cannot be a file of a batch", r.Format)
	}
	c, err := generate.Prepare(&r)
	if err != nil {
		return Entry{}, api.ErrorOf(err)
	}
	name := "-" + string(c.Payload.Type) + ext // Plan puts qr-<n> before it
	if it.Filename != "" {
		if name, err = fileName(it.Filename, ext); err != nil {
			return Entry{}, api.ErrorOf(err)
		}
	}
	return Entry{Prepared: c, Name: name, Modules: c.Symbol.Size() + 2*r.Margin}, nil
}

// extension returns the file extension of format f, and whether a batch can hold f.
func extension(f api.Format) (string, bool) {
	if !slices.Contains(Formats(), string(f)) {
		return "", false
	}
	return "." + string(f), true
}

// forEach calls f(i) for every i below n, with workers calls at once.
func forEach(n, workers int, f func(i int)) {
	workers = max(1, min(workers, n))
	var wg sync.WaitGroup
	next := make(chan int)
	for range workers {
		wg.Go(func() {
			for i := range next {
				f(i)
			}
		})
	}
	for i := range n {
		next <- i
	}
	close(next)
	wg.Wait()
}

// Maker makes the code of one checked request (generate.Prepared.Make: its symbol encoded and
// drawn, nothing checked again) and hands it to use, releasing it afterwards: Local, or a place
// at work of admission's, so that use (Make's prepare, which compresses the image) is within the
// bound on work too, and only what use keeps outlives it.
type Maker func(ctx context.Context, c *generate.Prepared, use func(*generate.Result) error) error

// Local is the Maker of a machine of its own: generate.Prepared.Make.
func Local(_ context.Context, c *generate.Prepared, use func(*generate.Result) error) error {
	res, err := c.Make()
	if err != nil {
		return err
	}
	defer res.Release()
	return use(res)
}

// Window returns how many codes Make holds at once with workers: made or being made, not yet
// handed to put.
func Window(workers int) int { return 2 * max(1, workers) }

// Make makes the entries' codes, workers at once, each worker turning a code's image into a T
// with prepare (which must copy what it keeps: the image's memory is reused afterwards), and
// hands the Ts to put in entry order. It stops at the first error, of a code, prepare or put,
// and returns it; a code's error carries its entry's index (see IndexOf). At most
// Window(workers) codes are held at once, whatever the batch's length (see Held).
func Make[T any](ctx context.Context, entries []Entry, workers int, code Maker,
	prepare func(e *Entry, image []byte) (T, error), put func(i int, e *Entry, v T) error) error {
	type made struct {
		v   T
		err error
	}
	workers = max(1, min(workers, len(entries)))
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	slots := make([]chan made, len(entries)) // each code's, as it is made
	for i := range slots {
		slots[i] = make(chan made, 1)
	}
	window := make(chan struct{}, Window(workers)) // codes made or being made, not yet put: the memory held
	next := make(chan int)
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for i := range next {
				var m made
				e := &entries[i]
				err := code(ctx, &e.Prepared, func(res *generate.Result) error {
					m.v, m.err = prepare(e, res.Image(e.Request.Format))
					return nil
				})
				if err != nil {
					m.err = &madeError{Index: i, Err: err}
				}
				slots[i] <- m
			}
		})
	}
	go feed(ctx, len(entries), window, next)
	var err error
	for i := range entries {
		m := <-slots[i]
		if err = m.err; err == nil {
			err = put(i, &entries[i], m.v)
		}
		<-window // the code is written: its memory may go to the next
		if err != nil {
			break
		}
	}
	cancel()
	wg.Wait()
	return err
}

// feed sends the indices below n to next, in order, each once it has a place in window, and
// closes next when they are sent or ctx ends.
func feed(ctx context.Context, n int, window chan<- struct{}, next chan<- int) {
	defer close(next)
	for i := range n {
		select {
		case window <- struct{}{}:
		case <-ctx.Done():
			return
		}
		select {
		case next <- i:
		case <-ctx.Done():
			return
		}
	}
}

// Bound returns the most bytes the image of entry e can take: 40 bytes a module of its side
// squared and 64 KiB (a rounded PDF or EPS takes about 27 a module and a logo some 5 KiB; a PNG of
// few modules at 2048 pixels some 50 a module, well within the 64 KiB). TestBound holds every
// format and style to it. A compressed entry is no larger (DEFLATE adds a few bytes a stored
// block of 64 KiB, within the bound's margin).
func Bound(e *Entry) int64 {
	m := int64(e.Modules)
	return 40*m*m + 64<<10
}

// MaxHeld returns the most bytes Make can hold at once for n entries with workers, whatever they
// are: Held of n entries of the largest image (a version 40 symbol in the widest quiet zone).
func MaxHeld(n, workers int) int64 {
	largest := Entry{Modules: 17 + 4*40 + 2*render.MaxMargin}
	return int64(Window(min(workers, max(n, 1)))) * Bound(&largest)
}

// Held returns the most bytes Make holds at once for entries with workers: the Bound of the
// Window(workers) largest entries. These are the codes made and not yet written; the code being
// made is within its Maker's place, and put's own buffers are not counted.
func Held(entries []Entry, workers int) int64 {
	bounds := make([]int64, len(entries))
	for i := range entries {
		bounds[i] = Bound(&entries[i])
	}
	slices.Sort(bounds)
	var sum int64
	for i := len(bounds) - 1; i >= 0 && i >= len(bounds)-Window(min(workers, len(entries))); i-- {
		sum += bounds[i]
	}
	return sum
}

// CopyImage is the prepare of Make that keeps each image as it is, in memory of its own.
func CopyImage(_ *Entry, image []byte) ([]byte, error) { return bytes.Clone(image), nil }

// madeError is the error of the code of entry Index.
type madeError struct {
	Index int
	Err   error
}

// Error says which item failed and why.
func (e *madeError) Error() string { return fmt.Sprintf("item %d: %v", e.Index, e.Err) }

// Unwrap returns why the item failed.
func (e *madeError) Unwrap() error { return e.Err }

// IndexOf returns the index of the entry whose code failed with err, from Make, and whether
// err is such an error.
func IndexOf(err error) (int, bool) {
	var m *madeError
	if errors.As(err, &m) {
		return m.Index, true
	}
	return 0, false
}
