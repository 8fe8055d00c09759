package payload

import (
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Limits of the EPC guideline (EPC069-12, version 002).
const (
	// EPCMaxBytes is the most bytes an EPC code's payload may have: what version 13 at level M
	// holds in byte mode, the largest symbol the guideline allows.
	EPCMaxBytes        = 331
	epcMaxName         = 70  // characters of the beneficiary's name
	epcMaxRemittance   = 140 // characters of unstructured remittance information
	epcMaxAmountDigits = 9   // digits before the point: at most 999999999.99
)

// buildEPC returns the SEPA credit transfer of r as the European Payments Council's QR code
// (EPC069-12 "Quick Response Code: Guidelines to Enable Data Capture for the Initiation of a
// SEPA Credit Transfer", version 002), lines separated by LF:
//
//	BCD            service tag
//	002            version: the BIC may be empty (within the EEA)
//	1              character set: UTF-8
//	SCT            identification: SEPA credit transfer
//	<bic>          optional
//	<name>         the beneficiary, 1 to 70 characters
//	<iban>         without spaces, upper case, ISO 13616 check digits verified
//	EUR<amount>    optional: 0.01 to 999999999.99, at most 2 decimals, a dot, no padding (EUR12.3)
//	               (empty: purpose, not offered)
//	<reference>    structured remittance: an ISO 11649 RF creditor reference, checked
//	<remittance>   or unstructured remittance text, 1 to 140 characters; never both
//
// The beneficiary-to-originator line is not offered, and trailing empty lines are left out, as
// the guideline allows. The whole may have at most 331 bytes (EPCMaxBytes), which only
// non-ASCII text can reach. Decisions: LF rather than CRLF (the guideline takes either; LF is
// shorter and is segno's choice); the amount in its shortest form, as the guideline's own
// example EUR12.3 and segno write it; the character set always UTF-8, declared by the third
// line, so the symbol carries no ECI and is encoded at level M exactly, as the guideline
// requires (see api.Request.Encoding). Values are one line each: a line break would move the
// lines after it.
func buildEPC(r *Request) (string, error) {
	name := strings.TrimSpace(r.Name)
	if name == "" {
		return "", missing("name", "the beneficiary's name, as the bank account holds it")
	}
	if err := checkEPCText("name", name, epcMaxName); err != nil {
		return "", err
	}
	if strings.TrimSpace(r.IBAN) == "" {
		return "", missing("iban", "the beneficiary's IBAN, such as DE89 3704 0044 0532 0130 00")
	}
	iban, err := normalizeIBAN(r.IBAN)
	if err != nil {
		return "", err
	}
	bic := ""
	if strings.TrimSpace(r.BIC) != "" {
		if bic, err = normalizeBIC(r.BIC); err != nil {
			return "", err
		}
	}
	amount := ""
	if strings.TrimSpace(r.Amount) != "" {
		if amount, err = epcAmount(r.Amount); err != nil {
			return "", err
		}
	}
	reference, remittance := "", strings.TrimSpace(r.Remittance)
	if strings.TrimSpace(r.Reference) != "" {
		if remittance != "" {
			return "", fail(ReasonConflictingFields, "reference", "Send reference or remittance, not both: an EPC code carries one of them.",
				"reference and remittance are both given")
		}
		if reference, err = normalizeCreditorReference(r.Reference); err != nil {
			return "", err
		}
	}
	if err := checkEPCText("remittance", remittance, epcMaxRemittance); err != nil {
		return "", err
	}
	text := strings.Join([]string{"BCD", "002", "1", "SCT", bic, name, iban, amount, "", reference, remittance}, "\n")
	text = strings.TrimRight(text, "\n")
	if n := len(text); n > EPCMaxBytes {
		field := "name"
		if remittance != "" {
			field = "remittance"
		}
		return "", fail(ReasonPayloadTooLarge, field, "Shorten remittance or name: an EPC code holds at most 331 bytes of UTF-8, and a letter outside ASCII takes 2 to 4.",
			"the EPC payload has %d bytes, more than %d", n, EPCMaxBytes)
	}
	return text, nil
}

// checkEPCText checks a text line of an EPC code: text (checkLineText) of one line and at most max
// characters.
func checkEPCText(field, value string, max int) error {
	if err := checkLineText(field, value); err != nil {
		return err
	}
	if strings.ContainsAny(value, "\t\r\n") {
		return fail(ReasonInvalidText, field, "Write "+field+" on one line, without tabs: the lines of an EPC code are its fields.",
			"%s holds a line break or a tab", field)
	}
	if n := utf8.RuneCountInString(value); n > max {
		return fail(ReasonValueTooLong, field, "Shorten "+field+" to at most "+strconv.Itoa(max)+" characters, as the EPC guideline allows.",
			"%s has %d characters, more than %d", field, n, max)
	}
	return nil
}

// ibanLengths are the IBAN lengths of the countries of the Single Euro Payments Area (the ISO
// 13616 registry's), whose accounts an SCT pays into. French overseas departments and Monaco's
// neighbours use FR; Jersey, Guernsey and the Isle of Man use GB.
var ibanLengths = map[string]int{
	"AD": 24, "AL": 28, "AT": 20, "BE": 16, "BG": 22, "CH": 21, "CY": 28, "CZ": 24, "DE": 22, "DK": 18,
	"EE": 20, "ES": 24, "FI": 18, "FR": 27, "GB": 22, "GI": 23, "GR": 27, "HR": 21, "HU": 28, "IE": 22,
	"IS": 26, "IT": 27, "LI": 21, "LT": 20, "LU": 20, "LV": 21, "MC": 27, "MD": 24, "ME": 22, "MK": 19,
	"MT": 31, "NL": 18, "NO": 15, "PL": 28, "PT": 25, "RO": 24, "SE": 24, "SI": 19, "SK": 24, "SM": 27,
	"VA": 22,
}

var ibanSyntax = regexp.MustCompile(`^[A-Z]{2}[0-9]{2}[A-Z0-9]{11,30}$`)

// normalizeIBAN returns the IBAN in its electronic form (ISO 13616-1): the spaces of its printed
// form removed, upper case. It must be a SEPA country's IBAN of that country's length whose
// check digits are right: the whole, its first four characters moved to the end and letters
// read as 10 to 35, is 1 modulo 97.
func normalizeIBAN(value string) (string, error) {
	iban := strings.ToUpper(strings.ReplaceAll(strings.TrimSpace(value), " ", ""))
	hint := "Give the IBAN as the bank prints it, such as DE89 3704 0044 0532 0130 00 (spaces are fine)."
	if !ibanSyntax.MatchString(iban) {
		return "", fail(ReasonInvalidIBAN, "iban", hint, "iban is not two letters, two check digits and 11 to 30 letters or digits")
	}
	n, sepa := ibanLengths[iban[:2]]
	switch {
	case !sepa:
		return "", fail(ReasonInvalidIBAN, "iban", "Give the IBAN of an account in the Single Euro Payments Area: EPC codes make SEPA credit transfers.",
			"iban is not of a SEPA country")
	case len(iban) != n:
		return "", fail(ReasonInvalidIBAN, "iban", hint+" An IBAN of its country has "+strconv.Itoa(n)+" characters.",
			"iban has %d characters, not the %d of its country", len(iban), n)
	case mod97(iban[4:]+iban[:4]) != 1:
		return "", fail(ReasonInvalidIBAN, "iban", "Check the IBAN for a mistyped character: its check digits do not match.",
			"iban's check digits are wrong")
	}
	return iban, nil
}

// mod97 returns s modulo 97, s being digits and upper-case letters that stand for 10 to 35
// (ISO 7064 MOD 97-10, as ISO 13616 and ISO 11649 use it).
func mod97(s string) int {
	r := 0
	for i := 0; i < len(s); i++ {
		if c := s[i]; c >= 'A' {
			v := int(c-'A') + 10
			r = (r*100 + v) % 97
		} else {
			r = (r*10 + int(c-'0')) % 97
		}
	}
	return r
}

// bicSyntax is a business identifier code (ISO 9362): 4 letters or digits for the party, 2
// letters for the country, 2 for the location, and optionally 3 for the branch.
var bicSyntax = regexp.MustCompile(`^[A-Z0-9]{4}[A-Z]{2}[A-Z0-9]{2}([A-Z0-9]{3})?$`)

// normalizeBIC returns the BIC upper case, without spaces: 8 or 11 characters.
func normalizeBIC(value string) (string, error) {
	bic := strings.ToUpper(strings.ReplaceAll(strings.TrimSpace(value), " ", ""))
	if !bicSyntax.MatchString(bic) {
		return "", fail(ReasonInvalidBIC, "bic", "Give the bank's BIC of 8 or 11 letters and digits, such as COBADEFFXXX, or leave bic out: version 002 does not need it.",
			"bic is not 8 or 11 characters of ISO 9362's form")
	}
	return bic, nil
}

// epcAmount returns the amount line: EUR and the amount in its shortest form (EUR12.3), the
// amount being a decimal of 0.01 to 999999999.99 with at most 2 decimal places.
func epcAmount(value string) (string, error) {
	d, ok := parseDecimal(value)
	hint := "Give amount in euros from 0.01 to 999999999.99, with a dot and at most 2 decimals, such as 12.30 (no currency sign, exponent or thousands separator)."
	switch {
	case !ok:
		return "", fail(ReasonInvalidAmount, "amount", hint, "amount is not a decimal number")
	case d.negative || d.zero() || len(d.whole) > epcMaxAmountDigits:
		return "", fail(ReasonInvalidAmount, "amount", hint, "amount is out of range 0.01..999999999.99")
	case d.places() > 2:
		return "", fail(ReasonInvalidAmount, "amount", hint, "amount has %d decimal places, more than 2", d.places())
	}
	return "EUR" + d.String(), nil
}

// creditorReferenceSyntax is an ISO 11649 creditor reference: RF, two check digits and 1 to 21
// letters or digits.
var creditorReferenceSyntax = regexp.MustCompile(`^RF[0-9]{2}[A-Z0-9]{1,21}$`)

// normalizeCreditorReference returns an ISO 11649 creditor reference in its electronic form
// (no spaces, upper case), its check digits verified: the reference with RF and the check
// digits moved to the end, letters read as 10 to 35, is 1 modulo 97.
func normalizeCreditorReference(value string) (string, error) {
	ref := strings.ToUpper(strings.ReplaceAll(strings.TrimSpace(value), " ", ""))
	if !creditorReferenceSyntax.MatchString(ref) {
		return "", fail(ReasonInvalidReference, "reference", "Give an ISO 11649 creditor reference such as RF18 5390 0754 7034, or send free text as remittance.",
			"reference is not RF, two check digits and 1 to 21 letters or digits")
	}
	if mod97(ref[4:]+ref[:4]) != 1 {
		return "", fail(ReasonInvalidReference, "reference", "Check the reference for a mistyped character: its check digits do not match.",
			"reference's check digits are wrong")
	}
	return ref, nil
}
