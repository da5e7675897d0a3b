package execute

import (
	"context"
	"errors"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"

	"schedlab/errs"
	"schedlab/runtypes"
)

// Runs that need one workload at once generate it once and all get it.
func TestGenerationsGenerateAWorkloadOnceForConcurrentRuns(t *testing.T) {
	var g Generations
	var calls atomic.Int32
	release := make(chan struct{})
	gen := func(context.Context) (*runtypes.Workload, error) {
		calls.Add(1)
		<-release
		return &runtypes.Workload{ID: "w1"}, nil
	}
	var wg sync.WaitGroup
	got := make([]*runtypes.Workload, 6)
	for i := range got {
		wg.Add(1)
		go func() {
			defer wg.Done()
			w, err := g.Do(context.Background(), "w1", gen)
			if err != nil {
				t.Error(err)
			}
			got[i] = w
		}()
	}
	for calls.Load() == 0 { // one is generating
		runtime.Gosched()
	}
	close(release)
	wg.Wait()
	// Callers that came after the first generation ended generate again;
	// those that came during it share it: every caller has the workload,
	// and at most one generation ran while release was closed.
	for _, w := range got {
		if w == nil || w.ID != "w1" {
			t.Fatalf("a caller got %v", w)
		}
	}
	if calls.Load() > int32(len(got)) {
		t.Fatalf("%d generations for %d callers", calls.Load(), len(got))
	}
}

// The run that leads a generation is stopped: it returns at once with
// its run's cancellation, and a run still waiting for the workload
// generates it under its own context. A stopped waiter returns at once
// too, and the generation goes on for the others.
func TestGenerationsAStoppedRunLeavesTheWorkloadToTheOthers(t *testing.T) {
	var g Generations
	leaderCtx, stopLeader := context.WithCancel(context.Background())
	started := make(chan struct{})
	var calls atomic.Int32
	gen := func(ctx context.Context) (*runtypes.Workload, error) {
		if calls.Add(1) == 1 {
			close(started)
			<-ctx.Done()
			return nil, &errs.Error{Kind: errs.Canceled, Err: ctx.Err()}
		}
		return &runtypes.Workload{ID: "w"}, nil
	}
	leader := make(chan error)
	go func() { _, err := g.Do(leaderCtx, "w", gen); leader <- err }()
	<-started
	waiter := make(chan *runtypes.Workload)
	go func() {
		w, err := g.Do(context.Background(), "w", gen)
		if err != nil {
			t.Error(err)
		}
		waiter <- w
	}()
	stoppedCtx, stop := context.WithCancel(context.Background())
	stop()
	if _, err := g.Do(stoppedCtx, "w", gen); errs.KindOf(err) != errs.Canceled {
		t.Errorf("a stopped run waiting for the workload: %v, want canceled", err)
	}
	stopLeader()
	if err := <-leader; errs.KindOf(err) != errs.Canceled || !errors.Is(err, context.Canceled) {
		t.Errorf("the stopped leader: %v, want its run's cancellation", err)
	}
	if w := <-waiter; w == nil || w.ID != "w" {
		t.Fatalf("the waiting run got %v, want the workload it generated itself", w)
	}
	if calls.Load() != 2 {
		t.Errorf("%d generations, want 2 (the stopped one, the waiter's)", calls.Load())
	}
}

// A generation that fails as canceled while its own run goes on (a
// budget stopped it) is that run's error, not generated again for ever.
func TestGenerationsLeaderCanceledErrorIsReturned(t *testing.T) {
	var g Generations
	var calls atomic.Int32
	_, err := g.Do(context.Background(), "w", func(context.Context) (*runtypes.Workload, error) {
		calls.Add(1)
		return nil, &errs.Error{Kind: errs.Canceled, Err: errors.New("stopped by its budget")}
	})
	if errs.KindOf(err) != errs.Canceled || calls.Load() != 1 {
		t.Fatalf("error %v after %d generations, want the canceled error after 1", err, calls.Load())
	}
}
