// The ZIP archive of a batch (APPNOTE.TXT, PKWARE's .ZIP File Format Specification): its bytes
// depend on the entries alone, so that the same batch gives the same archive byte for byte.

package batch

import (
	"archive/zip"
	"compress/flate"
	"context"
	"io"
	"time"

	"github.com/bananaqr/bananaqr/api"
)

// ZipTime is every entry's modification time: 1980-01-01 00:00, the first time an MS-DOS date
// can hold (APPNOTE 4.4.6), rather than the time the archive is made.
var ZipTime = time.Date(1980, 1, 1, 0, 0, 0, 0, time.UTC)

// ZipLevel is the DEFLATE level of the SVG entries: the fastest, as SVGs shrink well at any
// level. PNGs are already compressed and are stored.
const ZipLevel = flate.BestSpeed

// Zip writes a batch's ZIP archive: each entry a regular file of mode 0644, dated ZipTime, in
// the order added.
type Zip struct {
	w *zip.Writer
}

// NewZip returns a Zip writing to w.
func NewZip(w io.Writer) *Zip {
	zw := zip.NewWriter(w)
	zw.RegisterCompressor(zip.Deflate, func(out io.Writer) (io.WriteCloser, error) {
		return flate.NewWriter(out, ZipLevel)
	})
	return &Zip{w: zw}
}

// Add adds the image of entry e as a file of its own: deflated when it is an SVG (text), stored
// when it is a PNG (compressed already).
func (z *Zip) Add(e *Entry, image []byte) error {
	h := &zip.FileHeader{Name: e.Name, Method: zip.Deflate, Modified: ZipTime}
	if e.Request.Format == api.FormatPNG {
		h.Method = zip.Store
	}
	h.SetMode(0o644)
	f, err := z.w.CreateHeader(h)
	if err != nil {
		return err
	}
	_, err = f.Write(image)
	return err
}

// Close writes the archive's central directory; the archive is whole only then.
func (z *Zip) Close() error { return z.w.Close() }

// WriteZip makes the entries' codes (Make) and writes them to w as a ZIP archive; progress,
// when not nil, is told how many are written after each.
func WriteZip(ctx context.Context, w io.Writer, entries []Entry, workers int, code Maker, progress func(done int)) error {
	z := NewZip(w)
	err := Make(ctx, entries, workers, code, func(i int, e *Entry, image []byte) error {
		if err := z.Add(e, image); err != nil {
			return err
		}
		if progress != nil {
			progress(i + 1)
		}
		return nil
	})
	if err != nil {
		return err
	}
	return z.Close()
}
