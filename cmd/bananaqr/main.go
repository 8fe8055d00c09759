// Command bananaqr makes QR codes.
//
// Usage:
//
//	bananaqr encode [flags] [text]   print a QR code of text (or of standard input) to the terminal
//	bananaqr version                 print the version
//
// The HTTP service (bananaqr serve) is not built yet.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"strings"

	"github.com/bananaqr/bananaqr/qr"
	"github.com/bananaqr/bananaqr/render"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

const usage = `bananaqr makes QR codes.

Usage:
  bananaqr encode [flags] [text]   print a QR code of text (or of standard input) to the terminal
  bananaqr version                 print the version
  bananaqr help                    print this help

Run "bananaqr encode -h" for the flags of encode.
`

// run is the whole command: it parses args, reads stdin when needed, writes to stdout and
// stderr, and returns the exit status (0 done, 1 failed, 2 bad usage).
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return 2
	}
	switch args[0] {
	case "encode":
		return encode(args[1:], stdin, stdout, stderr)
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
	fs := flag.NewFlagSet("encode", flag.ContinueOnError)
	fs.SetOutput(stderr)
	ecc := fs.String("ecc", "M", "least error correction `level`: L, M, Q or H; raised for free while the symbol keeps its size")
	margin := fs.Int("margin", 4, fmt.Sprintf("quiet zone around the code, in `modules` (0..%d)", render.MaxMargin))
	invert := fs.Bool("invert", false, "draw dark modules as blocks, for terminals with a light background")
	fs.Usage = func() {
		fmt.Fprintf(stderr, "Usage: bananaqr encode [flags] [text]\n\n"+
			"Prints a QR code of text to the terminal. Without text, or with \"-\", the text is\n"+
			"standard input, less one final line break. Several arguments are joined by spaces.\n\n")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	level, err := qr.ParseLevel(*ecc)
	if err != nil {
		fmt.Fprintf(stderr, "bananaqr: -ecc: %v\n", err)
		return 2
	}
	if *margin < 0 || *margin > render.MaxMargin {
		fmt.Fprintf(stderr, "bananaqr: -margin %d: want 0..%d\n", *margin, render.MaxMargin)
		return 2
	}
	text := strings.Join(fs.Args(), " ")
	if fs.NArg() == 0 || text == "-" {
		b, err := io.ReadAll(io.LimitReader(stdin, maxInput))
		if err != nil {
			fmt.Fprintf(stderr, "bananaqr: reading standard input: %v\n", err)
			return 1
		}
		text = strings.TrimSuffix(strings.TrimSuffix(string(b), "\n"), "\r")
	}
	s, err := qr.Encode(text, qr.Options{Level: level})
	if err != nil {
		fmt.Fprintf(stderr, "bananaqr: %v\n", err)
		return 1
	}
	if err := render.Terminal(stdout, s, *margin, *invert); err != nil {
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
