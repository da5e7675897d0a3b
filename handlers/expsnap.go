package handlers

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"sync"

	"schedlab/errs"
	"schedlab/experiments"
	"schedlab/report"
	"schedlab/runtypes"
	"schedlab/store"
	"schedlab/views"
)

// An experiment's page reads all of its runs: at 100,000 runs that cost
// 6.0 s of server CPU per view (issue 41 item 2), most of it the store's
// reads. A snapshot keeps what those reads give, and each view's analysis
// and run list, keyed by the experiment's version (store.ExperimentVersion,
// one row the store keeps in every transaction that changes a run's status
// or worker), so a view of an unchanged experiment reads nothing but that
// row. A view after a change reads only the runs changed since
// (store.ExperimentChangesSince, through an index) and brings the
// snapshot's aggregates up to date with them (applyChanges); the workloads
// the Cite block names are fixed when the experiment is made. A change of
// a run that was done (none happens today: done is final), more changes
// than a full read is worth (fullReadShare), or a version of another epoch
// (the experiment deleted and imported again, store.Epoch) reads everything
// again. The page from an updated snapshot is the page from a full read
// (TestExperimentSnapshotFollowsChanges renders both). The most recently
// viewed snapshotsKept are kept; concurrent first views load one once.

// snapshotsKept is how many experiments' snapshots are kept: one of
// 100,000 runs holds about 20 MB.
const snapshotsKept = 3

// memosKept bounds the views (analyses, run lists) kept per snapshot.
const memosKept = 64

// When more than 1/fullReadShare of an experiment's runs, and more than
// fullReadMin, changed since its snapshot, it is read again whole.
const (
	fullReadShare = 8
	fullReadMin   = 256
)

// expSnap is one experiment's runs as its page reads them, at one
// version.
type expSnap struct {
	version int64         // the version it was asked at, its key
	ready   chan struct{} // closed when loaded
	err     error
	loaded  int64 // the version it was read at (version or later)
	delta   bool  // brought up to date from the last (applyChanges), not read whole

	results   []experiments.RunResult
	positions []int    // results[i]'s position in the experiment
	runIDs    []string // results[i]'s run
	workerOf  []string // results[i]'s worker ("" none)
	infos     map[string]experiments.MetricInfo
	family    []report.Metric // the family's own declarations
	workers   []views.WorkerCount
	builds    []store.BuildCount
	workloads []string
	more      int

	// The aggregates a change updates.
	workerRuns map[string]int             // runs by worker
	buildRuns  map[runtypes.Build]buildAt // done runs by build
	firstDone  map[string]int             // each variant's first done run (an index of results)
	decls      map[string][]report.Metric
	cells      map[string]map[string]string // decoded cells by their JSON

	mu    sync.Mutex
	memos map[string]any
}

// buildAt is how many done runs a build executed, and the first of them.
type buildAt struct{ runs, first int }

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

// snapshot returns experiment e's snapshot at its current version,
// loading it when its runs changed since the last: from the last
// snapshot's, with the runs that changed, when there is one.
func (s *Server) snapshot(ctx context.Context, e *store.Experiment) (*expSnap, error) {
	_, version, err := s.store.ExperimentVersion(ctx, e.ID)
	if err != nil {
		return nil, err
	}
	sp := &s.snaps
	sp.mu.Lock()
	if sp.snaps == nil {
		sp.snaps = map[string]*expSnap{}
	}
	prev := sp.snaps[e.ID]
	sn := prev
	fresh := sn == nil || sn.version != version
	if fresh {
		sn = &expSnap{version: version, ready: make(chan struct{}), memos: map[string]any{}}
		sp.snaps[e.ID] = sn
	}
	sp.ids = append(slices.DeleteFunc(sp.ids, func(id string) bool { return id == e.ID }), e.ID)
	for len(sp.ids) > snapshotsKept {
		delete(sp.snaps, sp.ids[0])
		sp.ids = sp.ids[1:]
	}
	sp.mu.Unlock()
	if fresh {
		// Loaded apart from the request that asked first: a client that
		// goes away must not leave the others a canceled snapshot.
		lctx := context.WithoutCancel(ctx)
		if prev != nil {
			<-prev.ready
			if prev.err != nil {
				prev = nil
			}
		}
		sn.err = s.loadSnapshot(lctx, e, sn, prev)
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

// loadSnapshot fills sn: from prev and the runs changed since (nil prev:
// from every run).
func (s *Server) loadSnapshot(ctx context.Context, e *store.Experiment, sn, prev *expSnap) error {
	if st, err := s.lookup(e.Strategy); err == nil {
		sn.family = st.Metrics
	}
	if prev != nil {
		ch, err := s.store.ExperimentChangesSince(ctx, e.ID, prev.loaded)
		if err != nil {
			return err
		}
		ok, err := s.applyChanges(ctx, sn, prev, ch)
		if ok || err != nil {
			return err
		}
	}
	ch, err := s.store.ExperimentChangesSince(ctx, e.ID, -1)
	if err != nil {
		return err
	}
	return s.fillSnapshot(ctx, sn, ch.Version, ch.Runs)
}

// fillSnapshot fills sn from every run of its experiment, read at
// version.
func (s *Server) fillSnapshot(ctx context.Context, sn *expSnap, version int64, runs []store.ExperimentState) error {
	sn.loaded = version
	sn.cells = map[string]map[string]string{}
	var err error
	if sn.results, err = runResults(runs, sn.cells); err != nil {
		return err
	}
	n := len(runs)
	sn.positions, sn.runIDs, sn.workerOf = make([]int, n), make([]string, n), make([]string, n)
	sn.workerRuns, sn.buildRuns, sn.firstDone = map[string]int{}, map[runtypes.Build]buildAt{}, map[string]int{}
	sn.decls = map[string][]report.Metric{}
	seen := map[string]bool{}
	for i := range runs {
		r := &runs[i]
		sn.positions[i], sn.runIDs[i], sn.workerOf[i] = r.Position, r.RunID, r.Worker
		if r.Worker != "" {
			sn.workerRuns[r.Worker]++
		}
		if r.Status == runtypes.StatusDone {
			sn.doneRun(i, r.Build)
		}
		switch {
		case r.WorkloadID == "" || seen[r.WorkloadID]:
		case len(sn.workloads) < maxCitedWorkloads:
			sn.workloads = append(sn.workloads, r.WorkloadID)
		default:
			sn.more++
		}
		seen[r.WorkloadID] = true
	}
	return s.finishSnapshot(ctx, sn, slices.Collect(maps.Values(sn.firstDone)))
}

// doneRun counts results[i], which ended done with build, in the builds
// and the variants' first done runs.
func (sn *expSnap) doneRun(i int, build runtypes.Build) {
	b, ok := sn.buildRuns[build]
	if !ok || i < b.first {
		b.first = i
	}
	b.runs++
	sn.buildRuns[build] = b
	v := sn.results[i].Variant
	if f, ok := sn.firstDone[v]; !ok || i < f {
		sn.firstDone[v] = i
	}
}

// applyChanges makes sn prev brought up to date with the runs ch read,
// and says whether it could: false when a full read is due (see the
// doc above).
func (s *Server) applyChanges(ctx context.Context, sn, prev *expSnap, ch *store.ExperimentChanges) (bool, error) {
	if store.Epoch(ch.Version) != store.Epoch(prev.loaded) || len(ch.Runs) > max(len(prev.results)/fullReadShare, fullReadMin) {
		return false, nil
	}
	index := make([]int, len(ch.Runs))
	for k := range ch.Runs {
		i, ok := slices.BinarySearch(prev.positions, ch.Runs[k].Position)
		if !ok || prev.results[i].Status == runtypes.StatusDone {
			return false, nil
		}
		index[k] = i
	}
	sn.loaded, sn.delta, sn.cells = ch.Version, true, prev.cells
	sn.positions, sn.runIDs = prev.positions, prev.runIDs // fixed when the experiment is made
	sn.workloads, sn.more = prev.workloads, prev.more
	sn.results, sn.workerOf = slices.Clone(prev.results), slices.Clone(prev.workerOf)
	sn.workerRuns, sn.buildRuns, sn.firstDone = maps.Clone(prev.workerRuns), maps.Clone(prev.buildRuns), maps.Clone(prev.firstDone)
	sn.decls = maps.Clone(prev.decls)
	var firsts []int
	for k := range ch.Runs {
		r, i := &ch.Runs[k], index[k]
		if w := sn.workerOf[i]; w != "" {
			if sn.workerRuns[w]--; sn.workerRuns[w] == 0 {
				delete(sn.workerRuns, w)
			}
		}
		if r.Worker != "" {
			sn.workerRuns[r.Worker]++
		}
		sn.workerOf[i] = r.Worker
		was := sn.results[i].Status
		res := &sn.results[i]
		res.Status, res.Values = r.Status, metricValues(r.Metrics)
		if r.Status == runtypes.StatusDone && was != runtypes.StatusDone {
			before, had := sn.firstDone[res.Variant]
			sn.doneRun(i, r.Build)
			if !had || before != sn.firstDone[res.Variant] {
				firsts = append(firsts, i)
			}
		}
	}
	return true, s.finishSnapshot(ctx, sn, firsts)
}

// finishSnapshot reads the metric declarations of the reports of the
// runs firsts (indexes of results: variants' first done runs), and makes
// what the page shows of the aggregates: the metrics' declarations, the
// workers most runs first, the builds in the order of their first runs.
func (s *Server) finishSnapshot(ctx context.Context, sn *expSnap, firsts []int) error {
	if len(firsts) > 0 {
		ids := make([]string, len(firsts))
		for k, i := range firsts {
			ids[k] = sn.runIDs[i]
		}
		outcomes, err := s.store.RunOutcomes(ctx, ids)
		if err != nil {
			return err
		}
		for k, i := range firsts {
			var ms []report.Metric
			if raw := outcomes[ids[k]].Metrics; raw != nil {
				if err := json.Unmarshal(raw, &ms); err != nil {
					return errs.Wrap(errs.Internal, err)
				}
			}
			sn.decls[sn.results[i].Variant] = ms
		}
	}
	// The family's declarations, then those of each variant's first done
	// report in the order of those runs (issue 38 item 4).
	variants := slices.Collect(maps.Keys(sn.firstDone))
	slices.SortFunc(variants, func(a, b string) int { return sn.firstDone[a] - sn.firstDone[b] })
	lists := [][]report.Metric{sn.family}
	for _, v := range variants {
		lists = append(lists, sn.decls[v])
	}
	sn.infos = experiments.Infos(lists...)

	sn.workers = make([]views.WorkerCount, 0, len(sn.workerRuns))
	for name, n := range sn.workerRuns {
		sn.workers = append(sn.workers, views.WorkerCount{Name: name, Runs: n})
	}
	sortWorkers(sn.workers)
	sn.builds = sn.builds[:0]
	for b, at := range sn.buildRuns {
		sn.builds = append(sn.builds, store.BuildCount{Build: b, Runs: at.runs})
	}
	slices.SortFunc(sn.builds, func(a, b store.BuildCount) int { return sn.buildRuns[a.Build].first - sn.buildRuns[b.Build].first })
	return nil
}

// metricValues are a run's stored metrics as aggregation takes them.
func metricValues(ms []store.Metric) []experiments.Metric {
	return mapped(ms, func(m store.Metric) experiments.Metric { return experiments.Metric{Name: m.Name, Value: m.Value} })
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
		case runtypes.StatusDone, runtypes.StatusQueued, runtypes.StatusRunning:
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

// noResultReasons says why runs of the experiment that ended done gave
// no value of metric: the first MaxListed of them, each with its run,
// cell and the reason its report gives (solvers.StopReason), read from
// their reports (at most MaxListed).
func (s *Server) noResultReasons(ctx context.Context, id string, sn *expSnap, metric string) ([]views.ExperimentRunItem, error) {
	info := sn.infos[metric]
	var positions []int
	for i := range sn.results {
		r := &sn.results[i]
		if _, o := r.Outcome(metric, info); o == experiments.Failed && r.Status == runtypes.StatusDone {
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
		if it.Status == runtypes.StatusDone {
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
		rep, ok := outcomeReport(o)
		if !ok {
			return nil, errs.Wrap(errs.Internal, fmt.Errorf("run %s: its stored report's metrics or notes do not decode", out[i].ID))
		}
		// The one rule (experiments.Outcome), on the run's own report.
		rr := experiments.RunResult{Status: runtypes.StatusDone, Variant: out[i].Variant}
		for _, m := range rep.Metrics {
			rr.Values = append(rr.Values, experiments.Metric{Name: m.Name, Value: m.Value})
		}
		if _, what := rr.Outcome(metric, info); what == experiments.Failed {
			out[i].NoResult = report.NoResultReason([]string{metric}, rep.StopReason())
		}
	}
	return out, nil
}

// runsNoResult says which done runs of a run list gave no result their
// family declares for their variant (report.Report.Missing: a
// critical-works run that stopped has no makespan), each with the reason
// its report gives; it reads those runs' metrics and notes only.
func (s *Server) runsNoResult(ctx context.Context, runs []runtypes.Run) (map[string]string, error) {
	decls := map[string][]report.Metric{}
	var ids []string
	for _, r := range runs {
		if r.Status != runtypes.StatusDone || r.Kind != runtypes.KindRun {
			continue
		}
		d, ok := decls[r.Strategy]
		if !ok {
			if st, err := s.lookup(r.Strategy); err == nil {
				d = st.Metrics
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
		rep, ok := outcomeReport(o)
		if !ok {
			continue // an unreadable report: its page says so
		}
		if missing := rep.Missing(decls[r.Strategy], r.Variant); len(missing) > 0 {
			out[r.ID] = report.NoResultReason(missing, rep.StopReason())
		}
	}
	return out, nil
}

// outcomeReport is the report of a run's stored metrics and notes; false
// when they do not decode.
func outcomeReport(o store.RunOutcome) (*report.Report, bool) {
	rep := &report.Report{}
	bad := len(o.Metrics) > 0 && json.Unmarshal(o.Metrics, &rep.Metrics) != nil || len(o.Notes) > 0 && json.Unmarshal(o.Notes, &rep.Notes) != nil
	return rep, !bad
}
