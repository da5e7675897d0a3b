package dcop

import (
	"testing"

	"schedlab/experiments"
	"schedlab/solvers"
)

func TestSeedExperimentsAreValidSweepsWithThePapersNumbers(t *testing.T) {
	st := New()
	seeds := st.(solvers.SeedExperimenter).SeedExperiments()
	want := map[string]int64{"table1": 4 * 10, "table2": 4 * 10 * 2, "fig3": 4 * 10 * int64(len(WDRules)), "fig4": 4 * 10 * 2, "fig6": 4 * 10,
		"sensitivity-heuristic": 4 * 10 * 5, "sensitivity-domain": 4 * 10 * 2 * 2}
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
		if len(def.References) == 0 && s.Name != "fig6" {
			t.Errorf("%s carries no reference values", s.Name)
		}
	}
	// Table 1's after value at 50 jobs is the printed 1.2e1.
	def, _ := experiments.ParseJSON(seeds[0].Definition)
	found := false
	for _, r := range def.References {
		if r.Metric == "paper_mb_after" && r.Params["workload.jobs"] == "50" {
			found = r.Value == 12
		}
	}
	if !found {
		t.Error("Table 1's after value at 50 jobs (1.2e1) is not a reference")
	}
}
