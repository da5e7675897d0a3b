package runner

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"sort"
	"sync"
	"sync/atomic"
	"time"

	"schedlab/buildinfo"
	"schedlab/errs"
	"schedlab/execute"
	"schedlab/report"
	"schedlab/runtypes"
	"schedlab/solvers"
	"schedlab/store"
)

// pool is the Backend that executes runs in this process: Options.Workers
// goroutines claim queued runs from the store, execute them and hand their
// ends to one recorder (see the package doc). Used by the tests and by
// schedlab serve --in-process.
type pool struct {
	st     *store.Store
	lookup func(string) (*solvers.Strategy, bool)
	opt    Options
	log    *slog.Logger
	wake   chan struct{}

	mu        sync.Mutex
	inflight  map[string]*job // running runs of this process, by run ID
	pending   []claimed       // claimed in a group, not yet started (see next)
	fast      atomic.Bool     // the last run ended within fastRun: claim in groups
	startedAt time.Time
	finished  atomic.Int64            // runs ended by this process's workers
	stop      context.CancelCauseFunc // cancels the workers' context; nil until Start
	wg        sync.WaitGroup          // the workers
	ends      chan ending             // the workers' ended runs, to the recorder
	recorded  chan struct{}           // closed when the recorder has stored the last
	workloads *workloadCache
	gens      execute.Generations // experiments' workloads being generated here
}

var _ Backend = (*pool)(nil)

func newPool(r *Runner) *pool {
	return &pool{st: r.st, lookup: r.lookup, opt: r.opt, log: r.log, wake: make(chan struct{}, r.opt.Workers),
		inflight: map[string]*job{}, workloads: newWorkloadCache(workloadCacheBytes)}
}

// Budget is the per-run budget (the Runner's).
func (r *pool) Budget() solvers.Budget {
	return solvers.Budget{Timeout: r.opt.Timeout, Memory: r.opt.MemoryBudget}
}

// Start starts the workers and the recorder. They stop when ctx is done
// or at Shutdown; runs cut off either way are stored interrupted.
func (r *pool) Start(ctx context.Context) error {
	wctx, stop := context.WithCancelCause(ctx)
	r.mu.Lock()
	r.stop, r.startedAt = stop, time.Now()
	r.mu.Unlock()
	r.ends, r.recorded = make(chan ending, MaxGroup), make(chan struct{})
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

// Shutdown cancels the runs in flight and waits for the workers to store
// them as interrupted, or for ctx to be done (then the runs still in
// flight stay running in the database and the next Start marks them
// interrupted).
func (r *pool) Shutdown(ctx context.Context) error {
	r.mu.Lock()
	stop := r.stop
	r.mu.Unlock()
	if stop == nil {
		return nil
	}
	stop(execute.ErrShutdown)
	select {
	case <-r.recorded: // the workers have stopped and their runs are stored
		return nil
	case <-ctx.Done():
		return errs.Wrap(errs.Canceled, fmt.Errorf("runs still stopping: %w", ctx.Err()))
	}
}

// Wake wakes idle workers.
func (r *pool) Wake() {
	for i := 0; i < r.opt.Workers; i++ {
		select {
		case r.wake <- struct{}{}:
		default: // every worker already has a wake-up pending
			return
		}
	}
}

// Cancel cancels the context of a run in flight here; errNotHere when no
// worker of this process has it.
func (r *pool) Cancel(_ context.Context, id string) error {
	r.mu.Lock()
	j := r.inflight[id]
	r.mu.Unlock()
	if j == nil {
		return errNotHere
	}
	j.cancel(execute.ErrUserCanceled)
	return nil
}

// ending is a run a worker ended, on its way to the store.
type ending struct {
	store.Ending
	j *job
}

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

// claimed is a run claimed for this process's workers, with its job.
type claimed struct {
	run *runtypes.Run
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
// claimed ahead of a free worker. Workers lists only the runs started;
// those never started go back to the queue at Shutdown (release).
const (
	fastRun    = 10 * time.Millisecond
	claimGroup = 8
)

// next returns the next run for a worker: the oldest claimed but not yet
// started, or a newly claimed one (nil when none is queued).
func (r *pool) next(ctx context.Context) (*runtypes.Run, *job, error) {
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
	// The claim is not canceled with the workers: a shutdown that cut it
	// off after its transaction committed would leave its runs running
	// in the database with no worker to end them (seen once in 30 runs of
	// TestShutdownStoresEveryRunThatEnded). Claimed, a run is executed
	// (and ends interrupted at once when the pool is stopping) or put
	// back by release.
	runs, err := r.st.ClaimUpTo(context.WithoutCancel(ctx), n)
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
func (r *pool) wakeOthers() {
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
func (r *pool) release() {
	r.mu.Lock()
	pending := r.pending
	r.pending = nil
	r.mu.Unlock()
	var back []string
	for _, c := range pending {
		if errors.Is(context.Cause(c.j.ctx), execute.ErrUserCanceled) {
			r.ends <- ending{Ending: store.Ending{ID: c.run.ID, Status: runtypes.StatusCanceled, Error: runtypes.MsgCanceled}, j: c.j}
			continue
		}
		back = append(back, c.run.ID)
	}
	if err := r.st.Unclaim(context.Background(), back); err != nil {
		r.log.Error("runner: putting claimed runs back in the queue", "runs", back, "err", err)
	}
	r.mu.Lock()
	for _, c := range pending {
		if r.inflight[c.run.ID] == c.j && !errors.Is(context.Cause(c.j.ctx), execute.ErrUserCanceled) {
			delete(r.inflight, c.run.ID)
		}
	}
	r.mu.Unlock()
}

// record stores the runs the workers end, in groups (GroupCommit), so a
// sweep of short runs pays one commit for many. A run stays in flight
// (Cancel finds it, Workers lists it) until its end is stored. It returns
// when the workers have stopped and the last end is stored.
func (r *pool) record(ctx context.Context) {
	defer close(r.recorded)
	GroupCommit(ctx, r.ends, func(e ending) store.Ending { return e.Ending }, r.storeEnds, func(group []ending, outcomes []error) {
		r.mu.Lock()
		for i, e := range group {
			if outcomes[i] != nil {
				r.log.Error("runner: storing the end of a run", "run", e.ID, "status", e.Status, "err", outcomes[i])
			}
			if r.inflight[e.ID] == e.j {
				delete(r.inflight, e.ID)
			}
		}
		r.mu.Unlock()
		r.finished.Add(int64(len(group)))
		if r.opt.Ended != nil {
			r.opt.Ended()
		}
	})
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
func (r *pool) storeEnds(ctx context.Context, endings []store.Ending) []error {
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

// Progress is the live progress of a run executing here.
func (r *pool) Progress(id string) (done, total int, note string, ok bool) {
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

// Workers lists this process's pool as one worker named InProcessWorker.
func (r *pool) Workers() []runtypes.WorkerStatus {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.stop == nil {
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
	return []runtypes.WorkerStatus{{Name: InProcessWorker, Host: host, PID: os.Getpid(), Concurrency: r.opt.Workers,
		Running: running, Done: int(r.finished.Load()), Started: r.startedAt, LastSeen: time.Now()}}
}

// worker claims and executes runs until ctx is done.
func (r *pool) worker(ctx context.Context) {
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
func (r *pool) execute(wctx context.Context, run *runtypes.Run, j *job) {
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

	e := ending{Ending: store.Ending{ID: run.ID, StartedAt: began, Build: runtypes.Build(buildinfo.Current())}, j: j}
	e.Status, e.Report, e.Error, e.ErrorField = execute.Ended(r.log, "runner", run.ID, run.Strategy, rep, err)
	e.Encoded = e.Status == runtypes.StatusDone
	e.NoLargeTables = e.Encoded && !hasLargeTable(rep)
	if done, total, note, v := j.snapshot(); v > 0 {
		e.Progress = &store.Progress{Done: done, Total: total, Note: note}
	}
	r.ends <- e
}

// run resolves a claimed run's inputs and executes it.
func (r *pool) run(ctx context.Context, run *runtypes.Run, j *job) (*report.Report, error) {
	s, ok := r.lookup(run.Strategy)
	if !ok {
		return nil, errs.New(errs.NotFound, "strategy", "strategy %q is not in this build of schedlab", run.Strategy)
	}
	if run.Kind == runtypes.KindReproduce {
		return execute.Reproduce(ctx, s, run.Params, j.progress, r.Budget())
	}
	w, err := r.workloads.get(ctx, run.WorkloadID, r.readWorkload)
	if err != nil {
		if ctx.Err() != nil {
			return nil, &errs.Error{Kind: errs.Canceled, Err: fmt.Errorf("run stopped: %w", context.Cause(ctx))}
		}
		return nil, err
	}
	return execute.Run(ctx, s, w, run.Variant, run.Params, j.progress, r.Budget())
}

// hasLargeTable says whether a table of rep has more rows than the store
// keeps in a report (report.PageOutRows; the store pages it out),
// without building a lazy table's rows.
func hasLargeTable(rep *report.Report) bool {
	for i := range rep.Tables {
		if rep.Tables[i].NumRows() > report.PageOutRows {
			return true
		}
	}
	return false
}

// flushProgress writes a job's progress to the store at most once per
// ProgressInterval while it changes, until stop is closed: the last
// progress is stored with the run's end. A run still executing at the
// first tick has its start (began) stored then, so that it stops showing
// as waiting; a shorter one has it stored with its end, at no extra write.
func (r *pool) flushProgress(ctx context.Context, id string, began time.Time, j *job, stop <-chan struct{}) {
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

// readWorkload reads workload id for a run: its data, generated first
// under the run's budget (and stored) when it is an experiment's recipe
// not generated yet. The runs of one workload that start together wait
// for one generation (r.gens); a failed generation fails the run.
func (r *pool) readWorkload(ctx context.Context, id string) (*runtypes.Workload, error) {
	w, err := r.st.GetWorkloadData(ctx, id)
	if err != nil || w.SHA256 != "" {
		return w, err
	}
	return r.gens.Do(ctx, id, func(ctx context.Context) (*runtypes.Workload, error) {
		rec, err := r.st.WorkloadRecipe(ctx, id)
		if err != nil {
			return nil, err
		}
		if rec == nil { // generated meanwhile
			return r.st.GetWorkloadData(ctx, id)
		}
		s, ok := r.lookup(rec.Strategy)
		if !ok {
			return nil, errs.New(errs.NotFound, "strategy", "strategy %q is not in this build of schedlab", rec.Strategy)
		}
		gw, err := execute.GenerateRecipe(ctx, s, rec, r.Budget())
		if err != nil {
			return nil, err
		}
		return r.st.FillWorkload(context.WithoutCancel(ctx), id, gw)
	})
}
