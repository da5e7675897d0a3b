package service

import (
	"context"
	"fmt"

	"schedlab/errs"
	"schedlab/experiments"
	"schedlab/report"
	"schedlab/runtypes"
	"schedlab/solvers"
	"schedlab/solvers/sweep"
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

// planned are the workloads an experiment generates, one recipe per
// distinct preset, parameters and seed (a cell's variants of one
// replicate share it), with the IDs its runs name.
type planned struct {
	recipes []runtypes.Recipe
	ids     map[string]string // experiments.Run.WorkloadKey → workload ID
	bytes   int64             // estimated, in all
	largest solvers.Estimate
}

// planWorkloads makes the recipes of runs' preset workloads (owned by
// owner): the preset's defaults with the run's checked values over them.
func planWorkloads(def *sweep.Definition, st *solvers.Strategy, runs []experiments.Run, owner string) (*planned, error) {
	p := &planned{ids: map[string]string{}}
	if def.Workload.Preset == "" {
		return p, nil
	}
	if st.EstimateGenerate == nil {
		return nil, errs.Invalidf("workload.preset", "%s cannot tell the size of its presets' workloads, so an experiment cannot generate them: generate the workloads first and name them by id", st.Info.Name)
	}
	preset, err := st.FindPreset(def.Workload.Preset, "workload.preset")
	if err != nil {
		return nil, err
	}
	defaults, err := solvers.Resolve(preset.Params, nil)
	if err != nil {
		return nil, errs.Wrap(errs.Internal, err)
	}
	for _, r := range runs {
		key := r.WorkloadKey()
		if p.ids[key] != "" {
			continue
		}
		params := over(defaults, r.Workload.Params)
		e, err := st.EstimateGenerate(def.Workload.Preset, params)
		if err != nil {
			return nil, err
		}
		id := store.NewID()
		p.ids[key] = id
		p.recipes = append(p.recipes, runtypes.Recipe{WorkloadID: id, Strategy: def.Strategy, Preset: def.Workload.Preset,
			Name: fmt.Sprintf("%s seed %d", def.Workload.Preset, r.WorkloadSeed), Params: params, Seed: r.WorkloadSeed,
			EstimatedBytes: e.Bytes, Owner: owner})
		p.bytes = solvers.SatAdd(p.bytes, e.Bytes)
		if e.Bytes > p.largest.Bytes || p.largest.Field == "" {
			p.largest = e
		}
	}
	return p, nil
}

// check holds p to the budget, with what owner stores already.
func (p *planned) check(ctx context.Context, st Store, b Budget, owner string) error {
	n := int64(len(p.recipes))
	if n == 0 {
		return nil
	}
	u, err := st.WorkloadUsage(ctx, owner)
	if err != nil {
		return err
	}
	lower := fmt.Sprintf("lower %s, the replicates or the values swept", p.largest.Field)
	what := fmt.Sprintf("the experiment's %d generated workloads would store about %s (the largest about %s, sized by %s)",
		n, report.FormatBytes(p.bytes), report.FormatBytes(p.largest.Bytes), p.largest.Field)
	whose := "your"
	if owner == "" {
		whose = "this server's"
	}
	switch {
	case p.bytes > b.ExperimentBytes:
		return errs.Invalidf("budget", "%s, over the budget of %s of generated workloads per experiment (schedlab serve --experiment-budget-mb): %s", what, report.FormatBytes(b.ExperimentBytes), lower)
	case n > b.ExperimentWorkloads:
		return errs.Invalidf("budget", "the experiment would generate %d workloads, over the budget of %d generated workloads per experiment: lower the replicates or the values swept", n, b.ExperimentWorkloads)
	case solvers.SatAdd(u.Bytes, p.bytes) > b.UserBytes:
		return errs.Invalidf("budget", "%s; with %s %d workloads (about %s) that is over the budget of %s of workloads per user (schedlab serve --user-budget-mb): %s",
			what, whose, u.Workloads, report.FormatBytes(u.Bytes), report.FormatBytes(b.UserBytes), lower)
	case u.Workloads+n > b.UserWorkloads:
		return errs.Invalidf("budget", "the experiment would generate %d workloads; with %s %d that is over the budget of %d workloads per user: lower the replicates or the values swept",
			n, whose, u.Workloads, b.UserWorkloads)
	}
	return nil
}
