package batch

import (
	"archive/zip"
	"bytes"
	"context"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/bananaqr/bananaqr/api"
	"github.com/bananaqr/bananaqr/internal/generate"
	"github.com/bananaqr/bananaqr/internal/qrtest"
	"github.com/bananaqr/bananaqr/internal/testenv"
)

// request returns the request of a JSON body, or fails the test.
func request(t *testing.T, body string) api.Request {
	t.Helper()
	r, err := api.DecodeJSON([]byte(body))
	if err != nil {
		t.Fatalf("%s: %v", body, err)
	}
	return r
}

// TestPlanReportsEveryItem checks that every failing item is reported, in item order, with the
// API's code and field, whatever the step that refuses it (the request, the payload, the
// symbol's capacity, the image's size, the format, the file name), and nothing else.
func TestPlanReportsEveryItem(t *testing.T) {
	long := strings.Repeat("x", 2000)
	items := []Item{
		{Request: request(t, `{"url":"https://example.com/1"}`)},
		{Request: request(t, `{"type":"url","url":"https://user:pw@example.com"}`)},                 // the payload
		{Request: request(t, `{"text":"hello","color":"FFFFFF","background":"FFFFFF"}`)},            // the contrast
		{Request: request(t, `{"type":"text","text":"`+long+`","ecc":"H"}`)},                        // the symbol's capacity
		{Request: request(t, `{"type":"text","text":"`+long[:1000]+`","size":128,"format":"png"}`)}, // the image's size
		{Request: request(t, `{"text":"json","format":"json"}`)},                                    // a format no file holds
		{Request: request(t, `{"text":"a"}`), Filename: "../etc/passwd"},
		{Request: request(t, `{"text":"b"}`), Filename: "a\x07b"},
		{Request: request(t, `{"text":"c"}`), Filename: "Menu.SVG"},
		{Request: request(t, `{"text":"d"}`), Filename: "menu"}, // menu.svg, as item 8's in another case
	}
	entries, errs := Plan(items, 3)
	if entries != nil {
		t.Fatalf("entries %v with invalid items", entries)
	}
	want := []struct {
		index int
		code  api.Reason
		field string
	}{
		{1, "INVALID_URL", "url"}, {2, api.ReasonLowContrast, "color"}, {3, api.ReasonNotEncodable, ""},
		{4, api.ReasonNotEncodable, "size"}, {5, api.ReasonInvalidValue, "format"}, {6, api.ReasonInvalidValue, "filename"},
		{7, api.ReasonInvalidValue, "filename"}, {9, api.ReasonInvalidValue, "filename"},
	}
	if len(errs) != len(want) {
		t.Fatalf("%d errors, want %d: %v", len(errs), len(want), errs)
	}
	for i, w := range want {
		e := errs[i]
		if e.Index != w.index || e.Err.Reason != w.code || e.Err.Field != w.field || e.Err.Hint == "" {
			t.Errorf("error %d: item %d %s %q (%s), want item %d %s %q", i, e.Index, e.Err.Reason, e.Err.Field, e.Err.Message, w.index, w.code, w.field)
		}
	}
	// The errors are generate's own for the same request.
	_, err := generate.Code(&items[4].Request)
	if got := api.ErrorOf(err); got.Message != errs[3].Err.Message || got.Hint != errs[3].Err.Hint {
		t.Errorf("size error %+v, generate says %+v", errs[3].Err, got)
	}
}

// TestPlanNames checks the file names: the default qr-<n>-<type>.<format>, zero-padded so that
// they sort in item order, never the payload; a name given gets its extension unless it has it.
func TestPlanNames(t *testing.T) {
	var items []Item
	for range 11 {
		items = append(items, Item{Request: request(t, `{"url":"example.com"}`)})
	}
	items[1] = Item{Request: request(t, `{"type":"wifi","ssid":"Home","password":"secret-pass","format":"png"}`)}
	items[2].Filename = "menu"
	items[3].Filename = "card.png"
	items[3].Request.Format = api.FormatPNG
	items[4].Filename = "Café menu.svg"
	entries, errs := Plan(items, 2)
	if errs != nil {
		t.Fatal(errs)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name)
	}
	want := []string{"qr-01-url.svg", "qr-02-wifi.png", "menu.svg", "card.png", "Café menu.svg", "qr-06-url.svg", "qr-07-url.svg",
		"qr-08-url.svg", "qr-09-url.svg", "qr-10-url.svg", "qr-11-url.svg"}
	if !reflect.DeepEqual(names, want) {
		t.Errorf("names\n got %q\nwant %q", names, want)
	}
}

// goodItems returns a batch of URL codes, SVG and PNG, with the payloads they hold.
func goodItems(t *testing.T, n int) ([]Item, []string) {
	var items []Item
	var payloads []string
	for i := range n {
		format := "svg"
		if i%2 == 1 {
			format = "png"
		}
		u := "https://example.com/item/" + strings.Repeat("a", i%7) + string(rune('a'+i%26))
		items = append(items, Item{Request: request(t, `{"url":"`+u+`","format":"`+format+`","size":256,"corners":"rounded"}`)})
		payloads = append(payloads, u)
	}
	return items, payloads
}

// TestZipDeterministic makes the same batch twice, with different numbers of workers: the
// archives are the same bytes; each entry is what generate.Code makes for its request, in item
// order, dated 1980-01-01, mode 0644; the PNGs read back (gozxing) to their payloads; and
// Debian's unzip finds the archive sound, when it is installed.
func TestZipDeterministic(t *testing.T) {
	items, payloads := goodItems(t, 25)
	entries, errs := Plan(items, 4)
	if errs != nil {
		t.Fatal(errs)
	}
	var a, b bytes.Buffer
	var progress []int
	if err := WriteZip(context.Background(), &a, entries, 4, Local, func(done int) { progress = append(progress, done) }); err != nil {
		t.Fatal(err)
	}
	if err := WriteZip(context.Background(), &b, entries, 1, Local, nil); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(a.Bytes(), b.Bytes()) {
		t.Fatal("the same batch gave two different archives")
	}
	if len(progress) != 25 || progress[24] != 25 {
		t.Errorf("progress %v", progress)
	}
	zr, err := zip.NewReader(bytes.NewReader(a.Bytes()), int64(a.Len()))
	if err != nil {
		t.Fatal(err)
	}
	if len(zr.File) != len(entries) {
		t.Fatalf("%d files, want %d", len(zr.File), len(entries))
	}
	for i, f := range zr.File {
		if f.Name != entries[i].Name || !f.Modified.Equal(ZipTime) || f.Mode() != 0o644 {
			t.Errorf("file %d: %s %v %v", i, f.Name, f.Modified, f.Mode())
		}
		rc, err := f.Open()
		if err != nil {
			t.Fatal(err)
		}
		var got bytes.Buffer
		got.ReadFrom(rc)
		rc.Close()
		res, err := generate.Code(&entries[i].Request)
		if err != nil {
			t.Fatal(err)
		}
		want := res.Image(entries[i].Request.Format)
		if !bytes.Equal(got.Bytes(), want) {
			t.Errorf("%s is not generate's image", f.Name)
		}
		res.Release()
		if entries[i].Request.Format == api.FormatPNG {
			img, err := png.Decode(bytes.NewReader(got.Bytes()))
			if err != nil {
				t.Fatal(err)
			}
			if text, err := qrtest.DecodeImage(img, false); err != nil || text != payloads[i] {
				t.Errorf("%s reads %q (%v), want %q", f.Name, text, err, payloads[i])
			}
		}
	}
	if _, err := exec.LookPath("unzip"); !testenv.Optional(t, err == nil, "unzip is not installed: the archive is not checked with it") {
		return
	}
	path := filepath.Join(t.TempDir(), "codes.zip")
	os.WriteFile(path, a.Bytes(), 0o644)
	if out, err := exec.Command("unzip", "-t", path).CombinedOutput(); err != nil || !strings.Contains(string(out), "No errors detected") {
		t.Errorf("unzip -t: %v\n%s", err, out)
	}
}

// TestMakeStopsAtFirstError: a code that fails stops the batch with its item's index, and the
// entries before it were put, in order, and none after.
func TestMakeStopsAtFirstError(t *testing.T) {
	items, _ := goodItems(t, 40)
	entries, errs := Plan(items, 2)
	if errs != nil {
		t.Fatal(errs)
	}
	failing := func(ctx context.Context, c *generate.Prepared, use func(*generate.Result) error) error {
		if c == &entries[17].Prepared {
			return api.NewError(api.ReasonOverloaded, "", "Retry after a second.", "too many requests are waiting")
		}
		return Local(ctx, c, use)
	}
	var put []int
	err := Make(context.Background(), entries, 4, failing, CopyImage, func(i int, _ *Entry, _ []byte) error {
		put = append(put, i)
		return nil
	})
	if i, ok := IndexOf(err); !ok || i != 17 || api.ErrorOf(err).Reason != api.ReasonOverloaded {
		t.Fatalf("error %v (index %d, %v)", err, i, ok)
	}
	if len(put) != 17 || put[16] != 16 {
		t.Errorf("put %v", put)
	}
}

// TestPrintFormats: every image format of the API goes in a batch (the print formats too, which
// package generate makes), each as generate makes it, deflated; json is refused with the
// formats a batch takes in its hint.
func TestPrintFormats(t *testing.T) {
	items := []Item{{Request: request(t, `{"url":"https://example.com","format":"pdf"}`)}, {Request: request(t, `{"text":"eps","format":"eps"}`)}}
	entries, errs := Plan(items, 2)
	if errs != nil {
		t.Fatal(errs)
	}
	var b bytes.Buffer
	if err := WriteZip(context.Background(), &b, entries, 2, Local, nil); err != nil {
		t.Fatal(err)
	}
	zr, err := zip.NewReader(bytes.NewReader(b.Bytes()), int64(b.Len()))
	if err != nil {
		t.Fatal(err)
	}
	for i, want := range []struct{ name, magic string }{{"qr-1-url.pdf", "%PDF-"}, {"qr-2-text.eps", "%!PS-Adobe"}} {
		f := zr.File[i]
		rc, _ := f.Open()
		var got bytes.Buffer
		got.ReadFrom(rc)
		rc.Close()
		if f.Name != want.name || !strings.HasPrefix(got.String(), want.magic) || f.Method != zip.Deflate {
			t.Errorf("file %d: %s, method %d, starts %.12q", i, f.Name, f.Method, got.String())
		}
	}
	_, errs = Plan([]Item{{Request: request(t, `{"text":"j","format":"json"}`)}}, 1)
	if len(errs) != 1 || !strings.Contains(errs[0].Err.Hint, "svg, png, pdf or eps") {
		t.Errorf("json: %v", errs)
	}
}
