package runner

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"time"

	"schedlab/errs"
	"schedlab/solvers"
	"schedlab/store"
)

// Options configure a Runner. Zero fields take the defaults.
type Options struct {
	// Workers is how many runs execute at once (DefaultWorkers); each
	// worker executes one run at a time.
	Workers int
	// Timeout is the wall-clock limit of one run (DefaultTimeout); a run
	// past it fails with "run stopped: exceeded its time limit of ...".
	Timeout time.Duration
	// MemoryBudget is the largest Go heap, in bytes, allowed while runs
	// execute (DefaultMemoryBudget, 4 GiB); see Budget.Memory.
	MemoryBudget uint64
	// ProgressInterval is the least time between two progress writes of a
	// run to SQLite (DefaultProgressInterval). Progress in memory (Progress)
	// is always current.
	ProgressInterval time.Duration
	// PollInterval is how often an idle worker looks for queued runs it was
	// not told about (runs queued by another process, or before Start):
	// Submit wakes a worker at once. Default 2 s.
	PollInterval time.Duration
	// Logger receives worker errors and panic stacks (slog.Default()).
	Logger *slog.Logger
}

// DefaultPollInterval is the default Options.PollInterval.
const DefaultPollInterval = 2 * time.Second

func (o Options) withDefaults() Options {
	if o.Workers <= 0 {
		o.Workers = DefaultWorkers
	}
	if o.Timeout <= 0 {
		o.Timeout = DefaultTimeout
	}
	if o.MemoryBudget == 0 {
		o.MemoryBudget = DefaultMemoryBudget
	}
	if o.ProgressInterval <= 0 {
		o.ProgressInterval = DefaultProgressInterval
	}
	if o.PollInterval <= 0 {
		o.PollInterval = DefaultPollInterval
	}
	if o.Logger == nil {
		o.Logger = slog.Default()
	}
	return o
}

// Runner executes queued runs with a bounded pool of workers. Build it with
// New, then Start it; it is safe for concurrent use.
type Runner struct {
	st     *store.Store
	lookup func(string) (solvers.Strategy, bool)
	opt    Options
	log    *slog.Logger
	wake   chan struct{}

	mu       sync.Mutex
	inflight map[string]*job // running runs of this process, by run ID
	started  bool
	stopped  bool
	stop     context.CancelCauseFunc // cancels the workers' context
	wg       sync.WaitGroup
}

// job is a run a worker executes: its cancel function and live progress.
type job struct {
	cancel context.CancelCauseFunc

	mu          sync.Mutex
	done, total int
	note        string
	version     int // bumped on every progress call
}

func (j *job) progress(done, total int, note string) {
	j.mu.Lock()
	j.done, j.total, j.note = done, total, note
	j.version++
	j.mu.Unlock()
}

func (j *job) snapshot() (done, total int, note string, version int) {
	j.mu.Lock()
	defer j.mu.Unlock()
	return j.done, j.total, j.note, j.version
}

// Causes of a run's cancellation, telling the worker which status to store.
var (
	errUserCanceled = errors.New(store.MsgCanceled)
	errShutdown     = errors.New("schedlab is shutting down")
)

// New returns a Runner over st that finds strategies with lookup.
func New(st *store.Store, lookup func(name string) (solvers.Strategy, bool), opt Options) *Runner {
	opt = opt.withDefaults()
	return &Runner{st: st, lookup: lookup, opt: opt, log: opt.Logger,
		wake: make(chan struct{}, opt.Workers), inflight: map[string]*job{}}
}

// Budget is the per-run budget the Runner applies.
func (r *Runner) Budget() Budget { return Budget{Timeout: r.opt.Timeout, Memory: r.opt.MemoryBudget} }

// Start marks the runs left running by a previous process interrupted, then
// starts the workers. They stop when ctx is done or at Shutdown; runs cut
// off either way are stored interrupted. Start may be called once.
func (r *Runner) Start(ctx context.Context) error {
	const op = "runner.Start"
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.started || r.stopped {
		return &errs.Error{Op: op, Kind: errs.Conflict, Err: errors.New("the runner was already started")}
	}
	n, err := r.st.MarkInterrupted(ctx)
	if err != nil {
		return errs.Wrap(op, errs.Internal, err)
	}
	if n > 0 {
		r.log.Info("runs interrupted by the last stop", "count", n)
	}
	if n, err = r.st.RequeueExperimentRuns(ctx); err != nil {
		return errs.Wrap(op, errs.Internal, err)
	}
	if n > 0 {
		r.log.Info("interrupted runs of experiments queued again", "count", n)
	}
	wctx, stop := context.WithCancelCause(ctx)
	r.stop, r.started = stop, true
	for i := 0; i < r.opt.Workers; i++ {
		r.wg.Add(1)
		go r.worker(wctx)
	}
	return nil
}

// Shutdown stops claiming runs, cancels the runs in flight and waits for
// the workers to store them as interrupted, or for ctx to be done (then the
// runs still in flight stay running in the database and the next Start marks
// them interrupted). Queued runs stay queued for the next Start.
func (r *Runner) Shutdown(ctx context.Context) error {
	r.mu.Lock()
	r.stopped = true
	stop := r.stop
	r.mu.Unlock()
	if stop == nil {
		return nil
	}
	stop(errShutdown)
	done := make(chan struct{})
	go func() { r.wg.Wait(); close(done) }()
	select {
	case <-done:
		return nil
	case <-ctx.Done():
		return errs.Wrap("runner.Shutdown", errs.Canceled, fmt.Errorf("runs still stopping: %w", ctx.Err()))
	}
}

// Submit checks in and stores it as a new queued run, then wakes a worker.
// It checks, before storing anything: the kind (empty: store.KindRun), that
// the strategy exists (errs.NotFound, field "strategy"), the variant (empty:
// the first; unknown: errs.Invalid, field "variant"; reproduce runs have
// none), the params against the strategy's Params or, for reproduce runs,
// ReproduceParams (errs.Invalid naming the parameter; a budget knob over
// the runner's own Budget is one, see solvers.CheckLimits), and for store.KindRun
// that the workload exists (errs.NotFound, field "workload_id") and belongs
// to the strategy (errs.Invalid). The stored params are the resolved ones:
// every parameter with its value. in itself is not modified.
func (r *Runner) Submit(ctx context.Context, in *store.Run) (*store.Run, error) {
	run, err := r.Prepare(ctx, in)
	if err != nil {
		return nil, err
	}
	created, err := r.st.CreateRun(ctx, run)
	if err != nil {
		return nil, err
	}
	r.Wake()
	return created, nil
}

// Wake tells the workers that runs were queued (by Submit, or stored in a
// batch such as an experiment's).
func (r *Runner) Wake() {
	for i := 0; i < r.opt.Workers; i++ {
		select {
		case r.wake <- struct{}{}:
		default: // every worker already has a wake-up pending
			return
		}
	}
}

// Prepare checks in as Submit does and returns the run to store (the
// variant and params resolved), without storing it: an experiment checks
// all its runs this way, then stores them in one transaction.
func (r *Runner) Prepare(ctx context.Context, in *store.Run) (*store.Run, error) {
	const op = "runner.Submit"
	if in == nil {
		return nil, &errs.Error{Op: op, Kind: errs.Invalid, Err: errors.New("no run to submit")}
	}
	run := store.Run{Kind: in.Kind, WorkloadID: in.WorkloadID, Strategy: in.Strategy, Variant: in.Variant,
		Params: in.Params, Seed: in.Seed, RerunOf: in.RerunOf, Owner: in.Owner}
	if run.Kind == "" {
		run.Kind = store.KindRun
	}
	if run.Kind != store.KindRun && run.Kind != store.KindReproduce {
		return nil, &errs.Error{Op: op, Kind: errs.Invalid, Field: "kind",
			Err: fmt.Errorf("must be %q or %q, got %q", store.KindRun, store.KindReproduce, run.Kind)}
	}
	if strings.TrimSpace(run.Strategy) == "" {
		return nil, &errs.Error{Op: op, Kind: errs.Invalid, Field: "strategy", Err: errors.New("missing: choose a strategy")}
	}
	s, ok := r.lookup(run.Strategy)
	if !ok {
		return nil, &errs.Error{Op: op, Kind: errs.NotFound, Field: "strategy", Err: fmt.Errorf("unknown strategy %q", run.Strategy)}
	}
	var err error
	if run.Kind == store.KindReproduce {
		if run.WorkloadID != "" {
			return nil, &errs.Error{Op: op, Kind: errs.Invalid, Field: "workload_id", Err: errors.New("a reproduce run takes no workload")}
		}
		run.Variant = ""
		if run.Params, err = solvers.Resolve(s.ReproduceParams(), run.Params); err != nil {
			return nil, errs.Wrap(op, errs.Invalid, err)
		}
	} else {
		if run.Variant, err = Variant(s, run.Variant); err != nil {
			return nil, errs.Wrap(op, errs.Invalid, err)
		}
		if run.Params, err = solvers.Resolve(s.Params(), run.Params); err != nil {
			return nil, errs.Wrap(op, errs.Invalid, err)
		}
		if run.WorkloadID == "" {
			return nil, &errs.Error{Op: op, Kind: errs.Invalid, Field: "workload_id", Err: errors.New("missing: choose a workload")}
		}
		w, err := r.st.GetWorkloadInfo(ctx, run.WorkloadID)
		if errs.Is(errs.NotFound, err) {
			return nil, &errs.Error{Op: op, Kind: errs.NotFound, Field: "workload_id", Err: fmt.Errorf("no workload %q", run.WorkloadID)}
		}
		if err != nil {
			return nil, err
		}
		if w.Strategy != run.Strategy {
			return nil, &errs.Error{Op: op, Kind: errs.Invalid, Field: "workload_id",
				Err: fmt.Errorf("workload %s is a %s workload, not %s", w.ID, w.Strategy, run.Strategy)}
		}
		if f, ok := s.(solvers.VariantFilter); ok {
			if err := f.VariantFits(w.Format, run.Variant); err != nil {
				return nil, errs.Wrap(op, errs.Invalid, err)
			}
		}
	}
	if err := checkLimits(s, run.Kind == store.KindReproduce, run.Params, r.Budget()); err != nil {
		return nil, errs.Wrap(op, errs.Invalid, err)
	}
	return &run, nil
}

// Rerun queues a new run with the inputs of run id (kind, workload,
// strategy, variant, params, seed), RerunOf set to id and the given owner
// (a user ID, empty without accounts). The inputs are checked again, as by
// Submit: a strategy may have changed since.
func (r *Runner) Rerun(ctx context.Context, id, owner string) (*store.Run, error) {
	old, err := r.st.GetRun(ctx, id)
	if err != nil {
		return nil, err
	}
	return r.Submit(ctx, &store.Run{Kind: old.Kind, WorkloadID: old.WorkloadID, Strategy: old.Strategy,
		Variant: old.Variant, Params: old.Params, Seed: old.Seed, RerunOf: old.ID, Owner: owner})
}

// claimWait bounds how long Cancel waits for a run just claimed by a worker
// of this runner to appear in flight.
const claimWait = time.Second

// Cancel stops a run: a queued run is canceled at once; a running run has
// its context canceled and its worker stores it canceled shortly after; a
// finished run is errs.Conflict, an unknown one errs.NotFound.
func (r *Runner) Cancel(ctx context.Context, id string) error {
	const op = "runner.Cancel"
	deadline := time.Now().Add(claimWait)
	for {
		run, err := r.st.GetRun(ctx, id)
		if err != nil {
			return err
		}
		switch run.Status {
		case store.StatusQueued:
			err := r.st.CancelQueued(ctx, id)
			if errs.Is(errs.Conflict, err) {
				continue // claimed meanwhile: cancel it running
			}
			return err
		case store.StatusRunning:
			r.mu.Lock()
			j := r.inflight[id]
			r.mu.Unlock()
			if j != nil {
				j.cancel(errUserCanceled)
				return nil
			}
			if time.Now().Before(deadline) {
				// Claimed but not yet in flight, or run by nobody here.
				time.Sleep(10 * time.Millisecond)
				continue
			}
			// No worker of this process runs it: a leftover. End it.
			err := r.st.Finish(ctx, id, store.StatusCanceled, nil, store.MsgCanceled, "")
			if errs.Is(errs.Conflict, err) {
				continue
			}
			return err
		default:
			return &errs.Error{Op: op, Kind: errs.Conflict, Field: "id", Err: fmt.Errorf("run %s is already %s", id, run.Status)}
		}
	}
}

// Progress returns the live progress of a run executing in this runner; ok
// is false when it is not (queued, finished, or unknown): read the store.
func (r *Runner) Progress(id string) (done, total int, note string, ok bool) {
	r.mu.Lock()
	j := r.inflight[id]
	r.mu.Unlock()
	if j == nil {
		return 0, 0, "", false
	}
	done, total, note, _ = j.snapshot()
	return done, total, note, true
}

// worker claims and executes runs until ctx is done.
func (r *Runner) worker(ctx context.Context) {
	defer r.wg.Done()
	poll := time.NewTicker(r.opt.PollInterval)
	defer poll.Stop()
	for ctx.Err() == nil {
		run, err := r.st.ClaimNext(ctx)
		if err != nil {
			if ctx.Err() == nil {
				r.log.Error("runner: claiming a run", "err", err)
			}
		} else if run != nil {
			r.execute(ctx, run)
			continue
		}
		select {
		case <-ctx.Done():
		case <-r.wake:
		case <-poll.C:
		}
	}
}

// execute runs a claimed run and stores its end.
func (r *Runner) execute(wctx context.Context, run *store.Run) {
	// Store writes outlive the workers' context: a run cut off by a
	// shutdown is still recorded as interrupted.
	dbctx := context.WithoutCancel(wctx)
	ctx, cancel := context.WithCancelCause(wctx)
	defer cancel(nil)
	j := &job{cancel: cancel}
	r.mu.Lock()
	r.inflight[run.ID] = j
	r.mu.Unlock()
	defer func() {
		r.mu.Lock()
		delete(r.inflight, run.ID)
		r.mu.Unlock()
	}()

	flushed := make(chan struct{})
	stopFlush := make(chan struct{})
	go func() {
		defer close(flushed)
		r.flushProgress(dbctx, run.ID, j, stopFlush)
	}()
	rep, err := r.run(ctx, run, j)
	close(stopFlush)
	<-flushed

	status, msg, field := store.StatusDone, "", ""
	var report json.RawMessage
	if err == nil {
		report, err = json.Marshal(rep)
		if err != nil {
			err = &errs.Error{Op: "runner", Kind: errs.Internal, Err: fmt.Errorf("strategy %s: encoding the report: %w", run.Strategy, err)}
		}
	}
	if err != nil {
		report = nil
		status, msg, field = outcome(err)
		var pe *PanicError
		if errors.As(err, &pe) {
			r.log.Error("runner: strategy panicked", "run", run.ID, "strategy", run.Strategy, "panic", fmt.Sprint(pe.Value), "stack", string(pe.Stack))
		}
	}
	if err := r.st.Finish(dbctx, run.ID, status, report, msg, field); err != nil {
		r.log.Error("runner: storing the end of a run", "run", run.ID, "status", status, "err", err)
	}
}

// run resolves a claimed run's inputs and executes it.
func (r *Runner) run(ctx context.Context, run *store.Run, j *job) (*solvers.Report, error) {
	s, ok := r.lookup(run.Strategy)
	if !ok {
		return nil, &errs.Error{Op: "runner", Kind: errs.NotFound, Field: "strategy",
			Err: fmt.Errorf("strategy %q is not in this build of schedlab", run.Strategy)}
	}
	if run.Kind == store.KindReproduce {
		return ExecuteReproduce(ctx, s, run.Params, j.progress, r.Budget())
	}
	w, err := r.st.GetWorkload(ctx, run.WorkloadID)
	if err != nil {
		if ctx.Err() != nil {
			return nil, canceled("runner", ctx)
		}
		return nil, err
	}
	sw := &solvers.Workload{Name: w.Name, Format: w.Format, Summary: w.Summary, Data: w.Data}
	return Execute(ctx, s, sw, run.Variant, run.Params, j.progress, r.Budget())
}

// outcome maps an execution error to the run's final status, message and field.
func outcome(err error) (status, msg, field string) {
	if errs.KindOf(err) == errs.Canceled {
		if errors.Is(err, errUserCanceled) {
			return store.StatusCanceled, store.MsgCanceled, ""
		}
		// Cut off by a shutdown (or the server's context): not the run's fault.
		return store.StatusInterrupted, store.MsgInterrupted, ""
	}
	msg, field = err.Error(), errs.FieldOf(err)
	if field != "" {
		msg = strings.TrimPrefix(msg, field+": ")
	}
	return store.StatusFailed, msg, field
}

// flushProgress writes a job's progress to the store at most once per
// ProgressInterval while it changes, and once more when stop is closed.
func (r *Runner) flushProgress(ctx context.Context, id string, j *job, stop <-chan struct{}) {
	t := time.NewTicker(r.opt.ProgressInterval)
	defer t.Stop()
	written := 0
	flush := func() {
		done, total, note, v := j.snapshot()
		if v == written {
			return
		}
		if err := r.st.SetProgress(ctx, id, done, total, note); err != nil {
			r.log.Warn("runner: storing progress", "run", id, "err", err)
			return
		}
		written = v
	}
	for {
		select {
		case <-stop:
			flush()
			return
		case <-t.C:
			flush()
		}
	}
}
