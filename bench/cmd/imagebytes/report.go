package main

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// A row is what was measured of one case; sizes are in bytes, gz the file after gzip -9 -n.
type row struct {
	imageCase
	tooSmall bool // the image is too small for the symbol: nothing was drawn
	version  int

	svg, svgGz           int
	segno, segnoGz       int // segno's default form; 0 when not drawn (styles other than square)
	segnoMin, segnoMinGz int // svgclass=None, lineclass=None
	svgo, svgoGz         int

	png, zopfli           int
	pngDepth, zopfliDepth string
}

// readRows reads the measurements of the cases whose directories exist under root (write made
// them; a quick run makes only some), in the order of cs.
func readRows(root string, cs []imageCase) ([]row, error) {
	var rows []row
	for _, c := range cs {
		dir := c.dir(root)
		if _, err := os.Stat(dir); errors.Is(err, fs.ErrNotExist) {
			continue
		}
		r, err := readRow(c, dir)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", dir, err)
		}
		rows = append(rows, r)
	}
	if len(rows) == 0 {
		return nil, fmt.Errorf("no measurements under %s", root)
	}
	return rows, nil
}

// readRow reads the files of c in dir.
func readRow(c imageCase, dir string) (row, error) {
	r := row{imageCase: c}
	if _, err := os.Stat(filepath.Join(dir, "toosmall.txt")); err == nil {
		r.tooSmall = true
		return r, nil
	}
	var err error
	size := func(name string) int {
		fi, e := os.Stat(filepath.Join(dir, name))
		if e != nil {
			err = errors.Join(err, e)
			return 0
		}
		return int(fi.Size())
	}
	r.svg, r.svgGz = size("ours.svg"), size("ours.svg.gz")
	if c.style.name == "square" {
		r.segno, r.segnoGz = size("segno.svg"), size("segno.svg.gz")
		r.segnoMin, r.segnoMinGz = size("segno-min.svg"), size("segno-min.svg.gz")
	}
	r.svgo, r.svgoGz = size("svgo.svg"), size("svgo.svg.gz")
	r.png, r.zopfli = size("ours.png"), size("zopfli.png")
	if err != nil {
		return r, err
	}
	if r.version, err = matrixVersion(filepath.Join(dir, "matrix.txt")); err != nil {
		return r, err
	}
	if r.pngDepth, err = pngDepth(filepath.Join(dir, "ours.png")); err != nil {
		return r, err
	}
	r.zopfliDepth, err = pngDepth(filepath.Join(dir, "zopfli.png"))
	return r, err
}

// matrixVersion reads the version from the first line of a matrix.txt (appendMatrix).
func matrixVersion(path string) (int, error) {
	f, err := os.Open(path)
	if err != nil {
		return 0, err
	}
	defer f.Close()
	line, err := bufio.NewReader(f).ReadString('\n')
	if err != nil {
		return 0, err
	}
	var v int
	if _, err := fmt.Sscanf(line, "version %d", &v); err != nil {
		return 0, fmt.Errorf("%s: %w", path, err)
	}
	return v, nil
}

// colourTypes names the PNG colour types (PNG specification, 11.2.2 IHDR).
var colourTypes = map[byte]string{0: "grey", 2: "RGB", 3: "palette", 4: "grey+alpha", 6: "RGBA"}

// pngDepth reads a PNG's bit depth and colour type from its IHDR chunk, which the PNG
// specification (5.6) puts first, right after the 8-byte signature: "1-bit palette".
func pngDepth(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	var head [8 + 8 + 13]byte // signature, length and type, IHDR's data
	if _, err := io.ReadFull(f, head[:]); err != nil {
		return "", fmt.Errorf("%s: %w", path, err)
	}
	if string(head[1:4]) != "PNG" || string(head[12:16]) != "IHDR" || binary.BigEndian.Uint32(head[8:12]) != 13 {
		return "", fmt.Errorf("%s: not a PNG starting with IHDR", path)
	}
	depth, ct := head[24], head[25]
	name, ok := colourTypes[ct]
	if !ok {
		name = fmt.Sprintf("colour type %d", ct)
	}
	return fmt.Sprintf("%d-bit %s", depth, name), nil
}

// atMost reports whether ours is at most pct percent of theirs.
func atMost(ours, theirs, pct int) bool { return ours*100 <= theirs*pct }

// A target is one of issue 33's, judged on a row.
type target struct {
	name string
	met  bool
}

// svgTarget is the SVG target of r: a square SVG no larger than segno's minimal form, in bytes
// and gzipped; a rounded or banana one at most 1.05 times svgo's bytes.
func svgTarget(r row) target {
	if r.style.name == "square" {
		return target{"≤ segno min, bytes and gz", atMost(r.svg, r.segnoMin, 100) && atMost(r.svgGz, r.segnoMinGz, 100)}
	}
	return target{"≤ 1.05× svgo bytes", atMost(r.svg, r.svgo, 105)}
}

// pngTarget is the PNG target of r: at most 1.05 times zopflipng's bytes for square modules
// without a logo, 1.3 times for the other styles.
func pngTarget(r row) target {
	if r.style.name == "square" {
		return target{"≤ 1.05× zopflipng", atMost(r.png, r.zopfli, 105)}
	}
	return target{"≤ 1.3× zopflipng", atMost(r.png, r.zopfli, 130)}
}

// ratio formats a/b.
func ratio(a, b int) string { return fmt.Sprintf("%.3f", float64(a)/float64(b)) }

// verdict formats a target's cell.
func verdict(t target) string {
	if t.met {
		return t.name + ": met"
	}
	return t.name + ": **missed**"
}

// printReport prints the SVG and PNG tables of rows and a summary of the targets, and returns
// how many targets were missed; zopts are the options zopflipng ran with.
func printReport(w io.Writer, rows []row, zopts string) (missed int) {
	var b strings.Builder
	type tally struct{ met, judged int }
	tallies := map[string]*tally{}
	var order []string
	note := func(t target, kind string) {
		key := kind + " " + t.name
		if tallies[key] == nil {
			tallies[key] = &tally{}
			order = append(order, key)
		}
		tallies[key].judged++
		if t.met {
			tallies[key].met++
		} else {
			missed++
		}
	}

	b.WriteString("### SVG: bytes (gzip -9 bytes)\n\n")
	b.WriteString("| input | style | px | colours | version | ours | segno | segno min | ours/segno min | svgo -p 5 | ours/svgo | target |\n")
	b.WriteString("|---|---|--:|---|--:|--:|--:|--:|--:|--:|--:|---|\n")
	for _, r := range rows {
		fmt.Fprintf(&b, "| %s | %s | %d | %s | ", r.input.Name, r.style.name, r.size, r.colours.name)
		if r.tooSmall {
			b.WriteString("– | – | – | – | – | – | – | too small |\n")
			continue
		}
		segno, segnoMin, vsSegno := "–", "–", "–"
		if r.segnoMin > 0 {
			segno = fmt.Sprintf("%d (%d)", r.segno, r.segnoGz)
			segnoMin = fmt.Sprintf("%d (%d)", r.segnoMin, r.segnoMinGz)
			vsSegno = fmt.Sprintf("%s (%s)", ratio(r.svg, r.segnoMin), ratio(r.svgGz, r.segnoMinGz))
		}
		t := svgTarget(r)
		note(t, "SVG")
		fmt.Fprintf(&b, "%d | %d (%d) | %s | %s | %s | %d (%d) | %s (%s) | %s |\n", r.version, r.svg, r.svgGz,
			segno, segnoMin, vsSegno, r.svgo, r.svgoGz, ratio(r.svg, r.svgo), ratio(r.svgGz, r.svgoGz), verdict(t))
	}

	b.WriteString("\n### PNG: bytes (bit depth)\n\n")
	fmt.Fprintf(&b, "| input | style | px | colours | ours | zopflipng %s | ours/zopflipng | target |\n", zopts)
	b.WriteString("|---|---|--:|---|--:|--:|--:|---|\n")
	for _, r := range rows {
		fmt.Fprintf(&b, "| %s | %s | %d | %s | ", r.input.Name, r.style.name, r.size, r.colours.name)
		if r.tooSmall {
			b.WriteString("– | – | – | too small |\n")
			continue
		}
		t := pngTarget(r)
		note(t, "PNG")
		fmt.Fprintf(&b, "%d (%s) | %d (%s) | %s | %s |\n", r.png, r.pngDepth, r.zopfli, r.zopfliDepth, ratio(r.png, r.zopfli), verdict(t))
	}

	b.WriteString("\nTargets (rows met of rows judged):\n\n")
	judged := 0
	for _, key := range order {
		fmt.Fprintf(&b, "- %s: %d of %d\n", key, tallies[key].met, tallies[key].judged)
		judged += tallies[key].judged
	}
	fmt.Fprintf(&b, "- all: %d of %d\n", judged-missed, judged)
	io.WriteString(w, b.String())
	return missed
}
