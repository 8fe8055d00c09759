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
	// The debtor's address is optional as a whole: given, debtorName, debtorPostalCode,
	// debtorCity and debtorCountry are required with it. A QR-IBAN requires reference.
	SwissQR: {Required: []string{"name", "iban", "postalCode", "city", "country", "currency"},
		Optional: []string{"street", "buildingNumber", "amount", "reference", "message", "billInformation",
			"debtorName", "debtorStreet", "debtorBuildingNumber", "debtorPostalCode", "debtorCity", "debtorCountry"}},
	// Country and currency are required for a scheme other than pix and promptpay, whose
	// countries and currencies they are by default; name and city may be left out for promptpay
	// only; message is pix's description.
	EMVCo: {Required: []string{"scheme", "key", "name", "city"},
		Optional: []string{"country", "currency", "amount", "merchantCategory", "postalCode", "reference", "message"}},
	UPI: {Required: []string{"vpa", "name"}, Optional: []string{"amount", "currency", "merchantCategory", "reference", "message"}},
	SPAYD: {Required: []string{"iban"}, Optional: []string{"bic", "amount", "currency", "name", "reference", "dueDate", "message",
		"variableSymbol", "specificSymbol", "constantSymbol"}},
	// Address may be left out when lightning is given.
	Bitcoin: {Required: []string{"address"}, Optional: []string{"amount", "label", "message", "lightning"}},
}

// String lists the fields as "ssid, password; security, hidden optional".
func (f Fields) String() string {
	s := strings.Join(f.Required, ", ")
	if len(f.Optional) > 0 {
		s += "; " + strings.Join(f.Optional, ", ") + " optional"
	}
	return s
}
