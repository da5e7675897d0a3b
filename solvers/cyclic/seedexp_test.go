package cyclic

import (
	"testing"

	"schedlab/solvers/sweep"
)

// TestSeedExperimentsCarryThePapersNumbers: every seed experiment runs
// independent cycles, and the printed tables carry the paper's numbers.
func TestSeedExperimentsCarryThePapersNumbers(t *testing.T) {
	defs := map[string]sweep.Definition{}
	for _, s := range seedExperiments() {
		defs[s.Name] = s.Definition
	}
	for name, def := range defs {
		if def.Grid["carry"][0] != "false" {
			t.Errorf("%s: cycles carry jobs; the seed's are independent", name)
		}
		refs := map[string]float64{}
		for _, r := range def.References {
			refs[r.Variant+" "+r.Metric] = r.Value
		}
		switch name {
		case "table1":
			if refs["css start"] != 222 || refs["css n_alternatives"] != 12.1 {
				t.Errorf("table1 references %v", refs)
			}
		case "table2":
			at := func(c string) map[string]float64 {
				m := map[string]float64{}
				for _, r := range def.References {
					if r.Params["owner_price"] == c {
						m[r.Metric] = r.Value
					}
				}
				return m
			}
			if m := at("6"); m["owner_profit"] != 1112.3 || m["owner_load_time"] != 185.4 || m["owner_utilization"] != 0.31 || m["failure_rate"] != 0.013 {
				t.Errorf("table2 references at c = 6: %v", m)
			}
			if m := at("2"); m["owner_profit"] != 527.1 || m["failure_rate"] != 0 {
				t.Errorf("table2 references at c = 2: %v", m)
			}
			if len(def.References) != 5*4 {
				t.Errorf("table2: %d references, want 20", len(def.References))
			}
		case "table3":
			if refs["backfill processor_time"] != 187.7 || refs["fair actual_processor_time"] != 83.5 || refs["css actual_start"] != 281.2 {
				t.Errorf("table3 references %v", refs)
			}
		}
	}
}
