package batch

import (
	"strings"
	"testing"

	"github.com/bananaqr/bananaqr/api"
)

// TestReadCSV reads a file with a byte-order mark, CRLF line ends, quoted cells holding commas,
// quotes and a line break, an empty cell (absent), hidden as 1, and style cells over the
// defaults, which fill the columns the file lacks.
func TestReadCSV(t *testing.T) {
	file := "\uFEFFtype,url,text,ssid,password,hidden,size,filename\r\n" +
		"url,https://example.com/a,,,,,,\r\n" +
		"text,,\"Hello, \"\"world\"\"\nsecond line\",,,,512,greeting\r\n" +
		"wifi,,,Café,correct horse,1,,\r\n"
	defaults := api.NewRequest()
	defaults.ECC, defaults.Size, defaults.Format = api.LevelQ, 300, api.FormatPNG
	items, errs := ReadCSV(strings.NewReader(file), defaults)
	if errs != nil {
		t.Fatal(errs)
	}
	if len(items) != 3 {
		t.Fatalf("%d items", len(items))
	}
	a, b, c := items[0].Request, items[1].Request, items[2].Request
	if a.Payload.Type != "url" || a.Payload.URL != "https://example.com/a" || a.Size != 300 || a.ECC != api.LevelQ || a.Format != api.FormatPNG || items[0].Filename != "" {
		t.Errorf("row 1: %+v", a)
	}
	if b.Payload.Text != "Hello, \"world\"\nsecond line" || b.Size != 512 || items[1].Filename != "greeting" {
		t.Errorf("row 2: %q size %d file %q", b.Payload.Text, b.Size, items[1].Filename)
	}
	if c.Payload.SSID != "Café" || !c.Payload.Hidden || c.Payload.Password != "correct horse" || c.Logo != api.LogoNone {
		t.Errorf("row 3: %+v", c.Payload)
	}
}

// TestReadCSVErrors: every failing row is reported, with the line where it starts as the file
// counts lines (a quoted line break moves the next row down), the field and the API's code.
func TestReadCSVErrors(t *testing.T) {
	file := "url,text,size,hidden,color\n" +
		"https://example.com,,,,\n" + // line 2: fine
		",\"two\nlines\",99999,,\n" + // line 3: size out of range
		"https://example.com,,,maybe,\n" + // line 5: hidden
		",,,,\n" + // line 6: nothing to encode
		"https://example.com,,,,red\n" + // line 7: colour
		"https://example.com,,\n" // line 8: too few cells
	items, errs := ReadCSV(strings.NewReader(file), api.NewRequest())
	if errs != nil {
		t.Fatal(errs)
	}
	_, errs = Plan(items, 2)
	want := []struct {
		line, index int
		code        api.Reason
		field       string
	}{
		{3, 1, api.ReasonInvalidValue, "size"}, {5, 2, api.ReasonInvalidValue, "hidden"}, {6, 3, "MISSING_PAYLOAD", "type"},
		{7, 4, api.ReasonInvalidColor, "color"}, {8, 5, api.ReasonInvalidValue, ""},
	}
	if len(errs) != len(want) {
		for _, e := range errs {
			t.Logf("%d %d %+v", e.Line, e.Index, e.Err)
		}
		t.Fatalf("%d errors, want %d: %+v", len(errs), len(want), errs)
	}
	for i, w := range want {
		e := errs[i]
		if e.Line != w.line || e.Index != w.index || e.Err.Reason != w.code || e.Err.Field != w.field || e.Err.Hint == "" {
			t.Errorf("error %d: line %d item %d %s %q (%s), want line %d item %d %s %q", i, e.Line, e.Index, e.Err.Reason, e.Err.Field, e.Err.Message,
				w.line, w.index, w.code, w.field)
		}
	}
}

// TestReadCSVHeader: unknown, repeated and meaningless columns are refused by name, all of them,
// at line 1.
func TestReadCSVHeader(t *testing.T) {
	_, errs := ReadCSV(strings.NewReader("url,colour,url,download,jobTitle\nhttps://example.com,,,,\n"), api.NewRequest())
	var got []string
	for _, e := range errs {
		if e.Line != 1 {
			t.Errorf("line %d", e.Line)
		}
		got = append(got, e.Err.Field+" "+string(e.Err.Reason))
	}
	if want := "colour UNKNOWN_FIELD,url INVALID_VALUE,download UNKNOWN_FIELD"; strings.Join(got, ",") != want {
		t.Errorf("errors %q, want %q", strings.Join(got, ","), want)
	}
	if _, errs := ReadCSV(strings.NewReader(""), api.NewRequest()); len(errs) != 1 || errs[0].Line != 1 {
		t.Errorf("an empty file: %v", errs)
	}
}

// TestReadJSON reads an array of request objects with file names: the request's own rules
// apply to each (a property given twice, an unknown one), every failing item is reported by
// index, and the array's own faults are single errors.
func TestReadJSON(t *testing.T) {
	items, err := ReadJSON([]byte(`[{"url":"https://example.com","filename":"home"},{"type":"text","text":"x","format":"png"}]`))
	if err != nil {
		t.Fatal(err)
	}
	if len(items) != 2 || items[0].Filename != "home" || items[0].Request.Payload.URL != "https://example.com" || items[1].Request.Format != api.FormatPNG {
		t.Errorf("%+v", items)
	}
	items, err = ReadJSON([]byte(`[{"url":"https://example.com"},{"text":"a","text":"b"},{"colour":"000000"},7,{"filename":3,"text":"a"},{"text":"ok"},{"url":"https://user:pw@example.com"}]`))
	if err != nil {
		t.Fatal(err)
	}
	_, errs := Plan(items, 2)
	var got []string
	for _, e := range errs {
		got = append(got, string(rune('0'+e.Index))+" "+string(e.Err.Reason))
	}
	if want := "1 INVALID_JSON,2 UNKNOWN_FIELD,3 INVALID_JSON,4 WRONG_TYPE,6 INVALID_URL"; strings.Join(got, ",") != want {
		t.Errorf("errors %q, want %q", strings.Join(got, ","), want)
	}
	many := "[" + strings.Repeat(`{"text":"a"},`, MaxJSONItems) + `{"text":"a"}]`
	for body, code := range map[string]api.Reason{
		many: api.ReasonInvalidValue, `[]`: api.ReasonInvalidValue, `{"text":"a"}`: api.ReasonInvalidJSON,
		`[{"text":"a"}] []`: api.ReasonInvalidJSON, `[{"text":"a"}`: api.ReasonInvalidJSON,
	} {
		if _, err := ReadJSON([]byte(body)); api.ErrorOf(err).Reason != code {
			t.Errorf("%.40s: %v, want %s", body, err, code)
		}
	}
}

// TestReadCSVNotUTF8: a file in another encoding (Windows-1252, UTF-16) is refused whole, at its
// first byte that is not UTF-8: the line, the character (counted from 1 as an editor counts
// them, not in bytes: é before it is one), the column's name, how many lines hold such bytes,
// and how to convert the file; never a cell's value, which may be a password. Before, the
// cells reached the codes with U+FFFD in place of each such byte.
func TestReadCSVNotUTF8(t *testing.T) {
	header := "type,ssid,password,text\r\n"
	tests := []struct {
		name, file   string
		line, index  int
		field, where string
	}{
		{"Windows-1252 in ssid", header + "wifi,Home,correct horse,\r\nwifi,Caf\xe9 M\xfcller,p\xe4ssw\xf6rd,\r\ntext,,,Gr\xfc\xdfe\r\n",
			3, 1, "ssid", `line 3, character 9 (in the column "ssid")`},
		{"a password", header + "wifi,Home,p\xe4ssw\xf6rd,\r\n", 2, 0, "password", `line 2, character 12 (in the column "password")`},
		{"characters, not bytes", "\uFEFF" + header + "text,,,Café \xff\r\n", 2, 0, "text", `line 2, character 13 (in the column "text")`},
		{"a quoted line break", header + "text,,,\"first line\nCafé \xe0 la carte\"\r\n", 3, 0, "text", `line 3, character 6 (in the column "text")`},
		{"the header", "type,M\xfcller\r\ntext,a\r\n", 1, -1, "", `line 1, character 7 (in the header row)`},
		{"past the header's columns", "text\r\nhello,caf\xe9\r\n", 2, 0, "", "line 2, character 10 is"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			items, errs := ReadCSV(strings.NewReader(tt.file), api.NewRequest())
			if len(errs) != 1 || items != nil {
				t.Fatalf("%d items, errors %v; want the file refused", len(items), errs)
			}
			e := errs[0]
			if e.Line != tt.line || e.Index != tt.index || e.Err.Field != tt.field || e.Err.Reason != "INVALID_TEXT" {
				t.Errorf("line %d item %d field %q %s, want line %d item %d field %q INVALID_TEXT", e.Line, e.Index, e.Err.Field, e.Err.Reason,
					tt.line, tt.index, tt.field)
			}
			if !strings.Contains(e.Err.Message, tt.where) || !strings.Contains(e.Err.Hint, "iconv -f WINDOWS-1252 -t UTF-8 in.csv > out.csv") ||
				!strings.Contains(e.Err.Hint, "CSV UTF-8") {
				t.Errorf("message %q, hint %q; want %q and how to convert", e.Err.Message, e.Err.Hint, tt.where)
			}
			for _, secret := range []string{"Caf", "ller", "p\xe4", "Home", "Gr", "carte", "\ufffd"} {
				if strings.Contains(e.Err.Message+e.Err.Hint, secret) {
					t.Errorf("the error quotes a cell: %q", e.Err.Message)
				}
			}
		})
	}
	if _, errs := ReadCSV(strings.NewReader(tests[0].file), api.NewRequest()); len(errs) != 1 ||
		!strings.HasSuffix(errs[0].Err.Message, "; 2 lines have such bytes") {
		t.Errorf("errors %v: want the count of lines", errs)
	}
	utf16 := "\xff\xfet\x00e\x00x\x00t\x00\r\x00\n\x00C\x00a\x00f\x00\xe9\x00\r\x00\n\x00"
	if _, errs := ReadCSV(strings.NewReader(utf16), api.NewRequest()); len(errs) != 1 || errs[0].Line != 1 ||
		!strings.Contains(errs[0].Err.Message, "UTF-16") || !strings.Contains(errs[0].Err.Hint, "iconv -f UTF-16 -t UTF-8") {
		t.Errorf("UTF-16: %v", errs)
	}
}
