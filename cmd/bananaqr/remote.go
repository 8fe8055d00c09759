package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"time"

	"github.com/bananaqr/bananaqr/api"
	"github.com/bananaqr/bananaqr/client"
	"github.com/bananaqr/bananaqr/internal/buildinfo"
	"github.com/bananaqr/bananaqr/render"
)

// encodeRemote is "encode -remote base": the code of r made by the service at base, through
// package client (which waits out one 429, or one 503 with Retry-After, and reports what it
// could not reach with the liveness check's result). out names an .svg, .png, .pdf or .eps file, or is empty for the
// terminal.
// Nothing is ever made locally instead: a failure is reported and the exit status is 1, or 2
// for a request the service refused as invalid (400).
func encodeRemote(base string, r api.Request, out string, invert bool, stdout, stderr io.Writer) int {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	c, err := client.New(base, client.WithUserAgent("bananaqr-cli/"+buildinfo.Version()),
		client.OnRateLimitWait(func(d time.Duration) {
			fmt.Fprintf(stderr, "bananaqr: %s: over the rate limit or busy; waiting %s as it asks, then trying once more (Ctrl-C stops)\n", base, d)
		}))
	if err != nil {
		fmt.Fprintf(stderr, "bananaqr: -remote: %v\n", err)
		return 2
	}
	var code *client.Code
	switch strings.ToLower(filepath.Ext(out)) {
	case ".svg":
		code, err = c.SVG(ctx, r)
	case ".png":
		code, err = c.PNG(ctx, r)
	case ".pdf":
		code, err = c.PDF(ctx, r)
	case ".eps":
		code, err = c.EPS(ctx, r)
	default:
		var m render.Modules
		if m, err = remoteModules(ctx, c, r); err == nil {
			err = render.Terminal(stdout, m, r.Margin, invert)
		}
	}
	if err == nil && out != "" {
		err = os.WriteFile(out, code.Bytes, 0o644)
	}
	var apiErr *client.APIError
	switch {
	case errors.As(err, &apiErr):
		id := ""
		if apiErr.RequestID != "" {
			id = ", request " + apiErr.RequestID
		}
		fmt.Fprintf(stderr, "bananaqr: %s: %s (%s, HTTP %d%s)\n%s\n", base, flagWords(apiErr.Message, r.Payload.Type), apiErr.Reason, apiErr.Status, id, flagWords(apiErr.Hint, r.Payload.Type))
		if apiErr.Status == 400 {
			return 2
		}
		return 1
	case err != nil:
		fmt.Fprintf(stderr, "bananaqr: %v\n", err)
		return 1
	}
	return 0
}

// remoteModules returns the modules of the code of r as the service makes it (client's
// Modules: read back from the service's PNG), the modules under a logo's pad light, as offline.
func remoteModules(ctx context.Context, c *client.Client, r api.Request) (render.Modules, error) {
	m, err := c.Modules(ctx, r)
	if err != nil {
		return nil, err
	}
	if r.Logo != api.LogoBanana {
		return m, nil
	}
	first, side := render.LogoPad(m.Size())
	return render.Cleared(m, first, side), nil
}
