package bundle

import (
	"bytes"
	"encoding/json"
	"io"
	"reflect"
	"testing"

	"schedlab/runtypes"
	"schedlab/store"
)

// nonZero fails for each field of v (a struct) that is its zero value: a
// field the round trip below leaves zero is not tested by it.
func nonZero(t *testing.T, v any) {
	t.Helper()
	rv := reflect.ValueOf(v)
	for i := range rv.NumField() {
		if rv.Field(i).IsZero() {
			t.Errorf("%s.%s is zero in the test's row: give it a value", rv.Type().Name(), rv.Type().Field(i).Name)
		}
	}
}

// TestStoreRowsTravelWhole writes the store's rows through the exporter
// (the ExportSink Export uses) and reads them back through the source
// (the ImportSource Import uses): every field of every row, the run's
// build included, comes back the same.
func TestStoreRowsTravelWhole(t *testing.T) {
	_, e, ws, rs := sample()
	exp := store.SnapshotExperiment(e)
	w := store.SnapshotWorkload(ws[0])
	w.UploadSHA256, w.UploadBytes = sum("upload"), 6
	r := store.SnapshotRun{ID: "rrrrrrrrr2", Kind: "run", WorkloadID: w.ID, Strategy: "eapm", Variant: "online",
		Params: map[string]string{"gamma": "1.1"}, Seed: 1, Status: "done", ProgressDone: 3, ProgressTotal: 3, ProgressNote: "3 of 3",
		Error: "none", ErrorField: "gamma", Name: "the one", Tags: []string{"t"}, Notes: "n",
		CreatedAt: t0, StartedAt: at(1), FinishedAt: at(2), Build: &runtypes.Build{Version: "v1", Commit: "abc", Modified: "true"},
		Report: rs[0].Report, Position: 1, Cell: json.RawMessage(`{"gamma":"1.1"}`), Replicate: 2}
	exp.RunsTotal = 2
	for _, v := range []any{exp, w, r} {
		nonZero(t, v)
	}

	var buf bytes.Buffer
	x := &exporter{w: &buf}
	if err := x.Begin(&exp); err != nil {
		t.Fatal(err)
	}
	if err := x.Workload(&w); err != nil {
		t.Fatal(err)
	}
	r0 := r
	r0.ID, r0.Position, r0.Build = "rrrrrrrrr3", 0, nil // and one without a recorded build
	for _, run := range []store.SnapshotRun{r, r0} {
		if err := x.Run(&run); err != nil {
			t.Fatal(err)
		}
	}
	if err := x.bw.Close(); err != nil {
		t.Fatal(err)
	}
	rd, err := NewReader(&buf, 0)
	if err != nil {
		t.Fatal(err)
	}
	src := source{rd}
	if got := src.Experiment(); !reflect.DeepEqual(got, exp) {
		t.Errorf("experiment\n%+v, want\n%+v", got, exp)
	}
	if got := src.Build(); got != runtypes.Build(CurrentBuild()) {
		t.Errorf("build %+v, want this binary's", got)
	}
	var gotW []store.SnapshotWorkload
	var gotR []store.SnapshotRun
	for {
		w, r, err := src.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		if w != nil {
			gotW = append(gotW, *w)
		} else {
			gotR = append(gotR, *r)
		}
	}
	if !reflect.DeepEqual(gotW, []store.SnapshotWorkload{w}) {
		t.Errorf("workloads\n%+v, want\n%+v", gotW, w)
	}
	if !reflect.DeepEqual(gotR, []store.SnapshotRun{r, r0}) {
		t.Errorf("runs\n%+v\nwant\n%+v\n%+v", gotR, r, r0)
	}
}
