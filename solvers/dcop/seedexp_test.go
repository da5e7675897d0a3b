package dcop

import (
	"testing"

	"schedlab/solvers/sweep"
)

func TestSeedExperimentsCarryThePapersNumbers(t *testing.T) {
	defs := map[string]sweep.Definition{}
	for _, s := range seedExperiments() {
		defs[s.Name] = s.Definition
	}
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
