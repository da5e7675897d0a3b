package runner

import (
	"cmp"
	"context"
	"errors"
	"log/slog"
	"strings"
	"sync"
	"time"

	"schedlab/errs"
	"schedlab/execute"
	"schedlab/runtypes"
	"schedlab/solvers"
	"schedlab/store"
)

// Options configure a Runner. Zero fields take the defaults.
type Options struct {
	// Workers is how many runs execute at once (DefaultWorkers); each
	// worker executes one run at a time.
	Workers int
	// Timeout is the wall-clock limit of one run (solvers.DefaultTimeout); a run
	// past it fails with "run stopped: exceeded its time limit of ...".
	Timeout time.Duration
	// MemoryBudget is the largest Go heap, in bytes, allowed while runs
	// execute (solvers.DefaultMemory, 4 GiB); see solvers.Budget.Memory.
	MemoryBudget int64
	// ProgressInterval is the least time between two progress writes of a
	// run to SQLite (execute.DefaultProgressInterval). Progress in memory (Progress)
	// is always current.
	ProgressInterval time.Duration
	// PollInterval is how often an idle worker looks for queued runs it was
	// not told about (runs queued by another process, or before Start):
	// Submit wakes a worker at once. Default 2 s.
	PollInterval time.Duration
	// Logger receives worker errors and panic stacks (slog.Default()).
	Logger *slog.Logger
	// Backend, when set, executes the runs instead of the in-process pool
	// (package queue: worker processes fed over NATS JetStream). Workers
	// and PollInterval are then unused.
	Backend Backend
	// Ended, when set, is called after each group of ends of the pool's
	// runs is stored (the server kicks its notify.Watcher with it).
	Ended func()
}

// Backend executes queued runs: the in-process pool (this package) or
// the queue's Dispatcher (worker processes). The Runner keeps what every
// backend shares (checking and storing runs, cancel of a queued run,
// re-runs) and hands the rest to it; the server and the handlers see only
// the Runner.
type Backend interface {
	// Start begins claiming queued runs (store.ClaimNext) and executing
	// them; it returns once they are being served. The Runner marks the
	// runs left running interrupted before it starts the pool only: with
	// another backend they may still be executing elsewhere, and it takes
	// them over.
	Start(ctx context.Context) error
	// Wake says runs were queued.
	Wake()
	// Cancel stops a run the store has as running.
	Cancel(ctx context.Context, id string) error
	// Progress is the live progress of a running run, if known.
	Progress(id string) (done, total int, note string, ok bool)
	// Workers lists the workers executing runs, as the /workers page shows them.
	Workers() []runtypes.WorkerStatus
	// Shutdown stops claiming and dispatching, within ctx.
	Shutdown(ctx context.Context) error
}

// Defaults of Options.
const (
	// DefaultWorkers runs two strategies at once: the solvers are CPU-bound
	// and single-threaded, and a small server should stay responsive.
	DefaultWorkers = 2
	// DefaultPollInterval is the default Options.PollInterval.
	DefaultPollInterval = 2 * time.Second
)

func (o Options) withDefaults() Options {
	o.Workers = runtypes.OrDefault(o.Workers, DefaultWorkers)
	o.Timeout = runtypes.OrDefault(o.Timeout, solvers.DefaultTimeout)
	o.MemoryBudget = cmp.Or(o.MemoryBudget, solvers.DefaultMemory)
	o.ProgressInterval = runtypes.OrDefault(o.ProgressInterval, execute.DefaultProgressInterval)
	o.PollInterval = runtypes.OrDefault(o.PollInterval, DefaultPollInterval)
	o.Logger = cmp.Or(o.Logger, slog.Default())
	return o
}

// Runner checks, stores and cancels runs, and hands their execution to
// its Backend: the in-process pool (Options.Backend nil) or the one set.
// Build it with New, then Start it; it is safe for concurrent use.
type Runner struct {
	st     *store.Store
	lookup func(string) (*solvers.Strategy, bool)
	opt    Options
	log    *slog.Logger
	b      Backend

	mu               sync.Mutex
	started, stopped bool
}

// New returns a Runner over st that finds strategies with lookup.
func New(st *store.Store, lookup func(name string) (*solvers.Strategy, bool), opt Options) *Runner {
	opt = opt.withDefaults()
	r := &Runner{st: st, lookup: lookup, opt: opt, log: opt.Logger, b: opt.Backend}
	if r.b == nil {
		r.b = newPool(r)
	}
	return r
}

// Budget is the per-run budget the Runner applies.
func (r *Runner) Budget() solvers.Budget {
	return solvers.Budget{Timeout: r.opt.Timeout, Memory: r.opt.MemoryBudget}
}

// Start starts the Backend: with the in-process pool, the runs left
// running by a previous process are marked interrupted first (none of
// them can still execute). Runs of experiments left interrupted are
// queued again. Start may be called once.
func (r *Runner) Start(ctx context.Context) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.started || r.stopped {
		return &errs.Error{Kind: errs.Conflict, Err: errors.New("the runner was already started")}
	}
	if _, local := r.b.(*pool); local {
		n, err := r.st.MarkInterrupted(ctx)
		if err != nil {
			return errs.Wrap(errs.Internal, err)
		}
		if n > 0 {
			r.log.Info("runs interrupted by the last stop", "count", n)
		}
	}
	n, err := r.st.RequeueExperimentRuns(ctx)
	if err != nil {
		return errs.Wrap(errs.Internal, err)
	}
	if n > 0 {
		r.log.Info("interrupted runs of experiments queued again", "count", n)
	}
	if err := r.b.Start(ctx); err != nil {
		return err
	}
	r.started = true
	return nil
}

// Shutdown stops claiming runs and shuts the Backend down within ctx (the
// pool stores the runs in flight interrupted). Queued runs stay queued
// for the next Start.
func (r *Runner) Shutdown(ctx context.Context) error {
	r.mu.Lock()
	r.stopped = true
	started := r.started
	r.mu.Unlock()
	if !started {
		return nil
	}
	return r.b.Shutdown(ctx)
}

// Submit checks in and stores it as a new queued run, then wakes a worker.
// It checks, before storing anything: the kind (empty: runtypes.KindRun), that
// the strategy exists (errs.NotFound, field "strategy"), the variant (empty:
// the first; unknown: errs.Invalid, field "variant"; reproduce runs have
// none), the params against the strategy's Params or, for reproduce runs,
// ReproduceParams (errs.Invalid naming the parameter; a budget knob over
// the runner's own Budget is one, see solvers.CheckLimits), and for runtypes.KindRun
// that the workload exists (errs.NotFound, field "workload_id") and belongs
// to the strategy (errs.Invalid). The stored params are the resolved ones:
// every parameter with its value. in itself is not modified.
func (r *Runner) Submit(ctx context.Context, in *runtypes.Run) (*runtypes.Run, error) {
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

// Wake tells the Backend that runs were queued (by Submit, or stored in
// a batch such as an experiment's).
func (r *Runner) Wake() { r.b.Wake() }

// Prepare checks in as Submit does and returns the run to store (the
// variant and params resolved), without storing it: an experiment checks
// all its runs this way, then stores them in one transaction.
func (r *Runner) Prepare(ctx context.Context, in *runtypes.Run) (*runtypes.Run, error) {
	return r.prepare(ctx, in, r.st.GetWorkloadInfo)
}

// PrepareAll is Prepare of many runs, which read each workload they share
// once: an experiment's thousand runs share a hundred workloads. known are
// workloads not stored yet (an experiment's recipes, stored with its runs).
func (r *Runner) PrepareAll(ctx context.Context, in []*runtypes.Run, known ...*runtypes.Workload) ([]*runtypes.Run, error) {
	seen := map[string]*runtypes.Workload{}
	for _, w := range known {
		seen[w.ID] = w
	}
	info := func(ctx context.Context, id string) (*runtypes.Workload, error) {
		if w := seen[id]; w != nil {
			return w, nil
		}
		w, err := r.st.GetWorkloadInfo(ctx, id)
		if err == nil {
			seen[id] = w
		}
		return w, err
	}
	out := make([]*runtypes.Run, len(in))
	for i, run := range in {
		var err error
		if out[i], err = r.prepare(ctx, run, info); err != nil {
			return nil, err
		}
	}
	return out, nil
}

func (r *Runner) prepare(ctx context.Context, in *runtypes.Run, workloadInfo func(context.Context, string) (*runtypes.Workload, error)) (*runtypes.Run, error) {
	if in == nil {
		return nil, &errs.Error{Kind: errs.Invalid, Err: errors.New("no run to submit")}
	}
	run := runtypes.Run{Kind: in.Kind, WorkloadID: in.WorkloadID, Strategy: in.Strategy, Variant: in.Variant,
		Params: in.Params, Seed: in.Seed, RerunOf: in.RerunOf, Owner: in.Owner}
	run.Kind = cmp.Or(run.Kind, runtypes.KindRun)
	if run.Kind != runtypes.KindRun && run.Kind != runtypes.KindReproduce {
		return nil, errs.New(errs.Invalid, "kind", "must be %q or %q, got %q", runtypes.KindRun, runtypes.KindReproduce, run.Kind)
	}
	if strings.TrimSpace(run.Strategy) == "" {
		return nil, &errs.Error{Kind: errs.Invalid, Field: "strategy", Err: errors.New("missing: choose a strategy")}
	}
	s, ok := r.lookup(run.Strategy)
	if !ok {
		return nil, errs.New(errs.NotFound, "strategy", "unknown strategy %q", run.Strategy)
	}
	var err error
	if run.Kind == runtypes.KindReproduce {
		if run.WorkloadID != "" {
			return nil, &errs.Error{Kind: errs.Invalid, Field: "workload_id", Err: errors.New("a reproduce run takes no workload")}
		}
		run.Variant = ""
		if run.Params, err = solvers.Resolve(s.ReproduceParams, run.Params); err != nil {
			return nil, errs.Wrap(errs.Invalid, err)
		}
	} else {
		if run.Variant, err = s.ResolveVariant(run.Variant); err != nil {
			return nil, errs.Wrap(errs.Invalid, err)
		}
		if run.Params, err = solvers.Resolve(s.Params, run.Params); err != nil {
			return nil, errs.Wrap(errs.Invalid, err)
		}
		if run.WorkloadID == "" {
			return nil, &errs.Error{Kind: errs.Invalid, Field: "workload_id", Err: errors.New("missing: choose a workload")}
		}
		w, err := workloadInfo(ctx, run.WorkloadID)
		if errs.Is(err, errs.NotFound) {
			return nil, errs.New(errs.NotFound, "workload_id", "no workload %q", run.WorkloadID)
		}
		if err != nil {
			return nil, err
		}
		if w.Strategy != run.Strategy {
			return nil, errs.New(errs.Invalid, "workload_id", "workload %s is a %s workload, not %s", w.ID, w.Strategy, run.Strategy)
		}
		if s.VariantFits != nil {
			if err := s.VariantFits(w.Format, run.Variant); err != nil {
				return nil, errs.Wrap(errs.Invalid, err)
			}
		}
	}
	if err := execute.CheckLimits(s, run.Kind == runtypes.KindReproduce, run.Params, r.Budget()); err != nil {
		return nil, errs.Wrap(errs.Invalid, err)
	}
	return &run, nil
}

// Rerun queues a new run with the inputs of run id (kind, workload,
// strategy, variant, params, seed), RerunOf set to id and the given owner
// (a user ID, empty without accounts). The inputs are checked again, as by
// Submit: a strategy may have changed since.
func (r *Runner) Rerun(ctx context.Context, id, owner string) (*runtypes.Run, error) {
	old, err := r.st.GetRun(ctx, id)
	if err != nil {
		return nil, err
	}
	return r.Submit(ctx, &runtypes.Run{Kind: old.Kind, WorkloadID: old.WorkloadID, Strategy: old.Strategy,
		Variant: old.Variant, Params: old.Params, Seed: old.Seed, RerunOf: old.ID, Owner: owner})
}

// claimWait bounds how long Cancel waits for a run just claimed by a worker
// of this runner to appear in flight.
const claimWait = time.Second

// Cancel stops a run: a queued run is canceled at once; a running run has
// its context canceled and its worker stores it canceled shortly after; a
// finished run is errs.Conflict, an unknown one errs.NotFound.
func (r *Runner) Cancel(ctx context.Context, id string) error {
	deadline := time.Now().Add(claimWait)
	for {
		run, err := r.st.GetRun(ctx, id)
		if err != nil {
			return err
		}
		switch run.Status {
		case runtypes.StatusQueued:
			err := r.st.CancelQueued(ctx, id)
			if errs.Is(err, errs.Conflict) {
				continue // claimed meanwhile: cancel it running
			}
			return err
		case runtypes.StatusRunning:
			if err := r.b.Cancel(ctx, id); !errors.Is(err, errNotHere) {
				return err
			}
			if time.Now().Before(deadline) {
				// Claimed but not yet in flight, or run by nobody here.
				time.Sleep(10 * time.Millisecond)
				continue
			}
			// No worker of this process runs it: a leftover. End it.
			err := r.st.Finish(ctx, id, runtypes.StatusCanceled, nil, runtypes.MsgCanceled, "")
			if errs.Is(err, errs.Conflict) {
				continue
			}
			return err
		default:
			return errs.New(errs.Conflict, "id", "run %s is already %s", id, run.Status)
		}
	}
}

// errNotHere is the pool's Cancel of a run none of its workers has.
var errNotHere = errors.New("the run is not in flight here")

// Progress returns the live progress of a running run, from the Backend;
// ok is false when it is not known there (queued, finished, or unknown):
// read the store.
func (r *Runner) Progress(id string) (done, total int, note string, ok bool) {
	return r.b.Progress(id)
}

// Workers lists the workers executing runs, as the Backend knows them.
func (r *Runner) Workers() []runtypes.WorkerStatus { return r.b.Workers() }

// MaxGroup bounds how many ends of runs GroupCommit stores in one
// transaction, and how many wait for it.
const MaxGroup = 64

// GroupCommit stores the ends of runs that arrive on in, in groups: every
// one that arrived while the last group was being stored, up to MaxGroup,
// goes into the next call of end (store.End: one transaction, one commit
// for them all; a commit is most of what storing a run costs). stored
// then gets the group with each one's outcome. It returns when in is
// closed or ctx is done. The in-process pool and the queue's dispatcher
// both store their ends through it.
func GroupCommit[T any](ctx context.Context, in <-chan T, ending func(T) store.Ending,
	end func(context.Context, []store.Ending) []error, stored func([]T, []error)) {
	group := make([]T, 0, MaxGroup)
	endings := make([]store.Ending, 0, MaxGroup)
	for {
		select {
		case e, ok := <-in:
			if !ok {
				return
			}
			group = append(group[:0], e)
		case <-ctx.Done():
			return
		}
	gather:
		for len(group) < MaxGroup {
			select {
			case e, ok := <-in:
				if !ok {
					break gather
				}
				group = append(group, e)
			default:
				break gather
			}
		}
		endings = endings[:0]
		for _, e := range group {
			endings = append(endings, ending(e))
		}
		stored(group, end(ctx, endings))
	}
}
