package gossip

import (
	"testing"

	"schedlab/solvers/sweep"
)

func TestSeedExperimentsCarryThePapersNumbers(t *testing.T) {
	defs := map[string]sweep.Definition{}
	for _, s := range seedExperiments() {
		defs[s.Name] = s.Definition
	}
	def := defs["table1"]
	if len(def.References) != 4 || def.References[0].Value != 0.939 || def.References[3].Value != 0.970 || def.References[3].Params["schedulers"] != "8" {
		t.Errorf("table1 references %+v", def.References)
	}
}
