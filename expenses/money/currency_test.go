package money

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

// Test currencies, one per minor unit of ISO 4217.
var (
	eur = MustCurrency("EUR")
	jpy = MustCurrency("JPY")
	kwd = MustCurrency("KWD")
	clf = MustCurrency("CLF")
)

func TestParseCurrency(t *testing.T) {
	tests := []struct {
		in    string
		code  string
		minor int
	}{
		{"EUR", "EUR", 2}, {"eur", "EUR", 2}, {"Eur", "EUR", 2}, {"usd", "USD", 2},
		{"JPY", "JPY", 0}, {"KRW", "KRW", 0}, {"ISK", "ISK", 0}, {"CLP", "CLP", 0},
		{"VND", "VND", 0}, {"XOF", "XOF", 0}, {"UGX", "UGX", 0},
		{"KWD", "KWD", 3}, {"BHD", "BHD", 3}, {"OMR", "OMR", 3}, {"JOD", "JOD", 3},
		{"TND", "TND", 3}, {"LYD", "LYD", 3}, {"IQD", "IQD", 3},
		{"CLF", "CLF", 4}, {"UYW", "UYW", 4},
		{"GBP", "GBP", 2}, {"CHF", "CHF", 2}, {"IDR", "IDR", 2}, {"HUF", "HUF", 2},
		{"SLE", "SLE", 2}, {"ZWG", "ZWG", 2}, {"XCG", "XCG", 2}, {"VES", "VES", 2},
	}
	for _, tt := range tests {
		c, err := ParseCurrency(tt.in)
		if err != nil || c.Code() != tt.code || c.MinorUnits() != tt.minor {
			t.Errorf("ParseCurrency(%q) = %s/%d, %v; want %s/%d", tt.in, c.Code(),
				c.MinorUnits(), err, tt.code, tt.minor)
		}
	}
}

func TestParseCurrencyRefuses(t *testing.T) {
	for _, in := range []string{
		"", "EU", "EURO", " EUR", "EUR ", "E1R", "XXX", "XAU", "XDR", "XTS", "HRK", "ZWL",
		"ABC", "uſd", "ÉUR", "\x00UR",
	} {
		c, err := ParseCurrency(in)
		if !errors.Is(err, ErrUnknownCurrency) || c.Valid() {
			t.Errorf("ParseCurrency(%q) = %v, %v; want ErrUnknownCurrency", in, c, err)
			continue
		}
		if !strings.Contains(err.Error(), "ISO 4217") {
			t.Errorf("ParseCurrency(%q): message %q does not name ISO 4217", in, err)
		}
	}
}

// TestTable checks the ISO 4217 table itself: sorted, unique, three capital letters, a minor
// unit ISO uses, and a name.
func TestTable(t *testing.T) {
	for i, c := range iso4217 {
		if i > 0 && iso4217[i-1].code >= c.code {
			t.Errorf("%s after %s: the table must be sorted and unique", c.code,
				iso4217[i-1].code)
		}
		if len(c.code) != 3 || strings.ToUpper(c.code) != c.code || c.name == "" {
			t.Errorf("bad entry %+v", c)
		}
		if c.minor != 0 && c.minor != 2 && c.minor != 3 && c.minor != 4 {
			t.Errorf("%s: minor unit %d", c.code, c.minor)
		}
	}
	common := "USD EUR GBP JPY CHF CAD AUD NZD CNY HKD SGD SEK NOK DKK PLN CZK HUF INR KRW " +
		"BRL MXN ZAR TRY ILS AED SAR KWD BHD OMR JOD TND LYD IQD ISK CLP VND IDR THB MYR PHP " +
		"TWD EGP NGN KES UAH RON BGN RUB ARS COP PEN PKR BDT LKR QAR MAD"
	for _, code := range strings.Fields(common) {
		if _, err := ParseCurrency(code); err != nil {
			t.Errorf("common currency missing: %v", err)
		}
	}
	if n := len(Currencies()); n != len(iso4217) || n < 150 {
		t.Errorf("Currencies() has %d entries, the table %d", n, len(iso4217))
	}
}

func TestCurrencyName(t *testing.T) {
	if got := kwd.Name(); got != "Kuwaiti Dinar" {
		t.Errorf("KWD name %q", got)
	}
	if got := (Currency{}).Name(); got != "" {
		t.Errorf("zero Currency name %q", got)
	}
}

func TestCurrencyJSON(t *testing.T) {
	var v struct{ C Currency }
	if err := json.Unmarshal([]byte(`{"C":"kwd"}`), &v); err != nil || v.C != kwd {
		t.Fatalf("unmarshal: %v, %v", v.C, err)
	}
	b, err := json.Marshal(v)
	if err != nil || string(b) != `{"C":"KWD"}` {
		t.Fatalf("marshal: %s, %v", b, err)
	}
	if err := json.Unmarshal([]byte(`{"C":"XYZ"}`), &v); !errors.Is(err, ErrUnknownCurrency) {
		t.Errorf("unmarshal XYZ: %v", err)
	}
	if _, err := json.Marshal(struct{ C Currency }{}); err == nil {
		t.Errorf("marshal of the zero Currency succeeded")
	}
}
