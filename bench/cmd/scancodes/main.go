// Command scancodes makes the bananaqr codes of the scan benchmark (bench/scan): it reads jobs,
// one JSON object a line, each an API POST body and the file to write, makes each code through
// the service's own pipeline (package generate, as bananaqr serve does) and writes it as PNG.
// For each job it prints one JSON line: the file, the symbol's version, level and modules, the
// pixels a module and the quiet zone, or the API's error code when the service refuses the body.
//
// Usage:
//
//	scancodes < jobs.jsonl > codes.jsonl
//
// where a job is {"out": "/tmp/x.png", "body": {"data": "...", "logo": "banana", ...}}.
package main

import (
	"bufio"
	"encoding/json"
	"log"
	"os"

	"github.com/bananaqr/bananaqr/api"
	"github.com/bananaqr/bananaqr/internal/generate"
)

// job is one code to make.
type job struct {
	Out  string          `json:"out"`
	Body json.RawMessage `json:"body"`
}

// made is what scancodes says of a job.
type made struct {
	Out      string `json:"out"`
	Error    string `json:"error,omitempty"` // the API's error code; nothing written
	Version  int    `json:"version,omitempty"`
	ECC      string `json:"ecc,omitempty"`
	Modules  int    `json:"modules,omitempty"`
	ModulePx int    `json:"module_px,omitempty"`
	Margin   int    `json:"margin"`
	Size     int    `json:"size,omitempty"`
}

func main() {
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(nil, 1<<20)
	out := json.NewEncoder(os.Stdout)
	for in.Scan() {
		var j job
		if err := json.Unmarshal(in.Bytes(), &j); err != nil {
			log.Fatalf("scancodes: %v", err)
		}
		if err := out.Encode(make1(j)); err != nil {
			log.Fatalf("scancodes: %v", err)
		}
	}
	if err := in.Err(); err != nil {
		log.Fatalf("scancodes: %v", err)
	}
}

// make1 makes the code of j and writes it.
func make1(j job) made {
	r, err := api.DecodeJSON(j.Body)
	if err != nil {
		return made{Out: j.Out, Error: string(api.ErrorOf(err).Reason)}
	}
	r.Format = api.FormatPNG
	res, err := generate.Code(&r)
	if err != nil {
		return made{Out: j.Out, Error: string(api.ErrorOf(err).Reason)}
	}
	defer res.Release()
	if err := os.WriteFile(j.Out, res.PNG, 0o644); err != nil {
		log.Fatalf("scancodes: %v", err)
	}
	return made{Out: j.Out, Version: res.Symbol.Version(), ECC: res.Symbol.Level().String(),
		Modules: res.Symbol.Size(), ModulePx: res.ModulePx, Margin: r.Margin, Size: r.Size}
}
