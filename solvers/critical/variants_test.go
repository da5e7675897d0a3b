package critical

import (
	"context"
	"slices"
	"testing"

	"schedlab/solvers"
	"schedlab/solvers/solverstest"
)

// TestPlannerMetricsAreTheCriticalWorksVariants pins which metrics are
// the planner's: heft and list report them as 0 (or the tree they build
// only to colour their Gantt), so they are not meaningful there.
func TestPlannerMetricsAreTheCriticalWorksVariants(t *testing.T) {
	s := New()
	w := genWorkload(t, solvers.Params{"tasks": "20"}, 2)
	planners := []string{VariantCritical, VariantCriticalFallback}
	only := map[string][]string{
		"stopped": {VariantCritical}, "works_fallback": {VariantCriticalFallback},
	}
	for _, n := range []string{"variants_generated", "variants_dropped", "variants_kept", "variants_pruned", "works", "works_planned", "collisions", "collisions_unresolved", "tree_nodes", "tree_cut"} {
		only[n] = planners
	}
	for _, v := range s.Variants {
		rep, err := s.Run(context.Background(), w, v.Name, nil, nil)
		if err != nil {
			t.Fatalf("%s: %v", v.Name, err)
		}
		if err := solverstest.CheckMetricVariants(s, rep); err != nil {
			t.Error(err)
		}
		for _, m := range rep.Metrics {
			vs, restricted := only[m.Name]
			want := !restricted || slices.Contains(vs, v.Name)
			if got := m.MeaningfulFor(v.Name); got != want {
				t.Errorf("%s of %s: meaningful %v, want %v", m.Name, v.Name, got, want)
			}
			// The counts a variant does not make are 0 there; the tree and
			// its works (every work "planned" without a planner) are built
			// for the Gantt's colours.
			byConstruction := map[string]bool{"works": true, "works_planned": true, "tree_nodes": true, "tree_cut": true}
			if !want && !byConstruction[m.Name] && m.Value != 0 {
				t.Errorf("%s of %s is %v: a count not meaningful for it should be 0 by construction", m.Name, v.Name, m.Value)
			}
		}
	}
}
