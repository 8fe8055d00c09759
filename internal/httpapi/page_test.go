package httpapi

import (
	"encoding/json"
	"html"
	"net/http"
	"net/http/httptest"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/bananaqr/bananaqr/api"
	"github.com/bananaqr/bananaqr/internal/generate"
	"github.com/bananaqr/bananaqr/payload"
	"github.com/bananaqr/bananaqr/web"
)

// TestPage checks that the web page and its files are served with a content security policy
// that keeps the page on this service, and an ETag.
func TestPage(t *testing.T) {
	ts := newTestServer(t, Config{})
	for path, contentType := range map[string]string{"/": "text/html", "/style.css": "text/css", "/app.js": "text/javascript"} {
		r := ts.get(t, path)
		if r.status != http.StatusOK || !strings.HasPrefix(r.header.Get("Content-Type"), contentType) || len(r.body) == 0 {
			t.Fatalf("%s: %d %q", path, r.status, r.header.Get("Content-Type"))
		}
		csp := r.header.Get("Content-Security-Policy")
		if !strings.Contains(csp, "default-src 'self'") || !strings.Contains(csp, "connect-src 'self'") {
			t.Errorf("%s: CSP %q", path, csp)
		}
		again := ts.do(t, http.MethodGet, path, "", map[string]string{"If-None-Match": r.header.Get("ETag")})
		if again.status != http.StatusNotModified {
			t.Errorf("%s with its ETag: %d", path, again.status)
		}
	}
}

// TestPageRulesFromAPI: the page's defaults and limits are filled in from package api when it
// is served; the page's own file holds placeholders, not copies.
func TestPageRulesFromAPI(t *testing.T) {
	raw, err := web.Files.ReadFile("index.html")
	if err != nil {
		t.Fatal(err)
	}
	d := api.StyleDefaults()
	for _, copied := range []string{`value="#` + d["color"] + `"`, `value="` + d["size"] + `"`, `max="` + strconv.Itoa(api.MaxMargin) + `"`, "2048"} {
		if strings.Contains(string(raw), copied) {
			t.Errorf("web/index.html holds a copy of a rule: %s", copied)
		}
	}
	page := string(newTestServer(t, Config{}).get(t, "/").body)
	for _, want := range []string{
		`id="style-color" data-style="color" value="#` + d["color"] + `"`,
		`id="style-size" data-style="size" min="` + strconv.Itoa(api.MinSize) + `" max="` + strconv.Itoa(api.MaxSize) + `" step="1" value="` + d["size"] + `"`,
		`value="` + d["corners"] + `" data-style="corners" checked>`,
		`value="` + d["ecc"] + `" data-style="ecc" checked>`,
		`data-style="margin" min="0" max="` + strconv.Itoa(api.MaxMargin) + `" step="1" value="` + d["margin"] + `"`,
		`id="style-caption" data-style="caption" maxlength="` + strconv.Itoa(api.MaxCaption) + `"`,
		`value="` + d["caption_position"] + `" data-style="caption_position" checked>`,
		`data-max="` + strconv.Itoa(payload.MaxLen) + `">0 / ` + strconv.Itoa(payload.MaxLen) + `</span>`,
		`data-private="wifi vcard email sms tel geo event epc swissqr emvco upi spayd bitcoin"`,
		`data-aliases="{&#34;body&#34;:&#34;message&#34;,&#34;encryption&#34;:&#34;security&#34;,&#34;firstName&#34;:&#34;name&#34;,&#34;lastName&#34;:&#34;name&#34;,&#34;title&#34;:&#34;jobTitle&#34;}"`,
	} {
		if !strings.Contains(page, want) {
			t.Errorf("the served page lacks %s", want)
		}
	}
	for _, name := range []string{"corners", "ecc", "caption_position"} {
		if n := strings.Count(page, `data-style="`+name+`" checked>`); n != 1 {
			t.Errorf("%d %s radios checked, want 1", n, name)
		}
	}
	// Every style field but the format (the downloads' buttons) has a control, marked data-style
	// with the field's name: the script sends, links and reads back its fields by these names.
	for name := range d {
		if name != "format" && !strings.Contains(page, `data-style="`+name+`"`) {
			t.Errorf("the page has no control of the style field %s (data-style=%q)", name, name)
		}
	}
	if d["show_destination"] != "false" || d["caption"] != "" || strings.Contains(page, `id="style-show_destination" data-style="show_destination" checked`) {
		t.Errorf("the page's caption and destination controls start as %q and %q, want none and unchecked", d["caption"], d["show_destination"])
	}
	// The radios of corners, ecc and caption_position are api's tables, in their order, with
	// their words and meanings; the locked style is generate.FixedStyles.
	for _, name := range []string{"corners", "ecc", "caption_position"} {
		re := regexp.MustCompile(`<label class="seg" title="([^"]*)"><input type="radio" name="` + name + `" value="([^"]*)"[^>]*><span class="seg-body">(?:<svg.*?</svg>)?([^<]*)(?:<span class="seg-note">([^<]*)</span>)?`)
		var got, want []string
		for _, m := range re.FindAllStringSubmatch(page, -1) {
			got = append(got, m[2]+"|"+m[1]+"|"+strings.Join(strings.Fields(m[3]+" "+m[4]), " "))
		}
		for _, c := range api.StyleChoices(name) {
			label := c.Label
			if name == "ecc" {
				label = c.Name + " " + c.Label
			}
			want = append(want, c.Name+"|"+c.Meaning+"|"+label)
		}
		if !slices.Equal(got, want) {
			t.Errorf("the %s radios are %q, want %q", name, got, want)
		}
	}
	fixed := regexp.MustCompile(`data-fixed="([^"]*)"`).FindStringSubmatch(page)
	var byType map[payload.Type]struct {
		Style map[string]string
		Why   string
	}
	if fixed == nil || json.Unmarshal([]byte(html.UnescapeString(fixed[1])), &byType) != nil || len(byType) != len(generate.FixedStyles) {
		t.Fatalf("data-fixed %q does not hold generate.FixedStyles", fixed)
	}
	// The script locks every field a type's standard fixes: each has an entry in its STYLE_LOCKS.
	script, err := web.Files.ReadFile("app.js")
	if err != nil {
		t.Fatal(err)
	}
	locks := regexp.MustCompile(`(?s)const STYLE_LOCKS = \{\n(.*?)\n  \};`).FindSubmatch(script)
	if locks == nil {
		t.Fatal("app.js has no STYLE_LOCKS, the style fields lockStyle can lock")
	}
	for _, f := range generate.FixedStyles {
		for _, field := range f.Fields {
			if !regexp.MustCompile(`(?m)^    ` + field.Name + `: `).Match(locks[1]) {
				t.Errorf("app.js's STYLE_LOCKS has no %s, which generate.FixedStyles fixes for %s codes", field.Name, f.Type)
			}
		}
	}
	for _, f := range generate.FixedStyles {
		got := byType[f.Type]
		if got.Why != f.Why || len(got.Style) != len(f.Fields) {
			t.Errorf("data-fixed's %s: %+v, want %+v", f.Type, got, f)
		}
		for _, field := range f.Fields {
			if got.Style[field.Name] != field.Value {
				t.Errorf("data-fixed's %s: %s %q, want %q", f.Type, field.Name, got.Style[field.Name], field.Value)
			}
		}
	}
}

// TestPageBananaIsTheServiceMark: the page draws its banana (beside the title, on the logo
// switch) with the very paths the service puts in the middle of a code, defined once in
// web/index.html's #banana-mark, and holds no banana emoji, a glyph some systems lack.
func TestPageBananaIsTheServiceMark(t *testing.T) {
	ts := newTestServer(t, Config{})
	page := string(ts.get(t, "/").body)
	if strings.Contains(page, "\U0001F34C") {
		t.Error("the page holds the banana emoji U+1F34C: draw the banana instead (<use href=\"#banana-mark\"/>)")
	}
	start := strings.Index(page, `<symbol id="banana-mark"`)
	end := strings.Index(page[max(start, 0):], "</symbol>")
	if start < 0 || end < 0 {
		t.Fatal(`the page has no <symbol id="banana-mark">…</symbol>`)
	}
	symbol := page[start : start+end]
	// The mark is the code's last two paths (the yellow body, then the ink), after its modules.
	code := ts.get(t, "/api/qr-code?url=example.com&logo=banana")
	paths := regexp.MustCompile(`<path fill="#[0-9A-F]{3,6}"[^>]* d="[^"]+"/>`).FindAllString(string(code.body), -1)
	if code.status != http.StatusOK || len(paths) < 3 {
		t.Fatalf("GET /api/qr-code?url=example.com&logo=banana: %d, %d paths", code.status, len(paths))
	}
	for _, mark := range paths[len(paths)-2:] {
		if !strings.Contains(symbol, mark) {
			t.Errorf("#banana-mark lacks the service's %.40s…: copy the last two paths of GET /api/qr-code?url=example.com&logo=banana into it", mark)
		}
	}
	if n := strings.Count(page, `<use href="#banana-mark"/>`); n != 2 {
		t.Errorf("%d uses of #banana-mark, want 2 (the title's banana and the logo switch's)", n)
	}
}

// servePage answers a GET of target by h, with header, for the page's files that the OpenAPI
// document does not describe (/payments.html), which testServer.do would hold to it.
func servePage(h http.Handler, target string, header map[string]string) *httptest.ResponseRecorder {
	r := httptest.NewRequest(http.MethodGet, target, nil)
	for k, v := range header {
		r.Header.Set(k, v)
	}
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	return w
}

// panelOf returns the panel of typ in html (the page, or the payment types' panels it loads):
// from its <div class="type-panel"> to the next panel's, or to the end of its section.
func panelOf(html string, typ payload.Type) (string, bool) {
	start := strings.Index(html, `<div class="type-panel" id="panel-`+string(typ)+`" data-type="`+string(typ)+`"`)
	if start < 0 {
		return "", false
	}
	panel := html[start:]
	if end := strings.Index(panel[1:], `<div class="type-panel"`); end >= 0 {
		panel = panel[:end+1]
	} else if end := strings.Index(panel, "</section>"); end >= 0 {
		panel = panel[:end]
	}
	return panel, true
}

// TestPageHasEveryType: the page offers every payload type of the API (payload.Types) in its
// type picker, and no other, with a panel (in the page, or in /payments.html, which its script
// loads) holding a control for each field the type's builder reads (payload.TypeFields), by the
// field's API name in data-field, the required ones marked so, and no control for a field the
// builder does not read; and it offers every download the code endpoint's formats allow, the
// print ones included.
func TestPageHasEveryType(t *testing.T) {
	page := string(newTestServer(t, Config{}).get(t, "/").body)
	payments := servePage(New(Config{}).Handler(), "/payments.html", nil)
	if payments.Code != http.StatusOK {
		t.Fatalf("GET /payments.html: %d", payments.Code)
	}
	if n := strings.Count(page, `<input type="radio" name="type" value="`); n != len(payload.Types) {
		t.Errorf("%d types in the type picker, want the %d of payload.Types", n, len(payload.Types))
	}
	control := regexp.MustCompile(`<(?:input|textarea)[^>]* data-field="([^"]*)"`)
	for _, typ := range payload.Types {
		if !strings.Contains(page, `<input type="radio" name="type" value="`+string(typ)+`" id="type-`+string(typ)+`"`) {
			t.Errorf("%s: no radio in the type picker", typ)
		}
		panel, inPage := panelOf(page, typ)
		loaded, inPayments := panelOf(payments.Body.String(), typ)
		switch {
		case !inPage && !inPayments:
			t.Errorf("%s: no panel, in the page or in /payments.html", typ)
			continue
		case inPage && inPayments:
			t.Errorf("%s: a panel in the page and another in /payments.html", typ)
		case inPayments:
			panel = loaded
		}
		fields := payload.TypeFields[typ]
		for i, field := range append(slices.Clone(fields.Required), fields.Optional...) {
			tag := regexp.MustCompile(`<(?:input|textarea)[^>]* data-field="` + field + `"[^>]*>`).FindString(panel)
			switch {
			case tag == "":
				t.Errorf("%s: no control with data-field=%q in its panel", typ, field)
			case i < len(fields.Required) && !strings.Contains(tag, " data-required"):
				t.Errorf("%s: the control of %s, a required field, is not marked data-required: %s", typ, field, tag)
			}
		}
		read := append(slices.Clone(fields.Required), fields.Optional...)
		for _, m := range control.FindAllStringSubmatch(panel, -1) {
			if !slices.Contains(read, m[1]) {
				t.Errorf("%s: its panel has a control of %q, a field its builder does not read (payload.TypeFields)", typ, m[1])
			}
		}
	}
	for _, format := range []string{"png", "svg", "pdf", "eps"} {
		if !strings.Contains(page, `id="download-`+format+`"`) {
			t.Errorf("no #download-%s button", format)
		}
	}
}

// TestPagePayments: the payment types' panels are not in the page as it loads (issue 29: the
// load with the first code under 35 KB gzip) but in /payments.html, which the page's script puts
// into #payment-panels (its data-src) when one is chosen: served as the page is, with its
// security headers, its caching, an ETag and gzip, and filled as a template of it (no comment
// and no action of web/payments.html left).
func TestPagePayments(t *testing.T) {
	h := New(Config{}).Handler()
	gzip := map[string]string{"Accept-Encoding": "gzip"}
	page, payments := servePage(h, "/", gzip), servePage(h, "/payments.html", gzip)
	if payments.Code != http.StatusOK || payments.Header().Get("Content-Encoding") != "gzip" {
		t.Fatalf("GET /payments.html: %d, Content-Encoding %q", payments.Code, payments.Header().Get("Content-Encoding"))
	}
	for _, name := range []string{"Content-Type", "Content-Security-Policy", "X-Content-Type-Options", "Referrer-Policy", "Cache-Control", "Vary"} {
		if got, want := payments.Header().Get(name), page.Header().Get(name); got != want || want == "" {
			t.Errorf("/payments.html: %s %q, the page's is %q", name, got, want)
		}
	}
	etag := payments.Header().Get("ETag")
	if again := servePage(h, "/payments.html", map[string]string{"Accept-Encoding": "gzip", "If-None-Match": etag}); etag == "" || again.Code != http.StatusNotModified {
		t.Errorf("/payments.html with its ETag %q: %d", etag, again.Code)
	}
	plain := servePage(h, "/payments.html", nil)
	fragment := string(gunzip(t, payments.Body.Bytes()))
	if fragment != plain.Body.String() || plain.Header().Get("Content-Encoding") != "" {
		t.Error("/payments.html: the gzip answer is not the plain one compressed")
	}
	if strings.Contains(fragment, "<!--") || strings.Contains(fragment, "{{") {
		t.Error("/payments.html is sent with a comment or a template action of web/payments.html")
	}
	html := string(gunzip(t, page.Body.Bytes()))
	if !strings.Contains(html, `<div id="payment-panels" data-src="/payments.html"></div>`) {
		t.Error(`the page has no empty <div id="payment-panels" data-src="/payments.html"> for the panels`)
	}
	panels := regexp.MustCompile(`<div class="type-panel" id="(panel-[a-z]+)"`).FindAllStringSubmatch(fragment, -1)
	if len(panels) == 0 {
		t.Fatal("/payments.html holds no panel")
	}
	for _, m := range panels {
		if strings.Contains(html, ` id="`+m[1]+`"`) {
			t.Errorf("the page carries #%s on load: it is /payments.html's", m[1])
		}
	}
}

// TestPageFormsWithoutScript: without JavaScript the page offers plain forms for a link and a
// text (issue 21, item 6), each a GET of /api/qr-code.svg that the service answers with the
// code's SVG, and hides the generator, which does nothing without its script.
func TestPageFormsWithoutScript(t *testing.T) {
	ts := newTestServer(t, Config{})
	page := string(ts.get(t, "/").body)
	forms := regexp.MustCompile(`(?s)<form class="noscript-form" method="get" action="([^"]+)">.*?</form>`).FindAllStringSubmatch(page, -1)
	if len(forms) != 2 {
		t.Fatalf("%d forms for use without JavaScript, want 2 (link, text)", len(forms))
	}
	for i, want := range []struct{ name, value string }{{"url", "example.com"}, {"text", "hello"}} {
		if !strings.Contains(forms[i][0], ` name="`+want.name+`"`) {
			t.Errorf("form %d has no field named %s", i, want.name)
		}
		target := forms[i][1] + "?" + want.name + "=" + want.value
		r := ts.get(t, target)
		if r.status != http.StatusOK || r.header.Get("Content-Type") != "image/svg+xml" || !strings.HasPrefix(string(r.body), "<svg") {
			t.Errorf("GET %s (the form's submission): %d %q", target, r.status, r.header.Get("Content-Type"))
		}
	}
	if !strings.Contains(page, `<noscript>`) || !strings.Contains(page, `<form id="qr-form" class="maker needs-script"`) {
		t.Error("the forms are not in <noscript>, or the generator is not marked needs-script")
	}
	css, err := web.Files.ReadFile("style.css")
	if err != nil {
		t.Fatal(err)
	}
	if !regexp.MustCompile(`@media \(scripting: none\) \{\s*\.needs-script\.needs-script \{ display: none; \}`).Match(css) {
		t.Error("style.css does not hide .needs-script when scripting is none")
	}
}

// TestPageWordsEveryWarning: the page asks for the SVG alone and words the warnings that its
// X-QR-Warning header names by their codes, from the list api.WarningReasons that the served page
// carries (data-warnings), not from a copy in its script.
func TestPageWordsEveryWarning(t *testing.T) {
	page := string(newTestServer(t, Config{}).get(t, "/").body)
	m := regexp.MustCompile(`data-warnings="([^"]*)"`).FindStringSubmatch(page)
	if m == nil {
		t.Fatal("the served page has no data-warnings")
	}
	var words map[string]string
	if err := json.Unmarshal([]byte(html.UnescapeString(m[1])), &words); err != nil {
		t.Fatal(err)
	}
	if len(words) != len(api.WarningReasons) {
		t.Errorf("data-warnings words %d codes, api.WarningReasons has %d", len(words), len(api.WarningReasons))
	}
	for _, w := range api.WarningReasons {
		if words[w.Reason] != strings.ReplaceAll(w.Description, "`", "") {
			t.Errorf("%s is worded %q, want %q", w.Reason, words[w.Reason], w.Description)
		}
	}
	script, err := web.Files.ReadFile("app.js")
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range api.WarningReasons {
		if strings.Contains(string(script), w.Reason) {
			t.Errorf("app.js holds the warning code %s: a copy of the service's list", w.Reason)
		}
	}
}

// TestPageSettingsLinkTypes: the settings link (in the URL's fragment) is only for the public
// types, which the served page carries from package payload (data-public).
func TestPageSettingsLinkTypes(t *testing.T) {
	page := string(newTestServer(t, Config{}).get(t, "/").body)
	want := `data-public="` + typeNames(payload.PublicTypes()) + `"`
	if !strings.Contains(page, want) || typeNames(payload.PublicTypes()) != "url text" {
		t.Errorf("the served page lacks %s (url text)", want)
	}
	script, err := web.Files.ReadFile("app.js")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(script), "const PUBLIC_TYPES = document.getElementById('qr-form').dataset.public.split(' ');") {
		t.Error("app.js does not take the public types from data-public")
	}
}

// TestPageWithoutComments: the script and the style sheet are sent without their comments and
// their lines' indentation, and with everything else of web/'s files, line for line.
func TestPageWithoutComments(t *testing.T) {
	ts := newTestServer(t, Config{})
	comment := map[string]*regexp.Regexp{
		"app.js":    regexp.MustCompile(`(?m)^[ \t]*//.*\n|[ \t]* // .*`),
		"style.css": regexp.MustCompile(`(?m)^[ \t]*/\*(?s:.*?)\*/[ \t]*\n|/\*(?s:.*?)\*/`),
	}
	left := map[string]*regexp.Regexp{"app.js": regexp.MustCompile(`(?m)^[ \t]*//| // `), "style.css": regexp.MustCompile(`/\*`)}
	indent := regexp.MustCompile(`(?m)^[ \t]+`)
	for name, re := range comment {
		src, err := web.Files.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		body := string(ts.get(t, "/"+name).body)
		if left[name].MatchString(body) {
			t.Errorf("/%s is sent with comments", name)
		}
		if want := indent.ReplaceAllString(re.ReplaceAllString(string(src), ""), ""); body != want {
			t.Errorf("/%s: %d bytes sent, want web/%s without its comments and indentation, %d bytes", name, len(body), name, len(want))
		}
		if len(body) >= len(src) {
			t.Errorf("/%s: %d bytes sent of %d", name, len(body), len(src))
		}
	}
	// What makes cutting the script's lines at " // " safe: where a line of code has one, what
	// comes before it opens no string or template literal that " // " would be part of, and
	// holds no slash, so no regular expression either.
	src, err := web.Files.ReadFile("app.js")
	if err != nil {
		t.Fatal(err)
	}
	cut := 0
	for i, line := range strings.Split(string(src), "\n") {
		code, _, found := strings.Cut(line, " // ")
		if !found || strings.HasPrefix(strings.TrimSpace(line), "//") {
			continue
		}
		cut++
		if outside, open := codeOutsideStrings(code); open != 0 || strings.Contains(outside, "/") {
			t.Errorf("web/app.js, line %d: its \" // \" may be within a string or a regular expression: %s", i+1, line)
		}
	}
	if cut == 0 {
		t.Error("web/app.js has no comment at the end of a line: nothing here checks that they are cut safely")
	}
}

// codeOutsideStrings returns the characters of a line of script that are outside its string
// and template literals (ECMA-262 12.9.4, 12.9.6: quoted by ', " or `, a backslash escaping the
// next character), and the quote of a literal still open at the line's end, or 0.
func codeOutsideStrings(line string) (outside string, open rune) {
	var b strings.Builder
	escaped := false
	for _, c := range line {
		switch {
		case escaped:
			escaped = false
		case open != 0 && c == '\\':
			escaped = true
		case open != 0 && c == open:
			open = 0
		case open == 0 && (c == '\'' || c == '"' || c == '`'):
			open = c
		case open == 0:
			b.WriteRune(c)
		}
	}
	return b.String(), open
}

// TestPageWithoutIndent: the page's files are sent without the indentation of their lines, but
// for the lines within a <pre> or a <textarea>, whose white space shows: the curl example's
// continued lines keep theirs. And web/ holds what makes that safe (withoutIndent): no string
// or template literal of the script, no string of the style sheet and no tag of the HTML runs
// over a line break, so that no line of one starts with white space of its own.
func TestPageWithoutIndent(t *testing.T) {
	h := New(Config{}).Handler()
	indented := regexp.MustCompile(`(?m)^[ \t]+\S`)
	preformatted := regexp.MustCompile(`(?s)<(pre|textarea)[\s>].*?</(?:pre|textarea)>`)
	for _, name := range []string{"index.html", "payments.html", "app.js", "style.css"} {
		target := "/" + name
		if name == "index.html" {
			target = "/"
		}
		sent := servePage(h, target, nil).Body.String()
		src, err := web.Files.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		if strings.HasSuffix(name, ".html") {
			// The HTML as the template makes it, indented: its <pre> and <textarea> elements are
			// sent as they are, and nothing else starts a line with white space.
			made := string(pageHTML(name, src))
			if got, want := preformatted.FindAllString(sent, -1), preformatted.FindAllString(made, -1); !slices.Equal(got, want) {
				t.Errorf("%s: the <pre> and <textarea> elements are sent as %q, want %q", target, got, want)
			}
			sent = preformatted.ReplaceAllString(sent, "")
			for i, line := range strings.Split(made, "\n") {
				if regexp.MustCompile(`<[A-Za-z/!][^>]*$`).MatchString(line) {
					t.Errorf("web/%s, line %d of the page made: a tag runs over the line break: %s", name, i+1, line)
				}
			}
		}
		if m := indented.FindString(sent); m != "" {
			t.Errorf("%s is sent with an indented line: %q", target, m)
		}
		for i, line := range strings.Split(string(src), "\n") {
			code, _, _ := strings.Cut(line, " // ")
			if strings.HasSuffix(strings.TrimSpace(line), "\\") && !strings.HasSuffix(name, ".html") {
				t.Errorf("web/%s, line %d: a string runs over the line break: %s", name, i+1, line)
			}
			if name == "app.js" && strings.Count(strings.ReplaceAll(code, "\\`", ""), "`")%2 != 0 {
				t.Errorf("web/app.js, line %d: a template literal runs over the line break: %s", i+1, line)
			}
		}
	}
}
