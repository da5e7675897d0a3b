package service

import (
	"context"
	"slices"
	"strings"

	"schedlab/errs"
	"schedlab/experiments"
	"schedlab/runtypes"
	"schedlab/solvers"
	"schedlab/solvers/sweep"
)

// Seed is a family's seed experiment, ref "family/name" (the sweep form's
// ?seed=).
func (s *Service) Seed(ref string) (*sweep.Definition, error) {
	family, name, _ := strings.Cut(ref, "/")
	st, err := s.lookup(family)
	if err != nil {
		return nil, err
	}
	var names []string
	if st.SeedExperiments != nil {
		for _, sw := range st.SeedExperiments() {
			if sw.Name == name {
				b, err := sw.Definition.JSON() // the one writer of a definition
				if err != nil {
					return nil, errs.Wrap(errs.Internal, err)
				}
				d, err := experiments.ParseJSON(b)
				return d, errs.Wrap(errs.Internal, err)
			}
			names = append(names, sw.Name)
		}
	}
	return nil, errs.New(errs.NotFound, "seed", "%s has no seed experiment %q (it has: %s)", family, name, strings.Join(names, ", "))
}

// FromRuns is the definition of a sweep around stored runs (the sweep
// form's ?run= and ?runs=): their workloads and variants, and every
// parameter that applies to one of their variants with the values they
// gave it (one value: ready to widen); the first run's seed.
func (s *Service) FromRuns(ctx context.Context, ids []string) (*sweep.Definition, error) {
	def := &sweep.Definition{Replicates: 1}
	var st *solvers.Strategy
	grid := sweep.Grid{}
	for i, id := range ids {
		r, err := s.st.GetRunInfo(ctx, id)
		if err != nil {
			return nil, err
		}
		if i == 0 {
			if st, err = s.lookup(r.Strategy); err != nil {
				return nil, err
			}
			def.Strategy, def.Seed = r.Strategy, r.Seed
		}
		if r.Kind != runtypes.KindRun || r.Strategy != def.Strategy {
			return nil, errs.New(errs.Invalid, "runs", "run %s is a %s %s run; an experiment sweeps runs of one strategy on stored workloads (%s)", r.ID, r.Strategy, r.Kind, def.Strategy)
		}
		if !slices.Contains(def.Workload.IDs, r.WorkloadID) {
			def.Workload.IDs = append(def.Workload.IDs, r.WorkloadID)
		}
		if !slices.Contains(def.Variants, r.Variant) {
			def.Variants = append(def.Variants, r.Variant)
		}
		for _, ps := range st.Params {
			v := strings.TrimSpace(r.Params[ps.Name])
			if v != "" && ps.AppliesTo(r.Variant) && !slices.Contains(grid[ps.Name], v) {
				grid[ps.Name] = append(grid[ps.Name], v)
			}
		}
	}
	def.Name, def.Grid = "sweep of run "+strings.Join(ids, ", "), grid
	return def, nil
}
