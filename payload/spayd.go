package payload

import (
	"regexp"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// The limits of a SPAYD's values (SPAYD 1.0, the Czech Banking Association's "Formát pro sdílení
// platebních údajů v rámci tuzemského platebního styku v CZK prostřednictvím QR kódů", the
// table of keys), in characters of the value before escaping.
const (
	spaydMaxAmount    = 10 // AM, the whole written amount, the point included
	spaydMaxReference = 16 // RF, digits
	spaydMaxName      = 35 // RN
	spaydMaxMessage   = 60 // MSG
	spaydMaxSymbol    = 10 // X-VS, X-SS, X-KS, digits
)

var (
	// spaydAmountSyntax is AM's value: digits, and a dot with 1 or 2 digits.
	spaydAmountSyntax = regexp.MustCompile(`^([0-9]+)(\.[0-9]{1,2})?$`)
	// currencySyntax is an ISO 4217 alphabetic code: 3 letters.
	currencySyntax = regexp.MustCompile(`^[A-Z]{3}$`)
	// digitsSyntax is a number written with digits only.
	digitsSyntax = regexp.MustCompile(`^[0-9]+$`)
)

// buildSPAYD returns a Short Payment Descriptor, SPAYD 1.0 (the Czech Banking Association's
// standard, qr-platba.cz):
//
//	SPD*1.0*ACC:<IBAN>[+<BIC>]*AM:<amount>*CC:<currency>*RF:<reference>*RN:<name>*DT:<due date>*MSG:<message>*X-VS:…*X-SS:…*X-KS:…
//
// a header, then key:value pairs separated by '*', in the order of the reference
// implementation (spayd-java's SpaydPayment: ACC, ALT-ACC, AM, CC, RF, RN, DT, MSG, NT, NTA,
// then the X- keys) and of the specification's example (…*MSG:PLATBA ZA ZBOZI*X-VS:1234567890).
// Only ACC is required; the others are written when given. ALT-ACC, PT, NT, NTA and CRC32 are
// not offered.
//
//	ACC   the IBAN (ISO 13616, checked as normalizeIBAN does: a SEPA country's IBAN; the
//	      standard is for Czech payments, and Czech and Slovak banks read SEPA IBANs too),
//	      then +BIC when bic is given (ISO 9362)
//	AM    more than 0, at most 2 decimals, at most 10 characters; written as given without
//	      leading zeros (450.00 stays 450.00): never rounded
//	CC    an ISO 4217 code, 3 letters, written upper case (the standard's default is CZK)
//	RF    the payer's reference to the payee: up to 16 digits
//	RN    the payee's name, up to 35 characters
//	DT    the due date, YYYYMMDD, from an ISO 8601 date (YYYY-MM-DD)
//	MSG   the message for the payee, up to 60 characters
//	X-VS, X-SS, X-KS  the variable, specific and constant symbols: up to 10 digits each
//
// Escaping: a value may hold any character but '*', which separates the pairs; the payload
// itself stays in ISO-8859-1 (the reference validator's rule). As the reference implementation
// escapes them (SpaydPayment.escapeDisallowedCharacters), '*' is written %2A, '+' %2B (readers
// URL-decode values, where + would become a space), '%' %25, and every character outside ASCII
// as the percent-encoded bytes of its UTF-8 form (é is %C3%A9): the payload is ASCII. Case is
// kept: the standard recommends upper case so that the symbol can use the QR Code's
// alphanumeric mode, but changing a name or message would change what the payee reads, and
// bananaqr's encoder picks the shortest segments whatever the case. Lengths are counted in
// characters before escaping, as the reference validator counts them. Values are one line: a
// tab or line break is refused.
func buildSPAYD(r *Request) (string, error) {
	acc, err := spaydAccount(r.IBAN, r.BIC)
	if err != nil {
		return "", err
	}
	pairs := []string{"SPD", "1.0", "ACC:" + acc}
	add := func(key, value string) {
		if value != "" {
			pairs = append(pairs, key+":"+value)
		}
	}
	am, cc, err := spaydAmount(r.Amount, r.Currency)
	if err != nil {
		return "", err
	}
	add("AM", am)
	add("CC", cc)
	rf, err := spaydDigits(ReasonInvalidReference, "reference", "the payer's reference (RF)", r.Reference, spaydMaxReference)
	if err != nil {
		return "", err
	}
	add("RF", rf)
	rn, err := spaydText("name", r.Name, spaydMaxName)
	if err != nil {
		return "", err
	}
	add("RN", rn)
	dt, err := spaydDate(r.DueDate)
	if err != nil {
		return "", err
	}
	add("DT", dt)
	msg, err := spaydText("message", r.Message, spaydMaxMessage)
	if err != nil {
		return "", err
	}
	add("MSG", msg)
	for _, s := range []struct{ key, field, what, value string }{
		{"X-VS", "variableSymbol", "the variable symbol (X-VS)", r.VariableSymbol},
		{"X-SS", "specificSymbol", "the specific symbol (X-SS)", r.SpecificSymbol},
		{"X-KS", "constantSymbol", "the constant symbol (X-KS)", r.ConstantSymbol},
	} {
		v, err := spaydDigits(ReasonInvalidSymbol, s.field, s.what, s.value, spaydMaxSymbol)
		if err != nil {
			return "", err
		}
		add(s.key, v)
	}
	return strings.Join(pairs, "*"), nil
}

// spaydAccount returns ACC's value: the IBAN, and +BIC when bic is given.
func spaydAccount(iban, bic string) (string, error) {
	value := strings.ToUpper(strings.ReplaceAll(strings.TrimSpace(iban), " ", ""))
	if value == "" {
		return "", missing("iban", "the payee's IBAN, such as CZ65 0800 0000 1920 0014 5399")
	}
	if len(value) >= 2 {
		if _, sepa := ibanLengths[value[:2]]; !sepa && ibanSyntax.MatchString(value) {
			return "", fail(ReasonInvalidIBAN, "iban", "Give the IBAN of a Czech account, or of another account in the Single Euro Payments Area, such as CZ65 0800 0000 1920 0014 5399.",
				"iban is not of a SEPA country")
		}
	}
	acc, err := normalizeIBAN(iban)
	if err != nil {
		return "", err
	}
	if strings.TrimSpace(bic) == "" {
		return acc, nil
	}
	b, err := normalizeBIC(bic)
	if err != nil {
		return "", fail(ReasonInvalidBIC, "bic", "Give the bank's BIC of 8 or 11 letters and digits, such as GIBACZPX, or leave bic out: the IBAN is enough.",
			"bic is not 8 or 11 characters of ISO 9362's form")
	}
	return acc + "+" + b, nil
}

// spaydAmount returns AM's and CC's values (see buildSPAYD); either may be empty.
func spaydAmount(amount, currency string) (am, cc string, err error) {
	if cc = strings.ToUpper(strings.TrimSpace(currency)); cc != "" && !currencySyntax.MatchString(cc) {
		return "", "", fail(ReasonInvalidCurrency, "currency", "Give the currency's ISO 4217 code of 3 letters, such as CZK or EUR, or leave currency out for CZK.",
			"currency is not 3 letters")
	}
	if strings.TrimSpace(amount) == "" {
		return "", cc, nil
	}
	hint := "Give amount with a dot and at most 2 decimals, such as 450.00, more than 0 and at most 10 characters (9999999.99); no currency sign, comma or exponent."
	m := spaydAmountSyntax.FindStringSubmatch(strings.TrimSpace(amount))
	if m == nil {
		return "", "", fail(ReasonInvalidAmount, "amount", hint, "amount is not a decimal number with at most 2 decimals")
	}
	whole := strings.TrimLeft(m[1], "0")
	if whole == "" && strings.Trim(m[2], ".0") == "" {
		return "", "", fail(ReasonInvalidAmount, "amount", hint, "amount is 0")
	}
	if whole == "" {
		whole = "0"
	}
	if am = whole + m[2]; len(am) > spaydMaxAmount {
		return "", "", fail(ReasonInvalidAmount, "amount", hint, "amount has %d characters, more than %d", len(am), spaydMaxAmount)
	}
	return am, cc, nil
}

// spaydDigits returns a value of 1 to max digits, or "" when it is absent.
func spaydDigits(reason Reason, field, what, value string, max int) (string, error) {
	v := strings.TrimSpace(value)
	if v == "" {
		return "", nil
	}
	if !digitsSyntax.MatchString(v) || len(v) > max {
		return "", fail(reason, field, "Give "+field+", "+what+", as 1 to "+strconv.Itoa(max)+" digits, or leave it out.",
			"%s is not 1 to %d digits", field, max)
	}
	return v, nil
}

// spaydDate returns DT's value, YYYYMMDD, from an ISO 8601 calendar date, or "" when it is
// absent.
func spaydDate(value string) (string, error) {
	v := strings.TrimSpace(value)
	if v == "" {
		return "", nil
	}
	d, err := time.Parse(time.DateOnly, v)
	if err != nil {
		return "", fail(ReasonInvalidDate, "dueDate", "Give dueDate as an ISO 8601 date, YYYY-MM-DD, such as 2026-12-31.",
			"dueDate is not a date YYYY-MM-DD")
	}
	return d.Format("20060102"), nil
}

// spaydText checks a text value (checkLineText, one line, at most max characters) and returns it
// escaped (spaydEscape), or "" when it is absent.
func spaydText(field, value string, max int) (string, error) {
	v := strings.TrimSpace(value)
	if v == "" {
		return "", nil
	}
	if err := checkLineText(field, v); err != nil {
		return "", err
	}
	if strings.ContainsAny(v, "\t\r\n") {
		return "", fail(ReasonInvalidText, field, "Write "+field+" on one line, without tabs: banking apps show it in one line.",
			"%s holds a line break or a tab", field)
	}
	if n := utf8.RuneCountInString(v); n > max {
		return "", fail(ReasonValueTooLong, field, "Shorten "+field+" to at most "+strconv.Itoa(max)+" characters, as SPAYD allows.",
			"%s has %d characters, more than %d", field, n, max)
	}
	return spaydEscape(v), nil
}

// spaydEscape escapes a SPAYD value as the reference implementation does: '*' as %2A, '+' as
// %2B, '%' as %25, and each byte of a character outside ASCII percent-encoded with upper-case
// hex digits.
func spaydEscape(s string) string {
	return escapeBytes(s, func(c byte) bool { return c < 0x80 && c != '*' && c != '+' && c != '%' })
}
