package adversaries

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"math"
	"sync"
	"time"

	"schedlab/buildinfo"
	"schedlab/errs"
	"schedlab/report"
	"schedlab/runner"
	"schedlab/runtypes"
	"schedlab/solvers"
	"schedlab/solvers/adversary"
	"schedlab/store"
)

// Options configure a Driver. Zero fields take the defaults.
type Options struct {
	// Poll is how often a search waiting for its runs looks at the store
	// when nothing kicked it (Kick): DefaultPoll.
	Poll time.Duration
	// Logger receives what a search could not store (slog.Default()).
	Logger *slog.Logger
	// Recorded, when set, is told each time a search has stored its
	// evaluations, with how many it has (tests stop a search there).
	Recorded func(search string, evaluations int)
}

// DefaultPoll is the default Options.Poll.
const DefaultPoll = time.Second

// Driver runs the stored searches: each a goroutine that proposes a
// batch of candidates, submits A's and B's runs of each to the runner,
// waits for them all, and records the batch's evaluations in order.
type Driver struct {
	st     *store.Store
	rn     *runner.Runner
	lookup func(string) (*solvers.Strategy, bool)
	opt    Options

	mu      sync.Mutex
	kick    chan struct{} // closed and replaced by Kick
	active  map[string]*active
	stopped bool
}

type active struct {
	cancel context.CancelCauseFunc
	done   chan struct{}
}

// errCanceled is the cause of a search canceled by its user.
var errCanceled = errors.New("canceled")

// New returns a Driver over st and rn, finding strategies with lookup.
func New(st *store.Store, rn *runner.Runner, lookup func(string) (*solvers.Strategy, bool), opt Options) *Driver {
	opt.Poll = runtypes.OrDefault(opt.Poll, DefaultPoll)
	opt.Logger = cmp.Or(opt.Logger, slog.Default())
	return &Driver{st: st, rn: rn, lookup: lookup, opt: opt, kick: make(chan struct{}), active: map[string]*active{}}
}

// Kick says runs ended (runner.Options.Ended): waiting searches look now.
func (d *Driver) Kick() {
	d.mu.Lock()
	close(d.kick)
	d.kick = make(chan struct{})
	d.mu.Unlock()
}

func (d *Driver) kicked() <-chan struct{} {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.kick
}

// Start resumes the searches a previous process left running: their
// interrupted runs are queued again, each goes on from its stored
// evaluations. Call it after the runner's Start.
func (d *Driver) Start(ctx context.Context) error {
	n, err := d.st.RequeueAdversaryRuns(ctx)
	if err != nil {
		return err
	}
	if n > 0 {
		d.opt.Logger.Info("interrupted runs of searches queued again", "count", n)
		d.rn.Wake()
	}
	running, err := d.st.ListAdversarySearches(ctx, store.SearchRunning)
	if err != nil {
		return err
	}
	for _, a := range running {
		d.launch(a)
	}
	return nil
}

// Shutdown stops the searches, within ctx, leaving them running in the
// store for the next Start.
func (d *Driver) Shutdown(ctx context.Context) error {
	d.mu.Lock()
	d.stopped = true
	var all []*active
	for _, a := range d.active {
		a.cancel(context.Canceled)
		all = append(all, a)
	}
	d.mu.Unlock()
	for _, a := range all {
		select {
		case <-a.done:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	return nil
}

// Create checks spec, stores it as a new running search of owner and
// starts it. An error names the field at fault (errs.Invalid, or
// errs.NotFound for the strategy or the start workload).
func (d *Driver) Create(ctx context.Context, spec Spec, owner string) (*store.AdversarySearch, error) {
	s, err := d.build(ctx, spec, owner)
	if err != nil {
		return nil, err
	}
	spec.Better = s.Config.Better
	cfg, err := json.Marshal(spec)
	if err != nil {
		return nil, errs.Wrap(errs.Internal, err)
	}
	b := buildinfo.Current()
	a := &store.AdversarySearch{Strategy: spec.Strategy, Config: cfg, Owner: owner,
		Build: runtypes.Build{Version: b.Version, Commit: b.Commit, Modified: b.Modified}}
	if err := d.st.CreateAdversarySearch(ctx, a); err != nil {
		return nil, err
	}
	d.launch(a)
	return a, nil
}

// build checks spec and builds its search (the start workload read from
// the store, readable by owner).
func (d *Driver) build(ctx context.Context, spec Spec, owner string) (*Search, error) {
	if spec.Strategy == "" {
		return nil, errs.Invalidf("strategy", "missing: choose a strategy")
	}
	st, ok := d.lookup(spec.Strategy)
	if !ok {
		return nil, errs.New(errs.NotFound, "strategy", "unknown strategy %q", spec.Strategy)
	}
	var start *solvers.Workload
	if spec.Workload != "" {
		w, err := d.st.GetWorkloadData(ctx, spec.Workload)
		if errs.Is(err, errs.NotFound) {
			return nil, errs.New(errs.NotFound, "workload", "no workload %q", spec.Workload)
		}
		if err != nil {
			return nil, err
		}
		if w.Strategy != spec.Strategy {
			return nil, errs.Invalidf("workload", "workload %s is a %s workload, not %s", w.ID, w.Strategy, spec.Strategy)
		}
		if len(w.Data) == 0 {
			return nil, errs.Invalidf("workload", "workload %s is not generated yet", w.ID)
		}
		start = &solvers.Workload{Name: w.Name, Format: w.Format, Summary: w.Summary, Data: w.Data}
	}
	// No run in the server: a family that declares no metrics has its
	// direction read from a queued run, by the search (direction).
	return Build(ctx, st, spec, start, d.rn.Budget(), nil)
}

// direction reads s's metric direction from A's (else B's) run on its
// first instance, queued as a candidate of search a: the candidate a
// search on it would be, so its runs are not made twice.
func (d *Driver) direction(ctx context.Context, a *store.AdversarySearch, s *Search, rec *recorder) (report.Direction, error) {
	return adversary.Direction(ctx, s.Strategy, s.Config.Metric, func(ctx context.Context) (*report.Report, error) {
		key := adversary.Key(s.First)
		_, known := rec.cands[key]
		c, err := d.candidate(ctx, a, s.Config, rec, s.First)
		if err != nil {
			return nil, err
		}
		if !known {
			rec.probe = key
		}
		d.rn.Wake()
		ended, err := d.await(ctx, []string{c.RunA, c.RunB})
		if err != nil {
			return nil, err
		}
		for _, id := range []string{c.RunA, c.RunB} {
			if r := ended[id]; r.Status == runtypes.StatusDone {
				if side := d.side(ctx, r, s.Config.Metric); side.Report != nil {
					return side.Report, nil
				}
			}
		}
		return nil, fmt.Errorf("neither %s nor %s ran on the first instance (runs %s, %s)", s.Config.A.Variant, s.Config.B.Variant, c.RunA, c.RunB)
	})
}

// Cancel stops a running search; it ends canceled, its best kept.
func (d *Driver) Cancel(ctx context.Context, id string) error {
	a, err := d.st.GetAdversarySearch(ctx, id)
	if err != nil {
		return err
	}
	if a.Status != store.SearchRunning {
		return errs.New(errs.Conflict, "id", "search %s is already %s", id, a.Status)
	}
	d.mu.Lock()
	act := d.active[id]
	d.mu.Unlock()
	if act == nil {
		return d.st.EndAdversarySearch(ctx, id, store.SearchCanceled, "", "", "")
	}
	act.cancel(errCanceled)
	return d.Wait(ctx, id)
}

// Wait returns once search id's goroutine in this process has returned
// (at once if it has none).
func (d *Driver) Wait(ctx context.Context, id string) error {
	d.mu.Lock()
	act := d.active[id]
	d.mu.Unlock()
	if act == nil {
		return nil
	}
	select {
	case <-act.done:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// launch starts a's goroutine.
func (d *Driver) launch(a *store.AdversarySearch) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.stopped || d.active[a.ID] != nil {
		return
	}
	ctx, cancel := context.WithCancelCause(context.Background())
	act := &active{cancel: cancel, done: make(chan struct{})}
	d.active[a.ID] = act
	go func() {
		defer func() {
			d.mu.Lock()
			delete(d.active, a.ID)
			d.mu.Unlock()
			cancel(nil)
			close(act.done)
		}()
		d.run(ctx, a)
	}()
}

// run runs search a to its end and stores the end: done, failed with
// the reason, or canceled. A shutdown leaves it running for the next
// Start.
func (d *Driver) run(ctx context.Context, a *store.AdversarySearch) {
	res, cfg, err := d.search(ctx, a)
	status, msg := store.SearchDone, ""
	switch {
	case errors.Is(context.Cause(ctx), errCanceled):
		status = store.SearchCanceled
	case ctx.Err() != nil:
		return // a shutdown: resumed at the next Start
	case err != nil:
		status, msg = store.SearchFailed, err.Error()
	}
	name, summary := "", ""
	if res != nil && res.Best >= 0 {
		best := res.Evaluations[res.Best]
		name = fmt.Sprintf("%s worst vs %s: %s %s (search %s)", cfg.A.Variant, cfg.B.Variant, cfg.Score, adversary.ScoreText(best.Score), a.ID)
		summary = fmt.Sprintf("found by adversarial search %s (%s of %s, seed %d, build %s) at candidate %d: %s %s, %s %s",
			a.ID, cfg.Method, cfg.Metric, cfg.Seed, cmp.Or(a.Build.Commit, "unknown"), best.Index+1,
			cfg.A.Variant, adversary.SideText(best.Outcome.A), cfg.B.Variant, adversary.SideText(best.Outcome.B))
	}
	// The end is stored even as the process stops.
	ectx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
	defer cancel()
	if status != store.SearchDone {
		d.stopRuns(ectx, a.ID)
	}
	if err := d.st.EndAdversarySearch(ectx, a.ID, status, msg, name, summary); err != nil {
		d.opt.Logger.Error("search end not stored", "search", a.ID, "err", err)
	}
}

// stopRuns cancels the runs a canceled or failed search left queued or
// running (its batch in flight), and drops the candidates whose runs
// have ended, the best's kept.
func (d *Driver) stopRuns(ctx context.Context, id string) {
	cands, err := d.st.AdversaryCandidates(ctx, id)
	if err != nil {
		return
	}
	a, err := d.st.GetAdversarySearch(ctx, id)
	if err != nil {
		return
	}
	var drop []string
	for key, c := range cands {
		if c.WorkloadID == a.BestWorkloadID {
			continue
		}
		for _, run := range []string{c.RunA, c.RunB} {
			if err := d.rn.Cancel(ctx, run); err != nil && !errs.Is(err, errs.Conflict) && !errs.Is(err, errs.NotFound) {
				d.opt.Logger.Warn("a stopped search's run not canceled", "search", id, "run", run, "err", err)
			}
		}
		drop = append(drop, key)
	}
	if len(drop) > 0 {
		// Runs still stopping are not deleted (RecordAdversaryEvaluations
		// keeps queued and running runs): they end canceled in the list.
		_ = d.st.RecordAdversaryEvaluations(ctx, id, nil, a.Best, "", drop)
	}
}

// search runs a's search, from its stored evaluations on.
func (d *Driver) search(ctx context.Context, a *store.AdversarySearch) (*adversary.Result, adversary.Config, error) {
	var spec Spec
	if err := json.Unmarshal(a.Config, &spec); err != nil {
		return nil, adversary.Config{}, fmt.Errorf("the stored configuration: %w", err)
	}
	s, err := d.build(ctx, spec, a.Owner)
	if err != nil {
		return nil, adversary.Config{}, err
	}
	cands, err := d.st.AdversaryCandidates(ctx, a.ID)
	if err != nil {
		return nil, s.Config, err
	}
	rec := &recorder{d: d, search: a.ID, cands: cands}
	if s.Config.Better == "" {
		if s.Config.Better, err = d.direction(ctx, a, s, rec); err != nil {
			return nil, s.Config, err
		}
	}
	cfg := s.Config
	cfg.Until = Until(spec, a.CreatedAt)
	rec.better = cfg.Better
	stored, err := d.st.AdversaryEvaluations(ctx, a.ID)
	if err != nil {
		return nil, cfg, err
	}
	known := map[string]adversary.Outcome{}
	for _, e := range stored {
		if e.Key == "" {
			continue
		}
		ev, err := decodeEvaluation(e.Evaluation)
		if err != nil {
			return nil, cfg, fmt.Errorf("stored evaluation %d: %w", e.Position, err)
		}
		known[e.Key] = ev.Outcome
	}
	res, err := adversary.Search(ctx, cfg, s.Family, d.evaluator(a, cfg, rec), known, rec.observe)
	if ferr := rec.flush(context.WithoutCancel(ctx)); ferr != nil && err == nil {
		err = ferr
	}
	return res, cfg, err
}

// recorder stores a search's evaluations as they are made, and drops
// the candidates that are not the best.
type recorder struct {
	d       *Driver
	search  string
	cands   map[string]store.AdversaryCandidate
	pending []adversary.Evaluation
	best    adversary.Evaluation
	hasBest bool
	kept    string           // the key of the best at the last flush
	probe   string           // the key of the direction's candidate, until dropped
	better  report.Direction // the metric's direction
}

func (r *recorder) observe(e adversary.Evaluation) {
	r.pending = append(r.pending, e)
	// The search's rule: a strictly better score wins, the earliest of
	// equal ones stays; an instance the preset refused never does.
	if e.Key != "" && (!r.hasBest || e.Score > r.best.Score || (math.IsNaN(r.best.Score) && !math.IsNaN(e.Score))) {
		r.best, r.hasBest = e, true
	}
}

// Best is what a search's row says of its best candidate.
type Best struct {
	Index int    `json:"index"`
	Key   string `json:"key"`
	Score string `json:"score"` // strconv 'g': "+Inf" when A failed
	RunA  string `json:"run_a,omitempty"`
	RunB  string `json:"run_b,omitempty"`
	// Better is the metric's direction, as the search found it.
	Better report.Direction `json:"better,omitempty"`
}

// flush stores the pending evaluations and the best, and drops the
// candidates evaluated that are not the best.
func (r *recorder) flush(ctx context.Context) error {
	if len(r.pending) == 0 {
		return nil
	}
	evs := make([]store.AdversaryEvaluation, len(r.pending))
	var drop []string
	for i, e := range r.pending {
		raw, err := encodeEvaluation(e)
		if err != nil {
			return err
		}
		evs[i] = store.AdversaryEvaluation{Position: e.Index, Key: e.Key, Evaluation: raw}
		if e.Key != "" && (!r.hasBest || e.Key != r.best.Key) {
			drop = append(drop, e.Key)
		}
	}
	if r.kept != "" && r.kept != r.best.Key {
		drop = append(drop, r.kept) // the best before, now beaten
	}
	if r.probe != "" && r.hasBest && r.probe != r.best.Key {
		drop = append(drop, r.probe) // the direction's runs, not the best
		r.probe = ""
	}
	best := Best{Index: -1}
	keep := ""
	if r.hasBest {
		best = Best{Index: r.best.Index, Key: r.best.Key, Score: formatFloat(r.best.Score), Better: r.better}
		if c, ok := r.cands[r.best.Key]; ok {
			best.RunA, best.RunB, keep = c.RunA, c.RunB, c.WorkloadID
		}
	}
	raw, _ := json.Marshal(best)
	if err := r.d.st.RecordAdversaryEvaluations(ctx, r.search, evs, raw, keep, drop); err != nil {
		return err
	}
	for _, k := range drop {
		delete(r.cands, k)
	}
	n := r.pending[len(r.pending)-1].Index + 1
	r.pending = r.pending[:0]
	r.kept = r.best.Key
	if r.d.opt.Recorded != nil {
		r.d.opt.Recorded(r.search, n)
	}
	return nil
}

// evaluator submits A's and B's runs of each instance of a batch (or
// finds those a previous process submitted), waits for them all and
// reads their outcomes, in the batch's order: the search consumes
// results in candidate order, never in completion order, so a seed
// gives the same search however the runs are spread over workers.
func (d *Driver) evaluator(a *store.AdversarySearch, cfg adversary.Config, rec *recorder) adversary.Evaluator {
	return func(ctx context.Context, batch []*solvers.Workload) ([]adversary.Outcome, error) {
		if err := rec.flush(ctx); err != nil {
			return nil, err
		}
		cs := make([]store.AdversaryCandidate, len(batch))
		for i, w := range batch {
			var err error
			if cs[i], err = d.candidate(ctx, a, cfg, rec, w); err != nil {
				return nil, err
			}
		}
		d.rn.Wake()
		d.Kick() // the searches waiting look again (and tests see the batch)
		ids := make([]string, 0, 2*len(cs))
		for _, c := range cs {
			ids = append(ids, c.RunA, c.RunB)
		}
		ended, err := d.await(ctx, ids)
		if err != nil {
			return nil, err
		}
		outs := make([]adversary.Outcome, len(cs))
		for i, c := range cs {
			outs[i] = adversary.Outcome{A: d.side(ctx, ended[c.RunA], cfg.Metric), B: d.side(ctx, ended[c.RunB], cfg.Metric)}
		}
		if ctx.Err() != nil {
			// A read cut short is no outcome.
			return nil, context.Cause(ctx)
		}
		return outs, nil
	}
}

// candidate is instance w's candidate: the one rec knows, else w stored
// as a workload with A's and B's runs of it queued.
func (d *Driver) candidate(ctx context.Context, a *store.AdversarySearch, cfg adversary.Config, rec *recorder, w *solvers.Workload) (store.AdversaryCandidate, error) {
	key := adversary.Key(w)
	if c, ok := rec.cands[key]; ok {
		return c, nil
	}
	sw := &runtypes.Workload{ID: store.NewID(), Strategy: a.Strategy, Name: fmt.Sprintf("search %s candidate %.12s", a.ID, key),
		Format: w.Format, Summary: w.Summary, Data: w.Data, Owner: a.Owner}
	runs, err := d.rn.PrepareAll(ctx, []*runtypes.Run{
		{WorkloadID: sw.ID, Strategy: a.Strategy, Variant: cfg.A.Variant, Params: cfg.A.Params, Seed: cfg.Seed, Owner: a.Owner},
		{WorkloadID: sw.ID, Strategy: a.Strategy, Variant: cfg.B.Variant, Params: cfg.B.Params, Seed: cfg.Seed, Owner: a.Owner},
	}, sw)
	if err != nil {
		return store.AdversaryCandidate{}, err
	}
	c, err := d.st.AddAdversaryCandidate(ctx, a.ID, key, sw, runs[0], runs[1])
	if err != nil {
		return store.AdversaryCandidate{}, err
	}
	rec.cands[key] = *c
	return *c, nil
}

// await waits until every run of ids has ended and returns them. An
// interrupted run is not an end: it is queued again (a worker lost, a
// stop), so a search never counts a stop as a failure.
func (d *Driver) await(ctx context.Context, ids []string) (map[string]*runtypes.Run, error) {
	ended := map[string]*runtypes.Run{}
	for {
		kick := d.kicked()
		requeue := false
		for _, id := range ids {
			if ended[id] != nil {
				continue
			}
			r, err := d.st.GetRunInfo(ctx, id)
			switch {
			case errs.Is(err, errs.NotFound):
				ended[id] = &runtypes.Run{ID: id, Status: runtypes.StatusCanceled, Error: "the run was deleted"}
			case err != nil:
				return nil, err
			case r.Status == runtypes.StatusInterrupted:
				requeue = true
			case runtypes.Final(r.Status):
				ended[id] = r
			}
		}
		if len(ended) == len(ids) {
			return ended, nil
		}
		if requeue && ctx.Err() == nil {
			if _, err := d.st.RequeueAdversaryRuns(ctx); err != nil {
				return nil, err
			}
			d.rn.Wake()
		}
		select {
		case <-kick:
		case <-time.After(d.opt.Poll):
		case <-ctx.Done():
			return nil, context.Cause(ctx)
		}
	}
}

// side is a run's result: a failed or canceled run is a result, with its
// message as the reason.
func (d *Driver) side(ctx context.Context, r *runtypes.Run, metric string) adversary.SideResult {
	if r.Status != runtypes.StatusDone {
		return adversary.SideOf(nil, fmt.Errorf("run %s %s: %s", r.ID, r.Status, r.Error), metric)
	}
	full, err := d.st.GetRun(ctx, r.ID)
	if err != nil {
		return adversary.SideOf(nil, fmt.Errorf("run %s: %w", r.ID, err), metric)
	}
	rep, err := report.DecodeReport(full.Report)
	if err != nil {
		return adversary.SideOf(nil, fmt.Errorf("run %s: its report: %w", r.ID, err), metric)
	}
	return adversary.SideOf(rep, nil, metric)
}
