package handlers

import (
	"context"
	"fmt"
	"time"

	"schedlab/errs"
	"schedlab/execute"
	"schedlab/experiments"
	"schedlab/report"
	"schedlab/solvers"
	"schedlab/store"
)

// Budget bounds what experiments' generated workloads may store, checked
// from the families' estimates (Strategy.EstimateGenerate) before anything
// is generated or stored: a definition over it is refused with a 400
// naming the budget. Generation itself happens where runs run (the first
// run of a workload generates it), never in the request.
type Budget struct {
	// ExperimentBytes bounds the estimated bytes of one experiment's
	// generated workloads (data and preview), ExperimentWorkloads their
	// number.
	ExperimentBytes     int64
	ExperimentWorkloads int64
	// UserBytes bounds a user's workloads (all users' together on a
	// server without accounts): those stored, those still to be
	// generated (their estimates) and the new experiment's; UserWorkloads
	// their number.
	UserBytes     int64
	UserWorkloads int64
}

// DefaultBudget is the budget of a server that sets none: an experiment
// may generate 2 GiB in up to 10,000 workloads (a paper's sweep of a
// hundred instances at a few hundred kB each is a few tens of MB; the
// issue's 200 replicates of a 56 MB gossip day were 11 GB), a user 20 GiB
// in up to 100,000 (the runs an experiment may have).
func DefaultBudget() Budget {
	return Budget{ExperimentBytes: 2 << 30, ExperimentWorkloads: 10_000, UserBytes: 20 << 30, UserWorkloads: 100_000}
}

func (b Budget) withDefaults() Budget {
	d := DefaultBudget()
	for _, f := range []struct{ v, d *int64 }{
		{&b.ExperimentBytes, &d.ExperimentBytes}, {&b.ExperimentWorkloads, &d.ExperimentWorkloads},
		{&b.UserBytes, &d.UserBytes}, {&b.UserWorkloads, &d.UserWorkloads},
	} {
		if *f.v <= 0 {
			*f.v = *f.d
		}
	}
	return b
}

// plannedWorkloads are the workloads an experiment generates, one recipe
// per distinct preset, parameters and seed (a cell's variants of one
// replicate share it), with the IDs its runs name.
type plannedWorkloads struct {
	recipes []store.Recipe
	known   []*store.Workload // the recipes as PrepareAll checks runs against them
	ids     map[string]string // experiments.Run.WorkloadKey → workload ID
	bytes   int64             // estimated, in all
	largest solvers.Estimate
}

// planWorkloads makes the recipes of runs' preset workloads (owned by
// owner) and checks them against the budget and what owner stores
// already, before anything is stored or generated.
func (s *Server) planWorkloads(ctx context.Context, def *experiments.Definition, st *solvers.Strategy,
	runs []experiments.Run, owner string) (*plannedWorkloads, error) {
	p := &plannedWorkloads{ids: map[string]string{}}
	est := st.EstimateGenerate
	for _, r := range runs {
		if r.Workload.ID != "" {
			continue
		}
		key := r.WorkloadKey()
		if p.ids[key] != "" {
			continue
		}
		if est == nil {
			return nil, errs.Invalidf("workload.preset", "%s cannot tell the size of its presets' workloads, so an experiment cannot generate them: generate the workloads first and name them by id", st.Info.Name)
		}
		params, err := presetParams(st, r.Workload.Preset, r.Workload.Params)
		if err != nil {
			return nil, err
		}
		e, err := est(r.Workload.Preset, params)
		if err != nil {
			return nil, err
		}
		id := store.NewID()
		p.ids[key] = id
		p.recipes = append(p.recipes, store.Recipe{WorkloadID: id, Strategy: def.Strategy, Preset: r.Workload.Preset,
			Name: fmt.Sprintf("%s seed %d", r.Workload.Preset, r.WorkloadSeed), Params: params, Seed: r.WorkloadSeed,
			EstimatedBytes: e.Bytes, Owner: owner})
		p.known = append(p.known, &store.Workload{ID: id, Strategy: def.Strategy, Format: store.FormatPreset})
		p.bytes = solvers.SatAdd(p.bytes, e.Bytes)
		if e.Bytes > p.largest.Bytes || p.largest.Field == "" {
			p.largest = e
		}
	}
	if len(p.recipes) == 0 {
		return p, nil
	}
	b := s.budget
	n := int64(len(p.recipes))
	lower := fmt.Sprintf("lower %s, the replicates or the values swept", p.largest.Field)
	what := fmt.Sprintf("the experiment's %d generated workloads would store about %s (the largest about %s, sized by %s)",
		n, report.FormatBytes(p.bytes), report.FormatBytes(p.largest.Bytes), p.largest.Field)
	switch {
	case p.bytes > b.ExperimentBytes:
		return nil, errs.Invalidf("budget", "%s, over the budget of %s of generated workloads per experiment (schedlab serve --experiment-budget-mb): %s", what, report.FormatBytes(b.ExperimentBytes), lower)
	case n > b.ExperimentWorkloads:
		return nil, errs.Invalidf("budget", "the experiment would generate %d workloads, over the budget of %d generated workloads per experiment: lower the replicates or the values swept", n, b.ExperimentWorkloads)
	}
	u, err := s.store.WorkloadUsage(ctx, owner)
	if err != nil {
		return nil, err
	}
	whose := "your"
	if owner == "" {
		whose = "this server's"
	}
	switch {
	case solvers.SatAdd(u.Bytes, p.bytes) > b.UserBytes:
		return nil, errs.Invalidf("budget", "%s; with %s %d workloads (about %s) that is over the budget of %s of workloads per user (schedlab serve --user-budget-mb): %s",
			what, whose, u.Workloads, report.FormatBytes(u.Bytes), report.FormatBytes(b.UserBytes), lower)
	case u.Workloads+n > b.UserWorkloads:
		return nil, errs.Invalidf("budget", "the experiment would generate %d workloads; with %s %d that is over the budget of %d workloads per user: lower the replicates or the values swept",
			n, whose, u.Workloads, b.UserWorkloads)
	}
	return p, nil
}

// presetParams resolves params against preset's parameters of st: every
// parameter with its value, as the recipe keeps them; an unknown preset or
// a bad value is errs.Invalid naming it.
func presetParams(st *solvers.Strategy, preset string, params solvers.Params) (solvers.Params, error) {
	p, err := solvers.FindPreset(st, preset, "workload.preset")
	if err != nil {
		return nil, err
	}
	return solvers.Resolve(p.Params, params)
}

// DefaultGenerateTimeout bounds the work of generating one workload inside
// a request (POST /api/workloads/generate and its form): the server's own
// CPU, spent while a client waits. Anything heavier belongs where runs run:
// an experiment's workloads are generated by its runs, on the workers.
const DefaultGenerateTimeout = 20 * time.Second

// generateInRequest generates a workload in this process under the run
// budget with its time limit lowered to the request's (generateTimeout).
// Past that limit the error is a 413 naming the parameter that sizes the
// workload (the family's estimate says which) and where else to generate it.
func (s *Server) generateInRequest(ctx context.Context, st *solvers.Strategy, preset string, params solvers.Params, seed int64) (*solvers.Workload, error) {
	budget := s.runner.Budget()
	limit := s.generateTimeout
	if limit <= 0 {
		limit = DefaultGenerateTimeout
	}
	if budget.Timeout <= 0 || budget.Timeout > limit {
		budget.Timeout = limit
	}
	start := time.Now()
	w, err := execute.Generate(ctx, st, preset, params, seed, budget)
	if err != nil && errs.KindOf(err) == errs.TooLarge && errs.FieldOf(err) == "" && time.Since(start) >= budget.Timeout {
		field := "preset"
		if st.EstimateGenerate != nil {
			if e, eerr := st.EstimateGenerate(preset, params); eerr == nil {
				field = e.Field
			}
		}
		return nil, errs.New(errs.TooLarge, field, "generating %s took over the %v a request may spend generating in the server: lower %s, or sweep the preset in an experiment, whose runs generate their workloads on the workers", preset, budget.Timeout, field)
	}
	return w, err
}

// generated is nil for a workload with its data, and errs.Conflict for an
// experiment's workload not generated yet (it has none to give).
func generated(w *store.Workload) error {
	if w.SHA256 == "" && len(w.Data) == 0 {
		return errs.New(errs.Conflict, "id", "workload %s is not generated yet: the first run of its experiment that uses it generates it", w.ID)
	}
	return nil
}
