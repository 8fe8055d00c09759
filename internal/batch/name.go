// The file names of a batch's files, asked for by a JSON item's filename or a CSV file's
// filename column, the same rules for both: a name must make one file, under the same name, on
// Windows, macOS and Linux, in a folder (bananaqr encode -batch -o dir/) or unpacked from the
// ZIP archive. The rules are Microsoft's "Naming Files, Paths, and Namespaces" (Win32 file
// naming conventions), Unicode's normalization (UAX #15) for macOS, which does not tell
// canonically equivalent names apart, and APPNOTE.TXT's for names in an archive (4.4.17: no
// drive letter, forward slashes only; 4.4.4 bit 11 and Appendix D: names in UTF-8, marked so by
// Zip.Add).

package batch

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"

	"github.com/bananaqr/bananaqr/api"
)

// MaxFilename is the longest file name an item may ask for, in bytes with its extension, after
// NFC normalization: well within the 255 UTF-16 units of NTFS and the 255 UTF-8 bytes of APFS.
const MaxFilename = 200

// windowsReserved are the characters Windows refuses in a file name besides the separators /
// and \ ("Naming Files, Paths, and Namespaces": < > : " / \ | ? *). A colon also names an NTFS
// alternate data stream (a:b is stream b of file a) or a drive (C:evil), and macOS's Finder
// shows it as a slash.
const windowsReserved = `<>:"|?*`

// windowsDevices are the names Windows keeps for devices, whatever their case and extension:
// NUL.txt and NUL.tar.gz are NUL ("Naming Files, Paths, and Namespaces"), so a file of that
// name cannot be made or unpacked there. COM and LPT take the digits 0 to 9 and the superscript
// digits ¹, ² and ³.
var windowsDevices = func() map[string]bool {
	m := map[string]bool{"CON": true, "PRN": true, "AUX": true, "NUL": true}
	for _, digit := range "0123456789¹²³" {
		m["COM"+string(digit)] = true
		m["LPT"+string(digit)] = true
	}
	return m
}()

// fileName checks the file name given, which must name a file and not a path, and returns it
// in Unicode's NFC form with the extension ext added unless it ends with it (in any case).
//
// The name is stored NFC-normalized rather than refused when it is not: its NFC and NFD forms
// are the same text (canonically equivalent, UAX #15), which nobody can tell apart or fix by
// eye; macOS gives NFD names (HFS+ stores them so) where Windows and Linux keyboards give NFC,
// and macOS takes either for the other. One form makes the same name the same bytes in the
// archive, and two items whose names differ only by it the same name, which Plan refuses.
func fileName(given, ext string) (string, error) {
	if !utf8.ValidString(given) {
		return "", badName(given, "is not UTF-8", "Send the file name as UTF-8 text.")
	}
	nfc := norm.NFC.String(given)
	if err := checkName(nfc, ext); err != nil {
		return "", badName(given, err.why, err.hint)
	}
	name := nfc
	if !strings.HasSuffix(strings.ToLower(name), ext) {
		name += ext
	}
	if len(name) > MaxFilename {
		return "", badName(given, fmt.Sprintf("is longer than %d bytes", MaxFilename),
			fmt.Sprintf("Give a shorter name: at most %d bytes in UTF-8 with its extension.", MaxFilename))
	}
	if device := windowsDevice(name); device != "" {
		return "", badName(given, fmt.Sprintf("is %s, a Windows device name", device),
			"Give another name: Windows keeps CON, PRN, AUX, NUL, COM0 to COM9 and LPT0 to LPT9 for devices, in any case and with any extension.")
	}
	return name, nil
}

// nameFault is why a name is refused, and how to mend it.
type nameFault struct{ why, hint string }

// checkName returns the fault of a name (NFC, without its extension added), or nil.
func checkName(name, ext string) *nameFault {
	plain := "Give a plain file name, such as menu or menu" + ext + ": no / or \\, no .., no control characters."
	switch {
	case strings.ContainsAny(name, `/\`):
		return &nameFault{"holds a path separator", plain}
	case strings.Contains(name, ".."):
		return &nameFault{"holds ..", plain}
	case name == ".":
		return &nameFault{"is not a file name", plain}
	case strings.ContainsFunc(name, unicode.IsControl):
		return &nameFault{"holds a control character", plain}
	}
	if i := strings.IndexAny(name, windowsReserved); i >= 0 {
		return &nameFault{fmt.Sprintf("holds %q, which Windows does not allow in a file name", name[i]),
			`Remove < > : " | ? * from the name: Windows refuses them in file names (a colon names a drive or an NTFS stream).`}
	}
	if i := strings.IndexFunc(name, invisible); i >= 0 {
		r, _ := utf8.DecodeRuneInString(name[i:])
		return &nameFault{fmt.Sprintf("holds U+%04X, an invisible character", r),
			"Remove invisible characters: bidirectional controls (U+202A to U+202E, U+2066 to U+2069, U+200E, U+200F, U+061C), zero-width and other format characters (U+200B, U+FEFF, …) and line separators reorder or hide what a name shows."}
	}
	if strings.HasSuffix(name, ".") || strings.HasSuffix(name, " ") {
		return &nameFault{"ends with a dot or a space", "Remove the dot or space at the end: Windows drops it, so the name would not be the one asked for."}
	}
	return nil
}

// invisible reports whether r shows nothing or moves what is around it: Unicode's format
// characters (general category Cf: the bidirectional controls, zero-width spaces and joiners,
// the byte-order mark, the soft hyphen), its other default-ignorable code points (Hangul
// fillers and the like, which draw as nothing), the line and paragraph separators (Zl, Zp),
// and U+FFFD, which stands for a character lost on the way (a lone UTF-16 surrogate in JSON,
// a file read in the wrong encoding), never for one meant.
func invisible(r rune) bool {
	return unicode.In(r, unicode.Cf, unicode.Other_Default_Ignorable_Code_Point, unicode.Zl, unicode.Zp) ||
		r == utf8.RuneError
}

// windowsDevice returns the Windows device name that name is (its part before the first dot,
// trailing spaces dropped, in any case), or "".
func windowsDevice(name string) string {
	base, _, _ := strings.Cut(name, ".")
	base = strings.ToUpper(strings.TrimRight(base, " "))
	if windowsDevices[base] {
		return base
	}
	return ""
}

// badName is the API's error of a file name refused, and how to mend it. The name is quoted
// as Go quotes strings, its control and format characters escaped (\u202e), and in ASCII alone
// when it holds a character that draws as nothing.
func badName(given, why, hint string) error {
	format := "filename %q %s"
	if strings.ContainsFunc(given, invisible) {
		format = "filename %+q %s"
	}
	return api.NewError(api.ReasonInvalidValue, "filename", hint, format, given, why)
}

// nameKey is what two file names share when a file system takes them for the same name: their
// letters in one case. Windows (NTFS's upper-case table) and macOS (APFS and HFS+, folding case)
// tell no case apart; the names are NFC already (fileName), as macOS tells no normalization
// apart. Upper then lower case folds the letters with two lower-case forms as these systems do:
// σ and ς are both Σ.
func nameKey(name string) string { return strings.ToLower(strings.ToUpper(name)) }

// zipUTF8 is general purpose bit 11 of a ZIP entry (APPNOTE 4.4.4, "Language encoding flag
// (EFS)", and Appendix D): its name is UTF-8. Without it, readers take the name for IBM code
// page 437 (Appendix D.1), as Windows' Explorer and Python's zipfile do: Café comes out Caf├⌐.
const zipUTF8 = 1 << 11

// nameFlags returns the general purpose flags of an entry named name: zipUTF8 when the name is
// not ASCII alone, which code page 437 and UTF-8 write alike (so an ASCII name's header stays
// as it always was, byte for byte).
func nameFlags(name string) uint16 {
	for i := range len(name) {
		if name[i] >= utf8.RuneSelf {
			return zipUTF8
		}
	}
	return 0
}
