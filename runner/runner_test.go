package runner

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"reflect"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"strings"
	"testing"
	"time"

	"schedlab/errs"
	"schedlab/execute"
	"schedlab/report"
	"schedlab/runner/runnertest"
	"schedlab/runtypes"
	"schedlab/solvers"
	"schedlab/store"
)

const fakeName = "fake"

type env struct {
	st   *store.Store
	rn   *Runner
	fake *runnertest.Fake
	wl   *runtypes.Workload
	opt  Options
}

// newEnv opens a fresh store with one fake workload and builds a runner,
// not started.
func newEnv(t *testing.T, opt Options) *env {
	t.Helper()
	st, err := store.Open(filepath.Join(t.TempDir(), "runner.db"))
	if err != nil {
		t.Fatal(err)
	}
	fake := runnertest.New(fakeName)
	other := runnertest.New("other")
	wl := &runtypes.Workload{Strategy: fakeName, Name: "w", Format: "json", Data: []byte(`{"n":5}`)}
	if err := st.CreateWorkload(context.Background(), wl); err != nil {
		t.Fatal(err)
	}
	if opt.PollInterval == 0 {
		opt.PollInterval = 50 * time.Millisecond
	}
	if opt.ProgressInterval == 0 {
		opt.ProgressInterval = 10 * time.Millisecond
	}
	rn := New(st, runnertest.Lookup(fake.Strategy, other.Strategy), opt)
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		if err := rn.Shutdown(ctx); err != nil {
			t.Errorf("Shutdown: %v", err)
		}
		st.Close()
	})
	return &env{st: st, rn: rn, fake: fake, wl: wl, opt: opt}
}

func (e *env) start(t *testing.T) {
	t.Helper()
	if err := e.rn.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
}

func (e *env) submit(t *testing.T, variant string, params solvers.Params) *runtypes.Run {
	t.Helper()
	r, err := e.rn.Submit(context.Background(), &runtypes.Run{Kind: runtypes.KindRun, WorkloadID: e.wl.ID,
		Strategy: fakeName, Variant: variant, Params: params, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// wait polls the store until the run satisfies ok, or fails the test.
func (e *env) wait(t *testing.T, id string, what string, ok func(*runtypes.Run) bool) *runtypes.Run {
	t.Helper()
	var r *runtypes.Run
	for deadline := time.Now().Add(15 * time.Second); time.Now().Before(deadline); time.Sleep(5 * time.Millisecond) {
		var err error
		if r, err = e.st.GetRun(context.Background(), id); err != nil {
			t.Fatal(err)
		}
		if ok(r) {
			return r
		}
	}
	t.Fatalf("run %s never %s (status %s, error %q)", id, what, r.Status, r.Error)
	return nil
}

func (e *env) waitFinal(t *testing.T, id string) *runtypes.Run {
	t.Helper()
	return e.wait(t, id, "finished", func(r *runtypes.Run) bool { return runtypes.Final(r.Status) })
}

func (e *env) waitRunning(t *testing.T, id string) *runtypes.Run {
	t.Helper()
	return e.wait(t, id, "running", func(r *runtypes.Run) bool { return r.Status == runtypes.StatusRunning })
}

func (e *env) count(t *testing.T) int {
	t.Helper()
	rs, err := e.st.ListRuns(context.Background(), store.RunFilter{})
	if err != nil {
		t.Fatal(err)
	}
	return len(rs)
}

func TestRunGoesQueuedRunningDoneWithReportAndProgress(t *testing.T) {
	e := newEnv(t, Options{})
	r := e.submit(t, "", solvers.Params{"steps": "4", "step_ms": "60"})
	if r.Status != runtypes.StatusQueued || r.Variant != runnertest.VariantOK {
		t.Fatalf("submitted run is %s with variant %q, want queued with the first variant", r.Status, r.Variant)
	}
	if r.Params["steps"] != "4" || r.Params["wait_ms"] != "10000" || r.Params["alloc_mb"] != "2048" {
		t.Errorf("stored params %v: want the given ones and every default filled", r.Params)
	}
	if got, _ := e.st.GetRun(context.Background(), r.ID); got.Status != runtypes.StatusQueued {
		t.Fatalf("before Start the run is %s", got.Status)
	}
	e.start(t)

	mid := e.wait(t, r.ID, "running with progress stored", func(r *runtypes.Run) bool {
		return r.Status == runtypes.StatusRunning && r.ProgressDone >= 1
	})
	if mid.StartedAt == nil || mid.ProgressTotal != 4 {
		t.Errorf("running run: started %v, progress %d/%d", mid.StartedAt, mid.ProgressDone, mid.ProgressTotal)
	}
	if _, total, note, ok := e.rn.Progress(r.ID); !ok || total != 4 || !strings.HasPrefix(note, "step ") {
		t.Errorf("live progress of a running run: total %d note %q ok %v", total, note, ok)
	}

	done := e.waitFinal(t, r.ID)
	if done.Status != runtypes.StatusDone || done.Error != "" {
		t.Fatalf("run ended %s: %s", done.Status, done.Error)
	}
	var rep report.Report
	if err := json.Unmarshal(done.Report, &rep); err != nil {
		t.Fatalf("stored report %s: %v", done.Report, err)
	}
	if m, ok := rep.Metric("objective"); !ok || m.Value != 5 {
		t.Errorf("report metrics %+v, want objective 5 (the workload's n)", rep.Metrics)
	}
	if done.ProgressDone != 4 || done.ProgressTotal != 4 || done.ProgressNote != "step 4 of 4" {
		t.Errorf("final progress %d/%d %q, want 4/4 \"step 4 of 4\"", done.ProgressDone, done.ProgressTotal, done.ProgressNote)
	}
	if done.StartedAt == nil || done.FinishedAt == nil || done.FinishedAt.Before(*done.StartedAt) {
		t.Errorf("times: started %v finished %v", done.StartedAt, done.FinishedAt)
	}
	if _, _, _, ok := e.rn.Progress(r.ID); ok {
		t.Error("a finished run still has live progress")
	}
}

func TestFailingStrategyFailsTheRunKeepingErrorAndField(t *testing.T) {
	e := newEnv(t, Options{})
	e.start(t)
	r := e.waitFinal(t, e.submit(t, runnertest.VariantFail, nil).ID)
	if r.Status != runtypes.StatusFailed || r.ErrorField != runnertest.FailField ||
		r.Error != "deliberate failure of the test strategy" || r.Report != nil {
		t.Errorf("failed run: status %s, field %q, error %q, report %s", r.Status, r.ErrorField, r.Error, r.Report)
	}
}

func TestTimeLimitStopsTheRunWithAClearMessage(t *testing.T) {
	e := newEnv(t, Options{Timeout: 100 * time.Millisecond})
	e.start(t)
	begin := time.Now()
	r := e.waitFinal(t, e.submit(t, runnertest.VariantWait, nil).ID)
	if r.Status != runtypes.StatusFailed || r.Error != "run stopped: exceeded its time limit of 100ms" {
		t.Errorf("timed-out run: status %s, error %q", r.Status, r.Error)
	}
	if d := time.Since(begin); d > 5*time.Second {
		t.Errorf("the run took %v to stop after a 100ms limit", d)
	}
	_, err := execute.Run(context.Background(), e.fake.Strategy, &solvers.Workload{Data: []byte(`{"n":1}`)}, runnertest.VariantWait, nil, nil,
		solvers.Budget{Timeout: 30 * time.Millisecond})
	if errs.KindOf(err) != errs.TooLarge || err.Error() != "run stopped: exceeded its time limit of 30ms" {
		t.Errorf("Execute past its time limit: %v (%v), want TooLarge with the limit", err, errs.KindOf(err))
	}
}

func TestPanicFailsTheRunAndTheWorkerServesTheNext(t *testing.T) {
	e := newEnv(t, Options{Workers: 1})
	e.start(t)
	bad := e.submit(t, runnertest.VariantPanic, nil)
	good := e.submit(t, runnertest.VariantOK, nil)
	r := e.waitFinal(t, bad.ID)
	want := "internal error in strategy fake: " + runnertest.PanicValue
	if r.Status != runtypes.StatusFailed || r.Error != want {
		t.Errorf("panicking run: status %s, error %q; want failed, %q", r.Status, r.Error, want)
	}
	if r := e.waitFinal(t, good.ID); r.Status != runtypes.StatusDone {
		t.Errorf("the run after a panic ended %s: %s", r.Status, r.Error)
	}
	_, err := execute.Reproduce(context.Background(), e.fake.Strategy, solvers.Params{"mode": runnertest.VariantPanic}, nil, solvers.Budget{})
	var pe *execute.PanicError
	if errs.KindOf(err) != errs.Internal || !asPanic(err, &pe) || len(pe.Stack) == 0 {
		t.Errorf("ExecuteReproduce of a panic: %v, want Internal with a PanicError and its stack", err)
	}
}

func asPanic(err error, pe **execute.PanicError) bool {
	for e := err; e != nil; {
		if p, ok := e.(*execute.PanicError); ok {
			*pe = p
			return true
		}
		u, ok := e.(interface{ Unwrap() error })
		if !ok {
			return false
		}
		e = u.Unwrap()
	}
	return false
}

func heapNow() uint64 {
	s := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	metrics.Read(s)
	return s[0].Value.Uint64()
}

func TestMemoryBudgetStopsAnAllocatingRun(t *testing.T) {
	defer debug.FreeOSMemory()
	runtime.GC()
	budget := int64(heapNow()) + 64<<20
	e := newEnv(t, Options{MemoryBudget: budget})
	e.start(t)
	r := e.waitFinal(t, e.submit(t, runnertest.VariantAlloc, nil).ID)
	want := "run stopped: Go heap exceeded the memory budget of " + report.FormatBytes(int64(budget))
	if r.Status != runtypes.StatusFailed || r.Error != want {
		t.Errorf("allocating run: status %s, error %q; want failed, %q", r.Status, r.Error, want)
	}
	runtime.GC()
	_, err := execute.Run(context.Background(), e.fake.Strategy, &solvers.Workload{Data: []byte(`{"n":1}`)}, runnertest.VariantAlloc, nil, nil,
		solvers.Budget{Memory: int64(heapNow()) + 32<<20})
	if errs.KindOf(err) != errs.TooLarge || !strings.Contains(err.Error(), "memory budget") {
		t.Errorf("Execute over its memory budget: %v (%v), want TooLarge", err, errs.KindOf(err))
	}
}

func TestCancelOfARunningRun(t *testing.T) {
	e := newEnv(t, Options{})
	e.start(t)
	r := e.submit(t, runnertest.VariantWait, nil) // waits up to 10 s unless canceled
	e.waitRunning(t, r.ID)
	begin := time.Now()
	if err := e.rn.Cancel(context.Background(), r.ID); err != nil {
		t.Fatal(err)
	}
	got := e.waitFinal(t, r.ID)
	if got.Status != runtypes.StatusCanceled || got.Error != runtypes.MsgCanceled {
		t.Errorf("canceled running run: %s %q", got.Status, got.Error)
	}
	if d := time.Since(begin); d > 5*time.Second {
		t.Errorf("cancel took %v", d)
	}
	err := e.rn.Cancel(context.Background(), r.ID)
	if errs.KindOf(err) != errs.Conflict {
		t.Errorf("Cancel of a canceled run: %v, want Conflict", err)
	}
}

func TestCancelOfAQueuedRunIsImmediate(t *testing.T) {
	e := newEnv(t, Options{})
	r := e.submit(t, runnertest.VariantOK, nil) // not started: stays queued
	if err := e.rn.Cancel(context.Background(), r.ID); err != nil {
		t.Fatal(err)
	}
	got, _ := e.st.GetRun(context.Background(), r.ID)
	if got.Status != runtypes.StatusCanceled || got.FinishedAt == nil {
		t.Fatalf("canceled queued run is %s", got.Status)
	}
	e.start(t)
	ok := e.submit(t, runnertest.VariantOK, nil)
	e.waitFinal(t, ok.ID)
	if n := e.fake.Started(); n != 1 {
		t.Errorf("strategy started %d times, want once: the canceled run must never execute", n)
	}
	if err := e.rn.Cancel(context.Background(), ok.ID); errs.KindOf(err) != errs.Conflict {
		t.Errorf("Cancel of a done run: %v, want Conflict", err)
	}
	if err := e.rn.Cancel(context.Background(), "nosuchrunx"); errs.KindOf(err) != errs.NotFound {
		t.Errorf("Cancel of an unknown run: %v, want NotFound", err)
	}
}

func TestSubmitRejectsBadInputAndStoresNothing(t *testing.T) {
	e := newEnv(t, Options{})
	ctx := context.Background()
	otherW := &runtypes.Workload{Strategy: "other", Name: "o", Data: []byte(`{"n":1}`)}
	if err := e.st.CreateWorkload(ctx, otherW); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name  string
		run   runtypes.Run
		kind  errs.Kind
		field string
	}{
		{"unknown strategy", runtypes.Run{WorkloadID: e.wl.ID, Strategy: "nosuch"}, errs.NotFound, "strategy"},
		{"no strategy", runtypes.Run{WorkloadID: e.wl.ID}, errs.Invalid, "strategy"},
		{"bad kind", runtypes.Run{Kind: "sweep", WorkloadID: e.wl.ID, Strategy: fakeName}, errs.Invalid, "kind"},
		{"bad variant", runtypes.Run{WorkloadID: e.wl.ID, Strategy: fakeName, Variant: "magic"}, errs.Invalid, "variant"},
		{"unparsable param", runtypes.Run{WorkloadID: e.wl.ID, Strategy: fakeName, Params: solvers.Params{"steps": "abc"}}, errs.Invalid, "steps"},
		{"param out of range", runtypes.Run{WorkloadID: e.wl.ID, Strategy: fakeName, Params: solvers.Params{"steps": "5000"}}, errs.Invalid, "steps"},
		{"unknown param", runtypes.Run{WorkloadID: e.wl.ID, Strategy: fakeName, Params: solvers.Params{"stepz": "1"}}, errs.Invalid, "stepz"},
		{"no workload", runtypes.Run{Strategy: fakeName}, errs.Invalid, "workload_id"},
		{"missing workload", runtypes.Run{WorkloadID: "zzzzzzzzzz", Strategy: fakeName}, errs.NotFound, "workload_id"},
		{"workload of another strategy", runtypes.Run{WorkloadID: otherW.ID, Strategy: fakeName}, errs.Invalid, "workload_id"},
		{"reproduce with a workload", runtypes.Run{Kind: runtypes.KindReproduce, WorkloadID: e.wl.ID, Strategy: fakeName}, errs.Invalid, "workload_id"},
		{"reproduce with a bad param", runtypes.Run{Kind: runtypes.KindReproduce, Strategy: fakeName, Params: solvers.Params{"mode": "x"}}, errs.Invalid, "mode"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := e.rn.Submit(ctx, &tc.run)
			if errs.KindOf(err) != tc.kind || errs.FieldOf(err) != tc.field {
				t.Errorf("Submit: %v (kind %v, field %q), want kind %v on field %q", err, errs.KindOf(err), errs.FieldOf(err), tc.kind, tc.field)
			}
			if n := e.count(t); n != 0 {
				t.Errorf("%d runs stored after a rejected Submit", n)
			}
		})
	}
}

func TestReproduceRunIsExecutedWithItsOwnParams(t *testing.T) {
	e := newEnv(t, Options{})
	e.start(t)
	r, err := e.rn.Submit(context.Background(), &runtypes.Run{Kind: runtypes.KindReproduce, Strategy: fakeName, Variant: "ignored"})
	if err != nil {
		t.Fatal(err)
	}
	if r.Variant != "" || r.Params["mode"] != runnertest.VariantOK {
		t.Errorf("reproduce run: variant %q, params %v", r.Variant, r.Params)
	}
	if got := e.waitFinal(t, r.ID); got.Status != runtypes.StatusDone || len(got.Report) == 0 {
		t.Errorf("reproduce run ended %s: %s", got.Status, got.Error)
	}
	latest, err := e.st.LatestRun(context.Background(), fakeName, runtypes.KindReproduce)
	if err != nil || latest.ID != r.ID {
		t.Errorf("LatestRun = %v, %v", latest, err)
	}
}

func TestRerunQueuesTheSameInputs(t *testing.T) {
	e := newEnv(t, Options{})
	e.start(t)
	first := e.waitFinal(t, e.submit(t, runnertest.VariantFail, solvers.Params{"steps": "7"}).ID)
	again, err := e.rn.Rerun(context.Background(), first.ID, "")
	if err != nil {
		t.Fatal(err)
	}
	if again.ID == first.ID || again.RerunOf != first.ID || again.Variant != first.Variant || again.Seed != first.Seed ||
		again.WorkloadID != first.WorkloadID || again.Params["steps"] != "7" || again.Kind != runtypes.KindRun {
		t.Errorf("re-run %+v of %+v", again, first)
	}
	if r := e.waitFinal(t, again.ID); r.Status != runtypes.StatusFailed || r.RerunOf != first.ID {
		t.Errorf("re-run ended %s, rerun_of %q", r.Status, r.RerunOf)
	}
	if _, err := e.rn.Rerun(context.Background(), "nosuchrunx", ""); errs.KindOf(err) != errs.NotFound {
		t.Errorf("Rerun of an unknown run: %v", err)
	}
}

func TestShutdownMarksInFlightRunsInterruptedAndLeavesQueuedOnes(t *testing.T) {
	e := newEnv(t, Options{Workers: 1})
	e.start(t)
	inflight := e.submit(t, runnertest.VariantWait, nil)
	e.waitRunning(t, inflight.ID)
	queued := e.submit(t, runnertest.VariantWait, nil)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := e.rn.Shutdown(ctx); err != nil {
		t.Fatal(err)
	}
	r, _ := e.st.GetRun(context.Background(), inflight.ID)
	if r.Status != runtypes.StatusInterrupted || r.Error != runtypes.MsgInterrupted || r.FinishedAt == nil {
		t.Errorf("run in flight at shutdown: %s %q", r.Status, r.Error)
	}
	if q, _ := e.st.GetRun(context.Background(), queued.ID); q.Status != runtypes.StatusQueued {
		t.Errorf("queued run at shutdown became %s", q.Status)
	}
	if err := e.rn.Start(context.Background()); errs.KindOf(err) != errs.Conflict {
		t.Errorf("Start after Shutdown: %v, want Conflict", err)
	}
	// The next process picks the queued run up.
	next := New(e.st, runnertest.Lookup(e.fake.Strategy), Options{PollInterval: 20 * time.Millisecond})
	if err := next.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	defer next.Shutdown(context.Background())
	e.waitRunning(t, queued.ID)
	if err := next.Cancel(context.Background(), queued.ID); err != nil {
		t.Fatal(err)
	}
	e.waitFinal(t, queued.ID)
}

func TestStartMarksRunsLeftRunningInterrupted(t *testing.T) {
	e := newEnv(t, Options{})
	r := e.submit(t, runnertest.VariantOK, nil)
	if c, err := e.st.ClaimNext(context.Background()); err != nil || c.ID != r.ID {
		t.Fatalf("claim: %v %v", c, err)
	} // a previous process claimed it and died
	e.start(t)
	if got, _ := e.st.GetRun(context.Background(), r.ID); got.Status != runtypes.StatusInterrupted {
		t.Errorf("run left running is %s after Start, want interrupted", got.Status)
	}
	if e.fake.Started() != 0 {
		t.Error("an interrupted run was executed again without a re-run")
	}
}

func TestPoolNeverRunsMoreThanWorkers(t *testing.T) {
	e := newEnv(t, Options{Workers: 2})
	var ids []string
	for i := 0; i < 8; i++ {
		ids = append(ids, e.submit(t, runnertest.VariantOK, solvers.Params{"steps": "3", "step_ms": "15"}).ID)
	}
	e.start(t)
	for _, id := range ids {
		if r := e.waitFinal(t, id); r.Status != runtypes.StatusDone {
			t.Errorf("run %s ended %s", id, r.Status)
		}
	}
	// The database may show a run running a little longer, until the
	// recorder has stored its end (see pool.record).
	if m := e.fake.MaxRunning(); m != 2 {
		t.Errorf("at most %d runs executed at once, want exactly 2 (the pool size)", m)
	}
}

// TestShutdownStoresEveryRunThatEnded: the ends waiting for the recorder
// are stored before Shutdown returns; no executed run is left running or
// lost, whatever moment the shutdown comes.
func TestShutdownStoresEveryRunThatEnded(t *testing.T) {
	for _, after := range []int{1, 7, 25} {
		e := newEnv(t, Options{Workers: 2})
		for i := 0; i < 40; i++ {
			e.submit(t, runnertest.VariantOK, solvers.Params{"steps": "1", "step_ms": "0"})
		}
		e.start(t)
		for deadline := time.Now().Add(10 * time.Second); e.fake.Started() < after && time.Now().Before(deadline); {
			time.Sleep(time.Millisecond)
		}
		if err := e.rn.Shutdown(context.Background()); err != nil {
			t.Fatal(err)
		}
		rs, err := e.st.ListRuns(context.Background(), store.RunFilter{})
		if err != nil {
			t.Fatal(err)
		}
		n := map[string]int{}
		for _, r := range rs {
			n[r.Status]++
		}
		// A run claimed just before the shutdown may be interrupted before
		// the strategy starts it.
		started := e.fake.Started()
		if n[runtypes.StatusRunning] != 0 || n[runtypes.StatusDone] > started || started > n[runtypes.StatusDone]+n[runtypes.StatusInterrupted] ||
			n[runtypes.StatusDone]+n[runtypes.StatusInterrupted]+n[runtypes.StatusQueued] != 40 {
			t.Errorf("shut down after %d started: runs by status %v, %d executed; want none running and every executed one done or interrupted",
				after, n, started)
		}
	}
}

// TestRunsClaimedInAGroupWaitCancelableAndGoBackToTheQueueAtShutdown
// claims a group while runs are fast (pool.fast): the first executes,
// the others wait claimed. One of them is canceled while it waits and
// ends canceled, never executed, though the worker takes it next; at
// shutdown the runs still waiting go back to the queue as if never
// claimed, and the one executing ends interrupted.
func TestRunsClaimedInAGroupWaitCancelableAndGoBackToTheQueueAtShutdown(t *testing.T) {
	e := newEnv(t, Options{Workers: 1})
	ctx := context.Background()
	var ids []string
	for i := range 4 {
		run, err := e.rn.Prepare(ctx, &runtypes.Run{Kind: runtypes.KindRun, WorkloadID: e.wl.ID, Strategy: fakeName, Variant: runnertest.VariantWait, Seed: int64(i),
			// The longest wait: on a busy machine the default 10 s ran out
			// before the test saw the third run executing (it ended done).
			Params: solvers.Params{"wait_ms": "60000"}})
		if err != nil {
			t.Fatal(err)
		}
		c, err := e.st.CreateRun(ctx, run)
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, c.ID)
	}
	e.rn.b.(*pool).fast.Store(true)
	e.start(t)
	e.waitRunning(t, ids[0])
	for _, id := range ids[1:] {
		e.waitRunning(t, id) // claimed with the first
	}
	if ws := e.rn.Workers(); len(ws) != 1 || !reflect.DeepEqual(ws[0].Running, []string{ids[0]}) {
		t.Fatalf("workers list %+v as running; want only %s, the one executing", ws, ids[0])
	}
	// Cancel the second while it waits, then the first: the worker takes
	// the second next, ends it unexecuted, and starts the third.
	if err := e.rn.Cancel(ctx, ids[1]); err != nil {
		t.Fatal(err)
	}
	if err := e.rn.Cancel(ctx, ids[0]); err != nil {
		t.Fatal(err)
	}
	// The worker lists a run as running before its code begins: wait for
	// both (on a busy machine the shutdown came in between).
	e.wait(t, ids[2], "executing", func(*runtypes.Run) bool {
		ws := e.rn.Workers()
		return len(ws) == 1 && reflect.DeepEqual(ws[0].Running, []string{ids[2]}) && e.fake.Started() == 2
	})
	sctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	if err := e.rn.Shutdown(sctx); err != nil {
		t.Fatal(err)
	}
	want := []string{runtypes.StatusCanceled, runtypes.StatusCanceled, runtypes.StatusInterrupted, runtypes.StatusQueued}
	for i, id := range ids {
		r, err := e.st.GetRun(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		if r.Status != want[i] {
			t.Errorf("run %d is %s, want %s", i, r.Status, want[i])
		}
		if i == 3 && r.StartedAt != nil {
			t.Errorf("run %d went back to the queue with started_at %v", i, r.StartedAt)
		}
	}
	if n := e.fake.Started(); n != 2 {
		t.Errorf("%d runs executed, want 2: a run canceled while it waited in a group must not start", n)
	}
}

// Runs claimed together wait for the worker one after the other: each
// starts when the worker starts it, not when it was claimed, so its
// duration is its own and not the wait (issue 30: "queued is queued").
func TestGroupClaimedRunsStartWhenExecuted(t *testing.T) {
	e := newEnv(t, Options{Workers: 1})
	fast := e.submit(t, "", solvers.Params{"steps": "0"})
	var slow []*runtypes.Run
	for range 3 {
		slow = append(slow, e.submit(t, "", solvers.Params{"steps": "2", "step_ms": "40"}))
	}
	e.start(t) // claims the fast run alone, then the three slow ones as one group
	e.waitFinal(t, fast.ID)
	var got []*runtypes.Run
	for _, r := range slow {
		got = append(got, e.waitFinal(t, r.ID))
	}
	for i := 1; i < len(got); i++ {
		a, b := got[i-1], got[i]
		if a.StartedAt == nil || b.StartedAt == nil {
			t.Fatalf("run %d or %d has no start", i-1, i)
		}
		if gap := b.StartedAt.Sub(*a.StartedAt); gap < 70*time.Millisecond {
			t.Errorf("run %d started %v after run %d, which takes 80 ms on the one worker: its start is its claim, not its execution", i, gap, i-1)
		}
		if d := b.FinishedAt.Sub(*b.StartedAt); d > 2*time.Second {
			t.Errorf("run %d lasted %v from its start", i, d)
		}
	}
}

// limited is the test strategy with a budget knob among its run and its
// reproduce parameters each.
func limited() *solvers.Strategy {
	s := runnertest.New("b").Strategy
	s.Params = append(s.Params, solvers.ParamSpec{Name: "memory_mb", Kind: solvers.ParamInt, Default: "2048",
		Limit: solvers.LimitMemoryMiB, HasMin: true, Min: 1, HasMax: true, Max: 1 << 20})
	s.ReproduceParams = append(s.ReproduceParams, solvers.ParamSpec{Name: "time_limit_s", Kind: solvers.ParamFloat, Default: "1",
		Limit: solvers.LimitTimeSeconds})
	return s
}

func TestSubmitRefusesABudgetKnobOverTheRunnersBudget(t *testing.T) {
	st, err := store.Open(filepath.Join(t.TempDir(), "runner.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	ctx := context.Background()
	wl := &runtypes.Workload{Strategy: "b", Name: "w", Format: "json", Data: []byte(`{"n":5}`)}
	if err := st.CreateWorkload(ctx, wl); err != nil {
		t.Fatal(err)
	}
	rn := New(st, runnertest.Lookup(limited()), Options{MemoryBudget: 4 << 30, Timeout: time.Minute})
	_, err = rn.Submit(ctx, &runtypes.Run{WorkloadID: wl.ID, Strategy: "b", Params: solvers.Params{"memory_mb": "1048576"}})
	if errs.KindOf(err) != errs.Invalid || errs.FieldOf(err) != "memory_mb" || !strings.Contains(err.Error(), "must be at most 4096 (the server's --memory-mb limit), got 1048576") {
		t.Errorf("run with memory_mb 1 TiB: %v", err)
	}
	_, err = rn.Submit(ctx, &runtypes.Run{Kind: runtypes.KindReproduce, Strategy: "b", Params: solvers.Params{"time_limit_s": "61"}})
	if errs.KindOf(err) != errs.Invalid || errs.FieldOf(err) != "time_limit_s" {
		t.Errorf("reproduce with time_limit_s 61 under a 1 min timeout: %v", err)
	}
	if rs, _ := st.ListRuns(ctx, store.RunFilter{}); len(rs) != 0 {
		t.Errorf("%d runs stored after refused submits", len(rs))
	}
	if _, err := rn.Submit(ctx, &runtypes.Run{WorkloadID: wl.ID, Strategy: "b", Params: solvers.Params{"memory_mb": "4096"}}); err != nil {
		t.Errorf("memory_mb at the budget: %v", err)
	}
}

// TestGroupCommitStoresWhatArrivedTogetherInOneCall: ends waiting when
// the recorder comes go into one call of end, at most MaxGroup of them,
// each with its own outcome; GroupCommit returns once in is closed and
// everything is stored.
func TestGroupCommitStoresWhatArrivedTogetherInOneCall(t *testing.T) {
	in := make(chan int, 2*MaxGroup)
	for i := range MaxGroup + 6 {
		in <- i
	}
	close(in)
	var sizes []int
	var ids []string
	end := func(_ context.Context, es []store.Ending) []error {
		sizes = append(sizes, len(es))
		out := make([]error, len(es))
		for i, e := range es {
			ids = append(ids, e.ID)
			if e.ID == "3" {
				out[i] = errs.New(errs.Conflict, "", "ended already")
			}
		}
		return out
	}
	var failed []int
	GroupCommit(context.Background(), in, func(i int) store.Ending { return store.Ending{ID: fmt.Sprint(i)} }, end,
		func(group []int, outcomes []error) {
			for i, err := range outcomes {
				if err != nil {
					failed = append(failed, group[i])
				}
			}
		})
	if !reflect.DeepEqual(sizes, []int{MaxGroup, 6}) {
		t.Errorf("groups of %v, want [%d 6]", sizes, MaxGroup)
	}
	if len(ids) != MaxGroup+6 || ids[0] != "0" || ids[len(ids)-1] != fmt.Sprint(MaxGroup+5) {
		t.Errorf("stored %d ends (%v … ), want all %d in order", len(ids), ids[:min(3, len(ids))], MaxGroup+6)
	}
	if !reflect.DeepEqual(failed, []int{3}) {
		t.Errorf("outcomes handed back for %v, want the one that failed, 3", failed)
	}
}
