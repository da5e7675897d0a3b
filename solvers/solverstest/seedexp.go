package solverstest

import (
	"testing"

	"schedlab/experiments"
	"schedlab/solvers"
)

// SeedExperiments checks a family's seed experiments (solvers.SeedExperimenter):
// their names are exactly those of want, each definition parses and
// validates against st, and each expands to want[name] runs. It returns
// the parsed definitions by name, for the family's own checks of its
// references (the paper's printed numbers).
func SeedExperiments(t *testing.T, st solvers.Strategy, want map[string]int64) map[string]*experiments.Definition {
	t.Helper()
	se, ok := st.(solvers.SeedExperimenter)
	if !ok {
		t.Fatalf("%s has no seed experiments", st.Info().Name)
	}
	seeds := se.SeedExperiments()
	if len(seeds) != len(want) {
		t.Fatalf("%d seed experiments, want %d", len(seeds), len(want))
	}
	defs := map[string]*experiments.Definition{}
	for _, s := range seeds {
		n, ok := want[s.Name]
		if !ok {
			t.Errorf("unexpected seed experiment %q", s.Name)
			continue
		}
		def, err := experiments.ParseJSON(s.Definition)
		if err != nil {
			t.Fatalf("%s: %v", s.Name, err)
		}
		if err := experiments.Validate(def, st); err != nil {
			t.Errorf("%s: %v", s.Name, err)
		}
		if got := experiments.Count(def, st); got != n {
			t.Errorf("%s: %d runs, want %d", s.Name, got, n)
		}
		defs[s.Name] = def
	}
	return defs
}
