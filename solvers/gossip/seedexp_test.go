package gossip

import (
	"testing"

	"schedlab/experiments"
	"schedlab/solvers"
)

func TestSeedExperimentsAreValidSweeps(t *testing.T) {
	st := New()
	seeds := st.(solvers.SeedExperimenter).SeedExperiments()
	want := map[string]int64{"fig6": 3 * 5, "fig7": 10 * 2 * 5, "fig8": 6 * 2 * 3, "fig9": 3 * 4 * 2 * 3, "table1": 4 * 3,
		"sens-collect": 6 * 3 * 3 * 2 * 3, "sens-ads": 3 * 2 * 2 * 2 * 3, "sens-negotiator": 4 * 4 * 3, "sens-period": 3 * 4 * 2 * 3,
		"sens-match": 3 * 3 * 2 * 3, "sens-length": 3 * 2 * 2 * 2 * 3,
		"sens-table1": 4 * 2 * 2 * 3 * 3, "sens-table1-run": 3 * 2 * 2 * 2 * 3 * 3}
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
		if s.Name == "table1" {
			if len(def.References) != 4 || def.References[0].Value != 0.939 || def.References[3].Value != 0.970 || def.References[3].Params["schedulers"] != "8" {
				t.Errorf("table1 references %+v", def.References)
			}
		}
	}
}
