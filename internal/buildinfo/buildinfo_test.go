package buildinfo

import (
	"runtime/debug"
	"testing"
)

// TestFromBuild: the linker's value wins, then the module version, then the commit, then
// "devel".
func TestFromBuild(t *testing.T) {
	commit := []debug.BuildSetting{{Key: "vcs.revision", Value: "b6938774279c17cc31364d43775577ac5e1413c2"}}
	dirty := append(commit, debug.BuildSetting{Key: "vcs.modified", Value: "true"})
	clean := append(commit, debug.BuildSetting{Key: "vcs.modified", Value: "false"})
	module := func(v string, settings []debug.BuildSetting) *debug.BuildInfo {
		return &debug.BuildInfo{Main: debug.Module{Path: "github.com/bananaqr/bananaqr", Version: v}, Settings: settings}
	}
	for _, c := range []struct {
		name   string
		linked string
		info   *debug.BuildInfo
		want   string
	}{
		{"linker", "v1.8.0", module("v1.7.9", dirty), "v1.8.0"},
		{"go install @v1.8.0", "", module("v1.8.0", nil), "v1.8.0"},
		{"checkout, stamped", "", module("v0.0.0-20261126190549-b6938774279c+dirty", dirty), "v0.0.0-20261126190549-b6938774279c+dirty"},
		{"commit, modified", "", module("(devel)", dirty), "devel+b6938774279c-dirty"},
		{"commit, clean", "", module("(devel)", clean), "devel+b6938774279c"},
		{"no vcs", "", module("(devel)", nil), "devel"},
		{"no version at all", "", module("", nil), "devel"},
		{"no build information", "", nil, "devel"},
	} {
		if got := fromBuild(c.linked, c.info); got != c.want {
			t.Errorf("%s: fromBuild = %q, want %q", c.name, got, c.want)
		}
	}
}
