package payload

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"golang.org/x/text/language"
	"golang.org/x/text/unicode/norm"
)

// Limits of the Swiss QR Code (IG 2.3: its data elements, and the whole code).
const (
	// SwissQRMaxBytes is the most bytes a Swiss QR Code's payload may have: what version 25 at
	// level M holds in byte mode without an ECI, the largest symbol the guidelines allow. The
	// guidelines' 997 characters are these bytes: a letter outside ASCII takes 2 or 3 of them.
	SwissQRMaxBytes      = 997
	swissMaxName         = 70  // Name
	swissMaxStreet       = 70  // StrtNmOrAdrLine1 (address type S: the street)
	swissMaxBuilding     = 16  // BldgNbOrAdrLine2 (address type S: the building number)
	swissMaxPostalCode   = 16  // PstCd
	swissMaxTown         = 35  // TwnNm
	swissMaxAdditional   = 140 // Ustrd and StrdBkgInf, each and together
	swissMaxAmountDigits = 9   // digits before the point: at most 999999999.99
)

// swissSeparator ends each element but the last (IG 2.3, the separator element): CR LF or LF
// may be used; bananaqr writes CR LF, the separator the guidelines name first, the one SIX's
// FAQ says is used ("In the Swiss QR Code, the character series CR + LF (0x0d + 0x0a) is used
// as separator", paymentstandards.ch) and the one the swiss-qr-bill reference library writes.
// No separator may end the payload (IG 2.3): the last line is the trailer or the bill
// information.
const swissSeparator = "\r\n"

// swissAddress is a structured address (address type S, the only one since version 2.3),
// checked.
type swissAddress struct {
	name, street, building, postalCode, town, country string
}

// swissAddressFields names the request fields of an address: the creditor's or the ultimate
// debtor's.
type swissAddressFields struct {
	name, street, building, postalCode, town, country string
	whose                                             string // "creditor" or "debtor", for hints
}

var (
	creditorFields = swissAddressFields{"name", "street", "buildingNumber", "postalCode", "city", "country", "creditor"}
	debtorFields   = swissAddressFields{"debtorName", "debtorStreet", "debtorBuildingNumber", "debtorPostalCode", "debtorCity",
		"debtorCountry", "debtor"}
)

// buildSwissQR returns the payment of r as the Swiss QR Code of a QR-bill (SIX "Swiss
// Implementation Guidelines for the QR-bill", version 2.3, in force since 21 November 2025:
// the data structure of the Swiss QR Code), its elements separated by CR LF (swissSeparator):
//
//	SPC                QRType
//	0200               Version (2.0 and its sub-versions: 2.3 keeps 0200)
//	1                  Coding type: UTF-8 restricted to the Latin character set (swissChar)
//	<iban>             IBAN or QR-IBAN of CH or LI, 21 characters, without spaces
//	S and 6 lines      Cdtr: address type S, name, street, building number, postal code, town, country
//	<7 empty lines>    UltmtCdtr: reserved for future use, must be empty
//	<amount>           Amt: optional, 0.01 to 999999999.99, always with 2 decimals
//	<currency>         Ccy: CHF or EUR
//	S and 6 lines      UltmtDbtr: optional (7 empty lines without it)
//	QRR|SCOR|NON       Tp: the reference type, derived from the IBAN and the reference
//	<reference>        Ref: a QR reference (QRR), a creditor reference (SCOR) or empty (NON)
//	<message>          Ustrd: optional unstructured message
//	EPD                Trailer
//	<bill information> StrdBkgInf: optional, "//" and the coded bill information
//
// Alternative schemes (AltPmt) are not offered, so bill information is the last element when
// given and the payload ends with EPD otherwise. Decisions where the guidelines leave a choice:
// values are trimmed and put in Unicode NFC (so that a letter with a combining accent is the
// one character of the Latin set it stands for); the amount is written with exactly 2 decimals
// as the guidelines' examples do (12.3 is 12.30; 1.005 is refused, never rounded); the
// currency is required, not defaulted. The symbol is meant to be encoded at level M exactly,
// without an ECI (the coding type says UTF-8), at version 25 at most (SwissQRMaxBytes).
func buildSwissQR(r *Request) (string, error) {
	iban, qrIBAN, err := swissIBAN(r.IBAN)
	if err != nil {
		return "", err
	}
	creditor, err := swissAddressOf(r, creditorFields)
	if err != nil {
		return "", err
	}
	amount, err := swissAmount(r.Amount)
	if err != nil {
		return "", err
	}
	currency, err := swissCurrency(r.Currency)
	if err != nil {
		return "", err
	}
	debtor, err := swissAddressOf(r, debtorFields)
	if err != nil {
		return "", err
	}
	referenceType, reference, err := swissReference(r.Reference, qrIBAN)
	if err != nil {
		return "", err
	}
	message, billInformation, err := swissAdditionalInformation(r.Message, r.BillInformation)
	if err != nil {
		return "", err
	}
	lines := []string{"SPC", "0200", "1", iban}
	lines = append(lines, creditor.lines()...)
	lines = append(lines, make([]string, 7)...) // UltmtCdtr
	lines = append(lines, amount, currency)
	lines = append(lines, debtor.lines()...)
	lines = append(lines, referenceType, reference, message, "EPD")
	if billInformation != "" {
		lines = append(lines, billInformation)
	}
	text := strings.Join(lines, swissSeparator)
	if n := len(text); n > SwissQRMaxBytes {
		return "", fail(ReasonPayloadTooLarge, longestSwissText(r), "Shorten the names, addresses or message: a Swiss QR Code holds at most 997 bytes of UTF-8 (version 25 at level M), and a letter outside ASCII takes 2 or 3.",
			"the Swiss QR Code payload has %d bytes, more than %d", n, SwissQRMaxBytes)
	}
	return text, nil
}

// lines returns the 7 elements of a (IG 2.3, Cdtr and UltmtDbtr): address type S and the
// address, or 7 empty elements for no address.
func (a *swissAddress) lines() []string {
	if a == nil {
		return make([]string, 7)
	}
	return []string{"S", a.name, a.street, a.building, a.postalCode, a.town, a.country}
}

// swissIBAN returns the IBAN in its electronic form and whether it is a QR-IBAN: an IBAN of
// Switzerland or Liechtenstein (IG 2.3, element IBAN: CH and LI IBANs only) whose check digits
// are right (ISO 13616, normalizeIBAN); a QR-IBAN when its institution identification (IID,
// characters 5 to 9) is 30000 to 31999 (IG 2.3, the QR-IID).
func swissIBAN(value string) (iban string, qrIBAN bool, err error) {
	if strings.TrimSpace(value) == "" {
		return "", false, missing("iban", "the creditor's IBAN or QR-IBAN, such as CH44 3199 9123 0008 8901 2")
	}
	compact := strings.ToUpper(strings.ReplaceAll(strings.TrimSpace(value), " ", ""))
	if !strings.HasPrefix(compact, "CH") && !strings.HasPrefix(compact, "LI") {
		return "", false, fail(ReasonInvalidIBAN, "iban", "Give the IBAN of an account in Switzerland or Liechtenstein (CH or LI): a QR-bill pays into no other.",
			"iban is not of Switzerland or Liechtenstein")
	}
	if iban, err = normalizeIBAN(value); err != nil {
		e := err.(*Error)
		e.Hint = "Give the IBAN or QR-IBAN as the bank prints it, 21 characters such as CH44 3199 9123 0008 8901 2 (spaces are fine), and check it for a mistyped character."
		return "", false, e
	}
	iid, _ := strconv.Atoi(iban[4:9]) // letters make no QR-IBAN: 0
	return iban, iid >= 30000 && iid <= 31999, nil
}

// swissAddressOf returns the structured address of r named by f (IG 2.3, Cdtr and
// UltmtDbtr; address type S): the name, postal code, town and country are required, the street
// and building number optional. The creditor's address is required; the ultimate debtor's is
// nil when none of its fields is given.
func swissAddressOf(r *Request, f swissAddressFields) (*swissAddress, error) {
	values := []string{r.Name, r.Street, r.BuildingNumber, r.PostalCode, r.City, r.Country}
	if f.whose == "debtor" {
		values = []string{r.DebtorName, r.DebtorStreet, r.DebtorBuildingNumber, r.DebtorPostalCode, r.DebtorCity, r.DebtorCountry}
		if strings.TrimSpace(strings.Join(values, "")) == "" {
			return nil, nil
		}
	}
	fields := []string{f.name, f.street, f.building, f.postalCode, f.town, f.country}
	limits := []int{swissMaxName, swissMaxStreet, swissMaxBuilding, swissMaxPostalCode, swissMaxTown, 0}
	what := []string{"the " + f.whose + "'s name, as the bank account holds it", "", "",
		"the " + f.whose + "'s postal code, such as 8000", "the " + f.whose + "'s town, such as Zürich", ""}
	for i, v := range values[:5] {
		v, err := swissText(fields[i], v, limits[i])
		if err != nil {
			return nil, err
		}
		if v == "" && what[i] != "" {
			return nil, missing(fields[i], what[i])
		}
		values[i] = v
	}
	country, err := swissCountry(f.country, values[5])
	if err != nil {
		return nil, err
	}
	return &swissAddress{values[0], values[1], values[2], values[3], values[4], country}, nil
}

// swissCountry returns an ISO 3166-1 alpha-2 country code, upper case (IG 2.3, element Ctry).
func swissCountry(field, value string) (string, error) {
	code := strings.ToUpper(strings.TrimSpace(value))
	if code == "" {
		return "", missing(field, "the two-letter ISO 3166-1 country code, such as CH")
	}
	hint := "Give " + field + " as a two-letter ISO 3166-1 country code, such as CH, LI or DE."
	if len(code) != 2 || code[0] < 'A' || code[0] > 'Z' || code[1] < 'A' || code[1] > 'Z' {
		return "", fail(ReasonInvalidCountry, field, hint, "%s is not two letters", field)
	}
	if region, err := language.ParseRegion(code); err != nil || !region.IsCountry() || region.String() != code {
		return "", fail(ReasonInvalidCountry, field, hint, "%s is not the ISO 3166-1 code of a country", field)
	}
	return code, nil
}

// swissAmount returns the amount element (IG 2.3, element Amt): empty when none is given, else
// 0.01 to 999999999.99 with a point and exactly 2 decimals; more decimals are refused, not
// rounded.
func swissAmount(value string) (string, error) {
	if strings.TrimSpace(value) == "" {
		return "", nil
	}
	d, ok := parseDecimal(value)
	hint := "Give amount from 0.01 to 999999999.99, with a dot and at most 2 decimals, such as 1949.75 (no currency, exponent or thousands separator), or leave it out for the payer to fill in."
	switch {
	case !ok:
		return "", fail(ReasonInvalidAmount, "amount", hint, "amount is not a decimal number")
	case d.negative || d.zero() || len(d.whole) > swissMaxAmountDigits:
		return "", fail(ReasonInvalidAmount, "amount", hint, "amount is out of range 0.01..999999999.99")
	case d.places() > 2:
		return "", fail(ReasonInvalidAmount, "amount", hint, "amount has %d decimal places, more than 2", d.places())
	}
	whole := d.whole
	if whole == "" {
		whole = "0"
	}
	return whole + "." + d.fraction + strings.Repeat("0", 2-len(d.fraction)), nil
}

// swissCurrency returns the currency element (IG 2.3, element Ccy): CHF or EUR.
func swissCurrency(value string) (string, error) {
	c := strings.ToUpper(strings.TrimSpace(value))
	switch c {
	case "CHF", "EUR":
		return c, nil
	case "":
		return "", missing("currency", "CHF or EUR, the currency of the amount")
	}
	return "", fail(ReasonInvalidCurrency, "currency", "Give currency as CHF or EUR: a QR-bill takes no other.",
		"currency is not CHF or EUR")
}

// swissReference returns the reference type and the reference (IG 2.3, elements Tp and Ref,
// and its reference types): a QR-IBAN requires a QR reference (QRR), 27 digits whose last is the
// recursive modulo 10 check digit of the others; an IBAN takes an ISO 11649 creditor reference
// (SCOR) or none (NON). Spaces of the printed forms are removed.
func swissReference(value string, qrIBAN bool) (referenceType, reference string, err error) {
	ref := strings.ToUpper(strings.ReplaceAll(strings.TrimSpace(value), " ", ""))
	digits := ref != "" && strings.Trim(ref, "0123456789") == ""
	switch {
	case qrIBAN && ref == "":
		return "", "", missing("reference", "the QR reference of 27 digits: a QR-IBAN requires one")
	case qrIBAN && !digits:
		return "", "", fail(ReasonInvalidReference, "reference", "Give the QR reference of 27 digits, such as 21 00000 00003 13947 14300 09017: a QR-IBAN takes no other reference; a creditor reference (RF…) needs the account's ordinary IBAN.",
			"reference is not a QR reference, which a QR-IBAN requires")
	case qrIBAN:
		return "QRR", ref, checkQRReference(ref)
	case ref == "":
		return "NON", "", nil
	case digits:
		return "", "", fail(ReasonInvalidReference, "reference", "Use the account's QR-IBAN with a QR reference, or give a creditor reference (RF…) or none: a QR reference needs a QR-IBAN.",
			"reference is a QR reference, but iban is not a QR-IBAN")
	}
	if ref, err = normalizeCreditorReference(ref); err != nil {
		e := err.(*Error)
		e.Hint = "Give an ISO 11649 creditor reference such as RF18 5390 0754 7034, or leave reference out and write to the payer in message."
		return "", "", e
	}
	return "SCOR", ref, nil
}

// qrReferenceCarry is the table of the recursive modulo 10 check (IG 2.3, the QR reference's check
// digit, that of the former ISR reference): the carry after adding each digit.
var qrReferenceCarry = [10]int{0, 9, 4, 6, 8, 2, 7, 1, 3, 5}

// checkQRReference checks a QR reference of digits: 27 of them, the last the recursive modulo
// 10 check digit of the 26 before it.
func checkQRReference(ref string) error {
	if len(ref) != 27 {
		return fail(ReasonInvalidReference, "reference", "Give the QR reference of exactly 27 digits, leading zeros included, such as 21 00000 00003 13947 14300 09017.",
			"reference has %d digits, not the 27 of a QR reference", len(ref))
	}
	carry := 0
	for i := 0; i < 26; i++ {
		carry = qrReferenceCarry[(carry+int(ref[i]-'0'))%10]
	}
	if (10-carry)%10 != int(ref[26]-'0') {
		return fail(ReasonInvalidReference, "reference", "Check the QR reference for a mistyped digit: its check digit (the last, modulo 10 recursive) does not match.",
			"reference's check digit is wrong")
	}
	return nil
}

// swissAdditionalInformation returns the unstructured message and the bill information (IG 2.3,
// AddInf: Ustrd and StrdBkgInf, each at most 140 characters and both together at most
// 140); bill information is "//" and coded information (the Swico S1 syntax's "//S1/…"
// among others), as the reference implementations check.
func swissAdditionalInformation(messageValue, billValue string) (message, bill string, err error) {
	if message, err = swissText("message", messageValue, swissMaxAdditional); err != nil {
		return "", "", err
	}
	if bill, err = swissText("billInformation", billValue, swissMaxAdditional); err != nil {
		return "", "", err
	}
	if bill != "" && (!strings.HasPrefix(bill, "//") || len(bill) == 2) {
		return "", "", fail(ReasonInvalidBillInformation, "billInformation", "Give billInformation as coded bill information starting with //, such as //S1/10/10201409/11/190512 (Swico S1), or write free text in message.",
			"billInformation is not // and coded information")
	}
	if n := utf8.RuneCountInString(message) + utf8.RuneCountInString(bill); n > swissMaxAdditional {
		return "", "", fail(ReasonValueTooLong, "message", "Shorten message or billInformation: together they hold at most 140 characters.",
			"message and billInformation have %d characters together, more than %d", n, swissMaxAdditional)
	}
	return message, bill, nil
}

// swissText returns a text element trimmed and in Unicode NFC, refusing a line break (the
// separator of the elements), a character outside the permitted set (swissChar) and more
// than max characters (max 0: no limit, the caller checks).
func swissText(field, value string, max int) (string, error) {
	if err := checkLineText(field, value); err != nil {
		return "", err
	}
	v := norm.NFC.String(strings.TrimSpace(value))
	if strings.ContainsAny(v, "\r\n") {
		return "", fail(ReasonInvalidText, field, "Write "+field+" on one line: the lines of a Swiss QR Code are its elements.",
			"%s holds a line break", field)
	}
	for _, c := range v {
		if !swissChar(c) {
			return "", fail(ReasonInvalidText, field, "Write "+field+" in the Latin letters a QR-bill permits (Basic Latin, Latin-1 Supplement, Latin Extended-A, Ș ș Ț ț and €), without tabs.",
				"%s holds U+%04X, outside the QR-bill's character set", field, c)
		}
	}
	if n := utf8.RuneCountInString(v); max > 0 && n > max {
		return "", fail(ReasonValueTooLong, field, "Shorten "+field+" to at most "+strconv.Itoa(max)+" characters, as the QR-bill guidelines allow.",
			"%s has %d characters, more than %d", field, n, max)
	}
	return v, nil
}

// swissChar reports whether c is in the character set of the Swiss QR Code since version 2.3
// (IG 2.3, its character set: the Swiss Payment Standards' extended Latin set): the
// printable characters of Basic Latin (U+0020 to U+007E), Latin-1 Supplement (U+00A0 to
// U+00FF) and Latin Extended-A (U+0100 to U+017F), Ș ș Ț ț (U+0218 to U+021B) and € (U+20AC).
func swissChar(c rune) bool {
	return c >= 0x20 && c <= 0x7e || c >= 0xa0 && c <= 0x17f || c >= 0x218 && c <= 0x21b || c == 0x20ac
}

// longestSwissText returns the request field of the longest free text in bytes: the one to
// shorten when the payload is too large.
func longestSwissText(r *Request) string {
	field, most := "message", len(r.Message)
	for _, f := range []struct{ name, value string }{
		{"name", r.Name}, {"street", r.Street}, {"city", r.City}, {"debtorName", r.DebtorName},
		{"debtorStreet", r.DebtorStreet}, {"debtorCity", r.DebtorCity}, {"billInformation", r.BillInformation},
	} {
		if len(f.value) > most {
			field, most = f.name, len(f.value)
		}
	}
	return field
}
