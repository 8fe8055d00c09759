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
	c, err := vcardOf(r)
	if err != nil {
		return "", err
	}
	var b strings.Builder
	writeVCard(&b, &c)
	return b.String(), nil
}

// vcard is a contact card's property values, checked, before escaping; an empty one is left out.
type vcard struct {
	family, given, name string // N (family;given;;;) and FN
	org, title, tel     string // ORG, TITLE and TEL, trimmed
	email               string // EMAIL, trimmed, an e-mail address
	url                 string // URL, normalized (see NormalizeURL)
}

// vcardOf reads and checks the contact card of r: the aliases resolved, the name required, the
// text values free of control characters, the e-mail an address and the website a URL.
func vcardOf(r *Request) (vcard, error) {
	title, err := alias("jobTitle", r.JobTitle, "title", r.Title)
	if err != nil {
		return vcard{}, err
	}
	website, err := alias("website", r.Website, "url", r.URL)
	if err != nil {
		return vcard{}, err
	}
	c := vcard{org: strings.TrimSpace(r.Organization), title: strings.TrimSpace(title), tel: strings.TrimSpace(r.Phone)}
	if c.family, c.given, c.name, err = vcardName(r); err != nil {
		return vcard{}, err
	}
	fields := []struct{ name, value string }{
		{"name", r.Name}, {"firstName", r.FirstName}, {"lastName", r.LastName},
		{"organization", r.Organization}, {"jobTitle", title}, {"phone", r.Phone}, {"email", r.Email},
	}
	for _, f := range fields {
		if err := checkLineText(f.name, f.value); err != nil {
			return vcard{}, err
		}
	}
	if email := strings.TrimSpace(r.Email); email != "" {
		if _, err := checkAddress("email", email); err != nil {
			return vcard{}, err
		}
		c.email = email
	}
	if strings.TrimSpace(website) != "" {
		field := "website"
		if r.Website == "" {
			field = "url"
		}
		if c.url, err = NormalizeURL(field, website); err != nil {
			return vcard{}, err
		}
	}
	return c, nil
}

// vcardName returns the family and given names of N (RFC 2426 3.1.2) and the display name of FN
// (3.1.1), both of which a card must have: from lastName and firstName when given, else split
// from the name (see splitName); the name is firstName and lastName when not given itself.
func vcardName(r *Request) (family, given, name string, err error) {
	first, last := collapseSpace(r.FirstName), collapseSpace(r.LastName)
	name = collapseSpace(r.Name)
	if name == "" {
		name = strings.TrimSpace(first + " " + last)
	}
	if name == "" {
		return "", "", "", missing("name", "the contact's name (or firstName and lastName)")
	}
	family, given = last, first
	if first == "" && last == "" {
		family, given = splitName(name)
	}
	return family, given, name, nil
}

// writeVCard writes card c to b: BEGIN and END (RFC 2426 2.1.1), VERSION (3.6.9), N (3.1.2), FN
// (3.1.1), ORG (3.5.5), TITLE (3.5.1), TEL (3.3.1), EMAIL (3.3.2) and URL (3.6.8), each line
// ending in CRLF.
func writeVCard(b *strings.Builder, c *vcard) {
	b.WriteString("BEGIN:VCARD\r\nVERSION:3.0\r\nN:")
	escapeVCard(b, c.family)
	b.WriteByte(';')
	escapeVCard(b, c.given)
	b.WriteString(";;;\r\nFN:")
	escapeVCard(b, c.name)
	b.WriteString("\r\n")
	writeVCardText(b, "ORG", c.org)
	writeVCardText(b, "TITLE", c.title)
	writeVCardText(b, "TEL", c.tel)
	writeVCardText(b, "EMAIL", c.email)
	if c.url != "" {
		b.WriteString("URL:" + c.url + "\r\n") // a uri value: not escaped; NormalizeURL leaves no space, \ or line break
	}
	b.WriteString("END:VCARD\r\n")
}

// writeVCardText writes the line of property key with text value escaped (see escapeVCard), or
// nothing when value is empty.
func writeVCardText(b *strings.Builder, key, value string) {
	if value != "" {
		b.WriteString(key + ":")
		escapeVCard(b, value)
		b.WriteString("\r\n")
	}
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
