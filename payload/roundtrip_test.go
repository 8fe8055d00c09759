package payload

import (
	"math/rand/v2"
	"net/url"
	"strings"
	"testing"
	"unicode/utf8"
)

// The readers' side: parsers written the way scanners parse these formats, to read the payloads
// back.

// zxingField returns the first non-empty value of field prefix (such as "S:") in raw, the way
// ZXing's ResultParser.matchPrefixedField finds it: the prefix anywhere, the value up to the
// next ; that an even number of backslashes precedes (zxing#197), each \x then read as x.
func zxingField(prefix, raw string) string {
	for i := 0; ; {
		j := strings.Index(raw[i:], prefix)
		if j < 0 {
			return ""
		}
		start := i + j + len(prefix)
		end := start
		for {
			k := strings.IndexByte(raw[end:], ';')
			if k < 0 {
				end = len(raw)
				break
			}
			end += k
			slashes := 0
			for end-1-slashes >= start && raw[end-1-slashes] == '\\' {
				slashes++
			}
			if slashes%2 == 0 {
				break
			}
			end++
		}
		var v strings.Builder
		for k := start; k < end; k++ {
			if raw[k] == '\\' && k+1 < end {
				k++
			}
			v.WriteByte(raw[k])
		}
		if v.Len() > 0 {
			return v.String()
		}
		i = min(end+1, len(raw))
	}
}

// parseWiFi reads a WIFI: payload as ZXing's WifiResultParser does.
func parseWiFi(s string) (security, ssid, password string, hidden, ok bool) {
	raw, ok := strings.CutPrefix(s, "WIFI:")
	if !ok {
		return "", "", "", false, false
	}
	return zxingField("T:", raw), zxingField("S:", raw), zxingField("P:", raw),
		strings.EqualFold(zxingField("H:", raw), "true"), true
}

// parseVCard reads a vCard 3.0 as RFC 2425 and 2426 say: CRLF lines (none folded here),
// NAME:value, values unescaped (\n, \N, \\, \;, \,), the structured N and ORG split at
// unescaped semicolons. It returns the values of each property, and false for a malformed card.
func parseVCard(s string) (map[string][]string, bool) {
	lines := strings.Split(s, "\r\n")
	if len(lines) < 4 || lines[0] != "BEGIN:VCARD" || lines[1] != "VERSION:3.0" ||
		lines[len(lines)-2] != "END:VCARD" || lines[len(lines)-1] != "" {
		return nil, false
	}
	props := map[string][]string{}
	for _, line := range lines[2 : len(lines)-2] {
		name, value, found := strings.Cut(line, ":")
		if !found || line[0] == ' ' || line[0] == '\t' || strings.ContainsAny(line, "\r\n") {
			return nil, false
		}
		if name == "URL" {
			props[name] = []string{value}
			continue
		}
		var parts []string
		var part strings.Builder
		for i := 0; i < len(value); i++ {
			c := value[i]
			switch {
			case c == '\\' && i+1 < len(value):
				i++
				if value[i] == 'n' || value[i] == 'N' {
					part.WriteByte('\n')
				} else {
					part.WriteByte(value[i])
				}
			case c == ';' && (name == "N" || name == "ORG"):
				parts = append(parts, part.String())
				part.Reset()
			default:
				part.WriteByte(c)
			}
		}
		props[name] = append(parts, part.String())
	}
	return props, true
}

// rtString returns a random string of up to n characters from alphabet.
func rtString(r *rand.Rand, alphabet []string, lo, hi int) string {
	var b strings.Builder
	for range lo + r.IntN(hi-lo+1) {
		b.WriteString(alphabet[r.IntN(len(alphabet))])
	}
	return b.String()
}

// rtTricky are characters that the formats escape or that readers trip over.
var rtTricky = []string{`\`, ";", ",", ":", `"`, " ", "S", "P", "T", "H", "a", "Z", "0", "9", "é", "ß", "☕", "王", "😀",
	"%", "+", "&", "=", "?", "#", "'", "S:", "P:", "\\;"}

// TestWiFiRoundTrip builds random networks and reads them back as ZXing does.
func TestWiFiRoundTrip(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for i := range 5000 {
		ssid := rtString(r, rtTricky, 1, 12)
		for len(ssid) > 32 {
			_, size := utf8.DecodeLastRuneInString(ssid)
			ssid = ssid[:len(ssid)-size]
		}
		req := &Request{Type: WiFi, SSID: ssid, Password: rtString(r, rtTricky, 8, 40), Hidden: i%3 == 0}
		if i%5 == 0 {
			req.Security, req.Password = "nopass", ""
		}
		p, err := Build(req)
		if err != nil {
			t.Fatalf("%+v: %v", req, err)
		}
		sec, gotSSID, gotPassword, hidden, ok := parseWiFi(p.Text)
		want := req.Security
		if want == "" {
			want = "WPA"
		}
		if !ok || sec != want || gotSSID != req.SSID || gotPassword != req.Password || hidden != req.Hidden {
			t.Fatalf("%q read back as %s %q %q %v, want %s %q %q %v", p.Text, sec, gotSSID, gotPassword, hidden,
				want, req.SSID, req.Password, req.Hidden)
		}
		if !strings.HasSuffix(p.Text, ";;") || !p.Private {
			t.Fatalf("%q: no ;; at the end, or not private", p.Text)
		}
		legacy := strings.HasSuffix(ssid, `\`) || strings.HasSuffix(req.Password, `\`) ||
			len(ssid) > 1 && ssid[0] == '"' && ssid[len(ssid)-1] == '"' ||
			len(req.Password) > 1 && req.Password[0] == '"' && req.Password[len(req.Password)-1] == '"'
		if legacy != (len(p.Warnings) > 0) {
			t.Fatalf("ssid %q password %q: warnings %v", ssid, req.Password, p.Warnings)
		}
	}
}

// TestVCardRoundTrip builds random cards and reads them back with a vCard 3.0 parser.
func TestVCardRoundTrip(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	text := append([]string{"\n", "\r\n", "\r", "\t"}, rtTricky...)
	for range 3000 {
		req := &Request{Type: VCard, Name: rtString(r, rtTricky, 1, 20), Organization: rtString(r, text, 0, 20),
			JobTitle: rtString(r, text, 0, 20), Phone: rtString(r, []string{"+", "1", "2", " ", "(", ")", "-"}, 0, 12)}
		if strings.TrimSpace(req.Name) == "" {
			req.Name += "x"
		}
		if r.IntN(2) == 0 {
			req.Email = rtLocal(rtString(r, []string{"a", "b", ".", "+", "_"}, 1, 8)) + "@example.com"
		}
		p, err := Build(req)
		if err != nil {
			t.Fatalf("%+v: %v", req, err)
		}
		props, ok := parseVCard(p.Text)
		if !ok {
			t.Fatalf("malformed card %q", p.Text)
		}
		name := strings.Join(strings.Fields(req.Name), " ")
		lf := func(s string) string {
			return strings.ReplaceAll(strings.ReplaceAll(strings.TrimSpace(s), "\r\n", "\n"), "\r", "\n")
		}
		for _, c := range []struct{ prop, want string }{
			{"FN", name}, {"ORG", lf(req.Organization)}, {"TITLE", lf(req.JobTitle)},
			{"TEL", strings.TrimSpace(req.Phone)}, {"EMAIL", req.Email},
		} {
			got := strings.Join(props[c.prop], ";")
			if c.prop == "ORG" && len(props["ORG"]) != 1 && c.want != "" {
				t.Fatalf("%q: ORG split into %q", p.Text, props["ORG"])
			}
			if got != c.want {
				t.Fatalf("%q: %s read back as %q, want %q", p.Text, c.prop, got, c.want)
			}
		}
		n := props["N"]
		if len(n) != 5 || n[2] != "" || n[3] != "" || n[4] != "" {
			t.Fatalf("%q: N is %q", p.Text, n)
		}
		if family, given, comma := strings.Cut(name, ","); comma {
			if n[0] != strings.TrimSpace(family) || n[1] != strings.TrimSpace(given) {
				t.Fatalf("%q: N is %q for %q", p.Text, n, name)
			}
		} else if strings.TrimSpace(n[1]+" "+n[0]) != name {
			t.Fatalf("%q: N is %q for %q", p.Text, n, name)
		}
	}
}

// rtLocal makes s a dot-atom, as an address's local part must be (RFC 5322 3.2.3): no dot
// first, last or twice in a row.
func rtLocal(s string) string {
	for strings.Contains(s, "..") {
		s = strings.ReplaceAll(s, "..", ".")
	}
	return "x" + s + "x"
}

// TestEmailRoundTrip builds random e-mails and reads the mailto: URI back with net/url.
func TestEmailRoundTrip(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	body := append([]string{"\n", "\r\n", "\r", "\t"}, rtTricky...)
	for range 3000 {
		local := rtLocal(rtString(r, []string{"a", "Z", "0", ".", "+", "-", "_", "!", "$", "'", "*", "%", "&", "=", "é"}, 1, 10))
		req := &Request{Type: Email, To: local + "@example.com", Subject: rtString(r, rtTricky, 0, 20), Message: rtString(r, body, 0, 30)}
		p, err := Build(req)
		if err != nil {
			t.Fatalf("%+v: %v", req, err)
		}
		u, err := url.Parse(p.Text)
		if err != nil || u.Scheme != "mailto" {
			t.Fatalf("%q: %v", p.Text, err)
		}
		to, err := url.PathUnescape(u.Opaque)
		if err != nil || to != req.To {
			t.Fatalf("%q: address read back as %q, %v", p.Text, to, err)
		}
		q, err := url.ParseQuery(u.RawQuery) // form decoding, as ZXing's reader does: + would be a space
		if err != nil {
			t.Fatalf("%q: %v", p.Text, err)
		}
		if got := q.Get("subject"); got != req.Subject {
			t.Fatalf("%q: subject read back as %q, want %q", p.Text, got, req.Subject)
		}
		if got, want := q.Get("body"), crlfOf(req.Message); got != want {
			t.Fatalf("%q: body read back as %q, want %q", p.Text, got, want)
		}
		if strings.ContainsAny(p.Text, " +\r\n") {
			t.Fatalf("%q holds a raw space, + or line break", p.Text)
		}
	}
}

// crlfOf makes every line break CRLF, written apart from the package's own.
func crlfOf(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		switch {
		case s[i] == '\r' && i+1 < len(s) && s[i+1] == '\n':
			b.WriteString("\r\n")
			i++
		case s[i] == '\r' || s[i] == '\n':
			b.WriteString("\r\n")
		default:
			b.WriteByte(s[i])
		}
	}
	return b.String()
}
