package critical

import (
	"testing"

	"schedlab/experiments"
	"schedlab/solvers"
)

func TestSeedExperimentsAreValidSweeps(t *testing.T) {
	st := New()
	seeds := st.(solvers.SeedExperimenter).SeedExperiments()
	want := map[string]int64{"deadline": 2 * 4 * 4 * 10, "enumeration": 4 * 10}
	if len(seeds) != len(want) {
		t.Fatalf("%d seed experiments, want %d", len(seeds), len(want))
	}
	for _, s := range seeds {
		def, err := experiments.ParseJSON(s.Definition)
		if err != nil {
			t.Fatalf("%s: %v", s.Name, err)
		}
		if err := experiments.Validate(def, st); err != nil {
			t.Errorf("%s: %v", s.Name, err)
		}
		if n := experiments.Count(def, st); n != want[s.Name] {
			t.Errorf("%s: %d runs, want %d", s.Name, n, want[s.Name])
		}
	}
}
