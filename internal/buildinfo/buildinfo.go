// Package buildinfo holds the version of the bananaqr binary: the one string that bananaqr
// version (and --version), the MCP servers' serverInfo and the server card report.
//
// The version is decided once, in this order:
//
//  1. A release or container build sets it with the linker:
//     go build -ldflags "-X github.com/bananaqr/bananaqr/internal/buildinfo.version=v1.8.0" ./cmd/bananaqr
//  2. Otherwise it is the main module's version from the build information: the tag that
//     "go install github.com/bananaqr/bananaqr/cmd/bananaqr@v1.8.0" fetched, or, for a build in a
//     git checkout (Go 1.24 and later stamp it by default), the tag at HEAD or a pseudo-version
//     such as v0.0.0-20261126190549-b6938774279c, with "+dirty" for uncommitted changes.
//  3. A build without a module version ("(devel)": -buildvcs=false, go run, go test, a copy of
//     the source without .git) reports "devel", plus the commit when the build recorded one
//     without a version: "devel+b6938774279c", "devel+b6938774279c-dirty".
//
// Decision: a checkout build never borrows a release number (the card used to say 1.7.0, the
// API's version in openapi.json, for every build). The API's version is the contract's, not
// the binary's; the two are independent and are not compared.
package buildinfo

import (
	"runtime/debug"
	"sync"
)

// version is set by the linker's -X flag for release builds; empty otherwise.
var version string

// Version returns the version of the running binary (see the package comment).
func Version() string {
	return cached()
}

var cached = sync.OnceValue(func() string {
	info, _ := debug.ReadBuildInfo()
	return fromBuild(version, info)
})

// fromBuild decides the version from the linker's value and the build information (nil when
// the binary has none).
func fromBuild(linked string, info *debug.BuildInfo) string {
	if linked != "" {
		return linked
	}
	if info == nil {
		return "devel"
	}
	if v := info.Main.Version; v != "" && v != "(devel)" {
		return v
	}
	var revision, modified string
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			revision = s.Value
		case "vcs.modified":
			modified = s.Value
		}
	}
	if revision == "" {
		return "devel"
	}
	v := "devel+" + revision[:min(len(revision), 12)]
	if modified == "true" {
		v += "-dirty"
	}
	return v
}
