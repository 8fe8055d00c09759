// bananaqr encode -batch: many codes from a CSV file, into a ZIP archive or a folder (package
// batch, the engine POST /api/qr-code/batch uses too).

package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/bananaqr/bananaqr/api"
	"github.com/bananaqr/bananaqr/internal/batch"
)

// batchFlag defines encode's -batch flag on fs.
func batchFlag(fs *flag.FlagSet) *string {
	return fs.String("batch", "", "make a code for each row of the UTF-8 CSV `file` (- for standard input) into -o, a .zip archive\n"+
		"or a folder: a header row of the API's field names (those of a POST /api/qr-code body, such\n"+
		"as type, url, ssid, size, format) and filename, then a row a code; the style flags give the\n"+
		"style of the cells left empty")
}

// encodeBatch is "bananaqr encode -batch file -o out": every row is checked first, each failing
// one reported by its line with the API's code and hint (exit 2, nothing written); then the codes
// are made on every processor and written to out, a ZIP archive (whose bytes depend on the file
// alone) or a folder, with a progress bar when stderr is a terminal.
func encodeBatch(f *encodeFlags, stdin io.Reader, stderr io.Writer) int {
	switch {
	case *f.remote != "":
		return encodeUsageError(stderr, errors.New("-batch makes the codes on this machine; a service takes batches of 60 at POST /api/qr-code/batch"))
	case len(f.words) > 0 || *f.typeFields.values["type"] != "":
		return encodeUsageError(stderr, errors.New("-batch takes the payloads from the file's columns: give no text or -type"))
	case *f.out == "":
		return encodeUsageError(stderr, errors.New("-batch needs -o: a .zip file, or a folder (an existing one, or a name ending in /)"))
	}
	toZip := strings.EqualFold(filepath.Ext(*f.out), ".zip")
	info, statErr := os.Stat(*f.out)
	toFolder := strings.HasSuffix(*f.out, "/") || strings.HasSuffix(*f.out, string(os.PathSeparator)) || statErr == nil && info.IsDir()
	if !toZip && !toFolder {
		return encodeUsageError(stderr, fmt.Errorf("-o %s: with -batch, give a .zip file or a folder (an existing one, or a name ending in /)", *f.out))
	}
	// The style flags, read by the same rules as for one code; -o is not an image here.
	out := *f.out
	*f.out = ""
	defaults, err := f.request()
	*f.out = out
	if err != nil {
		return encodeUsageError(stderr, err)
	}
	name := *f.batch
	var in io.Reader = stdin
	if name != "-" {
		file, err := os.Open(name)
		if err != nil {
			fmt.Fprintf(stderr, "bananaqr: %v\n", err)
			return 1
		}
		defer file.Close()
		in = file
	}
	items, errs := batch.ReadCSV(in, defaults)
	var entries []batch.Entry
	if errs == nil {
		entries, errs = batch.Plan(items, batch.Workers())
	}
	if errs != nil {
		reportRows(stderr, name, errs)
		return 2
	}
	progress := newProgressBar(stderr, len(entries))
	start := time.Now()
	if toZip {
		err = writeZipFile(out, entries, progress.update)
	} else {
		err = writeFolder(out, entries, progress.update)
	}
	progress.done()
	if err != nil {
		fmt.Fprintf(stderr, "bananaqr: %v\n", err)
		return 1
	}
	elapsed := time.Since(start)
	fmt.Fprintf(stderr, "bananaqr: %d codes in %.2f s (%.0f codes a second) in %s\n", len(entries), elapsed.Seconds(),
		float64(len(entries))/max(elapsed.Seconds(), 1e-9), out)
	return 0
}

// reportRows writes the errors of a CSV file's rows, one a row, as file:line: field: message
// (CODE), with the hint below.
func reportRows(stderr io.Writer, file string, errs batch.Errors) {
	rows := "rows are"
	if len(errs) == 1 {
		rows = "row is"
	}
	fmt.Fprintf(stderr, "bananaqr: %s: %d %s invalid; nothing was written\n", file, len(errs), rows)
	for _, e := range errs {
		field := ""
		if e.Err.Field != "" {
			field = " " + e.Err.Field + ":"
		}
		fmt.Fprintf(stderr, "%s:%d:%s %s (%s)\n\t%s\n", file, e.Line, field, e.Err.Message, e.Err.Reason, e.Err.Hint)
	}
}

// writeZipFile writes the entries' codes to a ZIP archive at path: into a temporary file beside
// it, renamed over path once whole, so that path never holds half an archive.
func writeZipFile(path string, entries []batch.Entry, progress func(int)) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), ".bananaqr-*.zip")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name()) // after the rename, nothing is there
	err = batch.WriteZip(context.Background(), tmp, entries, batch.Workers(), batch.Local, progress)
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(tmp.Name(), 0o644)
	}
	if err != nil {
		return codeError(entries, err)
	}
	return os.Rename(tmp.Name(), path)
}

// writeFolder writes the entries' codes as files in the folder dir, made if need be; a file
// that exists already is never overwritten: the batch is refused before anything is written,
// and a failure part way removes the files written.
func writeFolder(dir string, entries []batch.Entry, progress func(int)) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	var exist []string
	for _, e := range entries {
		if _, err := os.Lstat(filepath.Join(dir, e.Name)); err == nil {
			exist = append(exist, e.Name)
		}
	}
	if len(exist) > 0 {
		more := ""
		if len(exist) > 3 {
			more, exist = fmt.Sprintf(" and %d more", len(exist)-3), exist[:3]
		}
		return fmt.Errorf("%s: %s%s exist already; nothing was written (remove them, or write to another folder)", dir, strings.Join(exist, ", "), more)
	}
	var written []string
	err := batch.Make(context.Background(), entries, batch.Workers(), batch.Local, batch.CopyImage, func(i int, e *batch.Entry, image []byte) error {
		path := filepath.Join(dir, e.Name)
		file, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
		if err != nil {
			return err
		}
		written = append(written, path)
		_, err = file.Write(image)
		if cerr := file.Close(); err == nil {
			err = cerr
		}
		progress(i + 1)
		return err
	})
	if err != nil {
		for _, path := range written {
			os.Remove(path)
		}
		return codeError(entries, err)
	}
	return nil
}

// codeError is err, naming the entry whose code failed when it is such an error.
func codeError(entries []batch.Entry, err error) error {
	if i, ok := batch.IndexOf(err); ok {
		return fmt.Errorf("%s: %s", entries[i].Name, apiMessage(api.ErrorOf(err)))
	}
	return err
}

// progressBar draws how many codes are written on a terminal, on one line redrawn at most ten
// times a second; on anything else it draws nothing.
type progressBar struct {
	w     io.Writer // nil when not a terminal
	total int
	mu    sync.Mutex
	last  time.Time
}

// newProgressBar returns the progress bar of total codes on stderr, drawn only when stderr is
// a terminal (a character device), never into a pipe, a file or a test's buffer.
func newProgressBar(stderr io.Writer, total int) *progressBar {
	p := &progressBar{total: total}
	if f, ok := stderr.(*os.File); ok {
		if info, err := f.Stat(); err == nil && info.Mode()&os.ModeCharDevice != 0 {
			p.w = stderr
		}
	}
	return p
}

// update draws the bar at done codes.
func (p *progressBar) update(done int) {
	if p.w == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if now := time.Now(); done < p.total && now.Sub(p.last) < 100*time.Millisecond {
		return
	} else {
		p.last = now
	}
	const width = 30
	filled := width * done / max(p.total, 1)
	fmt.Fprintf(p.w, "\r[%s%s] %d/%d codes", strings.Repeat("#", filled), strings.Repeat(" ", width-filled), done, p.total)
}

// done ends the bar's line.
func (p *progressBar) done() {
	if p.w != nil {
		fmt.Fprint(p.w, "\r\033[K")
	}
}
