package payload

import (
	"regexp"
	"slices"
	"strings"
)

// The keys, identifiers and currencies of the emvco type (see emvco.go): a Pix key by kind, a
// PromptPay id, another scheme's globally unique identifier, and the currencies bananaqr knows
// by their ISO 4217 letters.

// The kinds of Pix key (Banco Central do Brasil, "Manual de Padrões para Iniciação do Pix",
// and the DICT's key formats): an e-mail address of at most 77 characters, lower case; a
// Brazilian phone number in E.164 form (+55, a two-digit area code, 8 or 9 digits); a random
// key (EVP), a UUID in its 36-character form, lower case.
var (
	pixEmail = regexp.MustCompile("^[a-z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)+$")
	pixPhone = regexp.MustCompile(`^\+55[1-9][1-9][0-9]{8,9}$`)
	pixUUID  = regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$`)
)

// pixMaxEmail is the longest e-mail key the DICT registers.
const pixMaxEmail = 77

// pixKey returns a Pix key in the form the DICT registers it, its kind told by its shape: with
// a + a phone number (spaces, dashes, dots and brackets of its printed form removed); with an @
// an e-mail address (lower-cased); a UUID a random key (lower-cased; any UUID version, as the
// manual's own example key is not of version 4); else a CPF of 11 digits or a CNPJ of 14
// characters (dots, dashes, slashes and spaces removed) whose check digits are right.
func pixKey(value string) (string, error) {
	key := strings.TrimSpace(value)
	if key == "" {
		return "", missing("key", "the Pix key: a CPF, CNPJ, e-mail address, +55 phone number or random key")
	}
	switch {
	case strings.HasPrefix(key, "+"):
		phone := strings.NewReplacer(" ", "", "-", "", ".", "", "(", "", ")", "").Replace(key)
		if !pixPhone.MatchString(phone) {
			return "", fail(ReasonInvalidKey, "key", "Give a phone key as +55, the area code and the number, such as +55 61 91234-5678.",
				"key is a phone number but not +55 with a 2-digit area code and 8 or 9 digits")
		}
		return phone, nil
	case strings.Contains(key, "@"):
		email := strings.ToLower(key)
		if len(email) > pixMaxEmail || !pixEmail.MatchString(email) {
			return "", fail(ReasonInvalidKey, "key", "Give an e-mail key as the address registered with the bank, such as fulano@example.com (at most 77 characters).",
				"key is not an e-mail address of at most %d characters", pixMaxEmail)
		}
		return email, nil
	case pixUUID.MatchString(strings.ToLower(key)):
		return strings.ToLower(key), nil
	}
	return pixTaxID(key)
}

// pixTaxID returns a CPF or CNPJ key without its punctuation, its check digits verified.
func pixTaxID(key string) (string, error) {
	id := strings.ToUpper(strings.NewReplacer(".", "", "-", "", "/", "", " ", "").Replace(key))
	hint := "Give the key as a CPF (11 digits), a CNPJ (14), an e-mail address, a +55 phone number or a random key (a UUID), as registered with the bank."
	switch {
	case cpfSyntax.MatchString(id):
		if !cpfValid(id) {
			return "", fail(ReasonInvalidKey, "key", "Check the CPF for a mistyped digit: its check digits do not match.", "key is a CPF with wrong check digits")
		}
	case cnpjSyntax.MatchString(id):
		if !cnpjValid(id) {
			return "", fail(ReasonInvalidKey, "key", "Check the CNPJ for a mistyped character: its check digits do not match.", "key is a CNPJ with wrong check digits")
		}
	default:
		return "", fail(ReasonInvalidKey, "key", hint, "key is not a CPF, CNPJ, e-mail address, phone number or random key")
	}
	return id, nil
}

// cpfSyntax is a CPF (Cadastro de Pessoas Físicas): 9 digits and 2 check digits. cnpjSyntax is
// a CNPJ (Cadastro Nacional da Pessoa Jurídica): 12 characters and 2 check digits; the 12 are
// digits or, from July 2026, also upper-case letters (Receita Federal's alphanumeric CNPJ,
// Instrução Normativa RFB 2.229/2024), a digit-only CNPJ being checked the same way.
var (
	cpfSyntax  = regexp.MustCompile(`^[0-9]{11}$`)
	cnpjSyntax = regexp.MustCompile(`^[0-9A-Z]{12}[0-9]{2}$`)
)

// cpfValid reports whether a CPF's check digits are right (modulo 11, weights 10 to 2, then 11
// to 2), and it is not one digit repeated, which the Receita Federal never issues.
func cpfValid(id string) bool {
	if strings.Count(id, id[:1]) == len(id) {
		return false
	}
	for n := 9; n <= 10; n++ {
		sum := 0
		for i := range n {
			sum += int(id[i]-'0') * (n + 1 - i)
		}
		if check := sum * 10 % 11 % 10; check != int(id[n]-'0') {
			return false
		}
	}
	return true
}

// cnpjValid reports whether a CNPJ's check digits are right: modulo 11 with the weights 2 to 9
// from the right, repeated, each character worth its ASCII code less 48 (a digit its value, a
// letter 17 and up), a remainder below 2 giving 0. A CNPJ of one digit repeated is refused.
func cnpjValid(id string) bool {
	if strings.Count(id, id[:1]) == len(id) {
		return false
	}
	for n := 12; n <= 13; n++ {
		sum := 0
		for i := range n {
			weight := (n-1-i)%8 + 2
			sum += int(id[i]-'0') * weight
		}
		check := 11 - sum%11
		if check >= 10 {
			check = 0
		}
		if check != int(id[n]-'0') {
			return false
		}
	}
	return true
}

// The kinds of PromptPay id, the sub-IDs of the merchant account template (ID 29).
const (
	promptPayMobile  = "01" // a mobile number: 0066 and the 9 digits after a Thai number's 0
	promptPayTaxID   = "02" // a national id or tax id: 13 digits
	promptPayEWallet = "03" // an e-wallet id: 15 digits
)

// promptPayID returns a PromptPay id as the template holds it, and its kind, the id's digits
// told apart by their number, as promptpay-qr does: 10 digits from 0 a Thai mobile number
// (0812345678), or 11 from 66 the same in international form (+66 81 234 5678), written 0066
// and its 9 digits; 13 digits a national or tax id; 15 an e-wallet id. Spaces, dashes, dots,
// brackets and a leading + are removed; no check digit is verified (the library does not, and
// its fixtures have none).
func promptPayID(value string) (id, kind string, err error) {
	raw := strings.TrimSpace(value)
	if raw == "" {
		return "", "", missing("key", "the PromptPay id: a Thai mobile number, a 13-digit national or tax id, or a 15-digit e-wallet id")
	}
	digits := strings.TrimPrefix(strings.NewReplacer(" ", "", "-", "", ".", "", "(", "", ")", "").Replace(raw), "+")
	switch {
	case !emvcoDigits(digits):
	case len(digits) == 10 && digits[0] == '0':
		return "0066" + digits[1:], promptPayMobile, nil
	case len(digits) == 11 && strings.HasPrefix(digits, "66"):
		return "00" + digits, promptPayMobile, nil
	case len(digits) == 13:
		return digits, promptPayTaxID, nil
	case len(digits) == 15:
		return digits, promptPayEWallet, nil
	}
	return "", "", fail(ReasonInvalidKey, "key", "Give key as a Thai mobile number (081 234 5678 or +66 81 234 5678), a 13-digit national or tax id, or a 15-digit e-wallet id.",
		"key is not a PromptPay mobile number, tax id or e-wallet id")
}

// emvcoDigits reports whether s is one or more ASCII digits.
func emvcoDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return s != ""
}

// The forms of a globally unique identifier (MPM 4.7.11.2): an AID, a registered
// application provider identifier of 5 bytes and an optional proprietary extension of up to
// 11 (ISO/IEC 7816-4), as 10 to 32 hexadecimal digits (a UUID without its hyphens is 32); or a
// reverse domain name, labels of letters, digits and hyphens by dots.
var (
	emvcoGUIDAID    = regexp.MustCompile(`^(?:[0-9A-Fa-f]{2}){5,16}$`)
	emvcoGUIDDomain = regexp.MustCompile(`^[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)+$`)
	emvcoGUIDUUID   = regexp.MustCompile(`^[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}$`)
)

// emvcoGUID returns the globally unique identifier of another scheme as given, a UUID's hyphens
// removed (MPM writes it without them), at most 32 characters.
func emvcoGUID(scheme string) (string, error) {
	guid := scheme
	if emvcoGUIDUUID.MatchString(guid) {
		guid = strings.ReplaceAll(guid, "-", "")
	}
	if len(guid) > emvcoMaxGUID || !emvcoGUIDAID.MatchString(guid) && !emvcoGUIDDomain.MatchString(guid) {
		return "", fail(ReasonInvalidScheme, "scheme", "Set scheme to pix, promptpay, or the scheme's globally unique identifier: an AID in hexadecimal (A000000677010111), a UUID, or a reverse domain name (com.example.pay), at most 32 characters.",
			"scheme is neither pix, promptpay nor a globally unique identifier")
	}
	return guid, nil
}

// emvcoCurrencies are the currencies bananaqr knows by their ISO 4217 letters: their numeric
// code, which MPM writes (4.7.5.1), and their exponent, the decimals an amount has (4.7.4.1):
// the currencies of the EMV merchant-presented schemes in use and the major ones.
var emvcoCurrencies = map[string]struct {
	numeric string
	places  int
}{
	"AED": {"784", 2}, "AUD": {"036", 2}, "BDT": {"050", 2}, "BRL": {"986", 2}, "CAD": {"124", 2},
	"CHF": {"756", 2}, "CNY": {"156", 2}, "COP": {"170", 2}, "EUR": {"978", 2}, "GBP": {"826", 2},
	"HKD": {"344", 2}, "IDR": {"360", 2}, "INR": {"356", 2}, "JPY": {"392", 0}, "KHR": {"116", 2},
	"KRW": {"410", 0}, "LAK": {"418", 2}, "LKR": {"144", 2}, "MMK": {"104", 2}, "MXN": {"484", 2},
	"MYR": {"458", 2}, "NPR": {"524", 2}, "PEN": {"604", 2}, "PHP": {"608", 2}, "PKR": {"586", 2},
	"SGD": {"702", 2}, "THB": {"764", 2}, "USD": {"840", 2}, "VND": {"704", 0},
}

// emvcoCurrencySyntax is an ISO 4217 code: three letters or three digits.
var emvcoCurrencySyntax = regexp.MustCompile(`^(?:[A-Z]{3}|[0-9]{3})$`)

// emvcoCurrency returns the Transaction Currency (MPM 4.7.5.1: ISO 4217's numeric code) and its
// exponent (-1 when not known): want when value is empty, else value, given as letters of
// emvcoCurrencies or as three digits, which must be want when want is set.
func emvcoCurrency(value, want string) (string, int, error) {
	code := strings.ToUpper(strings.TrimSpace(value))
	if code == "" && want == "" {
		return "", 0, missing("currency", "the currency, an ISO 4217 code such as SGD or 702")
	}
	if code == "" {
		code = want
	}
	if !emvcoCurrencySyntax.MatchString(code) {
		return "", 0, fail(ReasonInvalidCurrency, "currency", "Give currency as ISO 4217's three letters (such as BRL, THB, USD) or three digits (986).",
			"currency is not three letters or three digits")
	}
	numeric, places := code, -1
	for alpha, c := range emvcoCurrencies {
		if code == alpha || code == c.numeric {
			numeric, places = c.numeric, c.places
		}
	}
	switch {
	case numeric == code && places < 0 && code[0] > '9':
		return "", 0, fail(ReasonInvalidCurrency, "currency", "Give currency as ISO 4217's three digits (such as 986): bananaqr knows the letters of "+emvcoCurrencyList()+" only.",
			"currency's letters are not of a currency bananaqr knows")
	case want != "" && numeric != want:
		return "", 0, fail(ReasonInvalidCurrency, "currency", "Leave currency out: the scheme's codes are in its own currency ("+want+").",
			"currency is not the scheme's")
	}
	return numeric, places, nil
}

// emvcoCurrencyList returns the letters of emvcoCurrencies, sorted, as a sentence lists them.
func emvcoCurrencyList() string {
	var codes []string
	for alpha := range emvcoCurrencies {
		codes = append(codes, alpha)
	}
	slices.Sort(codes)
	return JoinWords(codes, "and")
}
