package main

import (
	dbuild "debug/buildinfo"
	"encoding/json"
	"io"
	"net/http"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"schedlab/runtypes"
	"schedlab/store"
)

// TestARunOfAGoRunBinaryNamesItsCommit: a binary built as `go run` builds
// it, without VCS information (-buildvcs=false: debug/buildinfo shows no
// vcs.revision), started from the checkout, names the checkout's commit
// (git rev-parse HEAD, "(with uncommitted changes)" when git status lists
// any) in a run's Cite block and in its report, as the README's quick
// start must (issue 41 item 6).
func TestARunOfAGoRunBinaryNamesItsCommit(t *testing.T) {
	slowTier(t)
	head, err := exec.Command("git", "rev-parse", "--verify", "HEAD").Output()
	if err != nil {
		t.Fatalf("this test runs in the git checkout it tests: git rev-parse HEAD: %v", err)
	}
	commit := strings.TrimSpace(string(head))
	status, _ := exec.Command("git", "status", "--porcelain").Output()
	modified := len(strings.TrimSpace(string(status))) > 0

	bin := filepath.Join(t.TempDir(), "schedlab-go-run")
	if out, err := exec.Command("go", "build", "-buildvcs=false", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build -buildvcs=false: %v\n%s", err, out)
	}
	info, err := dbuild.ReadFile(bin)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range info.Settings {
		if strings.HasPrefix(s.Key, "vcs.") {
			t.Fatalf("the binary records %s=%s: it must be built as go run builds, without VCS information", s.Key, s.Value)
		}
	}
	s := startServer(t, bin, "--in-process", "--workers", "1")
	code, b := send(t, s, jsonReq("", "/api/workloads/generate", `{"strategy":"eapm","preset":"zhang2022-case1"}`, 0, ""))
	if code != http.StatusCreated {
		t.Fatalf("generate: %d %s", code, b)
	}
	var w struct{ ID string }
	json.Unmarshal(b, &w)
	code, b = send(t, s, jsonReq("", "/api/runs", `{"workload_id":"`+w.ID+`","variant":"online"}`, 0, ""))
	if code != http.StatusCreated && code != http.StatusAccepted {
		t.Fatalf("run: %d %s", code, b)
	}
	var r struct{ ID string }
	json.Unmarshal(b, &r)
	st, err := store.Open(s.db)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if run := waitFinal(t, s, st, r.ID); run.Status != runtypes.StatusDone {
		t.Fatalf("run %s: %s %s", r.ID, run.Status, run.Error)
	}

	resp, err := http.Get(s.base + "/api/runs/" + r.ID + "/report")
	if err != nil {
		t.Fatal(err)
	}
	var rep struct {
		Schedlab struct{ Commit, Modified string } `json:"schedlab"`
	}
	err = json.NewDecoder(resp.Body).Decode(&rep)
	resp.Body.Close()
	if err != nil || rep.Schedlab.Commit != commit || rep.Schedlab.Modified != map[bool]string{true: "true", false: "false"}[modified] {
		t.Errorf("report names %+v (%v), want commit %s, modified %v", rep.Schedlab, err, commit, modified)
	}
	resp, err = http.Get(s.base + "/runs/" + r.ID)
	if err != nil {
		t.Fatal(err)
	}
	page, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	want := commit
	if modified {
		want += " (with uncommitted changes)"
	}
	if !strings.Contains(string(page), `data-testid="cite-commit">`+want+`<`) {
		t.Errorf("the run's page does not name commit %q in its Cite block", want)
	}
	if strings.Contains(string(page), "built without VCS information") {
		t.Errorf("the run's page says the commit is unknown")
	}
}
