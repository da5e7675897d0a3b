package main

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"schedlab/buildinfo"
	"schedlab/errs"
	"schedlab/runtypes"
	"schedlab/store"
)

// finishedExperiment stores an EAPM experiment of three runs in a new
// database at path: two done with reports, one failed.
func finishedExperiment(t *testing.T, path string) string {
	t.Helper()
	ctx := context.Background()
	st, err := store.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	w := &runtypes.Workload{Strategy: "eapm", Name: "w", Format: "json", Data: []byte(`{"x":1}`)}
	if err := st.CreateWorkload(ctx, w); err != nil {
		t.Fatal(err)
	}
	var runs []*runtypes.Run
	var cells []store.ExperimentCell
	for _, g := range []string{"1.1", "1.3", "1.5"} {
		runs = append(runs, &runtypes.Run{Kind: runtypes.KindRun, WorkloadID: w.ID, Strategy: "eapm", Variant: "online", Params: map[string]string{"gamma": g}})
		cells = append(cells, store.ExperimentCell{Cell: json.RawMessage(`{"gamma":"` + g + `"}`)})
	}
	e := &store.Experiment{Name: "cli", Strategy: "eapm", Definition: json.RawMessage(`{"name":"cli","strategy":"eapm","grid":{"gamma":["1.1","1.3","1.5"]}}`)}
	if err := st.CreateExperiment(ctx, e, runs, cells); err != nil {
		t.Fatal(err)
	}
	for i := range runs {
		r, err := st.ClaimNext(ctx)
		if err != nil || r == nil {
			t.Fatal(r, err)
		}
		if i == 2 {
			err = st.Finish(ctx, r.ID, runtypes.StatusFailed, nil, "boom", "")
		} else {
			err = st.Finish(ctx, r.ID, runtypes.StatusDone, json.RawMessage(`{"metrics":[{"name":"objective","value":`+r.Params["gamma"]+`}]}`), "", "")
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	return e.ID
}

func TestExportAndImportAnExperimentBundle(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	src, dst := filepath.Join(dir, "src.db"), filepath.Join(dir, "dst.db")
	id := finishedExperiment(t, src)
	file := filepath.Join(dir, "e"+".schedlab-experiment.json.gz")
	if err := run(ctx, []string{"export", "--db", src, id, "--out", file}, io.Discard, io.Discard); err != nil {
		t.Fatal(err)
	}
	// The default name, in the working directory; and stdout.
	t.Chdir(dir)
	if err := run(ctx, []string{"export", "--db", src, id}, io.Discard, io.Discard); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, id+".schedlab-experiment.json.gz")); err != nil {
		t.Errorf("no file of the default name: %v", err)
	}
	var stdout bytes.Buffer
	if err := run(ctx, []string{"export", "--db", src, "--out", "-", id}, &stdout, io.Discard); err != nil {
		t.Fatal(err)
	}
	if b := stdout.Bytes(); len(b) < 2 || b[0] != 0x1f || b[1] != 0x8b {
		t.Errorf("--out - wrote %q, want a gzip stream", b[:min(len(b), 10)])
	}

	var out bytes.Buffer
	if err := run(ctx, []string{"import", "--db", dst, file}, &out, io.Discard); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"imported experiment " + id, "3 runs, 1 workloads (0 already there)", "/experiments/" + id + "\n", "exported by schedlab (devel), commit " + buildinfo.Current().Commit + " (modified: " + buildinfo.Current().Modified + ")"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("import printed %q, want it to say %q", out.String(), want)
		}
	}
	a, _ := store.Open(src)
	defer a.Close()
	b, _ := store.Open(dst)
	defer b.Close()
	ra, _ := a.ExperimentResults(ctx, id)
	rb, err := b.ExperimentResults(ctx, id)
	if err != nil || !reflect.DeepEqual(ra, rb) {
		t.Errorf("imported results %+v (%v), want %+v", rb, err, ra)
	}

	// Again: refused, naming the experiment.
	err = run(ctx, []string{"import", "--db", dst, file}, io.Discard, io.Discard)
	if errs.KindOf(err) != errs.Conflict || !strings.Contains(err.Error(), "experiment "+id+" is already in this database") {
		t.Errorf("a second import: %v", err)
	}
	// An unknown experiment: an error, and no file.
	bad := filepath.Join(dir, "none.schedlab-experiment.json.gz")
	if err := run(ctx, []string{"export", "--db", src, "nosuchid22", "--out", bad}, io.Discard, io.Discard); errs.KindOf(err) != errs.NotFound {
		t.Errorf("export of an unknown experiment: %v", err)
	}
	if left, _ := filepath.Glob(filepath.Join(dir, "*none*")); len(left) != 0 {
		t.Errorf("a failed export left %v", left)
	}
	// A database that does not exist is not created by export.
	if err := run(ctx, []string{"export", "--db", filepath.Join(dir, "typo.db"), id}, io.Discard, io.Discard); err == nil {
		t.Error("export from a missing database succeeded")
	}
	if _, err := os.Stat(filepath.Join(dir, "typo.db")); err == nil {
		t.Error("export created the missing database")
	}
	// Workload export flags do not mix with an experiment export.
	if err := run(ctx, []string{"export", "--db", src, id, "--strategy", "eapm"}, io.Discard, io.Discard); err == nil || !strings.Contains(err.Error(), "--strategy") {
		t.Errorf("export with --strategy and an experiment: %v", err)
	}
	// A file that is not a bundle.
	junk := filepath.Join(dir, "junk.gz")
	os.WriteFile(junk, []byte("not gzip"), 0o644)
	if err := run(ctx, []string{"import", "--db", dst, junk}, io.Discard, io.Discard); errs.KindOf(err) != errs.Invalid || !strings.Contains(err.Error(), "not a gzip file") {
		t.Errorf("importing junk: %v", err)
	}
}

// TestImportOverMaxMBNamesTheFlag: a bundle larger than --max-mb
// decompressed is refused naming the limit and the flag, storing nothing.
func TestImportOverMaxMBNamesTheFlag(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	file := filepath.Join(dir, "big.schedlab-experiment.json.gz")
	f, _ := os.Create(file)
	zw := gzip.NewWriter(f)
	zw.Write([]byte(`{"header":`))
	zw.Write(bytes.Repeat([]byte(" "), 2<<20))
	zw.Close()
	f.Close()
	db := filepath.Join(dir, "dst.db")
	err := run(ctx, []string{"import", "--db", db, "--max-mb", "1", file}, io.Discard, io.Discard)
	if errs.KindOf(err) != errs.TooLarge || !strings.Contains(err.Error(), "limit of 1 MiB") || !strings.Contains(err.Error(), "--max-mb") {
		t.Errorf("import over --max-mb: %v", err)
	}
	if _, err := os.Stat(db); err == nil {
		t.Error("a refused bundle created the database")
	}
}
