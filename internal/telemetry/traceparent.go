package telemetry

// headerTraceparent carries the caller's trace context (W3C Trace Context, section 3.2).
const headerTraceparent = "Traceparent"

// ParseTraceparent returns the trace id of a traceparent header (W3C Trace Context Level 1,
// section 3.2: version "-" trace-id "-" parent-id "-" trace-flags, in lowercase hexadecimal), or
// false when h is not one: a trace or parent id of all zeros, version ff, or, for version 00, a
// length other than 55 (3.2.4: a later version may add fields after a dash, which are ignored).
// The id is a substring of h: nothing is allocated.
func ParseTraceparent(h string) (traceID string, ok bool) {
	const (
		versionEnd = 2
		traceStart = versionEnd + 1
		traceEnd   = traceStart + 32
		parentEnd  = traceEnd + 1 + 16
		flagsEnd   = parentEnd + 1 + 2
	)
	if len(h) < flagsEnd || h[versionEnd] != '-' || h[traceEnd] != '-' || h[parentEnd] != '-' {
		return "", false
	}
	version := h[:versionEnd]
	if !lowerHex(version) || version == "ff" || version == "00" && len(h) != flagsEnd ||
		len(h) > flagsEnd && h[flagsEnd] != '-' {
		return "", false
	}
	traceID, parentID, flags := h[traceStart:traceEnd], h[traceEnd+1:parentEnd], h[parentEnd+1:flagsEnd]
	if !lowerHex(traceID) || !lowerHex(parentID) || !lowerHex(flags) || allZeros(traceID) || allZeros(parentID) {
		return "", false
	}
	return traceID, true
}

// lowerHex reports whether s is lowercase hexadecimal digits only (W3C Trace Context's HEXDIGLC).
func lowerHex(s string) bool {
	for _, c := range []byte(s) {
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
			return false
		}
	}
	return true
}

// allZeros reports whether s is zeros only: an invalid trace or parent id.
func allZeros(s string) bool {
	for _, c := range []byte(s) {
		if c != '0' {
			return false
		}
	}
	return true
}
