package payload

import "strings"

// buildTel returns the phone number of r as a tel: URI (RFC 3966 3): tel:+15551234567. The
// number loses its visual separators (spaces, ( ) . - /) and must then be 3 to 15 digits (E.164's
// longest) with an optional leading +, the rule of type sms (normalizePhone).
//
// Separators are dropped rather than kept: RFC 3966 allows - . ( ) between digits but not a
// space, which would need %20, and readers dial the digits alike (ZXing's TelResultParser takes
// the text after tel: as it is; iOS and Android hand it to the dialer). A number with + is a
// global number (RFC 3966 5.1.4); one without is a local number, which RFC 3966 5.1.5 would
// give a ;phone-context= parameter that dialers ignore, so none is written: the phone dials it
// in its own network, as it dials short codes such as 112. * and # (USSD codes) are refused:
// # would need percent-encoding and iOS does not dial such codes from links.
func buildTel(r *Request) (string, error) {
	if strings.TrimSpace(r.Phone) == "" {
		return "", missing("phone", "the number to call, such as +1 555 123 4567")
	}
	number, err := normalizePhone("phone", r.Phone)
	if err != nil {
		return "", err
	}
	return "tel:" + number, nil
}
