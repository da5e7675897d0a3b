package gossip

import (
	"context"
	"slices"
	"testing"

	"schedlab/solvers"
	"schedlab/solvers/solverstest"
)

// TestMetricsOfOneNameDeclareWhatTheyMeasure: the rumor's and the
// simulation's rounds, informed fraction, messages and bytes share names
// but declare disjoint variants, so a compare never ranks one against
// the other; central's rounds and informed fraction (1 and 1 by
// construction) are gossip's alone.
func TestMetricsOfOneNameDeclareWhatTheyMeasure(t *testing.T) {
	s := New()
	w := genWorkload(t, solvers.Params{"nodes": "40", "sites": "4", "duration_h": "1"}, 3)
	declared := map[string]map[string][]string{} // metric → variant → its Variants
	for _, v := range s.Variants {
		rep, err := s.Run(context.Background(), w, v.Name, solvers.Params{"gantt_nodes": "10"}, nil)
		if err != nil {
			t.Fatalf("%s: %v", v.Name, err)
		}
		if err := solverstest.CheckMetricVariants(s, rep); err != nil {
			t.Error(err)
		}
		for _, m := range rep.Metrics {
			if declared[m.Name] == nil {
				declared[m.Name] = map[string][]string{}
			}
			declared[m.Name][v.Name] = m.Variants
			if v.Name == VariantCentral && (m.Name == "rounds_to_converge" || m.Name == "final_informed") {
				if m.MeaningfulFor(v.Name) || m.Value != 1 {
					t.Errorf("central's %s = %v, meaningful %v: want 1 by construction, not meaningful", m.Name, m.Value, m.MeaningfulFor(v.Name))
				}
			} else if !m.MeaningfulFor(v.Name) {
				t.Errorf("%s of %s is not meaningful for its own variant", m.Name, v.Name)
			}
		}
	}
	for _, name := range []string{"rounds_to_converge", "final_informed", "messages_per_node_per_period", "bytes_per_node_per_period"} {
		rumor, sim := declared[name][VariantRumor], declared[name][VariantGossip]
		if len(rumor) == 0 || len(sim) == 0 || slices.Contains(rumor, VariantGossip) || slices.Contains(sim, VariantRumor) {
			t.Errorf("%s: rumor declares %q, gossip %q; want each to leave the other out", name, rumor, sim)
		}
	}
	if got := declared["messages_per_node_per_period"][VariantCentral]; !slices.Contains(got, VariantCentral) || !slices.Contains(got, VariantGossip) {
		t.Errorf("central's messages declare %q: want them compared with gossip's", got)
	}
}
