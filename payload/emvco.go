package payload

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"
)

// The EMVCo merchant-presented QR code: EMV QR Code Specification for Payment Systems (EMV
// QRCPS), Merchant-Presented Mode, version 1.1 (November 2017), cited below as "MPM" with its
// section numbers; with the presets of two national schemes built on it: Brazil's Pix (Banco
// Central do Brasil, "Manual de Padrões para Iniciação do Pix", whose BR Code follows MPM) and
// Thailand's PromptPay (the Bank of Thailand's Thai QR Code, as the widely used promptpay-qr
// library writes it).

// The limits of MPM's data objects (Table 3.6, Table 3.7, Table 4.2) and of Pix's.
const (
	emvcoMaxValue      = 99 // any data object's value (MPM 3.2, 4.4.1.2)
	emvcoMaxName       = 25 // Merchant Name, ID 59
	emvcoMaxCity       = 15 // Merchant City, ID 60
	emvcoMaxPostalCode = 10 // Postal Code, ID 61
	emvcoMaxReference  = 25 // Reference Label, ID 62-05
	emvcoMaxAmount     = 13 // Transaction Amount, ID 54
	emvcoMaxGUID       = 32 // Globally Unique Identifier, ID 00 of a merchant account template
)

// The schemes with presets, and their globally unique identifiers (ID 00 of the merchant
// account template): Pix's as the Banco Central's manual writes it in its example, and
// PromptPay's application identifier.
const (
	schemePix       = "pix"
	schemePromptPay = "promptpay"
	guidPix         = "br.gov.bcb.pix"
	guidPromptPay   = "A000000677010111"
)

// emvObject is a data object: a two-digit ID and its value (MPM 3.2), which may be a template
// of data objects already serialized.
type emvObject struct{ id, value string }

// emvcoRequest is what the scheme builders have in common once checked: the merchant's
// fields as MPM writes them.
type emvcoRequest struct {
	name, city, postalCode, country, currency, category, amount, reference string
}

// buildEMVCo returns the payload of a merchant-presented EMV QR code (MPM 1.1): data objects of
// an ID, a length and a value, the Payload Format Indicator 01 first (4.6.1.1) and the CRC last
// (4.6.1.2), lengths counted in characters (4.4.1.1). The scheme (pix, promptpay, or a globally
// unique identifier) decides the merchant account template and what the other fields must be:
// see emvcoPix, emvcoPromptPay and emvcoGeneric.
//
// Decisions: every value bananaqr writes is of MPM's Alphanumeric Special format (printable
// ASCII, 1.4.1), even where a template allows String, so a length is a count of bytes too, no
// reader has a character set to guess, and no Merchant Information—Language Template (ID 64) is
// written; a name with accents is refused with a hint rather than changed. Surrounding spaces
// are trimmed.
func buildEMVCo(r *Request) (string, error) {
	scheme := strings.TrimSpace(r.Scheme)
	switch {
	case scheme == "":
		return "", missing("scheme", "pix, promptpay, or the globally unique identifier of the merchant account's scheme")
	case strings.EqualFold(scheme, schemePix):
		return emvcoPix(r, guidPix)
	case strings.EqualFold(scheme, guidPix):
		return emvcoPix(r, scheme)
	case strings.EqualFold(scheme, schemePromptPay) || strings.EqualFold(scheme, guidPromptPay):
		return emvcoPromptPay(r)
	}
	return emvcoGeneric(r, scheme)
}

// emvcoPix builds a static Pix BR Code, as the Banco Central's "Manual de Padrões para
// Iniciação do Pix" (section on the static QR code, and its example with CRC 1D3D) writes it:
//
//	00 01, 26 {00 br.gov.bcb.pix, 01 key, 02 description}, 52 category (0000), 53 986,
//	54 amount, 58 BR, 59 name, 60 city, 61 postal code, 62 {05 txid}, 63 CRC
//
// The Point of Initiation Method is left out, as in the manual's static example (a static code
// may be paid many times). The key is checked by kind (pixKey); the description is message;
// the txid is reference, 1 to 25 letters and digits, *** when absent (the manual's "not
// used"). Name and city are required. Currency and country may be left out; given, they must
// be BRL (986) and BR. The GUID is guid: br.gov.bcb.pix for the scheme pix, as the manual's
// example writes it, or the scheme as given when it is the GUID (the BR Code manual's example
// writes BR.GOV.BCB.PIX, and so do libraries; readers compare it without regard to case).
func emvcoPix(r *Request, guid string) (string, error) {
	key, err := pixKey(r.Key)
	if err != nil {
		return "", err
	}
	account := emvcoTLV("00", guid) + emvcoTLV("01", key)
	if message := strings.TrimSpace(r.Message); message != "" {
		if err := emvcoText("message", message, emvcoMaxValue); err != nil {
			return "", err
		}
		account += emvcoTLV("02", message)
		if n := utf8.RuneCountInString(account); n > emvcoMaxValue {
			hint := "Leave message out: the key fills the merchant account's 99 characters."
			if room := emvcoMaxValue - n + len(message); room > 0 {
				hint = "Shorten message to at most " + strconv.Itoa(room) + " characters: the key and the description share the 99 characters of the merchant account."
			}
			return "", fail(ReasonValueTooLong, "message", hint, "the merchant account template would have %d characters, more than %d", n, emvcoMaxValue)
		}
	}
	m, err := emvcoMerchant(r, "BR", "986", true)
	if err != nil {
		return "", err
	}
	txid := "***"
	if m.reference != "" {
		if !pixTxid.MatchString(m.reference) {
			return "", fail(ReasonInvalidReference, "reference", "Give reference (the Pix txid) as 1 to 25 letters and digits, or leave it out.",
				"reference is not 1 to 25 letters and digits")
		}
		txid = m.reference
	}
	return emvcoSerialize([]emvObject{{"00", "01"}, {"26", account}, {"52", m.category}, {"53", m.currency},
		{"54", m.amount}, {"58", m.country}, {"59", m.name}, {"60", m.city}, {"61", m.postalCode},
		{"62", emvcoTLV("05", txid)}}), nil
}

// pixTxid is a Pix txid of a static code (the manual: up to 25 letters and digits).
var pixTxid = regexp.MustCompile(`^[A-Za-z0-9]{1,25}$`)

// emvcoPromptPay builds a PromptPay code in the order of the promptpay-qr library (dtinth,
// the reference its fixtures come from):
//
//	00 01, 01 11 or 12, 29 {00 A000000677010111, 01 mobile | 02 tax id | 03 e-wallet},
//	58 TH, 53 764, 54 amount
//
// then the optional objects it does not write, in ID order (52, 59, 60, 61, 62 {05}), and
// 63 CRC. The Point of Initiation Method is 11 (static) without an amount and 12 (dynamic)
// with one, as the library and the banks' codes do. Currency and country may be left out;
// given, they must be THB (764) and TH. Name and city are optional here: PromptPay codes go
// without them.
func emvcoPromptPay(r *Request) (string, error) {
	if strings.TrimSpace(r.Message) != "" {
		return "", emvcoNoMessage()
	}
	id, kind, err := promptPayID(r.Key)
	if err != nil {
		return "", err
	}
	m, err := emvcoMerchant(r, "TH", "764", false)
	if err != nil {
		return "", err
	}
	category := m.category
	if strings.TrimSpace(r.MerchantCategory) == "" {
		category = "" // PromptPay codes carry none
	}
	return emvcoSerialize([]emvObject{{"00", "01"}, {"01", emvcoInitiation(m.amount)},
		{"29", emvcoTLV("00", guidPromptPay) + emvcoTLV(kind, id)}, {"58", m.country}, {"53", m.currency}, {"54", m.amount},
		{"52", category}, {"59", m.name}, {"60", m.city}, {"61", m.postalCode}, {"62", emvcoReferenceLabel(m.reference)}}), nil
}

// emvcoGeneric builds the code of another scheme, whose globally unique identifier is the
// scheme field, in ID order:
//
//	00 01, 01 11 or 12, 26 {00 scheme, 01 key}, 52 category (0000), 53 currency, 54 amount,
//	58 country, 59 name, 60 city, 61 postal code, 62 {05 reference}, 63 CRC
//
// Name, city, country and currency are required, as MPM's mandatory objects (Table 3.6). The
// Point of Initiation Method is 11 without an amount and 12 with one, as PromptPay's (MPM
// 4.7.2.1 leaves the choice to the merchant: "11" for a code shown for many transactions, "12"
// for one shown for each; a code with an amount is most often the latter). The key is the
// scheme's merchant account, of MPM's Alphanumeric Special characters.
func emvcoGeneric(r *Request, scheme string) (string, error) {
	if strings.TrimSpace(r.Message) != "" {
		return "", emvcoNoMessage()
	}
	guid, err := emvcoGUID(scheme)
	if err != nil {
		return "", err
	}
	key := strings.TrimSpace(r.Key)
	if key == "" {
		return "", missing("key", "the merchant's account in the scheme, as the scheme gave it")
	}
	account := emvcoTLV("00", guid) + emvcoTLV("01", key)
	if err := emvcoText("key", key, emvcoMaxValue); err != nil {
		return "", err
	}
	if n := utf8.RuneCountInString(account); n > emvcoMaxValue {
		return "", fail(ReasonValueTooLong, "key", "Shorten key: with the scheme's identifier, the merchant account template holds at most 99 characters.",
			"the merchant account template would have %d characters, more than %d", n, emvcoMaxValue)
	}
	m, err := emvcoMerchant(r, "", "", true)
	if err != nil {
		return "", err
	}
	return emvcoSerialize([]emvObject{{"00", "01"}, {"01", emvcoInitiation(m.amount)}, {"26", account},
		{"52", m.category}, {"53", m.currency}, {"54", m.amount}, {"58", m.country}, {"59", m.name},
		{"60", m.city}, {"61", m.postalCode}, {"62", emvcoReferenceLabel(m.reference)}}), nil
}

// emvcoNoMessage is the error of a message given to a scheme that has no place for it.
func emvcoNoMessage() *Error {
	return fail(ReasonUnsupportedField, "message", "Leave message out: only the pix scheme carries a description; put a short one in reference instead.",
		"message is read by the pix scheme only")
}

// emvcoInitiation returns the Point of Initiation Method (MPM 4.7.2): 11, a static code, without an
// amount; 12, a dynamic one, with an amount.
func emvcoInitiation(amount string) string {
	if amount == "" {
		return "11"
	}
	return "12"
}

// emvcoReferenceLabel returns the Additional Data Field Template holding the Reference Label (MPM
// Table 3.7, ID 05), or "" (left out) without one.
func emvcoReferenceLabel(reference string) string {
	if reference == "" {
		return ""
	}
	return emvcoTLV("05", reference)
}

// emvcoMerchant checks the fields every scheme reads: name (59) and city (60), required when
// needName; postal code (61); country (58) and currency (53), which must be country and
// currency when these are given (a preset's), else are required; the merchant category (52,
// 0000 when absent, the value Pix gives for "not informed"); the amount (54) and the
// reference label (62-05), checked for length and characters only.
func emvcoMerchant(r *Request, country, currency string, needName bool) (emvcoRequest, error) {
	m := emvcoRequest{name: strings.TrimSpace(r.Name), city: strings.TrimSpace(r.City),
		postalCode: strings.TrimSpace(r.PostalCode), reference: strings.TrimSpace(r.Reference)}
	if needName && m.name == "" {
		return m, missing("name", "the merchant's name as the payer's app shows it, up to 25 characters")
	}
	if needName && m.city == "" {
		return m, missing("city", "the merchant's city, up to 15 characters")
	}
	for _, f := range []struct {
		field, value string
		max          int
	}{{"name", m.name, emvcoMaxName}, {"city", m.city, emvcoMaxCity}, {"postalCode", m.postalCode, emvcoMaxPostalCode},
		{"reference", m.reference, emvcoMaxReference}} {
		if err := emvcoText(f.field, f.value, f.max); err != nil {
			return m, err
		}
	}
	var err error
	if m.country, err = emvcoCountry(r.Country, country); err != nil {
		return m, err
	}
	var places int
	if m.currency, places, err = emvcoCurrency(r.Currency, currency); err != nil {
		return m, err
	}
	if m.category, err = emvcoMerchantCategory(r.MerchantCategory); err != nil {
		return m, err
	}
	if strings.TrimSpace(r.Amount) != "" {
		m.amount, err = emvcoAmount(r.Amount, places)
	}
	return m, err
}

// emvcoText checks a value bananaqr writes: MPM's Alphanumeric Special characters (1.4.1, the
// Common Character Set of EMV Book 4: printable ASCII, space to tilde) and at most max
// characters.
func emvcoText(field, value string, max int) error {
	for _, c := range value {
		if c < 0x20 || c > 0x7e {
			return fail(ReasonInvalidText, field, "Write "+field+" in plain ASCII letters, digits and punctuation, without accents (Sao Paulo, not São Paulo): EMV merchant codes allow no others.",
				"%s holds a character outside EMV's common character set", field)
		}
	}
	if n := len(value); n > max {
		return fail(ReasonValueTooLong, field, "Shorten "+field+" to at most "+strconv.Itoa(max)+" characters, as EMV merchant codes allow.",
			"%s has %d characters, more than %d", field, n, max)
	}
	return nil
}

// emvcoCountrySyntax is an ISO 3166-1 alpha-2 code's form.
var emvcoCountrySyntax = regexp.MustCompile(`^[A-Z]{2}$`)

// emvcoCountry returns the Country Code (MPM 4.7.13, ISO 3166-1 alpha-2, upper case): want
// when value is empty, else value, which must be want when want is set. Only the form is
// checked, not that the code is assigned.
func emvcoCountry(value, want string) (string, error) {
	country := strings.ToUpper(strings.TrimSpace(value))
	switch {
	case country == "" && want == "":
		return "", missing("country", "the merchant's country, an ISO 3166-1 alpha-2 code such as SG")
	case country == "":
		return want, nil
	case !emvcoCountrySyntax.MatchString(country):
		return "", fail(ReasonInvalidCountry, "country", "Give country as an ISO 3166-1 alpha-2 code of two letters, such as BR or TH.",
			"country is not two letters")
	case want != "" && country != want:
		return "", fail(ReasonInvalidCountry, "country", "Leave country out or send "+want+": the scheme's codes are of that country.",
			"country is not %s, the scheme's", want)
	}
	return country, nil
}

// emvcoMCCSyntax is an ISO 18245 merchant category code: 4 digits.
var emvcoMCCSyntax = regexp.MustCompile(`^[0-9]{4}$`)

// emvcoMerchantCategory returns the Merchant Category Code (MPM 4.7.12, ISO 18245), 0000 when absent.
func emvcoMerchantCategory(value string) (string, error) {
	mcc := strings.TrimSpace(value)
	switch {
	case mcc == "":
		return "0000", nil
	case !emvcoMCCSyntax.MatchString(mcc):
		return "", fail(ReasonInvalidMerchantCategory, "merchantCategory", "Give merchantCategory as the 4 digits of an ISO 18245 merchant category code, such as 5411, or leave it out (0000).",
			"merchantCategory is not 4 digits")
	}
	return mcc, nil
}

// emvcoAmount returns the Transaction Amount (MPM 4.7.4): digits and a dot, different from
// zero, with as many decimals as the currency's ISO 4217 exponent (places; trailing zeros are
// added, never taken away: an amount with more decimals is refused, not rounded), at most 13
// characters. With a currency of unknown exponent (places < 0) the amount is written in its
// shortest form.
func emvcoAmount(value string, places int) (string, error) {
	d, ok := parseDecimal(value)
	hint := "Give amount as a number above 0 with a dot and at most " + strconv.Itoa(places) + " decimals, such as 12.50 (no currency sign, exponent or thousands separator)."
	switch {
	case places == 0:
		hint = "Give amount as a whole number above 0, such as 1500: the currency has no decimals (no currency sign, exponent or thousands separator)."
	case places < 0:
		hint = "Give amount as a number above 0 with a dot for decimals, such as 12.50 (no currency sign, exponent or thousands separator)."
	}
	switch {
	case !ok:
		return "", fail(ReasonInvalidAmount, "amount", hint, "amount is not a decimal number")
	case d.negative || d.zero():
		return "", fail(ReasonInvalidAmount, "amount", hint, "amount is not above 0")
	case places >= 0 && d.places() > places:
		return "", fail(ReasonInvalidAmount, "amount", hint, "amount has %d decimal places, more than the currency's %d", d.places(), places)
	}
	s := d.String()
	if places > 0 {
		if !strings.Contains(s, ".") {
			s += "."
		}
		s += strings.Repeat("0", places-d.places())
	}
	if len(s) > emvcoMaxAmount {
		return "", fail(ReasonInvalidAmount, "amount", hint, "amount has %d characters written out, more than %d", len(s), emvcoMaxAmount)
	}
	return s, nil
}

// emvcoSerialize returns the data objects as the payload: each object present (a value of ""
// is left out) as ID, length and value, then the CRC object (MPM 4.7.3).
func emvcoSerialize(objects []emvObject) string {
	var b strings.Builder
	for _, o := range objects {
		if o.value != "" {
			b.WriteString(emvcoTLV(o.id, o.value))
		}
	}
	b.WriteString("6304")
	return b.String() + fmt.Sprintf("%04X", emvcoCRC(b.String()))
}

// emvcoTLV returns a data object: its ID, its value's length in characters as two digits (MPM 3.2,
// 4.4.1.1) and the value. Callers keep values to 1 to 99 characters.
func emvcoTLV(id, value string) string {
	return fmt.Sprintf("%s%02d%s", id, utf8.RuneCountInString(value), value)
}

// emvcoCRC returns the CRC of MPM 4.7.3.1, of ISO/IEC 13239 with the polynomial 1021 (hex)
// and the initial value FFFF, no reflection and no final XOR (the CRC-16/CCITT-FALSE of the CRC
// catalogues), over the bytes of s: the UTF-8 of any character beyond ASCII, as MPM 1.4.3
// encodes characters.
func emvcoCRC(s string) uint16 {
	crc := uint16(0xFFFF)
	for i := 0; i < len(s); i++ {
		crc ^= uint16(s[i]) << 8
		for range 8 {
			if crc&0x8000 != 0 {
				crc = crc<<1 ^ 0x1021
			} else {
				crc <<= 1
			}
		}
	}
	return crc
}

// emvcoPayload reports whether s is an EMV merchant-presented payload: the Payload Format
// Indicator 01 first, and last the CRC object whose value is the CRC of everything before it
// (MPM 4.6.1, 4.7.3), in upper- or lower-case hexadecimal, as scanners accept both. A payload
// that a shop, a Pix key holder or a PromptPay user prints names them (a Pix key may be a
// CPF), so raw data of this form is private whatever type it is sent as (see Classify).
func emvcoPayload(s string) bool {
	n := len(s)
	if n < 14 || s[:6] != "000201" || s[n-8:n-4] != "6304" {
		return false
	}
	crc, err := strconv.ParseUint(s[n-4:], 16, 16)
	return err == nil && uint16(crc) == emvcoCRC(s[:n-4])
}
