package buildinfo

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime/debug"
	"strings"
	"testing"
)

func TestOfReadsVersionAndVCSSettings(t *testing.T) {
	got := Of(&debug.BuildInfo{Main: debug.Module{Path: "schedlab", Version: "v1.0.0"},
		Settings: []debug.BuildSetting{{Key: "vcs.revision", Value: "89dc2e5"}, {Key: "vcs.modified", Value: "true"}, {Key: "GOOS", Value: "linux"}}})
	if want := (Build{Version: "v1.0.0", Commit: "89dc2e5", Modified: "true"}); got != want {
		t.Errorf("Of: %+v, want %+v", got, want)
	}
	if got.Describe() != "schedlab v1.0.0, commit 89dc2e5 (with uncommitted changes)" {
		t.Errorf("Describe: %q", got.Describe())
	}
	none := Of(&debug.BuildInfo{})
	if none != (Build{Version: Unknown, Commit: Unknown, Modified: Unknown}) {
		t.Errorf("Of without VCS: %+v, want every field %q", none, Unknown)
	}
	if none.Known() || none.CommitText() != "unknown (built without VCS information, outside a git checkout)" {
		t.Errorf("without VCS: Known %v, CommitText %q", none.Known(), none.CommitText())
	}
	if c := Current(); c.Version == "" || c.Commit == "" || c.Modified == "" {
		t.Errorf("Current %+v: every field must be set (%q when not known)", c, Unknown)
	}
}

// git runs git in dir for a test, failing it on an error.
func git(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-C", dir}, args...)...)
	cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.org",
		"GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.org", "GIT_CONFIG_GLOBAL=/dev/null")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return strings.TrimSpace(string(out))
}

// TestFromGitNamesTheCheckedOutCommitAndChanges: in a fresh repository
// FromGit names HEAD, unmodified; an edit or a new file marks it
// modified; a directory outside any repository gives nothing. The
// module's root is found from a directory inside it, and not through
// another module's go.mod.
func TestFromGitNamesTheCheckedOutCommitAndChanges(t *testing.T) {
	dir := t.TempDir()
	git(t, dir, "init", "-q")
	os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module schedlab\n\ngo 1.26.8\n"), 0o644)
	os.MkdirAll(filepath.Join(dir, "cmd", "schedlab"), 0o755)
	os.MkdirAll(filepath.Join(dir, "examples", "other"), 0o755)
	os.WriteFile(filepath.Join(dir, "examples", "other", "go.mod"), []byte("module other\n"), 0o644)
	git(t, dir, "add", ".")
	git(t, dir, "commit", "-q", "-m", "first")
	head := git(t, dir, "rev-parse", "HEAD")
	got, ok := FromGit(dir)
	if !ok || got.Commit != head || got.Modified != "false" {
		t.Errorf("FromGit clean = %+v %v, want commit %s unmodified", got, ok, head)
	}
	os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module schedlab\n\ngo 1.26.9\n"), 0o644)
	if got, ok := FromGit(dir); !ok || got.Commit != head || got.Modified != "true" {
		t.Errorf("FromGit after an edit = %+v %v, want commit %s modified", got, ok, head)
	}
	git(t, dir, "checkout", "-q", "go.mod")
	os.WriteFile(filepath.Join(dir, "new.go"), []byte("package x\n"), 0o644)
	if got, _ := FromGit(dir); got.Modified != "true" || got.CommitText() != head+" (with uncommitted changes)" {
		t.Errorf("FromGit with an untracked file = %+v (%q), want modified", got, got.CommitText())
	}
	if got, ok := FromGit(t.TempDir()); ok || got.Known() {
		t.Errorf("FromGit outside a repository = %+v %v, want nothing", got, ok)
	}
	if root := moduleRoot(filepath.Join(dir, "cmd", "schedlab"), "schedlab"); root != dir {
		t.Errorf("moduleRoot from cmd/schedlab = %q, want %q", root, dir)
	}
	if root := moduleRoot(filepath.Join(dir, "examples", "other"), "schedlab"); root != "" {
		t.Errorf("moduleRoot inside another module = %q, want none", root)
	}
}

// TestCurrentNamesTheCheckoutWithoutVCSStamp: a test binary, like a
// `go run` binary, records no VCS information (debug.ReadBuildInfo has
// no vcs.revision); Current still names the commit of the checkout the
// source is in, as git says it, modified or not. Outside a checkout (a
// source archive) it is unknown, in words.
func TestCurrentNamesTheCheckoutWithoutVCSStamp(t *testing.T) {
	info, _ := debug.ReadBuildInfo()
	for _, s := range info.Settings {
		if s.Key == "vcs.revision" {
			t.Fatalf("the test binary records vcs.revision %s: this test is meant for the fallback", s.Value)
		}
	}
	cur := Current()
	out, err := exec.Command("git", "rev-parse", "--verify", "HEAD").Output()
	if err != nil { // not a checkout: nothing to name
		if cur.Known() {
			t.Errorf("outside a git checkout Current names %q", cur.Commit)
		}
		return
	}
	if head := strings.TrimSpace(string(out)); cur.Commit != head {
		t.Errorf("Current().Commit = %q, want the checkout's HEAD %s", cur.Commit, head)
	}
	status, _ := exec.Command("git", "status", "--porcelain").Output()
	if want := map[bool]string{true: "true", false: "false"}[len(strings.TrimSpace(string(status))) > 0]; cur.Modified != want {
		t.Errorf("Current().Modified = %q, want %q (git status --porcelain: %q)", cur.Modified, want, status)
	}
}
