package service

import (
	"cmp"
	"context"
	"encoding/json"
	"maps"
	"slices"
	"sync"

	"schedlab/errs"
	"schedlab/execute"
	"schedlab/experiments"
	"schedlab/runtypes"
	"schedlab/solvers"
	"schedlab/solvers/sweep"
	"schedlab/store"
)

// Store is what Start needs of where experiments are kept: the stored
// workloads a definition names (and the runs FromRuns starts from), what an owner stores already (for the
// budget), and one transaction that stores an experiment with its runs
// and recipes, or nothing.
type Store interface {
	GetWorkloadInfo(ctx context.Context, id string) (*runtypes.Workload, error)
	GetRunInfo(ctx context.Context, id string) (*runtypes.Run, error)
	WorkloadUsage(ctx context.Context, owner string) (store.Usage, error)
	CreateExperiment(ctx context.Context, e *store.Experiment, runs []*runtypes.Run, cells []store.ExperimentCell, recipes ...runtypes.Recipe) error
}

// Options configure a Service. Zero fields take the defaults.
type Options struct {
	// Budget bounds experiments' generated workloads (DefaultBudget for
	// zero fields).
	Budget Budget
	// Limits is the per-run budget whose limits a run's knobs are held to
	// (solvers.CheckLimits): the runner's.
	Limits solvers.Budget
	// CheckNotify refuses a notify_url the server may not reach
	// (notify.Guard); nil checks nothing beyond experiments.Validate.
	CheckNotify func(raw string) error
	// Stored is called once an experiment's runs are stored (the runner's
	// Wake); nil for none.
	Stored func()
}

// Service turns experiment definitions into stored runs.
type Service struct {
	st     Store
	lookup func(name string) (*solvers.Strategy, error)
	opt    Options
	// creating makes experiments one at a time: the budget check and the
	// store are one step for each, so a concurrent start waits its turn
	// here instead of meeting a locked database.
	creating sync.Mutex
}

// New returns a Service over st that finds families with lookup (an
// unknown name is its error, naming field "strategy").
func New(st Store, lookup func(name string) (*solvers.Strategy, error), opt Options) *Service {
	opt.Budget = opt.Budget.withDefaults()
	return &Service{st: st, lookup: lookup, opt: opt}
}

// Check checks def as Start does before it looks at the store (the
// family, every field, the notify address) and returns its family:
// every problem at once, each naming its field. It writes def's swept
// values as the runs get them (experiments.Validate).
func (s *Service) Check(def *sweep.Definition) (*solvers.Strategy, error) {
	st, err := s.lookup(def.Strategy)
	if err != nil {
		return nil, err
	}
	var problems []error
	if s.opt.CheckNotify != nil {
		if err := s.opt.CheckNotify(def.NotifyURL); err != nil {
			problems = append(problems, err)
		}
	}
	if err := experiments.Validate(def, st); err != nil {
		problems = append(problems, errs.All(err)...)
	}
	return st, errs.Join(problems)
}

// Start checks def (Check), expands it, plans its preset workloads within
// the budget and stores the experiment, owned by owner (a user ID; empty
// without accounts), with its recipes and runs in one transaction: a
// refused definition stores nothing.
func (s *Service) Start(ctx context.Context, def *sweep.Definition, owner string) (*store.Experiment, error) {
	st, err := s.Check(def)
	if err != nil {
		return nil, err
	}
	runs := experiments.Expand(def, st)
	s.creating.Lock()
	defer s.creating.Unlock()
	p, err := planWorkloads(def, st, runs, owner)
	if err != nil {
		return nil, err
	}
	if err := p.check(ctx, s.st, s.opt.Budget, owner); err != nil {
		return nil, err
	}
	stored, cells, err := s.runs(ctx, def, st, runs, p, owner)
	if err != nil {
		return nil, err
	}
	raw, err := json.Marshal(def)
	if err != nil {
		return nil, errs.Wrap(errs.Internal, err)
	}
	e := &store.Experiment{Name: def.Name, Strategy: def.Strategy, Definition: raw, Tags: def.Tags, Notes: def.Notes, Owner: owner}
	if err := s.st.CreateExperiment(ctx, e, stored, cells, p.recipes...); err != nil {
		return nil, err
	}
	if s.opt.Stored != nil {
		s.opt.Stored()
	}
	return e, nil
}

// runs are the runs to store, each the family's defaults with its cell's
// values over them (checked by Validate), on a workload checked once.
func (s *Service) runs(ctx context.Context, def *sweep.Definition, st *solvers.Strategy, runs []experiments.Run,
	p *planned, owner string) ([]*runtypes.Run, []store.ExperimentCell, error) {
	defaults, err := solvers.Resolve(st.Params, nil)
	if err != nil {
		return nil, nil, errs.Wrap(errs.Internal, err)
	}
	if err := s.checkLimits(def, st, defaults); err != nil {
		return nil, nil, err
	}
	fits, err := s.workloads(ctx, def, st, runs)
	if err != nil {
		return nil, nil, err
	}
	out := make([]*runtypes.Run, len(runs))
	cells := make([]store.ExperimentCell, len(runs))
	for i, r := range runs {
		wid := cmp.Or(r.Workload.ID, p.ids[r.WorkloadKey()])
		if err := fits[r.Workload.ID+"\x00"+r.Variant]; err != nil {
			return nil, nil, err
		}
		out[i] = &runtypes.Run{Kind: runtypes.KindRun, WorkloadID: wid, Strategy: def.Strategy, Variant: r.Variant,
			Params: over(defaults, r.Params), Seed: r.Seed, Owner: owner}
		cell, err := json.Marshal(r.Cell)
		if err != nil {
			return nil, nil, errs.Wrap(errs.Internal, err)
		}
		cells[i] = store.ExperimentCell{Cell: cell, Replicate: r.Replicate}
	}
	return out, cells, nil
}

// checkLimits holds each swept value of a budget knob to the runner's
// limits (solvers.CheckLimits), once.
func (s *Service) checkLimits(def *sweep.Definition, st *solvers.Strategy, defaults solvers.Params) error {
	for _, name := range slices.Sorted(maps.Keys(def.Grid)) {
		for _, v := range def.Grid[name] {
			p := maps.Clone(defaults)
			p[name] = v
			if err := execute.CheckLimits(st, false, p, s.opt.Limits); err != nil {
				return errs.Wrap(errs.Invalid, err)
			}
		}
	}
	return nil
}

// workloads checks the stored workloads def names (each read once: it
// exists and is of def's family) and whether each variant fits each
// workload's format (solvers.VariantFilter): the problem of a stored
// workload's ID and variant, keyed ID+"\x00"+variant ("" for the preset's
// workloads), nil when it fits.
func (s *Service) workloads(ctx context.Context, def *sweep.Definition, st *solvers.Strategy, runs []experiments.Run) (map[string]error, error) {
	formats := map[string]string{"": store.FormatPreset}
	for _, id := range def.Workload.IDs {
		w, err := s.st.GetWorkloadInfo(ctx, id)
		if errs.Is(err, errs.NotFound) {
			return nil, errs.New(errs.NotFound, "workload_id", "no workload %q", id)
		}
		if err != nil {
			return nil, err
		}
		if w.Strategy != def.Strategy {
			return nil, errs.Invalidf("workload_id", "workload %s is a %s workload, not %s", w.ID, w.Strategy, def.Strategy)
		}
		formats[id] = w.Format
	}
	fits := map[string]error{}
	for _, r := range runs {
		key := r.Workload.ID + "\x00" + r.Variant
		if _, seen := fits[key]; seen || st.VariantFits == nil {
			continue
		}
		fits[key] = nil
		if err := st.VariantFits(formats[r.Workload.ID], r.Variant); err != nil {
			fits[key] = errs.Wrap(errs.Invalid, err)
		}
	}
	return fits, nil
}

// over is base with p's values over it, a new map.
func over(base, p map[string]string) map[string]string {
	out := maps.Clone(base)
	maps.Copy(out, p)
	return out
}
