package main

import (
	"context"
	"os"
)

// checkManifestFile decodes a rendered chart strictly and runs every check on it, the ones
// that run the binary included.
func checkManifestFile(ctx context.Context, bin, serverName, file string) ([]string, error) {
	h, err := readHelp(ctx, bin, serverName)
	if err != nil {
		return nil, err
	}
	f, err := os.Open(file)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	m, err := decodeManifests(f)
	if err != nil {
		return []string{"strict decoding: " + err.Error()}, nil
	}
	c := &checker{help: h, m: m}
	for _, s := range c.checkStatic() {
		c.checkRunning(ctx, bin, s)
	}
	return c.problems, nil
}
