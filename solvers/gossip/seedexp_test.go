package gossip

import (
	"testing"

	"schedlab/solvers/solverstest"
)

func TestSeedExperimentsAreValidSweeps(t *testing.T) {
	st := New()
	want := map[string]int64{"fig6": 3 * 5, "fig7": 10 * 2 * 5, "fig8": 6 * 2 * 3, "fig9": 3 * 4 * 2 * 3, "table1": 4 * 3,
		"sens-collect": 6 * 3 * 3 * 2 * 3, "sens-ads": 3 * 2 * 2 * 2 * 3, "sens-negotiator": 4 * 4 * 3, "sens-period": 3 * 4 * 2 * 3,
		"sens-match": 3 * 3 * 2 * 3, "sens-length": 3 * 2 * 2 * 2 * 3,
		"sens-table1": 4 * 2 * 2 * 3 * 3, "sens-table1-run": 3 * 2 * 2 * 2 * 3 * 3}
	def := solverstest.SeedExperiments(t, st, want)["table1"]
	if len(def.References) != 4 || def.References[0].Value != 0.939 || def.References[3].Value != 0.970 || def.References[3].Params["schedulers"] != "8" {
		t.Errorf("table1 references %+v", def.References)
	}
}
