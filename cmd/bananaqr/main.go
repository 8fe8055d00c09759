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
	defaults := render.Defaults()
	fs := flag.NewFlagSet("encode", flag.ContinueOnError)
	fs.SetOutput(stderr)
	ecc := fs.String("ecc", "M", "least error correction `level`: L, M, Q or H; raised for free while the symbol keeps its size, and\nwith a logo as far as it needs to spare the modules under it")
	margin := fs.Int("margin", defaults.Margin, fmt.Sprintf("quiet zone around the code, in `modules` (0..%d)", render.MaxMargin))
	invert := fs.Bool("invert", false, "terminal: draw dark modules as blocks, for terminals with a light background")
	out := fs.String("o", "", "write the code to `file`, an .svg or .png image, instead of the terminal")
	size := fs.Int("size", defaults.Size, fmt.Sprintf("image width and height in `pixels` (%d..%d)", render.MinSize, render.MaxSize))
	fg := fs.String("color", render.FormatColor(defaults.Foreground), "image: foreground `colour`, RRGGBB with or without #")
	bg := fs.String("background", render.FormatColor(defaults.Background), "image: background `colour`, RRGGBB with or without #")
	corners := fs.String("corners", "square", "image: `shape` of the modules' outer corners, square or rounded")
	typeFields := payloadFlags(fs)
	logo := fs.String("logo", "none", "image: `mark` in the centre, none or banana")
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
	level, err := qr.ParseLevel(*ecc)
	if err != nil {
		return usageError("-ecc: %v", err)
	}
	o := defaults
	o.Size, o.Margin = *size, *margin
	if o.Foreground, err = render.ParseColor(*fg); err != nil {
		return usageError("-color: %v", err)
	}
	if o.Background, err = render.ParseColor(*bg); err != nil {
		return usageError("-background: %v", err)
	}
	// The service's colour rule (package contrast), with its message and hint.
	colours := api.Request{Color: o.Foreground, Background: o.Background}
	if err := colours.Check(); err != nil {
		return usageError("%s", apiMessage(api.ErrorOf(err)))
	}
	switch *corners {
	case "square":
	case "rounded":
		o.Corners = render.Rounded
	default:
		return usageError("-corners %q: want square or rounded", *corners)
	}
	switch *logo {
	case "none":
	case "banana":
		o.Logo = render.Banana
	default:
		return usageError("-logo %q: want none or banana", *logo)
	}
	if *margin < 0 || *margin > render.MaxMargin {
		return usageError("-margin %d: want 0..%d", *margin, render.MaxMargin)
	}
	var draw func(*qr.Symbol, render.Options) ([]byte, error)
	switch ext := strings.ToLower(filepath.Ext(*out)); {
	case *out == "":
	case ext == ".svg":
		draw = render.SVG
	case ext == ".png":
		draw = render.PNG
	default:
		return usageError("-o %s: the file name must end in .svg or .png", *out)
	}

	text := strings.Join(fs.Args(), " ")
	var fields *payload.Request // the -type fields, as read by the API
	if *typeFields.values["type"] != "" {
		if fs.NArg() > 0 {
			return usageError("give either a text or -type with its fields, not both")
		}
		pr, err := typeFields.request()
		if err != nil {
			return usageError("%s", apiMessage(api.ErrorOf(err)))
		}
		fields = &pr
	} else if fs.NArg() == 0 || text == "-" {
		b, err := io.ReadAll(io.LimitReader(stdin, maxInput))
		if err != nil {
			fmt.Fprintf(stderr, "bananaqr: reading standard input: %v\n", err)
			return 1
		}
		text = strings.TrimSuffix(strings.TrimSuffix(string(b), "\n"), "\r")
	}
	if *remote != "" {
		r := api.NewRequest()
		if fields != nil {
			r.Payload = *fields
		} else {
			r.Payload.Data = text
		}
		r.ECC, r.Size, r.Margin, r.Color, r.Background, r.Corners, r.Logo = level, o.Size, o.Margin, o.Foreground, o.Background, o.Corners, o.Logo
		return encodeRemote(*remote, r, *out, *invert, stdout, stderr)
	}
	if fields != nil {
		p, err := payload.Build(fields)
		if err != nil {
			return usageError("%s", apiMessage(api.ErrorOf(err)))
		}
		text = p.Text
	}
	if draw != nil {
		o.Title = svgTitle(text) // the PNG writer ignores it
	}
	encoding := qr.Options{Level: level}
	if o.Logo == render.Banana {
		encoding.Cover = render.LogoPad
	}
	s, err := qr.Encode(text, encoding)
	if err != nil {
		fmt.Fprintf(stderr, "bananaqr: %v\n", err)
		return 1
	}
	if draw == nil {
		first, side := s.Cover()
		err = render.Terminal(stdout, render.Cleared(s, first, side), *margin, *invert)
	} else {
		var image []byte
		if image, err = draw(s, o); err == nil {
			err = os.WriteFile(*out, image, 0o644)
		}
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

// svgTitle is the accessible name the service gives the SVG of a code of text (generate.Title):
// the text when it is public, else only its type. Text the service would not take (too long,
// control characters) is named by its type alone.
func svgTitle(text string) string {
	p, err := payload.Build(&payload.Request{Data: text})
	if err != nil {
		p = payload.Payload{Type: payload.Infer(text), Private: true}
	}
	return generate.Title(p)
}

// apiMessage is an API error as encode reports it: the message, the code, and the hint on a
// line of its own.
func apiMessage(e *api.Error) string {
	return fmt.Sprintf("%s (%s)\n%s", e.Message, e.Code, e.Hint)
}
