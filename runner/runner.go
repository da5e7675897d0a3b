package runner

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"schedlab/buildinfo"
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
	// Backend, when set, executes the runs instead of workers in this
	// process (package queue: worker processes fed over NATS JetStream).
	// Workers and PollInterval are then unused.
	Backend Backend
}

// Backend executes queued runs outside the Runner's own pool. The Runner
// keeps what every mode shares (checking and storing runs, cancel of a
// queued run, re-runs) and hands the rest to it.
type Backend interface {
	// Start begins claiming queued runs (store.ClaimNext) and executing
	// them; it returns once they are being served. Unlike the pool, a
	// backend does not mark the runs left running interrupted: they may
	// still be executing elsewhere, and it takes them over.
	Start(ctx context.Context) error
	// Wake says runs were queued.
	Wake()
	// Cancel stops a run the store has as running.
	Cancel(ctx context.Context, id string) error
	// Progress is the live progress of a running run, if known.
	Progress(id string) (done, total int, note string, ok bool)
	// Workers lists the workers executing runs, as the /workers page shows them.
	Workers() []WorkerStatus
	// Shutdown stops claiming and dispatching, within ctx.
	Shutdown(ctx context.Context) error
}

// WorkerStatus is one worker as the server last heard of it.
type WorkerStatus struct {
	Name        string    `json:"name"` // host:pid
	Host        string    `json:"host"`
	PID         int       `json:"pid"`
	Concurrency int       `json:"concurrency"` // runs it executes at once
	Running     []string  `json:"running"`     // IDs of the runs it executes now
	Done        int       `json:"done"`        // runs it ended since it started
	Started     time.Time `json:"started"`
	LastSeen    time.Time `json:"last_seen"` // its last heartbeat
	// Lost is true when its heartbeats stopped (past three intervals).
	Lost bool `json:"lost"`
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

	mu        sync.Mutex
	inflight  map[string]*job // running runs of this process, by run ID
	pending   []claimed       // claimed in a group, not yet started (see next)
	fast      atomic.Bool     // the last run ended within fastRun: claim in groups
	started   bool
	stopped   bool
	startedAt time.Time
	finished  atomic.Int64            // runs ended by this process's workers
	stop      context.CancelCauseFunc // cancels the workers' context
	wg        sync.WaitGroup          // the workers
	ends      chan ending             // the workers' ended runs, to the recorder
	recorded  chan struct{}           // closed when the recorder has stored the last
	workloads *workloadCache
	gens      Generations // experiments' workloads being generated here
}

// ending is a run a worker ended, on its way to the store.
type ending struct {
	store.Ending
	j *job
}

// maxGroup bounds how many ended runs the recorder stores in one
// transaction, and how many wait for it.
const maxGroup = 64

// job is a run a worker executes: its context, cancel function and live
// progress.
type job struct {
	ctx     context.Context
	cancel  context.CancelCauseFunc
	started atomic.Bool // executing, not only claimed

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

// Causes of a run's cancellation, telling the worker which status to store
// (see Outcome): a run's context canceled with ErrUserCanceled ends
// canceled, with ErrShutdown interrupted.
var (
	ErrUserCanceled = errors.New(store.MsgCanceled)
	ErrShutdown     = errors.New("schedlab is shutting down")
)

// New returns a Runner over st that finds strategies with lookup.
func New(st *store.Store, lookup func(name string) (solvers.Strategy, bool), opt Options) *Runner {
	opt = opt.withDefaults()
	return &Runner{st: st, lookup: lookup, opt: opt, log: opt.Logger,
		wake: make(chan struct{}, opt.Workers), inflight: map[string]*job{}, workloads: newWorkloadCache(workloadCacheBytes)}
}

// Budget is the per-run budget the Runner applies.
func (r *Runner) Budget() Budget { return Budget{Timeout: r.opt.Timeout, Memory: r.opt.MemoryBudget} }

// Start marks the runs left running by a previous process interrupted, then
// starts the workers. They stop when ctx is done or at Shutdown; runs cut
// off either way are stored interrupted. Start may be called once.
func (r *Runner) Start(ctx context.Context) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.started || r.stopped {
		return &errs.Error{Kind: errs.Conflict, Err: errors.New("the runner was already started")}
	}
	if r.opt.Backend == nil {
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
	if b := r.opt.Backend; b != nil {
		if err := b.Start(ctx); err != nil {
			return err
		}
		r.started = true
		return nil
	}
	wctx, stop := context.WithCancelCause(ctx)
	r.stop, r.started, r.startedAt = stop, true, time.Now()
	r.ends, r.recorded = make(chan ending, maxGroup), make(chan struct{})
	go r.record(context.WithoutCancel(ctx))
	for i := 0; i < r.opt.Workers; i++ {
		r.wg.Add(1)
		go r.worker(wctx)
	}
	go func() {
		r.wg.Wait()
		r.release()
		close(r.ends)
	}()
	return nil
}

// claimed is a run claimed for this process's workers, with its job.
type claimed struct {
	run *store.Run
	j   *job
}

// Claiming in groups. A claim is a write transaction, and its commit costs
// about as much as a short run (an EAPM run of a sweep, ~0.3 ms): so while
// runs end within fastRun, a worker with nothing to do claims up to
// claimGroup runs in one transaction (store.ClaimUpTo) and leaves the ones
// it does not start for the other workers. The runs so claimed are running
// in the database and in flight here (Cancel finds them) from the claim
// on; no worker holds them back, since any idle worker takes the next. A
// slow run makes the next claim a single one, so long runs are never
// claimed ahead of a free worker.
const (
	fastRun    = 10 * time.Millisecond
	claimGroup = 8
)

// next returns the next run for a worker: the oldest claimed but not yet
// started, or a newly claimed one (nil when none is queued).
func (r *Runner) next(ctx context.Context) (*store.Run, *job, error) {
	r.mu.Lock()
	if len(r.pending) > 0 {
		c := r.pending[0]
		r.pending = r.pending[1:]
		r.mu.Unlock()
		return c.run, c.j, nil
	}
	r.mu.Unlock()
	if r.st.Disk().Paused() {
		// The disk is low or full: claim nothing new until it has room
		// (the Disk's checks clear it, and the poll comes back here).
		return nil, nil, nil
	}
	n := 1
	if r.fast.Load() {
		n = claimGroup
	}
	runs, err := r.st.ClaimUpTo(ctx, n)
	if err != nil || len(runs) == 0 {
		return nil, nil, err
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	var first *job
	for i, run := range runs {
		jctx, cancel := context.WithCancelCause(ctx)
		j := &job{ctx: jctx, cancel: cancel}
		r.inflight[run.ID] = j
		if i == 0 {
			first = j
			continue
		}
		r.pending = append(r.pending, claimed{run, j})
	}
	if len(runs) > 1 {
		r.wakeOthers()
	}
	return runs[0], first, nil
}

// wakeOthers wakes idle workers to take the runs just claimed for them.
func (r *Runner) wakeOthers() {
	for range len(r.pending) {
		select {
		case r.wake <- struct{}{}:
		default:
			return
		}
	}
}

// release, once the workers have stopped, ends the runs they claimed but
// never started: those canceled by the user end canceled; the others go
// back to the queue, as if never claimed, for the next Start.
func (r *Runner) release() {
	r.mu.Lock()
	pending := r.pending
	r.pending = nil
	r.mu.Unlock()
	var back []string
	for _, c := range pending {
		if errors.Is(context.Cause(c.j.ctx), ErrUserCanceled) {
			r.ends <- ending{Ending: store.Ending{ID: c.run.ID, Status: store.StatusCanceled, Error: store.MsgCanceled}, j: c.j}
			continue
		}
		back = append(back, c.run.ID)
	}
	if err := r.st.Unclaim(context.Background(), back); err != nil {
		r.log.Error("runner: putting claimed runs back in the queue", "runs", back, "err", err)
	}
	r.mu.Lock()
	for _, c := range pending {
		if r.inflight[c.run.ID] == c.j && !errors.Is(context.Cause(c.j.ctx), ErrUserCanceled) {
			delete(r.inflight, c.run.ID)
		}
	}
	r.mu.Unlock()
}

// record stores the runs the workers end, in groups: every run that ended
// while the last group was being written goes into the next transaction
// (store.End), so a sweep of short runs pays one commit for many. A run
// stays in flight (Cancel finds it, Workers lists it) until its end is
// stored. It returns when the workers have stopped and the last end is
// stored.
func (r *Runner) record(ctx context.Context) {
	defer close(r.recorded)
	group := make([]ending, 0, maxGroup)
	endings := make([]store.Ending, 0, maxGroup)
	for e := range r.ends {
		group = append(group[:0], e)
	gather:
		for len(group) < maxGroup {
			select {
			case e, ok := <-r.ends:
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
			endings = append(endings, e.Ending)
		}
		for i, err := range r.storeEnds(ctx, endings) {
			if err != nil {
				r.log.Error("runner: storing the end of a run", "run", group[i].ID, "status", group[i].Status, "err", err)
			}
		}
		r.mu.Lock()
		for _, e := range group {
			if r.inflight[e.ID] == e.j {
				delete(r.inflight, e.ID)
			}
		}
		r.mu.Unlock()
		r.finished.Add(int64(len(group)))
	}
}

// Retrying the ends of runs the disk had no room for: the first pause,
// doubled after each attempt up to the last.
const (
	fullBackoff    = 250 * time.Millisecond
	fullBackoffMax = 10 * time.Second
)

// storeEnds stores endings (store.End) and returns each one's error. An
// ending the disk had no room for (SQLITE_FULL) is never dropped: it is
// held, with its run still in flight, and stored again with back-off until
// it fits, logged when the holding begins and ends (the disk's state is
// logged by store.Disk). Meanwhile no run is claimed (Disk.Paused), and
// workers that finish wait for the recorder.
func (r *Runner) storeEnds(ctx context.Context, endings []store.Ending) []error {
	out := r.st.End(ctx, endings)
	var held []int
	for i, err := range out {
		if r.st.Disk().Full(err) {
			held = append(held, i)
		}
	}
	if len(held) == 0 {
		return out
	}
	began := time.Now()
	r.log.Warn("runner: the disk is full: holding the ends of runs until they can be stored", "runs", len(held))
	pause := fullBackoff
	for len(held) > 0 {
		time.Sleep(pause)
		pause = min(2*pause, fullBackoffMax)
		again := make([]store.Ending, len(held))
		for k, i := range held {
			again[k] = endings[i]
		}
		var still []int
		for k, err := range r.st.End(ctx, again) {
			if r.st.Disk().Full(err) {
				still = append(still, held[k])
				continue
			}
			out[held[k]] = err
		}
		held = still
	}
	r.log.Info("runner: stored the ends of runs held while the disk was full", "after", time.Since(began).Round(time.Millisecond).String())
	return out
}

// Shutdown stops claiming runs, cancels the runs in flight and waits for
// the workers to store them as interrupted, or for ctx to be done (then the
// runs still in flight stay running in the database and the next Start marks
// them interrupted). Queued runs stay queued for the next Start.
func (r *Runner) Shutdown(ctx context.Context) error {
	r.mu.Lock()
	r.stopped = true
	stop, started := r.stop, r.started
	r.mu.Unlock()
	if b := r.opt.Backend; b != nil {
		if !started {
			return nil
		}
		return b.Shutdown(ctx)
	}
	if stop == nil {
		return nil
	}
	stop(ErrShutdown)
	select {
	case <-r.recorded: // the workers have stopped and their runs are stored
		return nil
	case <-ctx.Done():
		return errs.Wrap(errs.Canceled, fmt.Errorf("runs still stopping: %w", ctx.Err()))
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
	if r.opt.Backend != nil {
		r.opt.Backend.Wake()
		return
	}
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
	return r.prepare(ctx, in, r.st.GetWorkloadInfo)
}

// PrepareAll is Prepare of many runs, which read each workload they share
// once: an experiment's thousand runs share a hundred workloads. known are
// workloads not stored yet (an experiment's recipes, stored with its runs).
func (r *Runner) PrepareAll(ctx context.Context, in []*store.Run, known ...*store.Workload) ([]*store.Run, error) {
	seen := map[string]*store.Workload{}
	for _, w := range known {
		seen[w.ID] = w
	}
	info := func(ctx context.Context, id string) (*store.Workload, error) {
		if w := seen[id]; w != nil {
			return w, nil
		}
		w, err := r.st.GetWorkloadInfo(ctx, id)
		if err == nil {
			seen[id] = w
		}
		return w, err
	}
	out := make([]*store.Run, len(in))
	for i, run := range in {
		var err error
		if out[i], err = r.prepare(ctx, run, info); err != nil {
			return nil, err
		}
	}
	return out, nil
}

func (r *Runner) prepare(ctx context.Context, in *store.Run, workloadInfo func(context.Context, string) (*store.Workload, error)) (*store.Run, error) {
	if in == nil {
		return nil, &errs.Error{Kind: errs.Invalid, Err: errors.New("no run to submit")}
	}
	run := store.Run{Kind: in.Kind, WorkloadID: in.WorkloadID, Strategy: in.Strategy, Variant: in.Variant,
		Params: in.Params, Seed: in.Seed, RerunOf: in.RerunOf, Owner: in.Owner}
	if run.Kind == "" {
		run.Kind = store.KindRun
	}
	if run.Kind != store.KindRun && run.Kind != store.KindReproduce {
		return nil, &errs.Error{Kind: errs.Invalid, Field: "kind",
			Err: fmt.Errorf("must be %q or %q, got %q", store.KindRun, store.KindReproduce, run.Kind)}
	}
	if strings.TrimSpace(run.Strategy) == "" {
		return nil, &errs.Error{Kind: errs.Invalid, Field: "strategy", Err: errors.New("missing: choose a strategy")}
	}
	s, ok := r.lookup(run.Strategy)
	if !ok {
		return nil, &errs.Error{Kind: errs.NotFound, Field: "strategy", Err: fmt.Errorf("unknown strategy %q", run.Strategy)}
	}
	var err error
	if run.Kind == store.KindReproduce {
		if run.WorkloadID != "" {
			return nil, &errs.Error{Kind: errs.Invalid, Field: "workload_id", Err: errors.New("a reproduce run takes no workload")}
		}
		run.Variant = ""
		if run.Params, err = solvers.Resolve(s.ReproduceParams(), run.Params); err != nil {
			return nil, errs.Wrap(errs.Invalid, err)
		}
	} else {
		if run.Variant, err = Variant(s, run.Variant); err != nil {
			return nil, errs.Wrap(errs.Invalid, err)
		}
		if run.Params, err = solvers.Resolve(s.Params(), run.Params); err != nil {
			return nil, errs.Wrap(errs.Invalid, err)
		}
		if run.WorkloadID == "" {
			return nil, &errs.Error{Kind: errs.Invalid, Field: "workload_id", Err: errors.New("missing: choose a workload")}
		}
		w, err := workloadInfo(ctx, run.WorkloadID)
		if errs.Is(errs.NotFound, err) {
			return nil, &errs.Error{Kind: errs.NotFound, Field: "workload_id", Err: fmt.Errorf("no workload %q", run.WorkloadID)}
		}
		if err != nil {
			return nil, err
		}
		if w.Strategy != run.Strategy {
			return nil, &errs.Error{Kind: errs.Invalid, Field: "workload_id",
				Err: fmt.Errorf("workload %s is a %s workload, not %s", w.ID, w.Strategy, run.Strategy)}
		}
		if f, ok := s.(solvers.VariantFilter); ok {
			if err := f.VariantFits(w.Format, run.Variant); err != nil {
				return nil, errs.Wrap(errs.Invalid, err)
			}
		}
	}
	if err := checkLimits(s, run.Kind == store.KindReproduce, run.Params, r.Budget()); err != nil {
		return nil, errs.Wrap(errs.Invalid, err)
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
			if r.opt.Backend != nil {
				return r.opt.Backend.Cancel(ctx, id)
			}
			r.mu.Lock()
			j := r.inflight[id]
			r.mu.Unlock()
			if j != nil {
				j.cancel(ErrUserCanceled)
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
			return &errs.Error{Kind: errs.Conflict, Field: "id", Err: fmt.Errorf("run %s is already %s", id, run.Status)}
		}
	}
}

// Progress returns the live progress of a run executing in this runner; ok
// is false when it is not (queued, finished, or unknown): read the store.
func (r *Runner) Progress(id string) (done, total int, note string, ok bool) {
	if r.opt.Backend != nil {
		return r.opt.Backend.Progress(id)
	}
	r.mu.Lock()
	j := r.inflight[id]
	r.mu.Unlock()
	if j == nil {
		return 0, 0, "", false
	}
	done, total, note, _ = j.snapshot()
	return done, total, note, true
}

// InProcessWorker is the name Workers gives the pool of this process.
const InProcessWorker = "in-process"

// Workers lists the workers executing runs: the Backend's, or this
// process's pool as one worker named InProcessWorker.
func (r *Runner) Workers() []WorkerStatus {
	if r.opt.Backend != nil {
		return r.opt.Backend.Workers()
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if !r.started {
		return nil
	}
	running := make([]string, 0, len(r.inflight))
	for id, j := range r.inflight {
		if j.started.Load() {
			running = append(running, id)
		}
	}
	sort.Strings(running)
	host, _ := os.Hostname()
	return []WorkerStatus{{Name: InProcessWorker, Host: host, PID: os.Getpid(), Concurrency: r.opt.Workers,
		Running: running, Done: int(r.finished.Load()), Started: r.startedAt, LastSeen: time.Now()}}
}

// worker claims and executes runs until ctx is done.
func (r *Runner) worker(ctx context.Context) {
	defer r.wg.Done()
	poll := time.NewTicker(r.opt.PollInterval)
	defer poll.Stop()
	for ctx.Err() == nil {
		run, j, err := r.next(ctx)
		if err != nil {
			// A full disk is logged once, by the store's Disk.
			if ctx.Err() == nil && !r.st.Disk().Full(err) {
				r.log.Error("runner: claiming a run", "err", err)
			}
		} else if run != nil {
			r.execute(ctx, run, j)
			continue
		}
		select {
		case <-ctx.Done():
		case <-r.wake:
		case <-poll.C:
		}
	}
}

// execute runs a claimed run (in flight as j) and hands its end, with its
// last progress, to the recorder.
func (r *Runner) execute(wctx context.Context, run *store.Run, j *job) {
	// Store writes outlive the workers' context: a run cut off by a
	// shutdown is still recorded as interrupted.
	dbctx := context.WithoutCancel(wctx)
	ctx := j.ctx
	defer j.cancel(nil)
	j.started.Store(true)
	began := time.Now()

	flushed := make(chan struct{})
	stopFlush := make(chan struct{})
	go func() {
		defer close(flushed)
		r.flushProgress(dbctx, run.ID, began, j, stopFlush)
	}()
	rep, err := r.run(ctx, run, j) // one canceled while it waited is not executed (Execute)
	close(stopFlush)
	<-flushed
	r.fast.Store(time.Since(began) < fastRun)

	e := ending{Ending: store.Ending{ID: run.ID, Status: store.StatusDone, StartedAt: began, Build: store.Build(buildinfo.Current())}, j: j}
	if err == nil {
		e.Report, err = solvers.EncodeReport(rep)
		e.Encoded = err == nil
		e.NoLargeTables = !hasLargeTable(rep)
		if err != nil {
			err = &errs.Error{Kind: errs.Internal, Err: fmt.Errorf("strategy %s: encoding the report: %w", run.Strategy, err)}
		}
	}
	if err != nil {
		e.Report = nil
		e.Status, e.Error, e.ErrorField = Outcome(err)
		var pe *PanicError
		if errors.As(err, &pe) {
			r.log.Error("runner: strategy panicked", "run", run.ID, "strategy", run.Strategy, "panic", fmt.Sprint(pe.Value), "stack", string(pe.Stack))
		}
	}
	if done, total, note, v := j.snapshot(); v > 0 {
		e.Progress = &store.Progress{Done: done, Total: total, Note: note}
	}
	r.ends <- e
}

// run resolves a claimed run's inputs and executes it.
func (r *Runner) run(ctx context.Context, run *store.Run, j *job) (*solvers.Report, error) {
	s, ok := r.lookup(run.Strategy)
	if !ok {
		return nil, &errs.Error{Kind: errs.NotFound, Field: "strategy",
			Err: fmt.Errorf("strategy %q is not in this build of schedlab", run.Strategy)}
	}
	if run.Kind == store.KindReproduce {
		return ExecuteReproduce(ctx, s, run.Params, j.progress, r.Budget())
	}
	w, err := r.workloads.get(ctx, run.WorkloadID, r.readWorkload)
	if err != nil {
		if ctx.Err() != nil {
			return nil, canceled("runner", ctx)
		}
		return nil, err
	}
	return Execute(ctx, s, w, run.Variant, run.Params, j.progress, r.Budget())
}

// hasLargeTable says whether a table of rep has more rows than the store
// keeps in a report (solvers.PageOutRows; the store pages it out),
// without building a lazy table's rows.
func hasLargeTable(rep *solvers.Report) bool {
	for i := range rep.Tables {
		if rep.Tables[i].NumRows() > solvers.PageOutRows {
			return true
		}
	}
	return false
}

// Outcome maps an execution error to the run's final status, message and
// field: canceled by the user, interrupted by a shutdown, or failed.
func Outcome(err error) (status, msg, field string) {
	if errs.KindOf(err) == errs.Canceled {
		if errors.Is(err, ErrUserCanceled) {
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
// ProgressInterval while it changes, until stop is closed: the last
// progress is stored with the run's end. A run still executing at the
// first tick has its start (began) stored then, so that it stops showing
// as waiting; a shorter one has it stored with its end, at no extra write.
func (r *Runner) flushProgress(ctx context.Context, id string, began time.Time, j *job, stop <-chan struct{}) {
	t := time.NewTicker(r.opt.ProgressInterval)
	defer t.Stop()
	written := 0
	marked := false
	flush := func() {
		if !marked {
			if err := r.st.MarkStarted(ctx, id, began); err != nil && !r.st.Disk().Full(err) {
				r.log.Warn("runner: storing the start", "run", id, "err", err)
			}
			marked = true
		}
		done, total, note, v := j.snapshot()
		if v == written {
			return
		}
		if err := r.st.SetProgress(ctx, id, done, total, note); err != nil {
			if !r.st.Disk().Full(err) { // a full disk is logged once, by the store
				r.log.Warn("runner: storing progress", "run", id, "err", err)
			}
			return
		}
		written = v
	}
	for {
		select {
		case <-stop:
			return
		case <-t.C:
			flush()
		}
	}
}
