package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	"schedlab/errs"
	"schedlab/runtypes"
)

// sweep builds the runs and cells of a sweep over w: variants × gammas ×
// instances, in that order.
func sweep(w *runtypes.Workload, variants []string, gammas []string, instances int) ([]*runtypes.Run, []ExperimentCell) {
	var runs []*runtypes.Run
	var cells []ExperimentCell
	for _, v := range variants {
		for _, g := range gammas {
			for i := 0; i < instances; i++ {
				runs = append(runs, &runtypes.Run{WorkloadID: w.ID, Strategy: w.Strategy, Variant: v,
					Params: map[string]string{"gamma": g}, Seed: int64(i)})
				cells = append(cells, ExperimentCell{Cell: json.RawMessage(`{"gamma":"` + g + `","instance":` + strconv.Itoa(i) + `}`)})
			}
		}
	}
	return runs, cells
}

func addExperiment(t *testing.T, s *Store, w *runtypes.Workload, n int) (*Experiment, []*runtypes.Run) {
	t.Helper()
	runs, cells := sweep(w, []string{"online"}, []string{"1.1"}, n)
	for i := range cells {
		cells[i].Replicate = i % 2
	}
	e := &Experiment{Name: "small", Strategy: w.Strategy, Definition: json.RawMessage(`{"replicates":2}`)}
	if err := s.CreateExperiment(context.Background(), e, runs, cells); err != nil {
		t.Fatal(err)
	}
	return e, runs
}

func count(t testing.TB, s *Store, table string) int {
	t.Helper()
	var n int
	if err := s.db.QueryRow("SELECT count(*) FROM " + table).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// claim claims the next queued run, which must be want.
func claim(t *testing.T, s *Store, want string) {
	t.Helper()
	r, err := s.ClaimNext(context.Background())
	if err != nil || r == nil || r.ID != want {
		t.Fatalf("ClaimNext = %v, %v; want run %s", r, err, want)
	}
}

func TestCreateExperimentStoresAThousandRunsAndReadsThemBack(t *testing.T) {
	s, _ := openTemp(t)
	ctx := context.Background()
	w := addWorkload(t, s, "eapm")
	runs, cells := sweep(w, []string{"online", "greedy-min-energy"}, []string{"1.1", "1.3", "1.5", "1.7", "1.9"}, 100)
	e := &Experiment{Name: "eapm gamma sweep", Strategy: "eapm", Tags: []string{"table1"}, Notes: "*γ*",
		Definition: json.RawMessage(`{"strategy":"eapm","grid":{"gamma":[1.1,1.3,1.5,1.7,1.9]}}`)}
	start := time.Now()
	if err := s.CreateExperiment(ctx, e, runs, cells); err != nil {
		t.Fatal(err)
	}
	t.Logf("CreateExperiment of %d runs: %v", len(runs), time.Since(start))
	if e.ID == "" || e.Status != ExperimentRunning || e.RunsTotal != 1000 || e.CreatedAt.IsZero() {
		t.Fatalf("experiment after create: %+v", e)
	}
	got, err := s.GetExperiment(ctx, e.ID)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, e) {
		t.Errorf("GetExperiment = %+v\nwant %+v", got, e)
	}
	ers, err := s.ExperimentRuns(ctx, e.ID)
	if err != nil {
		t.Fatal(err)
	}
	if len(ers) != len(runs) {
		t.Fatalf("%d experiment runs, want %d", len(ers), len(runs))
	}
	for i, er := range ers {
		r := runs[i]
		if r.ID == "" || r.Status != runtypes.StatusQueued || !r.CreatedAt.Equal(e.CreatedAt) {
			t.Fatalf("run %d after create: %+v", i, r)
		}
		if er.Position != i || er.RunID != r.ID || er.Status != runtypes.StatusQueued || er.Variant != r.Variant ||
			er.Seed != r.Seed || er.WorkloadID != w.ID || !reflect.DeepEqual(er.Params, r.Params) ||
			string(er.Cell) != string(cells[i].Cell) || er.Replicate != 0 || len(er.Metrics) != 0 {
			t.Fatalf("experiment run %d = %+v, want run %+v in cell %s", i, er, r, cells[i].Cell)
		}
	}
	if n := count(t, s, "runs"); n != 1000 {
		t.Errorf("%d runs stored", n)
	}
	// They are ordinary runs, claimed in the experiment's order.
	claim(t, s, runs[0].ID)
	claim(t, s, runs[1].ID)
	if total, done, failed, active, err := s.ExperimentProgress(ctx, e.ID); err != nil || total != 1000 || done != 0 || failed != 0 || active != 1000 {
		t.Errorf("progress = %d %d %d %d %v", total, done, failed, active, err)
	}
}

func TestCreateExperimentStoresNothingWhenARunFails(t *testing.T) {
	s, _ := openTemp(t)
	ctx := context.Background()
	w := addWorkload(t, s, "eapm")
	runs, cells := sweep(w, []string{"online"}, []string{"1.1"}, 10)
	runs[5].WorkloadID = "nosuchwork"
	e := &Experiment{Strategy: "eapm", Definition: json.RawMessage(`{}`)}
	err := s.CreateExperiment(ctx, e, runs, cells)
	checkKind(t, "CreateExperiment with a missing workload", err, errs.NotFound, "run 5")
	if errs.FieldOf(err) != "workload_id" || !strings.Contains(err.Error(), "nosuchwork") {
		t.Errorf("error %v names field %q", err, errs.FieldOf(err))
	}
	for _, table := range []string{"experiments", "experiment_runs", "runs"} {
		if n := count(t, s, table); n != 0 {
			t.Errorf("%d rows left in %s after a failed create", n, table)
		}
	}
	if e.ID != "" || runs[0].ID != "" {
		t.Errorf("a failed create set IDs: %q, %q", e.ID, runs[0].ID)
	}

	runs[5].WorkloadID = w.ID
	for name, c := range map[string]struct {
		e     Experiment
		cells []ExperimentCell
		field string
	}{
		"no strategy":    {Experiment{Definition: json.RawMessage(`{}`)}, cells, "strategy"},
		"bad definition": {Experiment{Strategy: "eapm", Definition: json.RawMessage(`[1]`)}, cells, "definition"},
		"cells short":    {Experiment{Strategy: "eapm", Definition: json.RawMessage(`{}`)}, cells[:9], "cells"},
		"cell not object": {Experiment{Strategy: "eapm", Definition: json.RawMessage(`{}`)},
			append(append([]ExperimentCell{}, cells[:9]...), ExperimentCell{Cell: json.RawMessage(`3`)}), "cells"},
		"other strategy": {Experiment{Strategy: "cyclic", Definition: json.RawMessage(`{}`)}, cells, "runs"},
	} {
		err := s.CreateExperiment(ctx, &c.e, runs, c.cells)
		if errs.KindOf(err) != errs.Invalid || errs.FieldOf(err) != c.field {
			t.Errorf("%s: %v (field %q), want Invalid on %s", name, err, errs.FieldOf(err), c.field)
		}
	}
	if err := s.CreateExperiment(ctx, &Experiment{Strategy: "eapm", Definition: json.RawMessage(`{}`)}, nil, nil); errs.KindOf(err) != errs.Invalid {
		t.Errorf("an experiment without runs: %v", err)
	}
	if n := count(t, s, "runs"); n != 0 {
		t.Errorf("%d runs left after refused creates", n)
	}
}

func storedMetrics(t *testing.T, s *Store, runID string) map[string]float64 {
	t.Helper()
	rows, err := s.db.Query("SELECT name, value FROM run_metrics WHERE run_id = ?", runID)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	out := map[string]float64{}
	for rows.Next() {
		var n string
		var v float64
		if err := rows.Scan(&n, &v); err != nil {
			t.Fatal(err)
		}
		out[n] = v
	}
	return out
}

// reportWithMetrics has metrics with extra keys, an integer value, entries
// to skip and a repeated name, beside other parts of a report.
const reportWithMetrics = `{"title":"x","metrics":[
	{"name":"objective","value":12.5,"unit":"J","better":"lower"},
	{"name":"jobs","value":40},
	{"name":"label","value":"n/a"},
	{"value":3},
	{"name":"objective","value":99},
	{"name":"tiny","value":1e-300}
],"tables":[{"metrics":[{"name":"inner","value":1}]}]}`

var wantMetrics = map[string]float64{"objective": 12.5, "jobs": 40, "tiny": 1e-300}

func TestFinishFillsRunMetricsFromTheReport(t *testing.T) {
	s, _ := openTemp(t)
	ctx := context.Background()
	w := addWorkload(t, s, "eapm")
	finish := func(status, report string) *runtypes.Run {
		t.Helper()
		r := addRun(t, s, w)
		claim(t, s, r.ID)
		if err := s.Finish(ctx, r.ID, status, json.RawMessage(report), "", ""); err != nil {
			t.Fatal(err)
		}
		return r
	}
	done := finish(runtypes.StatusDone, reportWithMetrics)
	if got := storedMetrics(t, s, done.ID); !reflect.DeepEqual(got, wantMetrics) {
		t.Errorf("run_metrics = %v, want %v", got, wantMetrics)
	}
	for name, report := range map[string]string{"no metrics": `{"title":"x"}`, "metrics not a list": `{"metrics":{"a":{"name":"a","value":1}}}`,
		"a list": `[{"name":"a","value":1}]`, "empty": ``} {
		if got := storedMetrics(t, s, finish(runtypes.StatusDone, report).ID); len(got) != 0 {
			t.Errorf("%s: run_metrics = %v, want none", name, got)
		}
	}
	if got := storedMetrics(t, s, finish(runtypes.StatusFailed, reportWithMetrics).ID); len(got) != 0 {
		t.Errorf("a failed run has metrics %v", got)
	}
	if err := s.DeleteRun(ctx, done.ID); err != nil {
		t.Fatal(err)
	}
	if got := storedMetrics(t, s, done.ID); len(got) != 0 {
		t.Errorf("a deleted run keeps metrics %v", got)
	}
}

func TestExperimentRunsCarryTheirMetrics(t *testing.T) {
	s, _ := openTemp(t)
	ctx := context.Background()
	w := addWorkload(t, s, "eapm")
	e, runs := addExperiment(t, s, w, 3)
	claim(t, s, runs[0].ID)
	if err := s.Finish(ctx, runs[0].ID, runtypes.StatusDone, json.RawMessage(reportWithMetrics), "", ""); err != nil {
		t.Fatal(err)
	}
	claim(t, s, runs[1].ID)
	if err := s.Finish(ctx, runs[1].ID, runtypes.StatusFailed, nil, "too slow", ""); err != nil {
		t.Fatal(err)
	}
	ers, err := s.ExperimentRuns(ctx, e.ID)
	if err != nil {
		t.Fatal(err)
	}
	want := []Metric{{"jobs", 40}, {"objective", 12.5}, {"tiny", 1e-300}} // by name
	if len(ers) != 3 || !reflect.DeepEqual(ers[0].Metrics, want) || ers[0].Status != runtypes.StatusDone || ers[0].Replicate != 0 {
		t.Errorf("run 0 = %+v, want metrics %v", ers[0], want)
	}
	if ers[1].Status != runtypes.StatusFailed || ers[1].Error != "too slow" || len(ers[1].Metrics) != 0 || ers[1].Replicate != 1 {
		t.Errorf("run 1 = %+v", ers[1])
	}
	if ers[2].Status != runtypes.StatusQueued || ers[2].RunID != runs[2].ID {
		t.Errorf("run 2 = %+v", ers[2])
	}
	_, err = s.ExperimentRuns(ctx, "nosuchexpt")
	checkKind(t, "ExperimentRuns", err, errs.NotFound, "nosuchexpt")
}

func TestExperimentProgressCountsEveryRun(t *testing.T) {
	s, _ := openTemp(t)
	ctx := context.Background()
	w := addWorkload(t, s, "eapm")
	e, runs := addExperiment(t, s, w, 7)
	for i, status := range []string{runtypes.StatusDone, runtypes.StatusDone, runtypes.StatusFailed, runtypes.StatusInterrupted} {
		claim(t, s, runs[i].ID)
		if err := s.Finish(ctx, runs[i].ID, status, nil, "", ""); err != nil {
			t.Fatal(err)
		}
	}
	claim(t, s, runs[4].ID) // running
	if err := s.CancelQueued(ctx, runs[5].ID); err != nil {
		t.Fatal(err)
	}
	other, _ := addExperiment(t, s, w, 2) // not counted
	total, done, failed, active, err := s.ExperimentProgress(ctx, e.ID)
	if err != nil || total != 7 || done != 2 || failed != 3 || active != 2 {
		t.Errorf("progress = total %d, done %d, failed %d, active %d, %v; want 7, 2, 3, 2", total, done, failed, active, err)
	}
	if total, _, _, active, _ := s.ExperimentProgress(ctx, other.ID); total != 2 || active != 2 {
		t.Errorf("other experiment: total %d, active %d", total, active)
	}
	_, _, _, _, err = s.ExperimentProgress(ctx, "nosuchexpt")
	checkKind(t, "ExperimentProgress", err, errs.NotFound, "nosuchexpt")
}

func TestCancelExperimentCancelsQueuedRunsAndReturnsRunningOnes(t *testing.T) {
	s, _ := openTemp(t)
	ctx := context.Background()
	w := addWorkload(t, s, "eapm")
	e, runs := addExperiment(t, s, w, 5)
	other, otherRuns := addExperiment(t, s, w, 1)
	claim(t, s, runs[0].ID)
	if err := s.Finish(ctx, runs[0].ID, runtypes.StatusDone, nil, "", ""); err != nil {
		t.Fatal(err)
	}
	claim(t, s, runs[1].ID)
	claim(t, s, runs[2].ID)
	running, err := s.CancelExperiment(ctx, e.ID)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(running, []string{runs[1].ID, runs[2].ID}) {
		t.Errorf("running = %v, want %v", running, []string{runs[1].ID, runs[2].ID})
	}
	for i, want := range []string{runtypes.StatusDone, runtypes.StatusRunning, runtypes.StatusRunning, runtypes.StatusCanceled, runtypes.StatusCanceled} {
		r, err := s.GetRunInfo(ctx, runs[i].ID)
		if err != nil || r.Status != want {
			t.Errorf("run %d is %s (%v), want %s", i, r.Status, err, want)
		}
		if want == runtypes.StatusCanceled && (r.Error != runtypes.MsgCanceled || r.FinishedAt == nil) {
			t.Errorf("canceled run %d: error %q, finished %v", i, r.Error, r.FinishedAt)
		}
	}
	if got, _ := s.GetExperiment(ctx, e.ID); got.Status != ExperimentCanceled {
		t.Errorf("experiment is %s", got.Status)
	}
	// The other experiment's queued run is untouched and next in line.
	claim(t, s, otherRuns[0].ID)
	if got, _ := s.GetExperiment(ctx, other.ID); got.Status != ExperimentRunning {
		t.Errorf("other experiment is %s", got.Status)
	}
	if err := s.SetExperimentStatus(ctx, other.ID, ExperimentDone); err != nil {
		t.Fatal(err)
	}
	_, err = s.CancelExperiment(ctx, other.ID)
	checkKind(t, "CancelExperiment of a done experiment", err, errs.Conflict, "done")
	_, err = s.CancelExperiment(ctx, "nosuchexpt")
	checkKind(t, "CancelExperiment", err, errs.NotFound, "nosuchexpt")
	checkKind(t, "SetExperimentStatus", s.SetExperimentStatus(ctx, "nosuchexpt", ExperimentDone), errs.NotFound, "nosuchexpt")
	checkKind(t, "SetExperimentStatus", s.SetExperimentStatus(ctx, e.ID, "paused"), errs.Invalid, "paused")
}

func TestResumeExperimentRequeuesItsCanceledAndInterruptedRunsOnly(t *testing.T) {
	s, _ := openTemp(t)
	ctx := context.Background()
	w := addWorkload(t, s, "eapm")
	e, runs := addExperiment(t, s, w, 5)
	_, err := s.ResumeExperiment(ctx, e.ID)
	checkKind(t, "ResumeExperiment of a running experiment", err, errs.Conflict, "not canceled")
	claim(t, s, runs[0].ID)
	if err := s.Finish(ctx, runs[0].ID, runtypes.StatusDone, json.RawMessage(reportWithMetrics), "", ""); err != nil {
		t.Fatal(err)
	}
	claim(t, s, runs[1].ID)
	if err := s.Finish(ctx, runs[1].ID, runtypes.StatusFailed, nil, "boom", ""); err != nil {
		t.Fatal(err)
	}
	claim(t, s, runs[2].ID)
	if _, err := s.CancelExperiment(ctx, e.ID); err != nil {
		t.Fatal(err)
	}
	// Run 2 is still running: its cancel has not reached the runner yet.
	_, err = s.ResumeExperiment(ctx, e.ID)
	checkKind(t, "ResumeExperiment while a run stops", err, errs.Conflict, "still stopping")
	if err := s.Finish(ctx, runs[2].ID, runtypes.StatusInterrupted, nil, runtypes.MsgInterrupted, ""); err != nil {
		t.Fatal(err)
	}
	n, err := s.ResumeExperiment(ctx, e.ID)
	if err != nil || n != 3 {
		t.Fatalf("ResumeExperiment = %d, %v; want 3 runs queued again (the interrupted and the two canceled)", n, err)
	}
	for i, want := range []string{runtypes.StatusDone, runtypes.StatusFailed, runtypes.StatusQueued, runtypes.StatusQueued, runtypes.StatusQueued} {
		r, err := s.GetRunInfo(ctx, runs[i].ID)
		if err != nil || r.Status != want {
			t.Errorf("run %d is %s (%v), want %s", i, r.Status, err, want)
		}
		if want == runtypes.StatusQueued && (r.Error != "" || r.FinishedAt != nil || r.StartedAt != nil) {
			t.Errorf("requeued run %d keeps error %q, started %v, finished %v", i, r.Error, r.StartedAt, r.FinishedAt)
		}
	}
	if got, _ := s.GetExperiment(ctx, e.ID); got.Status != ExperimentRunning {
		t.Errorf("experiment is %s after resume", got.Status)
	}
	// The same runs, in order: the queue gives them back oldest first.
	for _, r := range runs[2:] {
		claim(t, s, r.ID)
	}
	total, _, _, _, err := s.ExperimentProgress(ctx, e.ID)
	if err != nil || total != 5 {
		t.Errorf("progress total = %d, %v; want the same 5 runs", total, err)
	}
	_, err = s.ResumeExperiment(ctx, "nosuchexpt")
	checkKind(t, "ResumeExperiment", err, errs.NotFound, "nosuchexpt")
}

func TestDeleteExperimentDeletesItsRunsAndOnlyThem(t *testing.T) {
	s, _ := openTemp(t)
	ctx := context.Background()
	w := addWorkload(t, s, "eapm")
	e, runs := addExperiment(t, s, w, 3)
	other, _ := addExperiment(t, s, w, 2)
	claim(t, s, runs[0].ID)
	if err := s.Finish(ctx, runs[0].ID, runtypes.StatusDone, json.RawMessage(reportWithMetrics), "", ""); err != nil {
		t.Fatal(err)
	}
	checkKind(t, "DeleteRun of an experiment's run", s.DeleteRun(ctx, runs[0].ID), errs.Conflict, e.ID)
	checkKind(t, "DeleteExperiment with queued runs", s.DeleteExperiment(ctx, e.ID), errs.Conflict, "cancel")
	if _, err := s.CancelExperiment(ctx, e.ID); err != nil {
		t.Fatal(err)
	}
	if err := s.DeleteExperiment(ctx, e.ID); err != nil {
		t.Fatal(err)
	}
	_, err := s.GetExperiment(ctx, e.ID)
	checkKind(t, "GetExperiment after delete", err, errs.NotFound, e.ID)
	for table, want := range map[string]int{"runs": 2, "experiment_runs": 2, "run_metrics": 0, "run_reports": 0, "experiments": 1} {
		if n := count(t, s, table); n != want {
			t.Errorf("%d rows in %s after delete, want %d (the other experiment's)", n, table, want)
		}
	}
	if _, err := s.GetExperiment(ctx, other.ID); err != nil {
		t.Error(err)
	}
	checkKind(t, "DeleteExperiment", s.DeleteExperiment(ctx, "nosuchexpt"), errs.NotFound, "nosuchexpt")
}

func TestExperimentPagesWalkEveryExperimentOnceNewestFirst(t *testing.T) {
	s, _ := openTemp(t)
	ctx := context.Background()
	w := addWorkload(t, s, "eapm")
	ann, err := s.CreateUser(ctx, "ann", "password1", false)
	if err != nil {
		t.Fatal(err)
	}
	var all, anns []string
	for i := 0; i < 7; i++ {
		runs, cells := sweep(w, []string{"online"}, []string{"1.1"}, 1)
		e := &Experiment{Name: fmt.Sprint(i), Strategy: "eapm", Definition: json.RawMessage(`{}`)}
		if i%2 == 0 {
			e.Owner = ann.ID
		}
		if err := s.CreateExperiment(ctx, e, runs, cells); err != nil {
			t.Fatal(err)
		}
		if i >= 2 { // ties on created_at are ordered by rowid
			if _, err := s.db.Exec("UPDATE experiments SET created_at = '2099-01-01T00:00:00.000000Z' WHERE id = ?", e.ID); err != nil {
				t.Fatal(err)
			}
		}
		all = append([]string{e.ID}, all...)
		if e.Owner != "" {
			anns = append([]string{e.ID}, anns...)
		}
	}
	for _, c := range []struct {
		f    ExperimentFilter
		want []string
	}{{ExperimentFilter{Limit: 3}, all}, {ExperimentFilter{Limit: 3, Owner: ann.ID}, anns}, {ExperimentFilter{Limit: 7}, all}} {
		var got []string
		pages := 0
		for f := c.f; ; pages++ {
			page, next, err := s.ListExperimentsPage(ctx, f)
			if err != nil {
				t.Fatal(err)
			}
			if len(page) > f.Limit {
				t.Fatalf("page of %d, limit %d", len(page), f.Limit)
			}
			for _, e := range page {
				got = append(got, e.ID)
			}
			if next == "" {
				break
			}
			f.Cursor = next
		}
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("%+v: pages gave %v, want %v", c.f, got, c.want)
		}
		if want := (len(c.want) - 1) / c.f.Limit; pages != want {
			t.Errorf("%+v: %d pages after the first, want %d", c.f, pages, want)
		}
	}
	_, _, err = s.ListExperimentsPage(ctx, ExperimentFilter{Cursor: "garbage!"})
	checkKind(t, "a bad cursor", err, errs.Invalid, "cursor")

	// Each list is an index range scan in order.
	_, cur, _ := s.ListExperimentsPage(ctx, ExperimentFilter{Limit: 2})
	for _, f := range []ExperimentFilter{{Limit: 2}, {Limit: 2, Owner: ann.ID}, {Limit: 2, Cursor: cur}, {Limit: 2, Owner: ann.ID, Cursor: cur}} {
		q, args, err := experimentsQuery(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, l := range plan(t, s, q, args...) {
			if l == "SCAN experiments" || strings.Contains(l, "TEMP B-TREE") {
				t.Errorf("%+v: plan has %q", f, l)
			}
		}
	}
}

// oldDatabase writes a database file of schema version (its first
// migrations) holding the rows stmts insert, and returns its path.
func oldDatabase(t *testing.T, version int, stmts ...string) string {
	t.Helper()
	ms, err := migrations()
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "old.db")
	db, err := sql.Open("sqlite", path+"?"+dsnPragmas)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var all []string
	for _, m := range ms[:version] {
		all = append(all, m.sql)
	}
	all = append(append(all, stmts...), fmt.Sprintf("PRAGMA user_version = %d", version))
	for _, q := range all {
		if _, err := db.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	return path
}

// TestMigrationKeepsOldExperimentsAndBackfillsMetrics applies 0005 to a
// database made by the migrations before it.
func TestMigrationKeepsOldExperimentsAndBackfillsMetrics(t *testing.T) {
	const at = "2026-01-02T03:04:05.000000Z"
	path := oldDatabase(t, 4,
		`INSERT INTO workloads (id, strategy, name, sha256, bytes, data, created_at) VALUES ('w', 'eapm', 'w', '', 0, x'', '`+at+`')`,
		`INSERT INTO runs (id, kind, workload_id, strategy, status, created_at) VALUES
			('r1', 'run', 'w', 'eapm', 'done', '`+at+`'), ('r2', 'run', 'w', 'eapm', 'failed', '`+at+`'),
			('r3', 'run', 'w', 'eapm', 'done', '`+at+`')`,
		`INSERT INTO run_reports (run_id, report) VALUES ('r1', '`+reportWithMetrics+`'), ('r2', '`+reportWithMetrics+`'), ('r3', '{}')`,
		`INSERT INTO experiments (id, strategy, name, grid, created_at) VALUES ('x', 'eapm', 'old', '{"gamma":[1.1]}', '`+at+`')`,
		`INSERT INTO experiment_runs (experiment_id, run_id) VALUES ('x', 'r3'), ('x', 'r1')`,
	)
	s, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if got := storedMetrics(t, s, "r1"); !reflect.DeepEqual(got, wantMetrics) {
		t.Errorf("backfilled metrics of r1 = %v, want %v", got, wantMetrics)
	}
	if n := count(t, s, "run_metrics"); n != len(wantMetrics) {
		t.Errorf("%d metric rows, want those of r1 only", n)
	}
	e, err := s.GetExperiment(context.Background(), "x")
	if err != nil {
		t.Fatal(err)
	}
	if e.Name != "old" || string(e.Definition) != `{"grid":{"gamma":[1.1]}}` || e.Status != ExperimentDone || e.RunsTotal != 2 {
		t.Errorf("old experiment = %+v", e)
	}
	ers, err := s.ExperimentRuns(context.Background(), "x")
	if err != nil || len(ers) != 2 || ers[0].RunID != "r3" || ers[1].RunID != "r1" || len(ers[1].Metrics) != 3 {
		t.Errorf("old experiment's runs = %+v, %v", ers, err)
	}
}

// BenchmarkExperimentRuns100k reads an experiment of 100,000 done runs
// with 3 metrics each (1,000 cells × 100 replicates), as the aggregation
// of the experiment's page does.
func BenchmarkExperimentRuns100k(b *testing.B) {
	path := filepath.Join(b.TempDir(), "bench.db")
	s, err := Open(path)
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	ctx := context.Background()
	w := &runtypes.Workload{Strategy: "eapm", Name: "w", Data: []byte(`{}`)}
	if err := s.CreateWorkload(ctx, w); err != nil {
		b.Fatal(err)
	}
	const n = 100_000
	e := &Experiment{Strategy: "eapm", Definition: json.RawMessage(`{}`)}
	start := time.Now()
	err = s.FillExperiment(ctx, e, runtypes.Run{WorkloadID: w.ID, Strategy: "eapm", Variant: "online",
		Params: map[string]string{"gamma": "1.3", "order": "fifo"}}, n,
		func(i int) ExperimentCell {
			return ExperimentCell{Cell: json.RawMessage(`{"gamma":"1.3","instance":` + strconv.Itoa(i/100) + `}`), Replicate: i % 100}
		},
		func(i int) []Metric {
			return []Metric{{"objective", float64(i)}, {"energy", float64(i) / 3}, {"time", 1}}
		})
	if err != nil {
		b.Fatal(err)
	}
	b.Logf("filled %d runs in %v", n, time.Since(start))
	b.ResetTimer()
	for b.Loop() {
		ers, err := s.ExperimentRuns(ctx, e.ID)
		if err != nil {
			b.Fatal(err)
		}
		if len(ers) != n || len(ers[n-1].Metrics) != 3 {
			b.Fatalf("%d runs, last %+v", len(ers), ers[n-1])
		}
	}
}

// BenchmarkExperimentResults100k is BenchmarkExperimentRuns100k with the
// lean read that aggregation uses.
func BenchmarkExperimentResults100k(b *testing.B) {
	path := filepath.Join(b.TempDir(), "bench.db")
	s, err := Open(path)
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	ctx := context.Background()
	w := &runtypes.Workload{Strategy: "eapm", Name: "w", Data: []byte(`{}`)}
	if err := s.CreateWorkload(ctx, w); err != nil {
		b.Fatal(err)
	}
	const n = 100_000
	e := &Experiment{Strategy: "eapm", Definition: json.RawMessage(`{}`)}
	start := time.Now()
	err = s.FillExperiment(ctx, e, runtypes.Run{WorkloadID: w.ID, Strategy: "eapm", Variant: "online",
		Params: map[string]string{"gamma": "1.3", "order": "fifo"}}, n,
		func(i int) ExperimentCell {
			return ExperimentCell{Cell: json.RawMessage(`{"gamma":"1.3","instance":` + strconv.Itoa(i/100) + `}`), Replicate: i % 100}
		},
		func(i int) []Metric {
			return []Metric{{"objective", float64(i)}, {"energy", float64(i) / 3}, {"time", 1}}
		})
	if err != nil {
		b.Fatal(err)
	}
	b.Logf("filled %d runs in %v", n, time.Since(start))
	b.ResetTimer()
	for b.Loop() {
		ers, err := s.ExperimentResults(ctx, e.ID)
		if err != nil {
			b.Fatal(err)
		}
		if len(ers) != n || len(ers[n-1].Metrics) != 3 {
			b.Fatalf("%d runs, last %+v", len(ers), ers[n-1])
		}
	}
}
