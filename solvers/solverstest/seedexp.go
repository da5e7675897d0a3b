package solverstest

import (
	"testing"

	"schedlab/solvers"
	"schedlab/solvers/sweep"
)

// SeedDefinitions are a family's seed experiments (solvers.SeedExperimenter)
// by name, for its checks of their references (the paper's printed
// numbers). That every family's parse, validate and expand to the runs
// they should is experiments' TestSeedExperimentsAreTheSweepsTheyWere.
func SeedDefinitions(t *testing.T, st solvers.Strategy) map[string]sweep.Definition {
	t.Helper()
	se, ok := st.(solvers.SeedExperimenter)
	if !ok {
		t.Fatalf("%s has no seed experiments", st.Info().Name)
	}
	defs := map[string]sweep.Definition{}
	for _, s := range se.SeedExperiments() {
		defs[s.Name] = s.Definition
	}
	return defs
}
