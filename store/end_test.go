package store

import (
	"context"
	"encoding/json"
	"reflect"
	"testing"

	"schedlab/errs"
)

// TestEndStoresEachEndingOfAGroupOnItsOwn stores a group of endings in one
// End: good ones are stored with their reports, metrics and last progress;
// each bad one gets its own error and does not stop the others.
func TestEndStoresEachEndingOfAGroupOnItsOwn(t *testing.T) {
	s, _ := openTemp(t)
	ctx := context.Background()
	w := addWorkload(t, s, "eapm")
	var running []*Run
	for range 4 {
		r := addRun(t, s, w)
		claim(t, s, r.ID)
		running = append(running, r)
	}
	queued := addRun(t, s, w)
	canceled := running[3]
	if err := s.Finish(ctx, canceled.ID, StatusCanceled, nil, MsgCanceled, ""); err != nil {
		t.Fatal(err)
	}
	got := s.End(ctx, []Ending{
		{ID: running[0].ID, Status: StatusDone, Report: json.RawMessage(reportWithMetrics), Progress: &Progress{Done: 9, Total: 10, Note: "last user"}},
		{ID: running[1].ID, Status: StatusFailed, Error: "gamma must be ≥ 1", ErrorField: "gamma", Worker: "host:7"},
		{ID: running[2].ID, Status: "running"},
		{ID: canceled.ID, Status: StatusDone, Report: json.RawMessage(`{}`)},
		{ID: queued.ID, Status: StatusDone},
		{ID: "nope", Status: StatusDone},
		{ID: running[2].ID, Status: StatusDone, Report: json.RawMessage(`{"metrics": [`)},
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
	if done.Status != StatusDone || done.ProgressDone != 9 || done.ProgressTotal != 10 || done.ProgressNote != "last user" || done.FinishedAt == nil {
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
	if failed.Status != StatusFailed || failed.Error != "gamma must be ≥ 1" || failed.ErrorField != "gamma" || failed.Worker != "host:7" {
		t.Errorf("failed run = %+v", failed)
	}
	for _, id := range []string{running[2].ID, queued.ID, canceled.ID} {
		r, err := s.GetRun(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		if want := map[string]string{running[2].ID: StatusRunning, queued.ID: StatusQueued, canceled.ID: StatusCanceled}[id]; r.Status != want || len(r.Report) != 0 {
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
	if err := s.End(ctx, []Ending{{ID: r.ID, Status: StatusInterrupted, Error: MsgInterrupted}})[0]; err != nil {
		t.Fatal(err)
	}
	got, err := s.GetRun(ctx, r.ID)
	if err != nil {
		t.Fatal(err)
	}
	if got.Status != StatusInterrupted || got.ProgressDone != 3 || got.ProgressTotal != 8 || got.ProgressNote != "halfway" {
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
