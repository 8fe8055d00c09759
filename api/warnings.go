package api

import "github.com/bananaqr/bananaqr/payload"

// WarningCodeInfo is a warning code and what it means, as the OpenAPI document's table and the
// web page word it.
type WarningCodeInfo struct {
	Code        string
	Description string
}

// WarningCodes lists every warning code an answer may carry, in the order the OpenAPI
// document's table shows them; the page words the codes of X-QR-Warning from it.
var WarningCodes = []WarningCodeInfo{
	{string(payload.CodeLegacyAndroid), "A Wi-Fi network name or password ends in a backslash or is wrapped in double quotes: valid, but Android before version 15 misreads it."},
	{CodeSmallQuietZone, "`margin` is below the 4 modules the QR standard asks for: many readers fail without it unless the code sits on a wide light area."},
	{CodeNoPublicURL, "A public payload, but the request named no host (HTTP/1.0 without `Host`) and no base URL is configured: `image_url` and `svg_url` are null and `markdown` embeds the image."},
}
