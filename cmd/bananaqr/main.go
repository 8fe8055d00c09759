// Command bananaqr makes QR codes.
//
// Usage:
//
//	bananaqr serve [flags]           run the HTTP service (flags: bananaqr serve -h)
//	bananaqr expenses …              the separate shared-expenses MCP server (spec 4.8)
//	bananaqr encode [flags] [text]   a QR code of text (or of standard input), printed to the
//	                                 terminal or written to an SVG, PNG, PDF or EPS file (-o)
//	bananaqr healthcheck [flags]     exit 0 when the service's /healthz answers (the container's
//	                                 health check)
//	bananaqr version                 print the version (also --version, -version, -v)
package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/bananaqr/bananaqr/api"
	"github.com/bananaqr/bananaqr/internal/buildinfo"
	"github.com/bananaqr/bananaqr/internal/generate"
	"github.com/bananaqr/bananaqr/payload"
	"github.com/bananaqr/bananaqr/qr"
	"github.com/bananaqr/bananaqr/render"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// usage is the top-level help. The file formats of encode -o are api.FileFormats, named in
// upper case ("SVG, PNG, PDF or EPS"), so that the list cannot drift from what -o takes.
func usage() string {
	return `bananaqr makes QR codes.

Usage:
  bananaqr serve [flags]           run the HTTP service
  bananaqr encode [flags] [text]   a QR code of text (or of standard input), printed to the
                                   terminal or written to an ` + fileFormatNames() + ` file (-o)
  bananaqr expenses <command>      the shared-expenses MCP server and its users (bananaqr expenses help)
  bananaqr healthcheck [flags]     exit 0 when the service's /healthz answers, else 1 (the
                                   container image's health check)
  bananaqr version                 print the version (also --version, -version, -v)
  bananaqr help                    print this help

Run "bananaqr serve -h" or "bananaqr encode -h" for their flags.
`
}

// fileFormatNames names the formats that are files (api.FileFormats) in upper case, joined in
// English: "SVG, PNG, PDF or EPS".
func fileFormatNames() string {
	var names []string
	for _, f := range api.FileFormats() {
		names = append(names, strings.ToUpper(string(f)))
	}
	return payload.JoinWords(names, "or")
}

// run is the whole command: it parses args, reads stdin when needed, writes to stdout and
// stderr, and returns the exit status (0 done, 1 failed, 2 bad usage).
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage())
		return 2
	}
	switch args[0] {
	case "serve":
		return serve(args[1:], stderr)
	case "encode":
		return encode(args[1:], stdin, stdout, stderr)
	case "expenses":
		return expenses(args[1:], stdout, stderr)
	case "healthcheck":
		return healthcheck(args[1:], os.Getenv, stderr)
	case "version", "--version", "-version", "-v":
		fmt.Fprintln(stdout, "bananaqr", buildinfo.Version())
		return 0
	case "help", "-h", "-help", "--help":
		fmt.Fprint(stdout, usage())
		return 0
	default:
		fmt.Fprintf(stderr, "bananaqr: unknown command %q\n\n%s", args[0], usage())
		return 2
	}
}

// maxInput bounds what encode reads from standard input: far more than any QR Code holds, so
// that too long a text is reported as such, but never unbounded.
const maxInput = 1 << 20

// encode is "bananaqr encode": it reads the flags into the request the HTTP API would read,
// adds the payload (from -type and its fields, or the text), and makes the code here or, with
// -remote, with a bananaqr service.
func encode(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	f := newEncodeFlags(stderr)
	if err := f.parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	if *f.batch != "" {
		return encodeBatch(f, stdin, stderr)
	}
	// The flags make the same request the HTTP API reads, through the same rules and errors.
	r, err := f.request()
	if err != nil {
		return encodeUsageError(stderr, err)
	}
	if *f.typeFields.values["type"] != "" {
		if r.Payload, err = f.typedPayload(); err != nil {
			return encodeUsageError(stderr, err)
		}
	} else {
		if err := f.typeFields.withoutType(f.FlagSet); err != nil {
			return encodeUsageError(stderr, err)
		}
		if r.Payload.Data, err = f.text(stdin); err != nil {
			fmt.Fprintf(stderr, "bananaqr: reading standard input: %v\n", err)
			return 1
		}
		if r.Payload.Data == "" {
			return encodeUsageError(stderr, errors.New(errNoText))
		}
	}
	if *f.remote != "" {
		return encodeRemote(*f.remote, r, *f.out, *f.invert, stdout, stderr)
	}
	return encodeLocal(&r, *f.out, *f.invert, stdout, stderr)
}

// encodeFlags are the flags of encode, on their flag set, and the text's words.
type encodeFlags struct {
	*flag.FlagSet
	ecc, out, fg, bg, corners, logo, remote *string
	caption, captionPosition                *string
	batch                                   *string // a CSV file of codes to make (batch.go)
	margin, size                            *int
	invert, showDestination                 *bool
	typeFields                              *payloadFields
	words                                   []string // the arguments that are not flags, in order
}

// parse reads args: flags before, between and after the text's words (so that
// "encode https://example.com -o late.png" writes late.png instead of encoding the flag), up to
// a "--", after which every argument is a word, for a text that starts with a hyphen.
func (f *encodeFlags) parse(args []string) error {
	for {
		if err := f.Parse(args); err != nil {
			return err
		}
		rest := f.Args()
		if len(rest) == 0 {
			return nil
		}
		if used := len(args) - len(rest); used > 0 && args[used-1] == "--" {
			f.words = append(f.words, rest...)
			return nil
		}
		f.words, args = append(f.words, rest[0]), rest[1:]
	}
}

// newEncodeFlags defines encode's flags and its usage text, both written to stderr.
func newEncodeFlags(stderr io.Writer) *encodeFlags {
	// The style flags' defaults and values are the API's (api.StyleDefaults, api.StyleValues).
	defaults := api.StyleDefaults()
	number := func(name string) int { n, _ := strconv.Atoi(defaults[name]); return n }
	choices := func(name string) string { return strings.Join(api.StyleValues(name), ", ") }
	fs := flag.NewFlagSet("encode", flag.ContinueOnError)
	fs.SetOutput(stderr)
	f := &encodeFlags{FlagSet: fs}
	f.ecc = fs.String("ecc", defaults["ecc"], "least error correction `level`: "+choices("ecc")+"; raised for free while the symbol keeps its size, and\nwith a logo as far as it needs to spare the modules under it")
	f.margin = fs.Int("margin", number("margin"), fmt.Sprintf("quiet zone around the code, in `modules` (0..%d)", api.MaxMargin))
	f.invert = fs.Bool("invert", false, "terminal: draw dark modules as blocks, for terminals with a light background")
	f.out = fs.String("o", "", "write the code to `file`, an .svg or .png image or a .pdf or .eps file for print\n(a page of -size pixels at 300 dpi), instead of the terminal")
	f.size = fs.Int("size", number("size"), fmt.Sprintf("image width and height in `pixels` (%d..%d)", api.MinSize, api.MaxSize))
	f.fg = fs.String("color", defaults["color"], "image: foreground `colour`, RRGGBB with or without #")
	f.bg = fs.String("background", defaults["background"], "image: background `colour`, RRGGBB with or without #")
	f.corners = fs.String("corners", defaults["corners"], "image: `shape` of the modules' outer corners: "+choices("corners"))
	f.typeFields = payloadFlags(fs)
	f.batch = batchFlag(fs)
	f.logo = fs.String("logo", defaults["logo"], "image: `mark` in the centre: "+choices("logo"))
	f.caption = fs.String("caption", defaults["caption"], fmt.Sprintf("image: `words` printed with the code, one line of at most %d characters (Latin, Greek,\nCyrillic); the image keeps -size and the code shrinks to make room", api.MaxCaption))
	f.captionPosition = fs.String("caption-position", defaults["caption_position"], "image: `where` the caption goes: "+choices("caption_position"))
	f.showDestination = fs.Bool("show-destination", false, "image: print a url code's host and path small beneath it")
	f.remote = fs.String("remote", "", fmt.Sprintf("make the code with the bananaqr service at `URL` (its base, such as https://qr.example.com)\n"+
		"instead of on this machine; the service's limits (%d,%03d characters, %d codes a minute) apply",
		payload.MaxLen/1000, payload.MaxLen%1000, defaultRateLimit))
	fs.Usage = func() {
		fmt.Fprint(stderr, "Usage: bananaqr encode [flags] [text]\n"+
			"       bananaqr encode [flags] -type "+strings.Join(typeNames(), "|")+" [-ssid … -password …]\n\n"+
			"Prints a QR code of text to the terminal, or writes it to an image file with -o.\n"+
			"Without text, or with \"-\", the text is standard input, less one final line break.\n"+
			"Several arguments are joined by spaces. Flags may come before or after the text;\n"+
			"after --, every argument is text (for a text that starts with -). With -type, the\n"+
			"payload is built from that type's fields as the HTTP API builds it (escaping,\n"+
			"validation). With -remote URL, the code is made by that bananaqr service instead,\n"+
			"with the same flags.\n\n"+
			"The fields of each type (-type), required first:\n"+typeFieldsHelp()+"\n")
		fs.PrintDefaults()
	}
	return f
}

// styleFlag returns the flag of the style field name: its words joined by hyphens, as the
// payload fields' flags (caption_position is -caption-position).
func styleFlag(name string) string { return strings.ReplaceAll(name, "_", "-") }

// fileExtensions lists the file names' extensions that -o takes, the formats that are files
// (api.FileFormats): ".svg, .png, .pdf or .eps".
func fileExtensions() string {
	var exts []string
	for _, f := range api.FileFormats() {
		exts = append(exts, "."+string(f))
	}
	return payload.JoinWords(exts, "or")
}

// encodeUsageError reports a usage error of encode and returns its exit status, 2.
func encodeUsageError(stderr io.Writer, err error) int {
	fmt.Fprintf(stderr, "bananaqr: %v\n", err)
	return 2
}

// request returns the request the style flags and -o make, checked by the API's rules with
// its errors: without a payload yet.
func (f *encodeFlags) request() (api.Request, error) {
	r := api.NewRequest()
	// In the order newEncodeFlags declares them, so that of several bad flags the same one is
	// reported on every run.
	for _, style := range []struct{ name, value string }{
		{"ecc", *f.ecc}, {"margin", strconv.Itoa(*f.margin)}, {"size", strconv.Itoa(*f.size)},
		{"color", *f.fg}, {"background", *f.bg}, {"corners", *f.corners}, {"logo", *f.logo},
		{"caption", *f.caption}, {"caption_position", *f.captionPosition},
		{"show_destination", strconv.FormatBool(*f.showDestination)},
	} {
		if err := r.SetStyle(style.name, style.value); err != nil {
			return r, fmt.Errorf("-%s: %s", styleFlag(style.name), apiMessage(api.ErrorOf(err)))
		}
	}
	if *f.out != "" {
		format, err := api.ParseFormat(strings.ToLower(strings.TrimPrefix(filepath.Ext(*f.out), ".")))
		if err != nil || !format.IsFile() {
			return r, fmt.Errorf("-o %s: the file name must end in %s", *f.out, fileExtensions())
		}
		r.Format = format
	}
	return r, nil
}

// typedPayload returns the payload that -type builds from its fields; a text beside -type is
// a usage error.
func (f *encodeFlags) typedPayload() (payload.Request, error) {
	if len(f.words) > 0 {
		return payload.Request{}, errors.New("give either a text or -type with its fields, not both")
	}
	pr, err := f.typeFields.request()
	if err != nil {
		return payload.Request{}, errors.New(flagMessage(api.ErrorOf(err), payload.Type(*f.typeFields.values["type"])))
	}
	return pr, nil
}

// text returns the text to encode: the arguments joined by spaces or, without arguments or
// with "-", standard input (at most maxInput bytes) less one final line break.
func (f *encodeFlags) text(stdin io.Reader) (string, error) {
	text := strings.Join(f.words, " ")
	if len(f.words) == 0 || text == "-" {
		b, err := io.ReadAll(io.LimitReader(stdin, maxInput))
		if err != nil {
			return "", err
		}
		text = strings.TrimSuffix(strings.TrimSuffix(string(b), "\n"), "\r")
	}
	return text, nil
}

// encodeLocal makes the code of r on this machine, through the service's own pipeline (package
// generate), and writes it to the file out or, when out is empty, to the terminal. An error the
// API would answer with 400 exits 2, any other 1, as with -remote.
func encodeLocal(r *api.Request, out string, invert bool, stdout, stderr io.Writer) int {
	var err error
	if out == "" {
		var s *qr.Symbol
		if _, s, err = generate.Symbol(r); err == nil {
			first, side := s.Cover()
			err = render.Terminal(stdout, render.Cleared(s, first, side), r.Margin, invert)
		}
	} else {
		var res *generate.Result
		if res, err = generate.Code(r); err == nil {
			err = os.WriteFile(out, res.Image(r.Format), 0o644)
			res.Release()
		}
	}
	if e := api.ErrorOf(err); err != nil && e.Reason != api.ReasonInternal {
		fmt.Fprintf(stderr, "bananaqr: %s\n", flagMessage(e, r.Payload.Type))
		if e.Status == 400 {
			return 2
		}
		return 1
	}
	if err != nil {
		fmt.Fprintf(stderr, "bananaqr: %v\n", err)
		return 1
	}
	return 0
}

// typeNames returns the names of the payload types (payload.Types).
func typeNames() []string {
	names := make([]string, len(payload.Types))
	for i, t := range payload.Types {
		names[i] = string(t)
	}
	return names
}

// typeFieldsHelp lists each payload type's field flags (payload.TypeFields), a line a type:
// "  wifi    -ssid -password; optional: -security -hidden", the flags in a column.
func typeFieldsHelp() string {
	flags := func(fields []string) string {
		names := make([]string, len(fields))
		for i, name := range fields {
			names[i] = "-" + flagName(name)
		}
		return strings.Join(names, " ")
	}
	width := 0
	for _, t := range payload.Types {
		width = max(width, len(t))
	}
	var b strings.Builder
	for _, t := range payload.Types {
		f := payload.TypeFields[t]
		fmt.Fprintf(&b, "  %-*s %s", width, t, flags(f.Required))
		if len(f.Optional) > 0 {
			b.WriteString("; optional: " + flags(f.Optional))
		}
		b.WriteByte('\n')
	}
	return b.String()
}

// flagName returns the flag of the payload field name: its words in lower case joined by
// hyphens (jobTitle is -job-title).
func flagName(name string) string {
	var b strings.Builder
	for _, r := range name {
		if unicode.IsUpper(r) {
			b.WriteByte('-')
			r = unicode.ToLower(r)
		}
		b.WriteRune(r)
	}
	return b.String()
}

// payloadFields are encode's payload flags; they count only with -type.
type payloadFields struct {
	values map[string]*string
	hidden *bool
}

// payloadFlags defines the payload flags on fs.
func payloadFlags(fs *flag.FlagSet) *payloadFields {
	f := &payloadFields{values: map[string]*string{}}
	f.values["type"] = fs.String("type", "", "build the payload of this `type` from its fields, as the HTTP API does: "+
		payload.JoinWords(payload.Types, "or"))
	for _, name := range api.PayloadFields() {
		usage := "payload: the `" + name + "` field of the type (with -type)"
		if name == "security" {
			usage += ": " + payload.JoinWords(payload.AcceptedSecurities(), "or") + " (default " + payload.Securities[0] + ")"
		}
		f.values[name] = fs.String(flagName(name), "", usage)
	}
	f.hidden = fs.Bool("hidden", false, "payload: the Wi-Fi network is hidden (with -type wifi)")
	return f
}

// request returns the payload fields the flags give, read as the API reads a JSON body, so
// that encode and the service take the same fields and make the same payloads.
func (f *payloadFields) request() (payload.Request, error) {
	body := map[string]any{}
	for _, name := range slices.Sorted(maps.Keys(f.values)) {
		if v := *f.values[name]; !utf8.ValidString(v) { // json.Marshal would write U+FFFD for its bytes
			return payload.Request{}, api.NewError(payload.ReasonInvalidText, name, "Give "+name+" as UTF-8 text.", "%s is not valid UTF-8", name)
		} else if v != "" {
			body[name] = v
		}
	}
	if *f.hidden {
		body["hidden"] = true
	}
	raw, err := json.Marshal(body)
	if err != nil {
		return payload.Request{}, err
	}
	r, err := api.DecodeJSON(raw)
	return r.Payload, err
}

// apiMessage is an API error as encode reports it: the message, the code, and the hint on a
// line of its own.
func apiMessage(e *api.Error) string {
	return fmt.Sprintf("%s (%s)\n%s", e.Message, e.Reason, e.Hint)
}
