// Command imagebytes is the Go half of the image byte-size yardstick, bench/images.sh (issue
// 33): it writes bananaqr's SVG and PNG images, with each symbol's module matrix, for the
// independent tools to redraw or recompress, and then reads back what everybody made and prints
// the Markdown tables with the targets.
//
// Usage:
//
//	imagebytes write -out DIR [-quick]
//	imagebytes report -dir DIR [-check] [-zopflipng OPTIONS]
//
// write makes DIR/<input>/<style>/<size>/<colours>/ for each combination (case.go) and puts in
// it ours.svg and ours.png (render.AppendSVG and render.AppendPNG, without Title or Desc, so that
// the comparison is of drawings) and matrix.txt, the module matrix for segno; a combination that
// does not fit its size gets toosmall.txt, the renderer's *render.TooSmallError, instead.
// bench/images.sh then adds segno.svg and segno-min.svg (square only), svgo.svg, zopfli.png and
// a .gz of every SVG (gzip -9 -n). report reads them (report.go); with -check it exits 1 when a
// target is missed.
package main

import (
	"flag"
	"fmt"
	"os"
)

func main() {
	if len(os.Args) < 2 {
		usage()
	}
	switch cmd, args := os.Args[1], os.Args[2:]; cmd {
	case "write":
		fs := flag.NewFlagSet("write", flag.ExitOnError)
		out := fs.String("out", "", "directory to write the images into")
		quick := fs.Bool("quick", false, "only the URL input at 1024 px")
		fs.Parse(args)
		if *out == "" {
			usage()
		}
		if err := writeAll(*out, casesOf(*quick)); err != nil {
			fmt.Fprintln(os.Stderr, "imagebytes:", err)
			os.Exit(2)
		}
	case "report":
		fs := flag.NewFlagSet("report", flag.ExitOnError)
		dir := fs.String("dir", "", "directory that write and the tools filled")
		check := fs.Bool("check", false, "exit 1 when a target is missed")
		zopts := fs.String("zopflipng", "-m", "the options zopflipng ran with, for the table's heading")
		fs.Parse(args)
		if *dir == "" {
			usage()
		}
		rows, err := readRows(*dir, casesOf(false))
		if err != nil {
			fmt.Fprintln(os.Stderr, "imagebytes:", err)
			os.Exit(2)
		}
		missed := printReport(os.Stdout, rows, *zopts)
		if *check && missed > 0 {
			fmt.Fprintf(os.Stderr, "imagebytes: %d target(s) missed\n", missed)
			os.Exit(1)
		}
	default:
		usage()
	}
}

func usage() {
	fmt.Fprintln(os.Stderr, "usage: imagebytes write -out DIR [-quick] | imagebytes report -dir DIR [-check]")
	os.Exit(2)
}
