// The ZIP archive of a batch (APPNOTE.TXT, PKWARE's .ZIP File Format Specification): its bytes
// depend on the entries alone, so that the same batch gives the same archive byte for byte.

package batch

import (
	"archive/zip"
	"bytes"
	"compress/flate"
	"context"
	"hash/crc32"
	"io"
	"sync"
	"time"

	"github.com/bananaqr/bananaqr/api"
)

// ZipTime is every entry's modification time: 1980-01-01 00:00, the first time an MS-DOS date
// can hold (APPNOTE 4.4.6), rather than the time the archive is made.
var ZipTime = time.Date(1980, 1, 1, 0, 0, 0, 0, time.UTC)

// zipDate is ZipTime as an MS-DOS date (APPNOTE 4.4.6): the years since 1980, the month and
// the day in bits 15-9, 8-5 and 4-0.
const zipDate = 0<<9 | 1<<5 | 1

// ZipLevel is the DEFLATE level of the SVG, PDF and EPS entries (text, or text-like streams):
// the fastest, as they shrink well at any level. PNGs are already compressed and are stored.
const ZipLevel = flate.BestSpeed

// Zip writes a batch's ZIP archive: each entry a regular file of mode 0644, dated ZipTime, in
// the order added.
type Zip struct {
	w *zip.Writer
}

// NewZip returns a Zip writing to w.
func NewZip(w io.Writer) *Zip { return &Zip{w: zip.NewWriter(w)} }

// Compressed is an entry's file as the archive holds it: stored when it is a PNG (compressed
// already), else deflated.
type Compressed struct {
	Method uint16
	CRC32  uint32
	Size   int // uncompressed
	Data   []byte
}

// Compress returns the file of entry e's image as the archive holds it. Make's workers call it,
// so that the codes are compressed in parallel.
func Compress(e *Entry, image []byte) (Compressed, error) {
	c := Compressed{Method: zip.Store, CRC32: crc32.ChecksumIEEE(image), Size: len(image)}
	if e.Request.Format == api.FormatPNG {
		c.Data = bytes.Clone(image)
		return c, nil
	}
	c.Method = zip.Deflate
	var b bytes.Buffer
	b.Grow(len(image) / 4)
	fw, ok := compressors.Get().(*flate.Writer)
	if ok {
		fw.Reset(&b)
	} else {
		var err error
		if fw, err = flate.NewWriter(&b, ZipLevel); err != nil {
			return c, err
		}
	}
	defer compressors.Put(fw)
	if _, err := fw.Write(image); err != nil {
		return c, err
	}
	if err := fw.Close(); err != nil {
		return c, err
	}
	c.Data = b.Bytes()
	return c, nil
}

// compressors holds DEFLATE compressors between entries: a new one costs far more than
// deflating a code's SVG (its window and hash tables, some hundreds of KiB).
var compressors sync.Pool

// Add adds the file of entry e, a regular file of mode 0644 dated ZipTime.
func (z *Zip) Add(e *Entry, c Compressed) error {
	h := &zip.FileHeader{Name: e.Name, Method: c.Method, CRC32: c.CRC32,
		CompressedSize64: uint64(len(c.Data)), UncompressedSize64: uint64(c.Size),
		// CreateRaw writes the MS-DOS fields and the flags as they are (it reads no Modified,
		// and marks no name UTF-8 as CreateHeader does).
		ModifiedDate: zipDate, ModifiedTime: 0, Flags: nameFlags(e.Name)}
	h.SetMode(0o644)
	f, err := z.w.CreateRaw(h)
	if err != nil {
		return err
	}
	_, err = f.Write(c.Data)
	return err
}

// Close writes the archive's central directory; the archive is whole only then.
func (z *Zip) Close() error { return z.w.Close() }

// WriteZip makes the entries' codes (Make) and writes them to w as a ZIP archive, each entry as
// soon as it is made and its turn has come (so that the archive need never be held whole);
// progress, when not nil, is told how many are written after each, once the entry has left the
// archive's buffer for w (progress may flush w onwards). The archive is whole only when WriteZip
// returns nil: after an error it lacks its central directory, and what was written of it must
// not pass for an archive.
func WriteZip(ctx context.Context, w io.Writer, entries []Entry, workers int, code Maker, progress func(done int)) error {
	z := NewZip(w)
	err := Make(ctx, entries, workers, code, Compress, func(i int, e *Entry, c Compressed) error {
		if err := z.Add(e, c); err != nil {
			return err
		}
		if progress == nil {
			return nil
		}
		if err := z.w.Flush(); err != nil {
			return err
		}
		progress(i + 1)
		return nil
	})
	if err != nil {
		return err
	}
	return z.Close()
}
