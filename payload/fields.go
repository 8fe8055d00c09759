package payload

import "strings"

// Fields are the request fields (as the API names them) that the builder of a type reads.
type Fields struct {
	Required []string // the fields a code of the type needs (Build fails with MISSING_FIELD without them)
	Optional []string
}

// TypeFields says, for each type, which fields its builder reads: encode's help, the MCP tool's
// description and the test that holds them to the builders read it.
var TypeFields = map[Type]Fields{
	URL:   {Required: []string{"url"}},
	WiFi:  {Required: []string{"ssid", "password"}, Optional: []string{"security", "hidden"}},
	VCard: {Required: []string{"name"}, Optional: []string{"organization", "jobTitle", "phone", "email", "website"}},
	Email: {Required: []string{"to"}, Optional: []string{"subject", "message"}},
	SMS:   {Required: []string{"phone"}, Optional: []string{"message"}},
	Text:  {Required: []string{"text"}},
	Tel:   {Required: []string{"phone"}},
	Geo:   {Required: []string{"latitude", "longitude"}, Optional: []string{"altitude"}},
	Event: {Required: []string{"summary", "start"}, Optional: []string{"end", "location", "description"}},
	EPC:   {Required: []string{"name", "iban"}, Optional: []string{"bic", "amount", "reference", "remittance"}},
}

// String lists the fields as "ssid, password; security, hidden optional".
func (f Fields) String() string {
	s := strings.Join(f.Required, ", ")
	if len(f.Optional) > 0 {
		s += "; " + strings.Join(f.Optional, ", ") + " optional"
	}
	return s
}
