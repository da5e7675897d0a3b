package handlers

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"

	"schedlab/errs"
	"schedlab/experiments"
	"schedlab/solvers"
	"schedlab/store"
	"schedlab/views"
)

// An experiment's page reads all of its runs: at 100,000 runs that cost
// 6.0 s of server CPU per view (issue 41 item 2), most of it the store's
// reads (the runs and their metrics, the builds and workloads its Cite
// names, the workers, the run list's order). A snapshot keeps what
// those reads give, and each view's analysis and run list, until the next
// of its runs ends: it is keyed by the experiment's counts (kept exact by
// the store in every transaction that changes a run's status, one row
// read), so a view after any end reads afresh and a view of an
// unchanged experiment reads nothing but that row. A few experiments
// are kept (snapshotsKept), the most recently viewed; concurrent first
// views of one experiment load it once.

// snapshotsKept is how many experiments' snapshots are kept: one of
// 100,000 runs holds about 20 MB.
const snapshotsKept = 3

// memosKept bounds the views (analyses, run lists) kept per snapshot.
const memosKept = 64

// expSnap is one experiment's runs as its page reads them, at one set
// of counts.
type expSnap struct {
	counts store.Counts
	ready  chan struct{} // closed when loaded
	err    error

	results   []experiments.RunResult
	positions []int // results[i]'s position in the experiment
	infos     map[string]experiments.MetricInfo
	family    []solvers.Metric // the family's own declarations
	workers   []views.WorkerCount
	builds    []store.BuildCount
	workloads []string
	more      int

	mu    sync.Mutex
	memos map[string]any
}

// memo returns what make gives for key, made once per snapshot.
func memo[T any](sn *expSnap, key string, make func() (T, error)) (T, error) {
	sn.mu.Lock()
	if v, ok := sn.memos[key]; ok {
		sn.mu.Unlock()
		return v.(T), nil
	}
	sn.mu.Unlock()
	v, err := make()
	if err != nil {
		return v, err
	}
	sn.mu.Lock()
	if len(sn.memos) >= memosKept {
		clear(sn.memos)
	}
	sn.memos[key] = v
	sn.mu.Unlock()
	return v, nil
}

// expSnaps are the snapshots kept, the most recently used last.
type expSnaps struct {
	mu    sync.Mutex
	ids   []string
	snaps map[string]*expSnap
}

// snapshot returns experiment e's snapshot at its current counts,
// loading it when its runs changed since the last.
func (s *Server) snapshot(ctx context.Context, e *store.Experiment) (*expSnap, error) {
	counts, err := s.store.ExperimentCounts(ctx, e.ID)
	if err != nil {
		return nil, err
	}
	sp := &s.snaps
	sp.mu.Lock()
	if sp.snaps == nil {
		sp.snaps = map[string]*expSnap{}
	}
	sn := sp.snaps[e.ID]
	fresh := sn == nil || sn.counts != counts
	if fresh {
		sn = &expSnap{counts: counts, ready: make(chan struct{}), memos: map[string]any{}}
		sp.snaps[e.ID] = sn
	}
	for i, id := range sp.ids {
		if id == e.ID {
			sp.ids = append(sp.ids[:i], sp.ids[i+1:]...)
			break
		}
	}
	sp.ids = append(sp.ids, e.ID)
	for len(sp.ids) > snapshotsKept {
		delete(sp.snaps, sp.ids[0])
		sp.ids = sp.ids[1:]
	}
	sp.mu.Unlock()
	if fresh {
		// Loaded apart from the request that asked first: a client that
		// goes away must not leave the others a canceled snapshot.
		sn.err = s.loadSnapshot(context.WithoutCancel(ctx), e, sn)
		close(sn.ready)
		if sn.err != nil {
			sp.mu.Lock()
			if sp.snaps[e.ID] == sn {
				delete(sp.snaps, e.ID)
			}
			sp.mu.Unlock()
		}
	}
	select {
	case <-sn.ready:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	return sn, sn.err
}

func (s *Server) loadSnapshot(ctx context.Context, e *store.Experiment, sn *expSnap) error {
	runs, err := s.store.ExperimentResults(ctx, e.ID)
	if err != nil {
		return err
	}
	if sn.results, err = runResults(runs); err != nil {
		return err
	}
	sn.positions = make([]int, len(runs))
	for i, r := range runs {
		sn.positions[i] = r.Position
	}
	if st, err := s.lookup(e.Strategy); err == nil {
		sn.family = solvers.Declared(st)
	}
	if sn.infos, err = s.metricInfos(ctx, e.ID, sn.family); err != nil {
		return err
	}
	if sn.workers, err = s.experimentWorkers(ctx, e.ID); err != nil {
		return err
	}
	sn.builds, sn.workloads, sn.more, err = s.store.ExperimentCitation(ctx, e.ID, maxCitedWorkloads)
	return err
}

// runPage is a page of the experiment's run list: the positions of the
// runs status and variant select ("" any), those that did not end done
// first (failed, canceled, interrupted), then the others, each in
// position order, from the offset from, at most limit; and how many the
// filter selects. The store's ExperimentRunList orders so.
func (sn *expSnap) runPage(status, variant string, from, limit int) ([]int, int) {
	var first, rest []int
	for i := range sn.results {
		r := &sn.results[i]
		if status != "" && r.Status != status || variant != "" && r.Variant != variant {
			continue
		}
		switch r.Status {
		case store.StatusDone, store.StatusQueued, store.StatusRunning:
			rest = append(rest, sn.positions[i])
		default:
			first = append(first, sn.positions[i])
		}
	}
	all := append(first, rest...)
	if from >= len(all) {
		return nil, len(all)
	}
	return all[from:min(from+limit, len(all))], len(all)
}

// metricInfos are the declarations of an experiment's metrics (which
// direction is better, bounds, the variants they are asked of): the
// family's own (family, when it declares them), then those of the first
// done run's report of each variant, never of whichever report came
// first alone (issue 38 item 4).
func (s *Server) metricInfos(ctx context.Context, id string, family []solvers.Metric) (map[string]experiments.MetricInfo, error) {
	raws, err := s.store.ExperimentMetricDecls(ctx, id)
	if err != nil {
		return nil, err
	}
	lists := [][]solvers.Metric{family}
	for _, raw := range raws {
		var ms []solvers.Metric
		if err := json.Unmarshal(raw, &ms); err != nil {
			return nil, errs.Wrap(errs.Internal, err)
		}
		lists = append(lists, ms)
	}
	return experiments.Infos(lists...), nil
}

// noResultReasons says why runs of the experiment that ended done gave
// no value of metric: the first MaxListed of them, each with its run,
// cell and the reason its report gives (solvers.StopReason), read from
// their reports (at most MaxListed).
func (s *Server) noResultReasons(ctx context.Context, id string, sn *expSnap, metric string) ([]views.ExperimentRunItem, error) {
	info := sn.infos[metric]
	var positions []int
	for i := range sn.results {
		r := &sn.results[i]
		if _, o := r.Outcome(metric, info); o == experiments.Failed && r.Status == store.StatusDone {
			positions = append(positions, sn.positions[i])
			if len(positions) == experiments.MaxListed {
				break
			}
		}
	}
	if len(positions) == 0 {
		return nil, nil
	}
	items, _, err := s.store.ExperimentRunList(ctx, id, store.ExperimentRunFilter{Positions: positions, Limit: len(positions)})
	if err != nil {
		return nil, err
	}
	out, err := s.runItems(ctx, items, sn, metric)
	return out, err
}

// runItems are items as a run list shows them: a done run that gave no
// value of metric (Outcome) says so, with the reason its report gives.
func (s *Server) runItems(ctx context.Context, items []store.ExperimentRunItem, sn *expSnap, metric string) ([]views.ExperimentRunItem, error) {
	out := make([]views.ExperimentRunItem, len(items))
	var done []string
	for i, it := range items {
		var cell map[string]string
		if err := json.Unmarshal(it.Cell, &cell); err != nil {
			return nil, errs.Wrap(errs.Internal, err)
		}
		out[i] = views.ExperimentRunItem{ID: it.RunID, Status: it.Status, Error: it.Error,
			Variant: it.Variant, Cell: experiments.CellText(cell), Replicate: it.Replicate}
		if it.Status == store.StatusDone {
			done = append(done, it.RunID)
		}
	}
	if metric == "" || len(done) == 0 {
		return out, nil
	}
	outcomes, err := s.store.RunOutcomes(ctx, done)
	if err != nil {
		return nil, err
	}
	info := sn.infos[metric]
	for i := range out {
		o, ok := outcomes[out[i].ID]
		if !ok {
			continue
		}
		rep := &solvers.Report{}
		if len(o.Metrics) > 0 && json.Unmarshal(o.Metrics, &rep.Metrics) != nil || len(o.Notes) > 0 && json.Unmarshal(o.Notes, &rep.Notes) != nil {
			return nil, errs.Wrap(errs.Internal, fmt.Errorf("run %s: its stored report's metrics or notes do not decode", out[i].ID))
		}
		// The one rule (experiments.Outcome), on the run's own report.
		rr := experiments.RunResult{Status: store.StatusDone, Variant: out[i].Variant}
		for _, m := range rep.Metrics {
			rr.Values = append(rr.Values, experiments.Metric{Name: m.Name, Value: m.Value})
		}
		if _, what := rr.Outcome(metric, info); what == experiments.Failed {
			out[i].NoResult = solvers.NoResultReason([]string{metric}, rep.StopReason())
		}
	}
	return out, nil
}

// runsNoResult says which done runs of a run list gave no result their
// family declares for their variant (solvers.Report.Missing: a
// critical-works run that stopped has no makespan), each with the reason
// its report gives; it reads those runs' metrics and notes only.
func (s *Server) runsNoResult(ctx context.Context, runs []store.Run) (map[string]string, error) {
	decls := map[string][]solvers.Metric{}
	var ids []string
	for _, r := range runs {
		if r.Status != store.StatusDone || r.Kind != store.KindRun {
			continue
		}
		d, ok := decls[r.Strategy]
		if !ok {
			if st, err := s.lookup(r.Strategy); err == nil {
				d = solvers.Declared(st)
			}
			decls[r.Strategy] = d
		}
		if len(d) > 0 {
			ids = append(ids, r.ID)
		}
	}
	if len(ids) == 0 {
		return nil, nil
	}
	outcomes, err := s.store.RunOutcomes(ctx, ids)
	if err != nil {
		return nil, err
	}
	out := map[string]string{}
	for _, r := range runs {
		o, ok := outcomes[r.ID]
		if !ok {
			continue
		}
		rep := &solvers.Report{}
		if len(o.Metrics) > 0 && json.Unmarshal(o.Metrics, &rep.Metrics) != nil || len(o.Notes) > 0 && json.Unmarshal(o.Notes, &rep.Notes) != nil {
			continue // an unreadable report: its page says so
		}
		if missing := rep.Missing(decls[r.Strategy], r.Variant); len(missing) > 0 {
			out[r.ID] = solvers.NoResultReason(missing, rep.StopReason())
		}
	}
	return out, nil
}
