package payload

import "strings"

// buildVCard returns the contact card of r as vCard 3.0 (RFC 2426), the version iOS and Android
// import with non-ASCII intact: CRLF after every line (the last too), no folding, properties
// in the order N, FN, ORG, TITLE, TEL, EMAIL, URL, and empty ones left out.
//
// FN is the name with its runs of white space made one space. N (family;given;;;) comes from
// lastName and firstName when given, else from the name: the text before its first comma and
// the rest ("Müller, Anna"), else its last word and the words before it, else the whole name.
// With only firstName and lastName, FN is "First Last". Text values are escaped (\\ \; \, \n,
// line breaks made \n); the website is a URL (see NormalizeURL).
func buildVCard(r *Request) (string, error) {
	title, err := alias("jobTitle", r.JobTitle, "title", r.Title)
	if err != nil {
		return "", err
	}
	website, err := alias("website", r.Website, "url", r.URL)
	if err != nil {
		return "", err
	}
	first, last := collapseSpace(r.FirstName), collapseSpace(r.LastName)
	name := collapseSpace(r.Name)
	if name == "" {
		name = strings.TrimSpace(first + " " + last)
	}
	if name == "" {
		return "", missing("name", "the contact's name (or firstName and lastName)")
	}
	fields := []struct{ name, value string }{
		{"name", r.Name}, {"firstName", r.FirstName}, {"lastName", r.LastName},
		{"organization", r.Organization}, {"jobTitle", title}, {"phone", r.Phone}, {"email", r.Email},
	}
	for _, f := range fields {
		if err := checkText(f.name, f.value); err != nil {
			return "", err
		}
	}
	family, given := last, first
	if first == "" && last == "" {
		family, given = splitName(name)
	}
	var b strings.Builder
	b.WriteString("BEGIN:VCARD\r\nVERSION:3.0\r\nN:")
	escapeVCard(&b, family)
	b.WriteByte(';')
	escapeVCard(&b, given)
	b.WriteString(";;;\r\nFN:")
	escapeVCard(&b, name)
	b.WriteString("\r\n")
	property := func(key, value string) {
		if value != "" {
			b.WriteString(key + ":")
			escapeVCard(&b, value)
			b.WriteString("\r\n")
		}
	}
	property("ORG", strings.TrimSpace(r.Organization))
	property("TITLE", strings.TrimSpace(title))
	property("TEL", strings.TrimSpace(r.Phone))
	if email := strings.TrimSpace(r.Email); email != "" {
		if _, err := checkAddress("email", email); err != nil {
			return "", err
		}
		property("EMAIL", email)
	}
	if strings.TrimSpace(website) != "" {
		field := "website"
		if r.Website == "" {
			field = "url"
		}
		u, err := NormalizeURL(field, website)
		if err != nil {
			return "", err
		}
		b.WriteString("URL:" + u + "\r\n") // a uri value: not escaped; NormalizeURL leaves no space, \ or line break
	}
	b.WriteString("END:VCARD\r\n")
	return b.String(), nil
}

// collapseSpace trims s and makes each run of white space inside it one space.
func collapseSpace(s string) string { return strings.Join(strings.Fields(s), " ") }

// splitName splits a display name into family and given names (see buildVCard).
func splitName(name string) (family, given string) {
	if i := strings.IndexByte(name, ','); i >= 0 {
		return strings.TrimSpace(name[:i]), strings.TrimSpace(name[i+1:])
	}
	if i := strings.LastIndexByte(name, ' '); i >= 0 {
		return name[i+1:], name[:i]
	}
	return name, ""
}

// escapeVCard writes a text value escaped as RFC 2426 4 says: line breaks (CRLF, CR or LF)
// become \n, and \ ; , get a backslash. Colons and quotes stay.
func escapeVCard(b *strings.Builder, s string) {
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '\r':
			if i+1 < len(s) && s[i+1] == '\n' {
				i++
			}
			b.WriteString(`\n`)
		case '\n':
			b.WriteString(`\n`)
		case '\\', ';', ',':
			b.WriteByte('\\')
			b.WriteByte(c)
		default:
			b.WriteByte(c)
		}
	}
}
