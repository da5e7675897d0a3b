package store_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"schedlab/buildinfo"
	"schedlab/bundle"
	"schedlab/errs"
	"schedlab/runtypes"
	. "schedlab/store"
)

// The internal tests' helpers (export_test.go).
var (
	openTemp, addWorkload, addExperiment = OpenTemp, AddWorkload, AddExperiment
	sweep, claim, count, checkKind       = Sweep, Claim, Count, CheckKind
)

// finishedExperiment is an experiment of 4 runs over two workloads: two
// done with reports (metrics), one failed, one canceled.
func finishedExperiment(t *testing.T, s *Store) *Experiment {
	t.Helper()
	ctx := context.Background()
	w1, w2 := addWorkload(t, s, "eapm"), addWorkload(t, s, "eapm")
	runs, cells := sweep(w1, []string{"online", "greedy"}, []string{"1.1"}, 2)
	runs[3].WorkloadID = w2.ID
	e := &Experiment{Name: "bundled", Strategy: "eapm", Definition: json.RawMessage(`{"name":"bundled","grid":{"gamma":["1.1"]}}`),
		Tags: []string{"a", "b"}, Notes: "some *notes*"}
	if err := s.CreateExperiment(ctx, e, runs, cells); err != nil {
		t.Fatal(err)
	}
	for i, r := range runs[:3] {
		claim(t, s, r.ID)
		var err error
		switch i {
		case 2:
			err = s.Finish(ctx, r.ID, runtypes.StatusFailed, nil, "gamma: too small", "gamma")
		default:
			rep := fmt.Sprintf(`{"metrics":[{"name":"objective","value":%d.5,"unit":"$"},{"name":"energy","value":%d},{"name":"objective","value":0}],"tables":[{"title":"t <%d>"}]}`, i+1, 10*i, i)
			err = s.Finish(ctx, r.ID, runtypes.StatusDone, json.RawMessage(rep), "", "")
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	if _, err := s.CancelExperiment(ctx, e.ID); err != nil {
		t.Fatal(err)
	}
	return e
}

func export(t *testing.T, s *Store, id string) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := bundle.Export(context.Background(), s, id, &buf); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func importBundle(s *Store, b []byte, owner string) (*Imported, error) {
	r, err := bundle.NewReader(bytes.NewReader(b), 0)
	if err != nil {
		return nil, err
	}
	return bundle.Import(context.Background(), s, r, owner)
}

// rowCounts counts the rows of every table an import writes.
func rowCounts(t *testing.T, s *Store) string {
	t.Helper()
	var out []string
	for _, table := range []string{"experiments", "experiment_runs", "runs", "run_reports", "run_metrics", "workloads"} {
		out = append(out, fmt.Sprintf("%s %d", table, count(t, s, table)))
	}
	return strings.Join(out, ", ")
}

func TestExportedExperimentImportsTheSameIntoAnotherDatabase(t *testing.T) {
	ctx := context.Background()
	src, _ := openTemp(t)
	e := finishedExperiment(t, src)
	// A run's labels travel with it (format version 2).
	labelled, _ := src.ExperimentRuns(ctx, e.ID)
	if err := src.SetRunLabels(ctx, labelled[1].RunID, "the odd one", []string{"outlier", "paper:fig3"}, "**why**: a slow node"); err != nil {
		t.Fatal(err)
	}
	b := export(t, src, e.ID)

	dst, _ := openTemp(t)
	got, err := importBundle(dst, b, "")
	if err != nil {
		t.Fatal(err)
	}
	if got.ExperimentID != e.ID || got.Runs != 4 || got.Workloads != 2 || got.Reused != 0 || buildinfo.Build(got.Schedlab) != bundle.CurrentBuild() {
		t.Errorf("imported %+v", got)
	}
	want, _ := src.GetExperiment(ctx, e.ID)
	have, err := dst.GetExperiment(ctx, e.ID)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(have, want) {
		t.Errorf("experiment\n%+v, want\n%+v", have, want)
	}
	wantRuns, _ := src.ExperimentRuns(ctx, e.ID)
	haveRuns, _ := dst.ExperimentRuns(ctx, e.ID)
	if !reflect.DeepEqual(haveRuns, wantRuns) {
		t.Errorf("runs with metrics\n%+v, want\n%+v", haveRuns, wantRuns)
	}
	wantRes, _ := src.ExperimentResults(ctx, e.ID)
	haveRes, _ := dst.ExperimentResults(ctx, e.ID)
	if !reflect.DeepEqual(haveRes, wantRes) {
		t.Errorf("results\n%+v, want\n%+v", haveRes, wantRes)
	}
	if r, _ := dst.GetRun(ctx, labelled[1].RunID); r == nil || r.Name != "the odd one" || strings.Join(r.Tags, ",") != "outlier,paper:fig3" || r.Notes != "**why**: a slow node" {
		t.Errorf("the run's labels did not travel: %+v", r)
	}
	if got, _ := dst.ListRuns(ctx, RunFilter{Tag: "outlier"}); len(got) != 1 {
		t.Errorf("the imported tag finds %d runs, want 1", len(got))
	}
	metrics := 0
	for _, r := range wantRuns {
		metrics += len(r.Metrics)
		a, _ := src.GetRun(ctx, r.RunID)
		b, err := dst.GetRun(ctx, r.RunID)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(a, b) {
			t.Errorf("run %s\n%+v, want\n%+v", r.RunID, b, a)
		}
		if r.WorkloadID != "" {
			wa, _ := src.GetWorkload(ctx, r.WorkloadID)
			wb, _ := dst.GetWorkload(ctx, r.WorkloadID)
			if !reflect.DeepEqual(wa, wb) {
				t.Errorf("workload %s\n%+v, want\n%+v", r.WorkloadID, wb, wa)
			}
		}
	}
	// Two done runs, each with two metrics (a repeated name is stored
	// once), as Finish stored them. (A report with a text value where a
	// metric's number goes is refused by the bundle's check, as a run's.)
	if metrics != 4 || count(t, dst, "run_metrics") != 4 {
		t.Errorf("%d metrics in the source, %d rows in the import; want 4", metrics, count(t, dst, "run_metrics"))
	}
	// Exported again, the import is the same bundle but for its time.
	again := export(t, dst, e.ID)
	if n, m := records(t, b), records(t, again); !reflect.DeepEqual(n[1:], m[1:]) {
		t.Errorf("the import exports differently:\n%s\n%s", n, m)
	}
}

// records is a bundle's records as text, one a line.
func records(t *testing.T, b []byte) []string {
	t.Helper()
	r, err := bundle.NewReader(bytes.NewReader(b), 0)
	if err != nil {
		t.Fatal(err)
	}
	out := []string{fmt.Sprintf("%+v", r.Header()), fmt.Sprintf("%+v", r.Experiment())}
	for {
		w, run, err := r.Next()
		if err != nil {
			break
		}
		if w != nil {
			out = append(out, fmt.Sprintf("%+v", *w))
		} else {
			j, _ := json.Marshal(run)
			out = append(out, string(j))
		}
	}
	return out
}

func TestImportRefusalsStoreNothing(t *testing.T) {
	src, _ := openTemp(t)
	e := finishedExperiment(t, src)
	good := export(t, src, e.ID)

	dst, _ := openTemp(t)
	addExperiment(t, dst, addWorkload(t, dst, "eapm"), 3) // something already there
	before := rowCounts(t, dst)
	if _, err := importBundle(dst, good, ""); err != nil {
		t.Fatal(err)
	}
	imported := rowCounts(t, dst)

	// The same bundle again: the experiment is there.
	_, err := importBundle(dst, good, "")
	checkKind(t, "a second import", err, errs.Conflict, "experiment "+e.ID+" is already in this database")
	if got := rowCounts(t, dst); got != imported {
		t.Errorf("a refused import changed the database: %s, was %s", got, imported)
	}

	// Bundles the reader refuses only at their end: the rows read until
	// then are rolled back.
	fresh, _ := openTemp(t)
	addExperiment(t, fresh, addWorkload(t, fresh, "eapm"), 3)
	before = rowCounts(t, fresh)
	for name, b := range map[string][]byte{
		"truncated gzip":  good[:len(good)-10],
		"damaged trailer": flip(good, len(good)-5),
	} {
		_, err := importBundle(fresh, b, "")
		if errs.KindOf(err) != errs.Invalid {
			t.Errorf("%s: %v, want Invalid", name, err)
		}
		if got := rowCounts(t, fresh); got != before {
			t.Errorf("%s: the database changed: %s, was %s", name, got, before)
		}
	}

	// Another experiment whose run IDs are already stored; one whose
	// workload ID is stored with other data; one that reuses a stored
	// workload (same ID, same data).
	h, exp, ws, runs := decodeAll(t, good)
	exp.ID = "zzzzzzzzzz"
	_, err = importBundle(dst, rewrite(t, h, exp, ws, runs), "")
	checkKind(t, "runs already stored", err, errs.Conflict, "run "+runs[0].ID+" is already in this database")
	if got := rowCounts(t, dst); got != imported {
		t.Errorf("a refused import changed the database: %s, was %s", got, imported)
	}
	for i := range runs {
		runs[i].ID = "zzzzzzzzz" + string(rune('a'+i))
	}
	changed := append([]bundle.Workload{}, ws...)
	changed[0].Data = `{"etc":[[9,9]]}`
	changed[0].SHA256 = sha(changed[0].Data)
	_, err = importBundle(dst, rewrite(t, h, exp, changed, runs), "")
	checkKind(t, "a workload with other data", err, errs.Conflict, "workload "+ws[0].ID+" is already in this database with other data")
	if got := rowCounts(t, dst); got != imported {
		t.Errorf("a refused import changed the database: %s, was %s", got, imported)
	}
	got, err := importBundle(dst, rewrite(t, h, exp, ws, runs), "")
	if err != nil {
		t.Fatal(err)
	}
	if got.Reused != 2 || got.Workloads != 2 || got.Runs != 4 {
		t.Errorf("reusing stored workloads: %+v", got)
	}
}

func flip(b []byte, i int) []byte {
	b = bytes.Clone(b)
	b[i] ^= 0xff
	return b
}

func sha(s string) string {
	var w runtypes.Workload
	w.Data = []byte(s)
	return fmt.Sprintf("%x", sha256Sum(w.Data))
}

func decodeAll(t *testing.T, b []byte) (bundle.Header, bundle.Experiment, []bundle.Workload, []bundle.Run) {
	t.Helper()
	r, err := bundle.NewReader(bytes.NewReader(b), 0)
	if err != nil {
		t.Fatal(err)
	}
	var ws []bundle.Workload
	var rs []bundle.Run
	for {
		w, run, err := r.Next()
		if err != nil {
			break
		}
		if w != nil {
			ws = append(ws, *w)
		} else {
			rs = append(rs, *run)
		}
	}
	return r.Header(), r.Experiment(), ws, rs
}

func rewrite(t *testing.T, h bundle.Header, e bundle.Experiment, ws []bundle.Workload, rs []bundle.Run) []byte {
	t.Helper()
	var buf bytes.Buffer
	w, err := bundle.NewWriter(&buf, h, e)
	if err != nil {
		t.Fatal(err)
	}
	for i := range ws {
		w.Workload(&ws[i])
	}
	for i := range rs {
		w.Run(&rs[i])
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func TestExportRefusesAnUnfinishedExperimentBeforeWriting(t *testing.T) {
	s, _ := openTemp(t)
	e, runs := addExperiment(t, s, addWorkload(t, s, "eapm"), 2)
	claim(t, s, runs[0].ID)
	var buf bytes.Buffer
	err := bundle.Export(context.Background(), s, e.ID, &buf)
	checkKind(t, "export with a queued and a running run", err, errs.Conflict, "2 queued or running runs")
	if buf.Len() != 0 {
		t.Errorf("a refused export wrote %d bytes", buf.Len())
	}
	err = bundle.Export(context.Background(), s, "nosuchid22", &buf)
	checkKind(t, "export of an unknown experiment", err, errs.NotFound, "nosuchid22")
	// Finished, but still marked running (the runner sets done later):
	// exported as done.
	if err := s.Finish(context.Background(), runs[0].ID, runtypes.StatusDone, json.RawMessage(`{}`), "", ""); err != nil {
		t.Fatal(err)
	}
	claim(t, s, runs[1].ID)
	if err := s.Finish(context.Background(), runs[1].ID, runtypes.StatusInterrupted, nil, runtypes.MsgInterrupted, ""); err != nil {
		t.Fatal(err)
	}
	_, exp, _, _ := decodeAll(t, export(t, s, e.ID))
	if exp.Status != ExperimentDone {
		t.Errorf("exported status %q, want done", exp.Status)
	}
}

// TestBundleSharesTheStoreForms checks the bundle package's copy of the
// store's ID form and status sets against the store's own.
func TestBundleSharesTheStoreForms(t *testing.T) {
	for range 100 {
		if id := NewID(); !bundle.ValidID(id) {
			t.Fatalf("store ID %q is not a bundle.ValidID", id)
		}
	}
	var final []string
	for _, st := range []string{runtypes.StatusQueued, runtypes.StatusRunning, runtypes.StatusDone, runtypes.StatusFailed, runtypes.StatusCanceled, runtypes.StatusInterrupted} {
		if runtypes.Final(st) {
			final = append(final, st)
		}
	}
	if !reflect.DeepEqual(final, bundle.RunStatuses) {
		t.Errorf("bundle.RunStatuses %v, the store's final statuses %v", bundle.RunStatuses, final)
	}
	if want := []string{ExperimentDone, ExperimentCanceled}; !reflect.DeepEqual(want, bundle.ExperimentStatuses) {
		t.Errorf("bundle.ExperimentStatuses %v, want %v", bundle.ExperimentStatuses, want)
	}
	if want := []string{runtypes.KindRun, runtypes.KindReproduce}; !reflect.DeepEqual(want, bundle.RunKinds) {
		t.Errorf("bundle.RunKinds %v, want %v", bundle.RunKinds, want)
	}
}

func sha256Sum(b []byte) [32]byte { return sha256.Sum256(b) }
