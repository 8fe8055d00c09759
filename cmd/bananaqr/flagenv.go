// Flags and their environment twins: each flag of a server command can also be set by an
// environment variable (what a container's or a Helm chart's env sets), and a flag on the
// command line wins. bananaqr serve names them BANANAQR_<NAME>, bananaqr expenses serve
// BANANAQR_EXPENSES_<NAME>; both set and print them here.

package main

import (
	"flag"
	"fmt"
	"io"
)

// setFromEnv sets each flag of fs that was not given on the command line from its environment
// variable (envOf of its name) through getenv, when that is not empty; the first value its flag
// refuses is an error naming the variable. Call it after fs.Parse.
func setFromEnv(fs *flag.FlagSet, getenv, envOf func(string) string) error {
	given := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { given[f.Name] = true })
	var err error
	fs.VisitAll(func(f *flag.Flag) {
		if v := getenv(envOf(f.Name)); v != "" && !given[f.Name] && err == nil {
			if e := fs.Set(f.Name, v); e != nil {
				err = fmt.Errorf("%s=%q is not a value of --%s: %v", envOf(f.Name), v, f.Name, e)
			}
		}
	})
	return err
}

// printFlagsWithEnv writes each flag of fs to w as a server command's -h shows it: its name,
// its value's name, its environment variable (envOf), its usage and its default when it has one.
func printFlagsWithEnv(w io.Writer, fs *flag.FlagSet, envOf func(string) string) {
	fs.VisitAll(func(f *flag.Flag) {
		name, usage := flag.UnquoteUsage(f)
		fmt.Fprintf(w, "  --%s %s   (%s)\n    \t%s", f.Name, name, envOf(f.Name), usage)
		if f.DefValue != "" && f.DefValue != "0" && f.DefValue != "false" {
			fmt.Fprintf(w, " (default %s)", f.DefValue)
		}
		fmt.Fprintln(w)
	})
}
