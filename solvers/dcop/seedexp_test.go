package dcop

import (
	"testing"

	"schedlab/solvers/solverstest"
)

func TestSeedExperimentsAreValidSweepsWithThePapersNumbers(t *testing.T) {
	st := New()
	want := map[string]int64{"table1": 4 * 10, "table2": 4 * 10 * 2, "fig3": 4 * 10 * int64(len(WDRules)), "fig4": 4 * 10 * 2, "fig6": 4 * 10,
		"sensitivity-heuristic": 4 * 10 * 5, "sensitivity-domain": 4 * 10 * 2 * 2}
	defs := solverstest.SeedExperiments(t, st, want)
	for name, def := range defs {
		if len(def.References) == 0 && name != "fig6" {
			t.Errorf("%s carries no reference values", name)
		}
	}
	// Table 1's after value at 50 jobs is the printed 1.2e1.
	found := false
	for _, r := range defs["table1"].References {
		if r.Metric == "paper_mb_after" && r.Params["workload.jobs"] == "50" {
			found = r.Value == 12
		}
	}
	if !found {
		t.Error("Table 1's after value at 50 jobs (1.2e1) is not a reference")
	}
}
