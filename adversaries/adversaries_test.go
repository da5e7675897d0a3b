package adversaries

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"schedlab/execute"
	"schedlab/report"
	"schedlab/runner"
	"schedlab/solvers"
	"schedlab/solvers/adversary"
	"schedlab/solvers/registry"
	"schedlab/store"
)

// small is a critical search of a few dozen runs: list against heft on
// random graphs of 8 tasks, 4 restarts.
func small(seed int64) Spec {
	return Spec{Strategy: "critical", A: "list", B: "heft", Metric: "makespan", Preset: "random",
		PresetParams: map[string]string{"tasks": "8", "layers": "3"}, Budget: 24, Restarts: 4, Seed: seed}
}

// inProcess runs spec as `schedlab adversary` does: every run in this
// process, the batch's runs in reverse order (completion order must not
// matter).
func inProcess(t *testing.T, spec Spec) *adversary.Result {
	t.Helper()
	ctx := context.Background()
	st, _ := registry.Lookup(spec.Strategy)
	var budget solvers.Budget
	run := func(ctx context.Context, w *solvers.Workload, s adversary.Side) (*report.Report, error) {
		return execute.Run(ctx, st, w, s.Variant, s.Params, nil, budget)
	}
	s, err := Build(ctx, st, spec, nil, budget, run)
	if err != nil {
		t.Fatal(err)
	}
	eval := func(ctx context.Context, batch []*solvers.Workload) ([]adversary.Outcome, error) {
		outs := make([]adversary.Outcome, len(batch))
		for i := len(batch) - 1; i >= 0; i-- {
			ra, ea := run(ctx, batch[i], s.Config.A)
			rb, eb := run(ctx, batch[i], s.Config.B)
			outs[i] = adversary.Outcome{A: adversary.SideOf(ra, ea, spec.Metric), B: adversary.SideOf(rb, eb, spec.Metric)}
		}
		return outs, nil
	}
	res, err := adversary.Search(ctx, s.Config, s.Family, eval, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// server is a store, a runner (its in-process pool claiming from the
// queue) and a driver over them.
type server struct {
	st  *store.Store
	rn  *runner.Runner
	drv *Driver
}

func open(t *testing.T, path string) *server { return openWith(t, path, Options{}) }

func openWith(t *testing.T, path string, opt Options) *server {
	t.Helper()
	st, err := store.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	s := &server{st: st}
	s.rn = runner.New(st, registry.Lookup, runner.Options{Workers: 2, Ended: func() {
		if s.drv != nil {
			s.drv.Kick()
		}
	}})
	s.drv = New(st, s.rn, registry.Lookup, opt)
	if err := s.rn.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	return s
}

// end waits for search id to end here and reads it.
func (s *server) end(t *testing.T, id string) *State {
	t.Helper()
	if err := s.drv.Wait(context.Background(), id); err != nil {
		t.Fatal(err)
	}
	got, err := s.drv.State(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	return got
}

func (s *server) close(t *testing.T) {
	t.Helper()
	ctx := context.Background()
	if err := s.drv.Shutdown(ctx); err != nil {
		t.Error(err)
	}
	if err := s.rn.Shutdown(ctx); err != nil {
		t.Error(err)
	}
	if err := s.st.Close(); err != nil {
		t.Error(err)
	}
}

// TestWorkerPathIsTheInProcessSearch: one seed, the same best instance
// and score whether the runs execute in this process one after another
// or are queued and claimed by the runner's workers, two at once.
func TestWorkerPathIsTheInProcessSearch(t *testing.T) {
	spec := small(5)
	want := inProcess(t, spec)
	s := open(t, filepath.Join(t.TempDir(), "db"))
	defer s.close(t)
	ctx := context.Background()
	a, err := s.drv.Create(ctx, spec, "")
	if err != nil {
		t.Fatal(err)
	}
	got := s.end(t, a.ID)
	if got.Status != store.SearchDone || got.Error != "" {
		t.Fatalf("the search ended %s: %s", got.Status, got.Error)
	}
	wb := want.Evaluations[want.Best]
	if got.Best == nil || got.Best.Key != wb.Key || got.Best.Score != wb.Score || got.Best.Index != wb.Index {
		t.Fatalf("worker path best %+v, in process %d %s score %v", got.Best, wb.Index, wb.Key, wb.Score)
	}
	if len(got.Evaluations) != len(want.Evaluations) {
		t.Errorf("%d evaluations stored, the in-process search made %d", len(got.Evaluations), len(want.Evaluations))
	}
	for i, e := range got.Evaluations {
		if w := want.Evaluations[i]; e.Key != w.Key || e.Score != w.Score || e.Accept != w.Accept {
			t.Fatalf("evaluation %d: %s %v %v, in process %s %v %v", i, e.Key, e.Score, e.Accept, w.Key, w.Score, w.Accept)
		}
	}
	// The best instance is an ordinary workload, its data the instance's,
	// named with the search that found it.
	w, err := s.st.GetWorkloadData(ctx, got.BestWorkloadID)
	if err != nil {
		t.Fatal(err)
	}
	if adversary.Key(&solvers.Workload{Data: w.Data}) != wb.Key || !contains(w.Summary, a.ID) || !contains(w.Summary, "seed 5") {
		t.Errorf("the saved best: %s %q", w.SHA256, w.Summary)
	}
	if of, err := s.st.AdversarySearchOf(ctx, w.ID); err != nil || of == nil || of.ID != a.ID {
		t.Errorf("the best's search: %v, %v", of, err)
	}
	// Only the best candidate keeps its runs.
	runs, err := s.st.ListRuns(ctx, store.RunFilter{})
	if err != nil {
		t.Fatal(err)
	}
	if len(runs) != 2 || runs[0].WorkloadID != w.ID || runs[1].WorkloadID != w.ID {
		t.Errorf("%d runs left, want the best's two", len(runs))
	}
}

func contains(s, sub string) bool { return strings.Contains(s, sub) }

// TestResumeAfterAStop: the server stops while a search is under way:
// its runner stops once the search has stored 8 evaluations, so the
// next batch is submitted and never runs, then the search and the store
// stop. Started again on the same database, the search goes on from its
// stored evaluations, finds the batch it had submitted, and ends with
// the uninterrupted search's best instance, score and number of
// evaluations, each instance run once.
func TestResumeAfterAStop(t *testing.T) {
	spec := small(7)
	want := inProcess(t, spec)
	path := filepath.Join(t.TempDir(), "db")
	ctx := context.Background()
	stop := make(chan int, 1)
	var s *server
	s = openWith(t, path, Options{Recorded: func(_ string, n int) {
		if n >= 8 && len(stop) == 0 && cap(stop) == 1 {
			if err := s.rn.Shutdown(ctx); err != nil {
				t.Error(err)
			}
			stop <- n
		}
	}})
	a, err := s.drv.Create(ctx, spec, "")
	if err != nil {
		t.Fatal(err)
	}
	at := <-stop
	// The batch after the 8th evaluation is submitted, its runs queued.
	for {
		kick := s.drv.kicked()
		cands, err := s.st.AdversaryCandidates(ctx, a.ID)
		if err != nil {
			t.Fatal(err)
		}
		if len(cands) > 1 { // the best's, and the batch's
			break
		}
		<-kick
	}
	s.close(t)
	mid, err := store.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	was, err := mid.GetAdversarySearch(ctx, a.ID)
	if err != nil {
		t.Fatal(err)
	}
	mid.Close()
	if was.Status != store.SearchRunning || was.Evaluations != at || was.Evaluations >= len(want.Evaluations) {
		t.Fatalf("stopped: %s with %d evaluations (told %d, the whole search makes %d)", was.Status, was.Evaluations, at, len(want.Evaluations))
	}

	s = open(t, path)
	defer s.close(t)
	if err := s.drv.Start(ctx); err != nil {
		t.Fatal(err)
	}
	got := s.end(t, a.ID)
	wb := want.Evaluations[want.Best]
	if got.Status != store.SearchDone || got.Best == nil || got.Best.Key != wb.Key || got.Best.Score != wb.Score {
		t.Fatalf("resumed: %s %s best %+v; uninterrupted best %s %v", got.Status, got.Error, got.Best, wb.Key, wb.Score)
	}
	if len(got.Evaluations) != len(want.Evaluations) {
		t.Errorf("%d evaluations after the resume, %d uninterrupted", len(got.Evaluations), len(want.Evaluations))
	}
	ran := 0
	for i, e := range got.Evaluations {
		if !e.Replay {
			ran++
		}
		if w := want.Evaluations[i]; e.Key != w.Key || e.Score != w.Score {
			t.Fatalf("evaluation %d: %s %v, uninterrupted %s %v", i, e.Key, e.Score, w.Key, w.Score)
		}
	}
	if ran != want.Ran {
		t.Errorf("%d instances run before and after the stop, %d uninterrupted", ran, want.Ran)
	}
}

// TestDirectionOfAFamilyWithoutDeclarationsFromAQueuedRun: eapm declares
// no metrics, so the server reads the metric's direction from a queued
// run of the first instance (no run in the server), and the search is
// still the in-process one; a metric its reports lack ends the search
// failed, naming the metric.
func TestDirectionOfAFamilyWithoutDeclarationsFromAQueuedRun(t *testing.T) {
	spec := Spec{Strategy: "eapm", A: "online", B: "greedy-max-objective", Metric: "objective", Preset: "zhang2022-case1",
		Budget: 6, Restarts: 2, Seed: 3}
	want := inProcess(t, spec)
	s := open(t, filepath.Join(t.TempDir(), "db"))
	defer s.close(t)
	ctx := context.Background()
	a, err := s.drv.Create(ctx, spec, "")
	if err != nil {
		t.Fatal(err)
	}
	got := s.end(t, a.ID)
	wb := want.Evaluations[want.Best]
	if got.Status != store.SearchDone || got.Best == nil || got.Best.Key != wb.Key || got.Best.Score != wb.Score || got.Spec.Better != report.Higher {
		t.Fatalf("%s %s best %+v better %q; in process %s %v", got.Status, got.Error, got.Best, got.Spec.Better, wb.Key, wb.Score)
	}
	spec.Metric = "nope"
	a, err = s.drv.Create(ctx, spec, "")
	if err != nil {
		t.Fatal(err)
	}
	if got := s.end(t, a.ID); got.Status != store.SearchFailed || !strings.Contains(got.Error, `unknown metric "nope"`) {
		t.Errorf("an unknown metric: %s %q", got.Status, got.Error)
	}
}
