// Reading a batch from a CSV file (RFC 4180): a header row of the API's field names, then a row
// a code.

package batch

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"slices"
	"unicode/utf8"

	"github.com/bananaqr/bananaqr/api"
	"github.com/bananaqr/bananaqr/payload"
)

// csvColumn is how a column's cells are read.
type csvColumn int

const (
	columnString   csvColumn = iota // a payload field or type: a JSON string, as a POST body gives it
	columnBool                      // hidden: true, false, 1 or 0, as a JSON boolean
	columnStyle                     // a style field: its text form, as a query string or a flag gives it
	columnFilename                  // the file's name
)

// ReadCSV reads a batch from CSV: UTF-8 with or without a byte-order mark (a file in another
// encoding is refused whole, at its first byte that is not UTF-8); its first row names
// the columns, each an API field name (those of a POST /api/qr-code body but download) or
// filename; every other row is a code. An empty cell is an absent field. The payload's cells
// are read as the JSON body's strings (api.DecodeJSON), hidden as true, false, 1 or 0, the
// style's as a query string or bananaqr encode's flags give them (Request.SetStyle); a style
// field without a column, or with an empty cell, is defaults'. It returns an item a row, with
// the line where the row starts and the error of a row that cannot be read (Plan reports it);
// a header that cannot be read gives errors at line 1, index -1, and a file that stops parsing
// one at the line where it does, with no items.
func ReadCSV(r io.Reader, defaults api.Request) ([]Item, Errors) {
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, Errors{{Index: -1, Line: 1, Err: api.NewError(api.ReasonInvalidValue, "", "Check that the file can be read.", "the CSV file cannot be read: %v", err)}}
	}
	data = bytes.TrimPrefix(data, []byte("\uFEFF"))
	if e := checkUTF8(data); e != nil {
		return nil, Errors{*e}
	}
	rd := csv.NewReader(bytes.NewReader(data))
	rd.FieldsPerRecord = 0 // every row as many cells as the header
	header, err := rd.Read()
	if err != nil {
		if errors.Is(err, io.EOF) {
			err = errors.New("the file is empty")
		}
		return nil, Errors{{Index: -1, Line: 1, Err: csvError(err)}}
	}
	columns, errs := readHeader(header)
	if errs != nil {
		return nil, errs
	}
	var items []Item
	for index := 0; ; index++ {
		record, err := rd.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		line, _ := rd.FieldPos(0)
		if err != nil {
			var perr *csv.ParseError
			if errors.As(err, &perr) {
				line = perr.StartLine
			}
			if !errors.Is(err, csv.ErrFieldCount) { // the rest of the file cannot be trusted
				return nil, Errors{{Index: index, Line: line, Err: csvError(err)}}
			}
			items = append(items, Item{Line: line, Err: csvError(err)})
			continue
		}
		item, err := readRow(header, columns, record, &defaults)
		if item.Line = line; err != nil {
			item.Err = api.ErrorOf(err)
		}
		items = append(items, item)
	}
	return items, nil
}

// csvError is the API's error for a CSV file that does not parse.
func csvError(err error) *api.Error {
	msg := err.Error()
	var perr *csv.ParseError
	if errors.As(err, &perr) {
		msg = perr.Err.Error()
	}
	return api.NewError(api.ReasonInvalidValue, "", "Write the file as CSV (RFC 4180): a header row of field names, the same number of cells in every row, and cells with commas, quotes or line breaks in double quotes.",
		"the CSV file does not parse: %s", msg)
}

// readHeader returns how each column is read: its name must be an API field name (the ones
// api.DecodeJSON takes) or filename, once.
func readHeader(header []string) ([]csvColumn, Errors) {
	styles := api.StyleDefaults()
	columns := make([]csvColumn, len(header))
	seen := map[string]bool{}
	var errs Errors
	fail := func(e *api.Error) { errs = append(errs, ItemError{Index: -1, Line: 1, Err: e}) }
	for i, name := range header {
		switch {
		case seen[name]:
			fail(api.NewError(api.ReasonInvalidValue, name, "Name each column once.", "the column %q is given twice", name))
		case name == "filename":
			columns[i] = columnFilename
		case name == "hidden":
			columns[i] = columnBool
		case name == "download":
			fail(api.NewError(api.ReasonUnknownField, name, "Remove the download column: every code of a batch is a file.", "download has no meaning in a batch"))
		case styles[name] != "":
			columns[i] = columnStyle
		default:
			// A column is a field when a JSON body may give it as a string: the API's one list.
			raw, _ := json.Marshal(map[string]string{name: ""})
			if _, err := api.DecodeJSON(raw); err != nil && api.ErrorOf(err).Reason == api.ReasonUnknownField {
				fail(api.NewError(api.ReasonUnknownField, name, "Name the columns after the API's fields (data, type, url, text, ssid, …, size, color, format) or filename.",
					"the column %q is not a field of the request", name))
			}
			columns[i] = columnString
		}
		seen[name] = true
	}
	return columns, errs
}

// readRow returns the item of one row.
func readRow(header []string, columns []csvColumn, record []string, defaults *api.Request) (Item, error) {
	body := map[string]any{}
	style := map[string]string{}
	var item Item
	for i, cell := range record {
		if cell == "" {
			continue
		}
		name := header[i]
		switch columns[i] {
		case columnString:
			body[name] = cell
		case columnBool:
			switch cell {
			case "true", "1":
				body[name] = true
			case "false", "0":
				body[name] = false
			default:
				return item, api.NewError(api.ReasonInvalidValue, name, "Use true, false, 1 or 0.", "%s %q is not true, false, 1 or 0", name, cell)
			}
		case columnStyle:
			style[name] = cell
		case columnFilename:
			item.Filename = cell
		}
	}
	raw, err := json.Marshal(body)
	if err != nil {
		return item, err
	}
	if item.Request, err = api.DecodeJSON(raw); err != nil {
		return item, err
	}
	setStyle(&item.Request, defaults)
	for _, name := range slices.Sorted(maps.Keys(style)) { // in name order, as DecodeJSON reads
		if err := item.Request.SetStyle(name, style[name]); err != nil {
			return item, err
		}
	}
	return item, nil
}

// setStyle sets r's style fields to d's.
func setStyle(r *api.Request, d *api.Request) {
	r.Format, r.Size, r.Margin, r.ECC = d.Format, d.Size, d.Margin, d.ECC
	r.Color, r.Background, r.Logo, r.Corners = d.Color, d.Background, d.Logo, d.Corners
}

// checkUTF8 returns the error of a file that is not UTF-8, or nil. Its cells would reach the
// codes with U+FFFD for each such byte (encoding/json writes it so), Wi-Fi passwords included,
// where the API and bananaqr encode refuse the same bytes (INVALID_TEXT): the file is refused,
// at its first such byte, by line and character (from 1, as an editor counts them: the line is
// UTF-8 up to there) and column, never quoting a cell, which may be a password. A file in
// another 8-bit encoding (Windows-1252, ISO 8859-1: Caf\xe9) is rarely valid UTF-8 by chance.
func checkUTF8(data []byte) *ItemError {
	if utf8.Valid(data) {
		return nil
	}
	if bytes.HasPrefix(data, []byte{0xFF, 0xFE}) || bytes.HasPrefix(data, []byte{0xFE, 0xFF}) {
		return &ItemError{Index: -1, Line: 1, Err: api.NewError(payload.ReasonInvalidText, "",
			"Save the file as CSV UTF-8, or convert it: iconv -f UTF-16 -t UTF-8 in.csv > out.csv",
			"the CSV file is UTF-16 (it starts with a UTF-16 byte-order mark); bananaqr reads UTF-8")}
	}
	at := invalidUTF8(data)
	lineStart := bytes.LastIndexByte(data[:at], '\n') + 1
	line := 1 + bytes.Count(data[:lineStart], []byte("\n"))
	char := utf8.RuneCount(data[lineStart:at]) + 1
	index, column, found := csvCell(data, at)
	where := ""
	switch {
	case column != "":
		where = fmt.Sprintf(" (in the column %q)", column)
	case found && index == -1:
		where = " (in the header row)"
	}
	lines := 0
	for l := range bytes.Lines(data) {
		if !utf8.Valid(l) {
			lines++
		}
	}
	return &ItemError{Index: index, Line: line, Err: api.NewError(payload.ReasonInvalidText, column,
		"Save the file as UTF-8 (a spreadsheet's \"CSV UTF-8\" type, or UTF-8 as the character set), or convert it, "+
			"as from Windows-1252, the usual encoding of Windows in Western Europe: iconv -f WINDOWS-1252 -t UTF-8 in.csv > out.csv",
		"the CSV file is not UTF-8: line %d, character %d%s is a byte UTF-8 does not allow; %d %s such bytes",
		line, char, where, lines, plural(lines, "line has", "lines have"))}
}

// invalidUTF8 returns the offset of the first byte of data that is not UTF-8 (len(data) if none).
func invalidUTF8(data []byte) int {
	for at := 0; at < len(data); {
		r, size := utf8.DecodeRune(data[at:])
		if r == utf8.RuneError && size == 1 {
			return at
		}
		at += size
	}
	return len(data)
}

// csvCell returns the row (-1 for the header) and the column's name ("" in the header, or past
// its columns) of the cell holding data's first byte that is not UTF-8, at, and whether the
// file parses that far. That cell is the first one not UTF-8: the rows and cells before it hold
// bytes before at alone.
func csvCell(data []byte, at int) (index int, column string, found bool) {
	rd := csv.NewReader(bytes.NewReader(data))
	rd.FieldsPerRecord = -1
	var header []string
	for index = -1; rd.InputOffset() <= int64(at); index++ {
		record, err := rd.Read()
		if err != nil {
			return index, "", false
		}
		if index == -1 {
			header = record
		}
		for i, cell := range record {
			if !utf8.ValidString(cell) {
				if index >= 0 && i < len(header) {
					column = header[i]
				}
				return index, column, true
			}
		}
	}
	return index, "", false
}

// plural returns one when n is 1, else many, after n.
func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
