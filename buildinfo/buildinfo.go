// Package buildinfo says which schedlab binary is running: the main
// module's version and the commit it was built from, read from the build
// information Go records in the binary (runtime/debug.ReadBuildInfo: the
// main module's version, the vcs.revision and vcs.modified settings).
//
// A binary built without VCS information (go run, go test, a build with
// -buildvcs=false or GOFLAGS=-buildvcs=false) records no commit. Then,
// when the source it was built from is a git checkout, the commit is
// asked of git at start (issue 41: results of the README's quick start,
// `go run ./cmd/schedlab`, must be citable): `git rev-parse HEAD` and
// `git status --porcelain` (any line: Modified "true", as go build's
// vcs.modified) in the module's directory, found as the directory of
// this source file recorded at compile time (the checkout go run
// compiled, wherever the process was started) or, in a -trimpath build,
// by walking up from the working directory; either must hold a go.mod of
// the main module. A binary built outside a checkout, or where git
// answers nothing, has Unknown fields, and Describe says so in words.
// Stamping at build time stays first: a packaged binary gets its commit
// from `go build` in the checkout (VCS stamping, Go's default) or from
// -ldflags "-X schedlab/buildinfo.commit=… -X schedlab/buildinfo.modified=false"
// when built from an export without .git. A run stores
// the Build of the process that executed it (runtypes.Run.Build), so that a
// later upgrade of the server never relabels an old result; bundles carry
// the Build that wrote them.
package buildinfo

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strings"
	"sync"
	"time"
)

// Unknown is the value of a build field the binary does not record.
const Unknown = "unknown"

// Build identifies a schedlab binary.
type Build struct {
	Version  string `json:"version"`  // the main module's version ("(devel)" from a checkout), or Unknown
	Commit   string `json:"commit"`   // vcs.revision, or Unknown
	Modified string `json:"modified"` // vcs.modified: "true", "false", or Unknown
}

// commit and modified may be set at link time (-ldflags "-X
// schedlab/buildinfo.commit=REV -X schedlab/buildinfo.modified=false")
// by a packager that builds without a git checkout.
var commit, modified string

var current = sync.OnceValue(func() Build {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		info = &debug.BuildInfo{}
	}
	b := Of(info)
	if b.Known() {
		return b
	}
	if commit != "" {
		b.Commit, b.Modified = commit, cmp.Or(modified, Unknown)
		return b
	}
	path := cmp.Or(info.Main.Path, "schedlab")
	_, file, _, _ := runtime.Caller(0)
	wd, _ := os.Getwd()
	for _, start := range []string{filepath.Dir(file), wd} {
		if !filepath.IsAbs(start) {
			continue // -trimpath: the file's path is not where it was
		}
		if root := moduleRoot(start, path); root != "" {
			if g, ok := FromGit(root); ok {
				b.Commit, b.Modified = g.Commit, g.Modified
				return b
			}
		}
	}
	return b
})

// moduleRoot is the nearest directory at or above dir whose go.mod
// declares module path, or "".
func moduleRoot(dir, path string) string {
	for {
		if data, err := os.ReadFile(filepath.Join(dir, "go.mod")); err == nil {
			if modulePath(data) == path {
				return dir
			}
			return "" // another module's directory: not ours, and no parent is
		}
		up := filepath.Dir(dir)
		if up == dir {
			return ""
		}
		dir = up
	}
}

// modulePath is the path of a go.mod's module directive.
func modulePath(gomod []byte) string {
	for _, line := range strings.Split(string(gomod), "\n") {
		f := strings.Fields(line)
		if len(f) >= 2 && f[0] == "module" {
			return strings.Trim(f[1], `"`)
		}
	}
	return ""
}

// gitTimeout bounds each git command FromGit runs.
const gitTimeout = 10 * time.Second

// FromGit asks git for the commit checked out in dir and whether the tree
// has uncommitted changes (any line of `git status --porcelain`, tracked
// or not, as go build's vcs.modified); ok is false when dir is not in a
// git checkout or git cannot answer (not installed, a repository owned by
// another user).
func FromGit(dir string) (b Build, ok bool) {
	run := func(args ...string) (string, bool) {
		ctx, cancel := context.WithTimeout(context.Background(), gitTimeout)
		defer cancel()
		cmd := exec.CommandContext(ctx, "git", append([]string{"-C", dir}, args...)...)
		// No index refresh written by status: a git of the user's own
		// running at the same time is not disturbed.
		cmd.Env = append(os.Environ(), "GIT_OPTIONAL_LOCKS=0")
		out, err := cmd.Output()
		return string(out), err == nil
	}
	head, ok := run("rev-parse", "--verify", "HEAD")
	head = strings.TrimSpace(head)
	if !ok || head == "" {
		return Build{}, false
	}
	status, ok := run("status", "--porcelain")
	if !ok {
		return Build{}, false
	}
	b = Build{Version: Unknown, Commit: head, Modified: "false"}
	if strings.TrimSpace(status) != "" {
		b.Modified = "true"
	}
	return b, true
}

// Current is this binary's Build.
func Current() Build { return current() }

// Of reads a Build from build information; a field it does not record
// is Unknown.
func Of(info *debug.BuildInfo) Build {
	b := Build{Version: cmp.Or(info.Main.Version, Unknown), Commit: Unknown, Modified: Unknown}
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
		return "unknown (built without VCS information, outside a git checkout)"
	}
	if b.Modified == "true" {
		return b.Commit + " (with uncommitted changes)"
	}
	return b.Commit
}

// VersionText is the version for people; Unknown or empty reads
// "unknown".
func (b Build) VersionText() string { return cmp.Or(b.Version, Unknown) }

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
