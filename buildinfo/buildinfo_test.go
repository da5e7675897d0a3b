package buildinfo

import (
	"runtime/debug"
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
	if none.Known() || none.CommitText() != "unknown (built without VCS information)" {
		t.Errorf("without VCS: Known %v, CommitText %q", none.Known(), none.CommitText())
	}
	if c := Current(); c.Version == "" || c.Commit == "" || c.Modified == "" {
		t.Errorf("Current %+v: every field must be set (%q when not known)", c, Unknown)
	}
}
