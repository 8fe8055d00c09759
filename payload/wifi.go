package payload

import (
	"maps"
	"slices"
	"strings"
	"unicode/utf8"
)

// Securities are the Wi-Fi security values the WIFI: format's T field takes, as written; the
// first, WPA, is the default.
var Securities = []string{"WPA", "WEP", "nopass"}

// SecurityAliases are the other names a request may give a security by, and the value of
// Securities each stands for: the WPA3 Specification's WIFI URI (section 7) sets T to WPA for
// every password-based network, WPA2 and WPA3 included.
var SecurityAliases = map[string]string{"WPA2": "WPA", "WPA3": "WPA"}

// AcceptedSecurities returns every security value a request may give: Securities, then the
// names of SecurityAliases in order.
func AcceptedSecurities() []string {
	return append(slices.Clone(Securities), slices.Sorted(maps.Keys(SecurityAliases))...)
}

// buildWiFi returns the Wi-Fi network configuration of r in the WIFI: format that Android and
// iOS cameras read (ZXing's "Wi-Fi Network config"): WIFI:T:<WPA|WEP|nopass>;S:<ssid>;P:<password>;H:true;;
// with \ ; , : " in the name and password escaped by a backslash, never quoted or
// percent-encoded. P is left out for open networks, H when the network is not hidden; the
// trailing ;; is needed by iOS. WPA covers WPA2, WPA3 and their transition modes.
func buildWiFi(r *Request) (string, []Warning, error) {
	security, err := alias("security", r.Security, "encryption", r.Encryption)
	if err != nil {
		return "", nil, err
	}
	if security == "" {
		security = Securities[0]
	}
	if canonical, ok := SecurityAliases[security]; ok {
		security = canonical
	}
	if !slices.Contains(Securities, security) {
		return "", nil, fail(ReasonInvalidSecurity, "security", "Use "+JoinWords(AcceptedSecurities(), "or")+", as written (WPA2 and WPA3 are written as WPA).",
			"security %q is not %s", security, JoinWords(Securities, "or"))
	}
	if r.SSID == "" {
		return "", nil, missing("ssid", "the network name")
	}
	if err := checkText("ssid", r.SSID); err != nil {
		return "", nil, err
	}
	if n := len(r.SSID); n > 32 {
		return "", nil, fail(ReasonInvalidSSID, "ssid", "Use the network name as the router shows it: at most 32 bytes of UTF-8.",
			"ssid is %d bytes long, more than 32", n)
	}
	var b strings.Builder
	b.WriteString("WIFI:T:" + security + ";S:")
	escapeWiFi(&b, r.SSID)
	b.WriteByte(';')
	warnings := legacyAndroid("ssid", r.SSID, nil)
	if security != "nopass" {
		if err := checkWiFiPassword(security, r.Password); err != nil {
			return "", nil, err
		}
		b.WriteString("P:")
		escapeWiFi(&b, r.Password)
		b.WriteByte(';')
		warnings = legacyAndroid("password", r.Password, warnings)
	}
	if r.Hidden {
		b.WriteString("H:true;")
	}
	b.WriteByte(';')
	return b.String(), warnings, nil
}

// checkWiFiPassword checks the password of a WPA or WEP network: WPA takes a passphrase of 8 to
// 63 characters or a key of 64 hexadecimal digits; WEP 5, 13 or 16 characters, or 10, 26, 32
// or 58 hexadecimal digits. The error never shows the password.
func checkWiFiPassword(security, password string) error {
	if password == "" {
		return fail(ReasonMissingField, "password", "Add the network's password, or set security to nopass for an open network.",
			"password is required for a %s network", security)
	}
	if err := checkText("password", password); err != nil {
		return err
	}
	n := utf8.RuneCountInString(password)
	hex := strings.Trim(password, "0123456789abcdefABCDEF") == ""
	switch {
	case security == "WPA" && (n >= 8 && n <= 63 || n == 64 && hex):
		return nil
	case security == "WEP" && (n == 5 || n == 13 || n == 16 || hex && (n == 10 || n == 26 || n == 32 || n == 58)):
		return nil
	case security == "WPA":
		return fail(ReasonInvalidPassword, "password", "A WPA password has 8 to 63 characters, or is a key of 64 hexadecimal digits.",
			"password has %s; WPA needs 8 to 63 (or 64 hexadecimal digits)", count(n, "character"))
	}
	return fail(ReasonInvalidPassword, "password", "A WEP key has 5, 13 or 16 characters, or 10, 26, 32 or 58 hexadecimal digits.",
		"password has %s, which is no WEP key length", count(n, "character"))
}

// escapeWiFi writes s with \ ; , : and " escaped by a backslash.
func escapeWiFi(b *strings.Builder, s string) {
	for i := 0; i < len(s); i++ {
		if strings.IndexByte(`\;,:"`, s[i]) >= 0 {
			b.WriteByte('\\')
		}
		b.WriteByte(s[i])
	}
}

// legacyAndroid appends to w a warning when value, of field, is one that Android's Wi-Fi QR
// parser before Android 15 misreads: it ends in a backslash (the parser then takes the escaped
// ; after it for part of the value), or it is wrapped in double quotes (which the parser strips).
func legacyAndroid(field, value string, w []Warning) []Warning {
	if strings.HasSuffix(value, `\`) || len(value) >= 2 && value[0] == '"' && value[len(value)-1] == '"' {
		w = append(w, Warning{Reason: ReasonLegacyAndroid, Field: field,
			Message: field + " ends in a backslash or is wrapped in quotes, which Android before version 15 misreads"})
	}
	return w
}
