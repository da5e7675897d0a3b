package store

import (
	"context"
	"encoding/json"
	"reflect"
	"testing"
	"time"

	"schedlab/errs"
	"schedlab/runtypes"
)

// TestEndStoresEachEndingOfAGroupOnItsOwn stores a group of endings in one
// End: good ones are stored with their reports, metrics and last progress;
// each bad one gets its own error and does not stop the others.
func TestEndStoresEachEndingOfAGroupOnItsOwn(t *testing.T) {
	s, _ := openTemp(t)
	ctx := context.Background()
	w := addWorkload(t, s, "eapm")
	var running []*runtypes.Run
	for range 4 {
		r := addRun(t, s, w)
		claim(t, s, r.ID)
		running = append(running, r)
	}
	queued := addRun(t, s, w)
	canceled := running[3]
	if err := s.Finish(ctx, canceled.ID, runtypes.StatusCanceled, nil, runtypes.MsgCanceled, ""); err != nil {
		t.Fatal(err)
	}
	got := s.End(ctx, []Ending{
		{ID: running[0].ID, Status: runtypes.StatusDone, Report: json.RawMessage(reportWithMetrics), Progress: &Progress{Done: 9, Total: 10, Note: "last user"}},
		{ID: running[1].ID, Status: runtypes.StatusFailed, Error: "gamma must be ≥ 1", ErrorField: "gamma", Worker: "host:7"},
		{ID: running[2].ID, Status: "running"},
		{ID: canceled.ID, Status: runtypes.StatusDone, Report: json.RawMessage(`{}`)},
		{ID: queued.ID, Status: runtypes.StatusDone},
		{ID: "nope", Status: runtypes.StatusDone},
		{ID: running[2].ID, Status: runtypes.StatusDone, Report: json.RawMessage(`{"metrics": [`)},
	})
	const ok = errs.Kind(-1)
	want := []errs.Kind{ok, ok, errs.Invalid, errs.Conflict, errs.Conflict, errs.NotFound, errs.Invalid}
	for i, err := range got {
		if k := errs.KindOf(err); (err == nil) != (want[i] == ok) || err != nil && k != want[i] {
			t.Errorf("ending %d: error %v (kind %v), want kind %v", i, err, k, want[i])
		}
	}
	done, err := s.GetRun(ctx, running[0].ID)
	if err != nil {
		t.Fatal(err)
	}
	if done.Status != runtypes.StatusDone || done.ProgressDone != 9 || done.ProgressTotal != 10 || done.ProgressNote != "last user" || done.FinishedAt == nil {
		t.Errorf("done run = %+v, want done with progress 9/10 \"last user\" and a finish time", done)
	}
	if !json.Valid(done.Report) || len(done.Report) == 0 {
		t.Errorf("done run's report %q", done.Report)
	}
	if m := storedMetrics(t, s, done.ID); !reflect.DeepEqual(m, wantMetrics) {
		t.Errorf("metrics %v, want %v", m, wantMetrics)
	}
	failed, err := s.GetRun(ctx, running[1].ID)
	if err != nil {
		t.Fatal(err)
	}
	if failed.Status != runtypes.StatusFailed || failed.Error != "gamma must be ≥ 1" || failed.ErrorField != "gamma" || failed.Worker != "host:7" {
		t.Errorf("failed run = %+v", failed)
	}
	for _, id := range []string{running[2].ID, queued.ID, canceled.ID} {
		r, err := s.GetRun(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		if want := map[string]string{running[2].ID: runtypes.StatusRunning, queued.ID: runtypes.StatusQueued, canceled.ID: runtypes.StatusCanceled}[id]; r.Status != want || len(r.Report) != 0 {
			t.Errorf("run %s is %s with report %q, want %s and none", id, r.Status, r.Report, want)
		}
	}
}

// TestEndKeepsTheStoredProgressWithoutANewOne: an ending without progress
// leaves what the run last stored.
func TestEndKeepsTheStoredProgressWithoutANewOne(t *testing.T) {
	s, _ := openTemp(t)
	ctx := context.Background()
	r := addRun(t, s, addWorkload(t, s, "eapm"))
	claim(t, s, r.ID)
	if err := s.SetProgress(ctx, r.ID, 3, 8, "halfway"); err != nil {
		t.Fatal(err)
	}
	if err := s.End(ctx, []Ending{{ID: r.ID, Status: runtypes.StatusInterrupted, Error: runtypes.MsgInterrupted}})[0]; err != nil {
		t.Fatal(err)
	}
	got, err := s.GetRun(ctx, r.ID)
	if err != nil {
		t.Fatal(err)
	}
	if got.Status != runtypes.StatusInterrupted || got.ProgressDone != 3 || got.ProgressTotal != 8 || got.ProgressNote != "halfway" {
		t.Errorf("run = %+v, want interrupted at 3/8 \"halfway\"", got)
	}
}

func TestMetricsOfReadsTheTopLevelMetricsWhereverTheyAre(t *testing.T) {
	for report, want := range map[string]string{
		`{"metrics":[{"name":"a","value":1}],"tables":[]}`:           `[{"name":"a","value":1}]`,
		`{"title":"x","tables":[{"metrics":[1]}],"metrics":{"a":1}}`: `{"a":1}`,
		`{"title":"x"}`:    ``,
		`[{"metrics":[]}]`: ``,
		`{"gantts":[{"bars":[{"name":"metrics"}]}], "metrics" : [ ] , "x": 1}`: `[ ]`,
	} {
		if got := string(metricsOf(json.RawMessage(report))); got != want {
			t.Errorf("metricsOf(%s) = %q, want %q", report, got, want)
		}
	}
}

// TestClaimUpToKeepsAnExperimentsOrder claims an experiment's runs, which
// share one creation time, in the order they were stored: the claim's one
// statement returns them in an order SQLite does not promise (RETURNING),
// so ClaimUpTo sorts them by creation and rowid; IDs are random, so a sort
// by anything else fails here.
func TestClaimUpToKeepsAnExperimentsOrder(t *testing.T) {
	s, _ := openTemp(t)
	ctx := context.Background()
	w := addWorkload(t, s, "eapm")
	runs, cells := sweep(w, []string{"online"}, []string{"1.1"}, 40)
	if err := s.CreateExperiment(ctx, &Experiment{Name: "order", Strategy: "eapm", Definition: json.RawMessage(`{}`)}, runs, cells); err != nil {
		t.Fatal(err)
	}
	var want, got []string
	for _, r := range runs {
		want = append(want, r.ID)
	}
	for _, n := range []int{7, 16, 40} {
		claimed, err := s.ClaimUpTo(ctx, n)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range claimed {
			got = append(got, r.ID)
		}
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("claimed in the order\n%v\nwant the order stored\n%v", got, want)
	}
}

// TestClaimUpToClaimsTheOldestInOrderAndUnclaimRequeues claims runs in
// groups, oldest first, and puts unstarted ones back as they were.
func TestClaimUpToClaimsTheOldestInOrderAndUnclaimRequeues(t *testing.T) {
	s, _ := openTemp(t)
	ctx := context.Background()
	w := addWorkload(t, s, "eapm")
	var ids []string
	for range 5 {
		ids = append(ids, addRun(t, s, w).ID)
	}
	idsOf := func(runs []*runtypes.Run) []string {
		var out []string
		for _, r := range runs {
			if r.Status != runtypes.StatusRunning || r.StartedAt != nil || !r.Waiting() {
				t.Fatalf("claimed run %s is %s, started %v; want running and waiting", r.ID, r.Status, r.StartedAt)
			}
			out = append(out, r.ID)
		}
		return out
	}
	first, err := s.ClaimUpTo(ctx, 3)
	if err != nil || !reflect.DeepEqual(idsOf(first), ids[:3]) {
		t.Fatalf("ClaimUpTo(3) = %v, %v; want %v", idsOf(first), err, ids[:3])
	}
	rest, err := s.ClaimUpTo(ctx, 5)
	if err != nil || !reflect.DeepEqual(idsOf(rest), ids[3:]) {
		t.Fatalf("ClaimUpTo(5) = %v, %v; want %v", idsOf(rest), err, ids[3:])
	}
	if none, err := s.ClaimUpTo(ctx, 4); err != nil || len(none) != 0 {
		t.Fatalf("ClaimUpTo on an empty queue = %v, %v", none, err)
	}
	if err := s.Finish(ctx, ids[4], runtypes.StatusCanceled, nil, runtypes.MsgCanceled, ""); err != nil {
		t.Fatal(err)
	}
	if err := s.Unclaim(ctx, []string{ids[1], ids[4]}); err != nil {
		t.Fatal(err)
	}
	back, _ := s.GetRun(ctx, ids[1])
	if back.Status != runtypes.StatusQueued || back.StartedAt != nil {
		t.Fatalf("unclaimed run is %s, started %v; want queued, never started", back.Status, back.StartedAt)
	}
	if c, _ := s.GetRun(ctx, ids[4]); c.Status != runtypes.StatusCanceled {
		t.Fatalf("Unclaim changed a canceled run to %s", c.Status)
	}
	claim(t, s, ids[1])
}

// A claimed run is waiting (shown queued, no start) until a worker starts
// it: MarkStarted or its Ending's StartedAt give the start, the first one
// stored is kept, and a run canceled while waiting never gets one.
func TestARunStartsWhenAWorkerStartsItNotWhenClaimed(t *testing.T) {
	s, _ := openTemp(t)
	ctx := context.Background()
	w := addWorkload(t, s, "eapm")
	a, b, c := addRun(t, s, w), addRun(t, s, w), addRun(t, s, w)
	if _, err := s.ClaimUpTo(ctx, 3); err != nil {
		t.Fatal(err)
	}
	get := func(id string) *runtypes.Run {
		t.Helper()
		r, err := s.GetRunInfo(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	if r := get(a.ID); r.StartedAt != nil || r.Shown() != runtypes.StatusQueued {
		t.Fatalf("claimed: started %v, shown %s", r.StartedAt, r.Shown())
	}
	t1 := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	t2 := t1.Add(time.Minute)
	if err := s.MarkStarted(ctx, a.ID, t1); err != nil {
		t.Fatal(err)
	}
	if r := get(a.ID); r.StartedAt == nil || !r.StartedAt.Equal(t1) || r.Shown() != runtypes.StatusRunning {
		t.Fatalf("marked: started %v, shown %s", r.StartedAt, r.Shown())
	}
	errs := s.End(ctx, []Ending{
		{ID: a.ID, Status: runtypes.StatusDone, StartedAt: t2},                   // keeps t1
		{ID: b.ID, Status: runtypes.StatusDone, StartedAt: t2},                   // gets t2
		{ID: c.ID, Status: runtypes.StatusCanceled, Error: runtypes.MsgCanceled}, // never started
	})
	for _, err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	if r := get(a.ID); !r.StartedAt.Equal(t1) {
		t.Errorf("a: started %v, want the first start %v", r.StartedAt, t1)
	}
	if r := get(b.ID); r.StartedAt == nil || !r.StartedAt.Equal(t2) {
		t.Errorf("b: started %v, want %v", r.StartedAt, t2)
	}
	if r := get(c.ID); r.StartedAt != nil || r.Shown() != runtypes.StatusCanceled {
		t.Errorf("c: started %v, shown %s", r.StartedAt, r.Shown())
	}
}
