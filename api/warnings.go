package api

import "github.com/bananaqr/bananaqr/payload"

// WarningInfo is a warning code and what it means, as the OpenAPI document's table and the
// web page word it.
type WarningInfo struct {
	Reason      string
	Description string
}

// WarningReasons lists every warning code an answer may carry, in the order the OpenAPI
// document's table shows them; the page words the codes of X-QR-Warning from it.
var WarningReasons = []WarningInfo{
	{string(payload.ReasonLegacyAndroid), "A Wi-Fi network name or password ends in a backslash or is wrapped in double quotes: valid, but Android before version 15 misreads it."},
	{ReasonSmallQuietZone, "`margin` is below the 4 modules the QR standard asks for: many readers fail without it unless the code sits on a wide light area."},
	{ReasonNoPublicURL, "A public payload, but the request named no host (HTTP/1.0 without `Host`) and no base URL is configured: `image_url` and `svg_url` are null and `markdown` embeds the image."},
}
