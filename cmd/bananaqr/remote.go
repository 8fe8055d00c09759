package main

import (
	"bytes"
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"image/color"
	"image/png"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"time"

	"github.com/bananaqr/bananaqr/api"
	"github.com/bananaqr/bananaqr/client"
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
	c, err := client.New(base, client.WithUserAgent("bananaqr-cli/"+version()),
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
		fmt.Fprintf(stderr, "bananaqr: %s: %s (%s, HTTP %d%s)\n%s\n", base, apiErr.Message, apiErr.Reason, apiErr.Status, id, apiErr.Hint)
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

// remoteModules returns the modules of the code of r as the service makes it, read back from
// the PNG of its JSON response: the centre pixel of each module, whose place the response's
// size, margin, modules and module_px give (the symbol and its quiet zone centred in the
// image). The terminal draws no colours, so the request asks for the largest image in the
// default colours; the modules under a logo's pad are light, as offline.
func remoteModules(ctx context.Context, c *client.Client, r api.Request) (render.Modules, error) {
	plain := api.NewRequest()
	plain.Payload, plain.ECC, plain.Logo, plain.Size = r.Payload, r.ECC, r.Logo, api.MaxSize
	code, err := c.JSON(ctx, plain)
	if err != nil {
		return nil, err
	}
	res := code.Response
	b, err := base64.StdEncoding.DecodeString(res.PNGBase64)
	if err != nil {
		return nil, fmt.Errorf("the service's png_base64: %w", err)
	}
	img, err := png.Decode(bytes.NewReader(b))
	if err != nil {
		return nil, fmt.Errorf("the service's PNG: %w", err)
	}
	fg, err1 := api.ParseColor(res.Color)
	bg, err2 := api.ParseColor(res.Background)
	if err := errors.Join(err1, err2); err != nil {
		return nil, fmt.Errorf("the service's colours: %w", err)
	}
	n, px := res.Modules, res.ModulePx
	if n < 21 || px < 1 || img.Bounds().Dx() != res.Size {
		return nil, fmt.Errorf("the service's JSON response does not describe its PNG: %d modules of %d px in %d px",
			n, px, img.Bounds().Dx())
	}
	origin := (res.Size-px*(n+2*res.Margin))/2 + res.Margin*px + px/2
	m := &sampledModules{size: n, dark: make([]bool, n*n)}
	for y := range n {
		for x := range n {
			c := color.RGBAModel.Convert(img.At(origin+x*px, origin+y*px)).(color.RGBA)
			m.dark[y*n+x] = distance(c, fg) < distance(c, bg)
		}
	}
	if r.Logo == api.LogoBanana {
		first, side := render.LogoPad(n)
		return render.Cleared(m, first, side), nil
	}
	return m, nil
}

// sampledModules are modules read back from an image.
type sampledModules struct {
	size int
	dark []bool
}

func (m *sampledModules) Size() int { return m.size }

func (m *sampledModules) Dark(x, y int) bool {
	return uint(x) < uint(m.size) && uint(y) < uint(m.size) && m.dark[y*m.size+x]
}

// distance is the squared distance of two colours in RGB.
func distance(a, b color.RGBA) int {
	dr, dg, db := int(a.R)-int(b.R), int(a.G)-int(b.G), int(a.B)-int(b.B)
	return dr*dr + dg*dg + db*db
}
