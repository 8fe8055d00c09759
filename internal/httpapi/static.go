// Static files: the web page's files with their security headers, and the ETags and
// If-None-Match of any response whose body never changes.

package httpapi

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"html/template"
	"mime"
	"net/http"
	"path"
	"regexp"
	"strconv"
	"strings"

	"github.com/bananaqr/bananaqr/api"
	"github.com/bananaqr/bananaqr/internal/generate"
	"github.com/bananaqr/bananaqr/payload"
	"github.com/bananaqr/bananaqr/web"
)

// static is a response whose body never changes, with an ETag computed once when it is made
// and, for a body large enough to gain from it, its gzip encoding, made once too.
type static struct {
	contentType string
	body        []byte
	etag        string
	gz          []byte // body gzip-compressed, or nil
	gzETag      string // the ETag of gz: each encoding is its own representation (RFC 9110 8.8.3)
}

// newStatic returns the static response of body, its ETag a hash of the bytes.
func newStatic(contentType string, body []byte) static {
	sum := sha256.Sum256(body)
	st := static{contentType: contentType, body: body, etag: `"` + hex.EncodeToString(sum[:8]) + `"`}
	if len(body) >= minCompressed {
		st.gz, st.gzETag = gzipped(body), `"`+hex.EncodeToString(sum[:8])+`-gzip"`
	}
	return st
}

// write sets the ETag and answers 304 Not Modified when r's If-None-Match names it, else
// writes the body with its Content-Type: gzip-compressed when it has that encoding and r
// accepts it. The caller sets the other headers first.
func (st static) write(w http.ResponseWriter, r *http.Request) {
	h := w.Header()
	body, etag := st.body, st.etag
	if st.gz != nil {
		h[headerVary] = varyEncoding
		if acceptsGzip(r.Header.Values("Accept-Encoding")) {
			body, etag = st.gz, st.gzETag
			h[headerContentEncoding] = gzipEncoding
		}
	}
	h.Set("ETag", etag)
	if noneMatch(r.Header.Values("If-None-Match"), etag) {
		delete(h, headerContentEncoding)
		w.WriteHeader(http.StatusNotModified)
		return
	}
	h.Set("Content-Type", st.contentType)
	writeBody(w, http.StatusOK, body)
}

// noneMatch reports whether If-None-Match headers (values) match etag, a strong entity tag: *
// matches anything; else any entity tag of the comma-separated lists that is etag, weak (W/)
// or not, since If-None-Match compares weakly (RFC 9110, 13.1.2). Parsing stops at anything
// malformed, which then matches nothing more.
func noneMatch(values []string, etag string) bool {
	for _, v := range values {
		for {
			v = strings.TrimLeft(v, " \t,")
			if v == "" {
				break
			}
			if v[0] == '*' {
				return true
			}
			v = strings.TrimPrefix(v, "W/")
			if len(v) < 2 || v[0] != '"' {
				break
			}
			end := strings.IndexByte(v[1:], '"')
			if end < 0 {
				break
			}
			if v[:end+2] == etag {
				return true
			}
			v = v[end+2:]
		}
	}
	return false
}

// page serves one of the web page's files (package web), with a content security policy that
// lets the page reach nothing but this service, and an ETag.
func page(name string) http.HandlerFunc {
	body, err := web.Files.ReadFile(name)
	if err != nil {
		panic(err)
	}
	contentType := mime.TypeByExtension(path.Ext(name))
	if path.Ext(name) == ".html" { // the page, and the panels its script loads into it
		contentType = "text/html; charset=utf-8"
		body = pageHTML(name, body)
	}
	file := newStatic(contentType, withoutIndent(name, withoutComments(name, body)))
	return func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h.Set("Content-Security-Policy", "default-src 'self'; img-src 'self' data: blob:; style-src 'self'; script-src 'self'; "+
			"connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'")
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("Referrer-Policy", "no-referrer")
		h.Set("Cache-Control", "no-cache")
		file.write(w, r)
	}
}

// withoutComments returns a page file as it is sent: the comments of the script (whole lines
// that start with //, and the ends of lines from " // ") and of the style sheet (/* … */) are for
// whoever reads web/, not for every visitor's download, which they would make a quarter larger
// (issue 29: the page with its first code under 35 KB gzip). It relies on what web/ holds, which
// TestPageWithoutComments checks: no line of a multi-line string that starts with //, no " // "
// within a string or a regular expression of the script, and no /* in a CSS string.
func withoutComments(name string, body []byte) []byte {
	var kept []byte
	switch path.Ext(name) {
	case ".js":
		for line := range bytes.Lines(body) {
			if bytes.HasPrefix(bytes.TrimLeft(line, " \t"), []byte("//")) {
				continue
			}
			if code, _, found := bytes.Cut(line, []byte(" // ")); found {
				kept = append(append(kept, bytes.TrimRight(code, " \t")...), '\n')
				continue
			}
			kept = append(kept, line...)
		}
	case ".css":
		rest := body
		for {
			start := bytes.Index(rest, []byte("/*"))
			end := bytes.Index(rest[max(start, 0):], []byte("*/"))
			if start < 0 || end < 0 {
				kept = append(kept, rest...)
				break
			}
			kept = append(kept, rest[:start]...)
			rest = rest[start+end+2:]
			if len(bytes.TrimSpace(lastLine(kept))) == 0 { // a comment on lines of its own
				kept = bytes.TrimRight(kept, " \t")
				rest = bytes.TrimPrefix(rest, []byte("\n"))
			}
		}
	default:
		return body
	}
	return kept
}

// preformatted matches the start and the end of the HTML elements whose white space shows.
var preformatted = regexp.MustCompile(`(?i)<(/?)(?:pre|textarea)[\s>]`)

// withoutIndent returns a page file as it is sent: without the spaces and tabs that start its
// lines, which show whoever reads web/ the files' structure and would cost every visitor's
// download some 700 bytes gzip-compressed (issue 29). An HTML line that starts within a <pre> or
// a <textarea>, whose white space shows (the HTML standard's rendering: pre { white-space: pre },
// textarea { white-space: pre-wrap }), keeps its own. It relies on what web/ holds, which
// TestPageWithoutIndent checks: no string or template literal of the script, no string of the
// style sheet and no tag of the HTML that runs over a line break.
func withoutIndent(name string, body []byte) []byte {
	kept := make([]byte, 0, len(body))
	open := 0 // the <pre> and <textarea> elements the line starts within
	for line := range bytes.Lines(body) {
		if open == 0 {
			line = bytes.TrimLeft(line, " \t")
		}
		kept = append(kept, line...)
		if path.Ext(name) == ".html" {
			for _, m := range preformatted.FindAllSubmatch(line, -1) {
				if len(m[1]) == 0 {
					open++
				} else {
					open = max(open-1, 0)
				}
			}
		}
	}
	return kept
}

// lastLine returns b after its last newline.
func lastLine(b []byte) []byte {
	return b[bytes.LastIndexByte(b, '\n')+1:]
}

// pageHTML fills a template of the page (index.html, or payments.html, the panels its script
// loads into it) with the request's rules from packages api, payload and generate (the style
// defaults, limits and choices, the text and caption limits, the private and public types, the
// fields' older names, the warnings' wording, the style a type's standard fixes), so that neither
// the page nor its script holds a copy of them. html/template leaves the templates' comments out.
func pageHTML(name string, tmpl []byte) []byte {
	t := template.Must(template.New(name).Parse(string(tmpl)))
	d := api.StyleDefaults()
	data := map[string]any{
		"Color": "#" + d["color"], "ColorPicker": "#" + strings.ToLower(d["color"]),
		"Background": "#" + d["background"], "BackgroundPicker": "#" + strings.ToLower(d["background"]),
		"Size": d["size"], "MinSize": api.MinSize, "MaxSize": api.MaxSize,
		"Margin": d["margin"], "MaxMargin": api.MaxMargin, "Corners": d["corners"], "ECC": d["ecc"],
		"MaxText": payload.MaxLen, "MaxTextWords": thousands(payload.MaxLen), "Private": typeNames(payload.PrivateTypes()),
		"Public": typeNames(payload.PublicTypes()), "Aliases": aliases(), "Warnings": warnings(),
		"Levels": api.StyleChoices("ecc"), "CornerChoices": api.StyleChoices("corners"), "Fixed": fixedStyles(),
		"CaptionPositions": api.StyleChoices("caption_position"), "CaptionPosition": d["caption_position"], "MaxCaption": api.MaxCaption,
	}
	var b bytes.Buffer
	if err := t.Execute(&b, data); err != nil {
		panic(err) // the embedded template and its data are fixed: tests run it
	}
	return b.Bytes()
}

// typeNames returns the names of types, separated by spaces.
func typeNames(types []payload.Type) string {
	var names []string
	for _, t := range types {
		names = append(names, string(t))
	}
	return strings.Join(names, " ")
}

// warnings returns the warning codes with what each means (api.WarningReasons), as a JSON object:
// the page words X-QR-Warning's codes with it.
func warnings() string {
	m := map[string]string{}
	for _, w := range api.WarningReasons {
		m[w.Reason] = strings.ReplaceAll(w.Description, "`", "")
	}
	b, err := json.Marshal(m)
	if err != nil {
		panic(err) // a map of strings always marshals
	}
	return string(b)
}

// fixedStyles returns generate.FixedStyles as a JSON object, by type, of the fixed fields'
// values and why: {"epc":{"style":{"logo":"none","ecc":"M"},"why":"the EPC guideline …"}}.
func fixedStyles() string {
	type fixed struct {
		Style map[string]string `json:"style"`
		Why   string            `json:"why"`
	}
	m := map[payload.Type]fixed{}
	for _, f := range generate.FixedStyles {
		style := map[string]string{}
		for _, field := range f.Fields {
			style[field.Name] = field.Value
		}
		m[f.Type] = fixed{style, f.Why}
	}
	b, err := json.Marshal(m)
	if err != nil {
		panic(err) // maps of strings always marshal
	}
	return string(b)
}

// aliases returns the request's older field names, each with the field it stands for, as a
// JSON object.
func aliases() string {
	b, err := json.Marshal(api.PayloadAliases())
	if err != nil {
		panic(err) // a map of strings always marshals
	}
	return string(b)
}

// thousands returns n with commas between thousands, as the page writes numbers: 2048 → 2,048.
func thousands(n int) string {
	s := strconv.Itoa(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}
