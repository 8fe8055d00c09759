// Command bananaqr makes QR codes.
//
// Usage:
//
//	bananaqr serve [flags]           run the HTTP service (flags: bananaqr serve -h)
//	bananaqr expenses …              the separate shared-expenses MCP server (spec 4.8)
//	bananaqr encode [flags] [text]   a QR code of text (or of standard input), printed to the
//	                                 terminal or written to an SVG or PNG file (-o)
//	bananaqr version                 print the version
package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime/debug"
	"strconv"
	"strings"

	"github.com/bananaqr/bananaqr/api"
	"github.com/bananaqr/bananaqr/internal/generate"
	"github.com/bananaqr/bananaqr/payload"
	"github.com/bananaqr/bananaqr/qr"
	"github.com/bananaqr/bananaqr/render"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

const usage = `bananaqr makes QR codes.

Usage:
  bananaqr serve [flags]           run the HTTP service
  bananaqr encode [flags] [text]   a QR code of text (or of standard input), printed to the
                                   terminal or written to an SVG or PNG file (-o)
  bananaqr expenses <command>      the shared-expenses MCP server and its users (bananaqr expenses help)
  bananaqr version                 print the version
  bananaqr help                    print this help

Run "bananaqr serve -h" or "bananaqr encode -h" for their flags.
`

// run is the whole command: it parses args, reads stdin when needed, writes to stdout and
// stderr, and returns the exit status (0 done, 1 failed, 2 bad usage).
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return 2
	}
	switch args[0] {
	case "serve":
		return serve(args[1:], stderr)
	case "encode":
		return encode(args[1:], stdin, stdout, stderr)
	case "expenses":
		return expenses(args[1:], stdout, stderr)
	case "version":
		fmt.Fprintln(stdout, "bananaqr", version())
		return 0
	case "help", "-h", "-help", "--help":
		fmt.Fprint(stdout, usage)
		return 0
	default:
		fmt.Fprintf(stderr, "bananaqr: unknown command %q\n\n%s", args[0], usage)
		return 2
	}
}

// maxInput bounds what encode reads from standard input: far more than any QR Code holds, so
// that too long a text is reported as such, but never unbounded.
const maxInput = 1 << 20

func encode(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	// The style flags' defaults and values are the API's (api.StyleDefaults, api.StyleValues).
	defaults := api.StyleDefaults()
	number := func(name string) int { n, _ := strconv.Atoi(defaults[name]); return n }
	choices := func(name string) string { return strings.Join(api.StyleValues(name), ", ") }
	fs := flag.NewFlagSet("encode", flag.ContinueOnError)
	fs.SetOutput(stderr)
	ecc := fs.String("ecc", defaults["ecc"], "least error correction `level`: "+choices("ecc")+"; raised for free while the symbol keeps its size, and\nwith a logo as far as it needs to spare the modules under it")
	margin := fs.Int("margin", number("margin"), fmt.Sprintf("quiet zone around the code, in `modules` (0..%d)", api.MaxMargin))
	invert := fs.Bool("invert", false, "terminal: draw dark modules as blocks, for terminals with a light background")
	out := fs.String("o", "", "write the code to `file`, an .svg or .png image, instead of the terminal")
	size := fs.Int("size", number("size"), fmt.Sprintf("image width and height in `pixels` (%d..%d)", api.MinSize, api.MaxSize))
	fg := fs.String("color", defaults["color"], "image: foreground `colour`, RRGGBB with or without #")
	bg := fs.String("background", defaults["background"], "image: background `colour`, RRGGBB with or without #")
	corners := fs.String("corners", defaults["corners"], "image: `shape` of the modules' outer corners: "+choices("corners"))
	typeFields := payloadFlags(fs)
	logo := fs.String("logo", defaults["logo"], "image: `mark` in the centre: "+choices("logo"))
	remote := fs.String("remote", "", "make the code with the bananaqr service at `URL` (its base, such as https://qr.example.com)\ninstead of on this machine; the service's limits (2,048 characters, 60 codes a minute) apply")
	fs.Usage = func() {
		fmt.Fprintf(stderr, "Usage: bananaqr encode [flags] [text]\n"+
			"       bananaqr encode [flags] -type wifi|vcard|email|sms|url|text [-ssid … -password …]\n\n"+
			"Prints a QR code of text to the terminal, or writes it to an image file with -o.\n"+
			"Without text, or with \"-\", the text is standard input, less one final line break.\n"+
			"Several arguments are joined by spaces. With -type, the payload is built from that\n"+
			"type's fields as the HTTP API builds it (escaping, validation). With -remote URL,\n"+
			"the code is made by that bananaqr service instead, with the same flags.\n\n")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	usageError := func(format string, a ...any) int {
		fmt.Fprintf(stderr, "bananaqr: "+format+"\n", a...)
		return 2
	}
	// The flags make the same request the HTTP API reads, through the same rules and errors.
	r := api.NewRequest()
	for name, value := range map[string]string{"ecc": *ecc, "margin": strconv.Itoa(*margin), "size": strconv.Itoa(*size),
		"color": *fg, "background": *bg, "corners": *corners, "logo": *logo} {
		if err := r.SetStyle(name, value); err != nil {
			return usageError("-%s: %s", name, apiMessage(api.ErrorOf(err)))
		}
	}
	switch ext := strings.ToLower(filepath.Ext(*out)); {
	case *out == "":
	case ext == ".svg":
		r.Format = api.FormatSVG
	case ext == ".png":
		r.Format = api.FormatPNG
	default:
		return usageError("-o %s: the file name must end in .svg or .png", *out)
	}

	text := strings.Join(fs.Args(), " ")
	if *typeFields.values["type"] != "" {
		if fs.NArg() > 0 {
			return usageError("give either a text or -type with its fields, not both")
		}
		pr, err := typeFields.request()
		if err != nil {
			return usageError("%s", apiMessage(api.ErrorOf(err)))
		}
		r.Payload = pr
	} else {
		if fs.NArg() == 0 || text == "-" {
			b, err := io.ReadAll(io.LimitReader(stdin, maxInput))
			if err != nil {
				fmt.Fprintf(stderr, "bananaqr: reading standard input: %v\n", err)
				return 1
			}
			text = strings.TrimSuffix(strings.TrimSuffix(string(b), "\n"), "\r")
		}
		r.Payload.Data = text
	}
	if *remote != "" {
		return encodeRemote(*remote, r, *out, *invert, stdout, stderr)
	}
	return encodeLocal(&r, *out, *invert, stdout, stderr)
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
			image := res.SVG
			if r.Format == api.FormatPNG {
				image = res.PNG
			}
			err = os.WriteFile(out, image, 0o644)
			res.Release()
		}
	}
	if e := api.ErrorOf(err); err != nil && e.Code != api.CodeInternal {
		fmt.Fprintf(stderr, "bananaqr: %s\n", apiMessage(e))
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

// version returns the module version the binary was built from, or "devel".
func version() string {
	if info, ok := debug.ReadBuildInfo(); ok && info.Main.Version != "" && info.Main.Version != "(devel)" {
		return info.Main.Version
	}
	return "devel"
}

// payloadFieldNames are the API's payload fields that encode takes as flags (-job-title for
// jobTitle).
var payloadFieldNames = []string{"type", "url", "text", "ssid", "password", "security", "name", "organization",
	"jobTitle", "phone", "email", "website", "to", "subject", "message"}

// payloadFields are encode's payload flags; they count only with -type.
type payloadFields struct {
	values map[string]*string
	hidden *bool
}

// payloadFlags defines the payload flags on fs.
func payloadFlags(fs *flag.FlagSet) *payloadFields {
	f := &payloadFields{values: map[string]*string{}}
	for _, name := range payloadFieldNames {
		flagName := name
		if name == "jobTitle" {
			flagName = "job-title"
		}
		usage := "payload: the `" + name + "` field of the type (with -type)"
		if name == "type" {
			usage = "build the payload of this `type` from its fields, as the HTTP API does: url, wifi, vcard, email, sms or text"
		}
		f.values[name] = fs.String(flagName, "", usage)
	}
	f.hidden = fs.Bool("hidden", false, "payload: the Wi-Fi network is hidden (with -type wifi)")
	return f
}

// request returns the payload fields the flags give, read as the API reads a JSON body, so
// that encode and the service take the same fields and make the same payloads.
func (f *payloadFields) request() (payload.Request, error) {
	body := map[string]any{}
	for name, v := range f.values {
		if *v != "" {
			body[name] = *v
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
	return fmt.Sprintf("%s (%s)\n%s", e.Message, e.Code, e.Hint)
}
