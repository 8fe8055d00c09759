// Command kubecheck holds bananaqr's Helm charts and compose.yaml to the binary they run.
//
// It is scripts/helm-check.sh's second half, in a Go module of its own (deploy/kubecheck) so
// that k8s.io/api and compose-go never enter the service's module:
//
//	kubecheck manifests -bin BANANAQR -server serve|expenses RENDERED.yaml
//	kubecheck compose -bin BANANAQR COMPOSE.yaml
//
// manifests decodes every object that helm template rendered strictly into the Kubernetes API
// types (k8s.io/api; a field the type does not have is an error), then checks that the chart
// agrees with `bananaqr serve -h` (or `bananaqr expenses serve -h`): names, security context,
// selectors and ports, the env and args against the flags, the grace period against the
// shutdown timeout, GOMEMLIMIT against the memory limit; and it runs the binary with the
// container's environment to see that the probes' paths answer 200 on the probes' port, that
// /metrics answers on the metrics port, and that the Ingress's body limits are the binary's.
// compose loads compose.yaml with the Compose Specification's reference loader (compose-go,
// with its JSON Schema validation) and checks the replicas' env and stop grace period the same
// way. Each failed check is printed as a line; the exit status is 1 when any failed.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
)

func main() {
	if err := run(context.Background(), os.Args[1:], os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "kubecheck:", err)
		os.Exit(1)
	}
}

// errChecksFailed is returned when the checks ran and some failed (each printed already).
var errChecksFailed = errors.New("checks failed (above)")

// run parses the command line and runs one of the two commands, printing its findings to out.
func run(ctx context.Context, args []string, out io.Writer) error {
	if len(args) == 0 {
		return errors.New("usage: kubecheck manifests|compose [flags] FILE")
	}
	fs := flag.NewFlagSet("kubecheck "+args[0], flag.ContinueOnError)
	bin := fs.String("bin", "", "the bananaqr binary whose -h and behaviour the files must agree with")
	server := fs.String("server", "serve", "which server the manifests run: serve or expenses")
	if err := fs.Parse(args[1:]); err != nil {
		return err
	}
	if *bin == "" || fs.NArg() != 1 {
		return errors.New("give -bin BANANAQR and one FILE")
	}
	var problems []string
	var err error
	switch args[0] {
	case "manifests":
		problems, err = checkManifestFile(ctx, *bin, *server, fs.Arg(0))
	case "compose":
		problems, err = checkComposeFile(ctx, *bin, fs.Arg(0))
	default:
		return fmt.Errorf("unknown command %q (want manifests or compose)", args[0])
	}
	if err != nil {
		return err
	}
	for _, p := range problems {
		fmt.Fprintln(out, "FAIL:", p)
	}
	if len(problems) > 0 {
		return errChecksFailed
	}
	fmt.Fprintf(out, "ok: %s agrees with %s\n", fs.Arg(0), *bin)
	return nil
}
