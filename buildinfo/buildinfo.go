// Package buildinfo says which schedlab binary is running: the main
// module's version and the commit it was built from, read from the build
// information Go records in the binary (runtime/debug.ReadBuildInfo: the
// main module's version, the vcs.revision and vcs.modified settings).
//
// A binary built without VCS information (go test, go run, a build
// outside a git checkout or with -buildvcs=false) records no commit: its
// fields are then Unknown, and Describe says so in words. A run stores
// the Build of the process that executed it (store.Run.Build), so that a
// later upgrade of the server never relabels an old result; bundles carry
// the Build that wrote them.
package buildinfo

import (
	"bytes"
	"encoding/json"
	"runtime/debug"
	"sync"
)

// Unknown is the value of a build field the binary does not record.
const Unknown = "unknown"

// Build identifies a schedlab binary.
type Build struct {
	Version  string `json:"version"`  // the main module's version ("(devel)" from a checkout), or Unknown
	Commit   string `json:"commit"`   // vcs.revision, or Unknown
	Modified string `json:"modified"` // vcs.modified: "true", "false", or Unknown
}

var current = sync.OnceValue(func() Build {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return Of(&debug.BuildInfo{})
	}
	return Of(info)
})

// Current is this binary's Build.
func Current() Build { return current() }

// Of reads a Build from build information; a field it does not record
// is Unknown.
func Of(info *debug.BuildInfo) Build {
	b := Build{Version: Unknown, Commit: Unknown, Modified: Unknown}
	if info.Main.Version != "" {
		b.Version = info.Main.Version
	}
	for _, s := range info.Settings {
		switch {
		case s.Key == "vcs.revision" && s.Value != "":
			b.Commit = s.Value
		case s.Key == "vcs.modified" && (s.Value == "true" || s.Value == "false"):
			b.Modified = s.Value
		}
	}
	return b
}

// Known says the build records its commit.
func (b Build) Known() bool { return b.Commit != "" && b.Commit != Unknown }

// Zero says nothing at all is recorded (a run stored before builds were
// recorded, or not executed yet).
func (b Build) Zero() bool { return b == Build{} }

// CommitText is the commit for people: the revision, with
// " (with uncommitted changes)" when the tree was modified, or
// "unknown (built without VCS information)".
func (b Build) CommitText() string {
	if !b.Known() {
		return "unknown (built without VCS information)"
	}
	if b.Modified == "true" {
		return b.Commit + " (with uncommitted changes)"
	}
	return b.Commit
}

// VersionText is the version for people; Unknown or empty reads
// "unknown".
func (b Build) VersionText() string {
	if b.Version == "" {
		return Unknown
	}
	return b.Version
}

// Describe is the build in one line: "schedlab (devel), commit 89dc2e5…".
func (b Build) Describe() string {
	return "schedlab " + b.VersionText() + ", commit " + b.CommitText()
}

// ReportKey is the key under which a report written by the CLI or served
// by /api/runs/:id/report names the build that produced it: the report's
// first key, so that any reader of the file sees it.
const ReportKey = "schedlab"

// ReportHead is the start of a report object with the ReportKey member:
// `{"schedlab":{…},` (indented as encoding/json's two-space indent when
// indent); the report's own members follow, from the byte after its
// opening brace (and, indented, its newline).
func (b Build) ReportHead(indent bool) []byte {
	v, _ := json.Marshal(b) // three strings: cannot fail
	if indent {
		var buf bytes.Buffer
		json.Indent(&buf, v, "  ", "  ")
		return []byte("{\n  \"" + ReportKey + "\": " + buf.String() + ",\n")
	}
	return []byte(`{"` + ReportKey + `":` + string(v) + ",")
}
