package payload

import (
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"
)

// The limits of a UPI link's fields. NPCI's UPI Linking Specifications (version 1.6, November
// 2017, section 1.2 "Link Specification and Parameters") give each parameter's data type
// (String), whether it is mandatory and the UPI API field it maps to, but no lengths; the
// lengths below are bananaqr's decisions (see buildUPI).
const (
	upiMaxName      = 99 // pn, the payee's name (mapped to the UPI API's Payee.name)
	upiMaxNote      = 50 // tn, the transaction note (Txn.note): PSPs' UPI APIs take at most 50
	upiMaxReference = 35 // tr, the transaction reference (Txn.refId): 35, as a UPI transaction id
	upiMaxAmount    = 10 // am, digits before the decimal point
)

// upiVPASyntax is a virtual payment address, handle@psp: the handle 2 to 256 letters, digits,
// dots, hyphens and underscores; the PSP's part 2 to 64 characters, letters and digits in
// labels separated by dots, starting with a letter (okhdfcbank, ybl, and the UPI API's global
// addresses such as <account>@<IFSC>.ifsc.npci).
var upiVPASyntax = regexp.MustCompile(`^[A-Za-z0-9._-]{2,256}@[A-Za-z][A-Za-z0-9]*(\.[A-Za-z0-9]+)*$`)

// upiAmountSyntax is an amount in rupees: digits, and a dot with 1 or 2 digits.
var upiAmountSyntax = regexp.MustCompile(`^([0-9]+)(\.[0-9]{1,2})?$`)

// merchantCategorySyntax is an ISO 18245 merchant category code: 4 digits.
var merchantCategorySyntax = regexp.MustCompile(`^[0-9]{4}$`)

// buildUPI returns a UPI payment link, as NPCI's UPI Linking Specifications (version 1.6,
// November 2017) define it:
//
//	upi://pay?pa=<vpa>&pn=<name>&mc=<mcc>&tr=<reference>&tn=<note>&am=<amount>&cu=INR
//
// Section 1.2's table makes pa (the payee's VPA) and pn (the payee's name) mandatory in both the
// static and the dynamic mode, and mc, tr, tn, am and cu optional; cu's only value is INR. The
// parameters come in the order of the table and of section 2's samples (pa, pn, mc, tid, tr,
// tn, am, mam, cu, url); tid (a PSP-generated id), mam (a minimum amount), url and the signed
// parameters of section 1.3 are not offered. cu=INR is always written.
//
// Decisions where the specification is silent:
//   - Values are percent-encoded as UTF-8 (RFC 3986 2.1, upper-case hex): everything but the
//     unreserved characters A-Z a-z 0-9 - . _ ~ (RFC 3986 2.3), so a space is %20 as in the
//     specification's samples (pn=nadeem%20chinna), never +, and & = # + % are escaped. The VPA
//     is written as it is: its syntax allows only unreserved characters and @, which the samples
//     write raw (pa=nadeem@npci).
//   - The VPA: handle@psp as upiVPASyntax says, at most 255 characters in all. Case is kept.
//   - am: rupees, greater than 0, at most 2 decimals, at most 10 digits before the point,
//     written as given without leading zeros (10, 10.5 and 10.50 stay as they are): never
//     rounded, never padded.
//   - Lengths: pn at most 99 characters, tn at most 50, tr at most 35. The linking
//     specification gives none, and NPCI's UPI API specification, where section 1.2 maps them
//     (Payee.name, Txn.note, Txn.refId), is not public in full; 50 is what PSPs' UPI
//     integration APIs take for the note, 35 the length of a UPI transaction id, 99 a name's.
//   - mc: 4 digits (ISO 18245), written as given: "if present then needs to be passed as it is".
//   - Text values are one line: no tab or line break (apps show them in one field).
func buildUPI(r *Request) (string, error) {
	vpa, err := upiVPA(r.VPA)
	if err != nil {
		return "", err
	}
	name := strings.TrimSpace(r.Name)
	if name == "" {
		return "", missing("name", "the payee's name, which the payer's app shows (pn)")
	}
	if err := checkUPIText("name", name, upiMaxName); err != nil {
		return "", err
	}
	if err := upiCurrency(r.Currency); err != nil {
		return "", err
	}
	params := []string{"pa=" + vpa, "pn=" + escapeBytes(name, unreserved)}
	if mc := strings.TrimSpace(r.MerchantCategory); mc != "" {
		if !merchantCategorySyntax.MatchString(mc) {
			return "", fail(ReasonInvalidMerchantCategory, "merchantCategory", "Give the merchant category code of 4 digits (ISO 18245), such as 5411, or leave merchantCategory out.",
				"merchantCategory is not 4 digits")
		}
		params = append(params, "mc="+mc)
	}
	optional := []struct {
		field, key string
		max        int
	}{{"reference", "tr", upiMaxReference}, {"message", "tn", upiMaxNote}}
	values := map[string]string{"reference": r.Reference, "message": r.Message}
	for _, o := range optional {
		v := strings.TrimSpace(values[o.field])
		if v == "" {
			continue
		}
		if err := checkUPIText(o.field, v, o.max); err != nil {
			return "", err
		}
		params = append(params, o.key+"="+escapeBytes(v, unreserved))
	}
	if strings.TrimSpace(r.Amount) != "" {
		am, err := upiAmount(r.Amount)
		if err != nil {
			return "", err
		}
		params = append(params, "am="+am)
	}
	params = append(params, "cu=INR")
	return "upi://pay?" + strings.Join(params, "&"), nil
}

// upiVPA returns the payee's virtual payment address, checked (see upiVPASyntax).
func upiVPA(value string) (string, error) {
	vpa := strings.TrimSpace(value)
	if vpa == "" {
		return "", missing("vpa", "the payee's UPI id (virtual payment address), such as shop@okhdfcbank")
	}
	_, psp, _ := strings.Cut(vpa, "@")
	if len(vpa) > 255 || !upiVPASyntax.MatchString(vpa) || len(psp) < 2 || len(psp) > 64 {
		return "", fail(ReasonInvalidVPA, "vpa", "Give the payee's UPI id as handle@psp, such as shop@okhdfcbank: letters, digits, dots, hyphens and underscores before the @, the PSP's name after it, no spaces.",
			"vpa is not a virtual payment address (handle@psp)")
	}
	return vpa, nil
}

// upiCurrency refuses a currency other than INR, the only one section 1.2 allows.
func upiCurrency(value string) error {
	if c := strings.TrimSpace(value); c != "" && !strings.EqualFold(c, "INR") {
		return fail(ReasonInvalidCurrency, "currency", "Leave currency out or set it to INR: UPI links pay in Indian rupees only.",
			"currency is not INR")
	}
	return nil
}

// upiAmount returns the amount as am writes it: rupees, more than 0, at most 2 decimals and 10
// digits before the point, without leading zeros, never rounded.
func upiAmount(value string) (string, error) {
	hint := "Give amount in rupees with a dot and at most 2 decimals, such as 499.50 (no currency sign, comma or exponent), more than 0."
	m := upiAmountSyntax.FindStringSubmatch(strings.TrimSpace(value))
	if m == nil {
		return "", fail(ReasonInvalidAmount, "amount", hint, "amount is not a decimal number with at most 2 decimals")
	}
	whole := strings.TrimLeft(m[1], "0")
	if whole == "" && strings.Trim(m[2], ".0") == "" {
		return "", fail(ReasonInvalidAmount, "amount", hint, "amount is 0")
	}
	if len(whole) > upiMaxAmount {
		return "", fail(ReasonInvalidAmount, "amount", hint, "amount has more than %d digits before the decimal point", upiMaxAmount)
	}
	if whole == "" {
		whole = "0"
	}
	return whole + m[2], nil
}

// checkUPIText checks a text value of a UPI link: text (checkLineText) of one line and at most
// max characters.
func checkUPIText(field, value string, max int) error {
	if err := checkLineText(field, value); err != nil {
		return err
	}
	if strings.ContainsAny(value, "\t\r\n") {
		return fail(ReasonInvalidText, field, "Write "+field+" on one line, without tabs: UPI apps show it in one line.",
			"%s holds a line break or a tab", field)
	}
	if n := utf8.RuneCountInString(value); n > max {
		return fail(ReasonValueTooLong, field, "Shorten "+field+" to at most "+strconv.Itoa(max)+" characters, as UPI apps keep it.",
			"%s has %d characters, more than %d", field, n, max)
	}
	return nil
}
