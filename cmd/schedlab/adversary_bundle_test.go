package main

import (
	"bytes"
	"context"
	"io"
	"path/filepath"
	"strings"
	"testing"

	"schedlab/adversaries"
	"schedlab/errs"
	"schedlab/runner"
	"schedlab/solvers/registry"
	"schedlab/store"
)

// TestExportAndImportASearch: a search the server ran and ended goes out
// with `schedlab export --db FILE SEARCH_ID` and comes into another
// database with `schedlab import`, its evaluations and best instance
// with it; a second import is refused.
func TestExportAndImportASearch(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	src := filepath.Join(dir, "src.db")
	st, err := store.Open(src)
	if err != nil {
		t.Fatal(err)
	}
	var drv *adversaries.Driver
	rn := runner.New(st, registry.Lookup, runner.Options{Workers: 2, Ended: func() { drv.Kick() }})
	drv = adversaries.New(st, rn, registry.Lookup, adversaries.Options{})
	if err := rn.Start(ctx); err != nil {
		t.Fatal(err)
	}
	a, err := drv.Create(ctx, adversaries.Spec{Strategy: "critical", A: "list", B: "heft", Metric: "makespan", Preset: "random",
		PresetParams: map[string]string{"tasks": "6"}, Budget: 8, Restarts: 2, Seed: 1}, "")
	if err != nil {
		t.Fatal(err)
	}
	if err := drv.Wait(ctx, a.ID); err != nil {
		t.Fatal(err)
	}
	want, err := st.GetAdversarySearch(ctx, a.ID)
	if err != nil || want.Status != store.SearchDone {
		t.Fatalf("the search: %+v, %v", want, err)
	}
	drv.Shutdown(ctx)
	rn.Shutdown(ctx)
	st.Close()

	var stderr bytes.Buffer
	file := filepath.Join(dir, a.ID+".schedlab-search.json.gz")
	if err := run(ctx, []string{"export", "--db", src, a.ID, "--out", file}, io.Discard, &stderr); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(stderr.String(), "wrote search "+a.ID) {
		t.Errorf("export said %q", stderr.String())
	}
	dst := filepath.Join(dir, "dst.db")
	var out bytes.Buffer
	if err := run(ctx, []string{"import", "--db", dst, file}, &out, io.Discard); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "imported search "+a.ID) {
		t.Errorf("import said %q", out.String())
	}
	if err := run(ctx, []string{"import", "--db", dst, file}, io.Discard, io.Discard); !errs.Is(err, errs.Conflict) {
		t.Errorf("imported twice: %v", err)
	}
	to, err := store.Open(dst)
	if err != nil {
		t.Fatal(err)
	}
	defer to.Close()
	got, err := to.GetAdversarySearch(ctx, a.ID)
	if err != nil || got.Evaluations != want.Evaluations || got.BestWorkloadID != want.BestWorkloadID || string(got.Best) != string(want.Best) {
		t.Fatalf("imported %+v, %v; exported %+v", got, err, want)
	}
	if w, err := to.GetWorkloadData(ctx, got.BestWorkloadID); err != nil || len(w.Data) == 0 {
		t.Errorf("the best instance did not come with it: %v", err)
	}
}
