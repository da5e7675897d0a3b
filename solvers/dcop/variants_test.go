package dcop

import (
	"context"
	"strings"
	"testing"

	"schedlab/solvers"
	"schedlab/solvers/solverstest"
)

// TestMetricsNameTheVariantsTheyAreMeaningfulFor pins which run metrics
// are the distributed variants' alone and checks why: exact reports them
// by construction (no messages, no cycles, the full problem's sizes).
func TestMetricsNameTheVariantsTheyAreMeaningfulFor(t *testing.T) {
	s := New()
	ctx := context.Background()
	w, err := s.Generate(ctx, PresetNamekata2008, solvers.Params{"jobs": "10"}, 3)
	if err != nil {
		t.Fatal(err)
	}
	onlyDistributed := []string{"width_after", "max_util_entries_after", "max_util_bytes_after", "paper_mb_after", "message_cycles", "messages", "total_bytes"}
	only := map[string][]string{"back_edges_deleted": {VariantWD, VariantSplitWD}, "edges_cut": {VariantSplit, VariantSplitWD}}
	for _, name := range onlyDistributed {
		only[name] = []string{VariantDPOP, VariantWD, VariantSplit, VariantSplitWD}
	}
	for _, v := range s.Variants() {
		rep, err := s.Run(ctx, w, v.Name, solvers.Params{"time_limit_s": "1", "width_limit": "2"}, nil)
		if err != nil {
			t.Fatalf("%s: %v", v.Name, err)
		}
		if err := solverstest.CheckMetricVariants(s, rep); err != nil {
			t.Error(err)
		}
		for _, m := range rep.Metrics {
			want := true
			if vs, ok := only[m.Name]; ok {
				want = strings.Contains(","+strings.Join(vs, ",")+",", ","+v.Name+",")
			}
			if got := m.MeaningfulFor(v.Name); got != want {
				t.Errorf("%s of %s: meaningful %v, want %v", m.Name, v.Name, got, want)
			}
		}
		if v.Name != VariantExact {
			continue
		}
		get := func(name string) float64 {
			m, ok := rep.Metric(name)
			if !ok {
				t.Fatalf("exact lacks %s", name)
			}
			return m.Value
		}
		if get("messages") != 0 || get("total_bytes") != 0 || get("message_cycles") != 0 {
			t.Errorf("exact sends %v messages, %v bytes in %v cycles: its n/a hides a measurement", get("messages"), get("total_bytes"), get("message_cycles"))
		}
		if get("width_after") != get("width_before") || get("max_util_entries_after") != get("max_util_entries_before") {
			t.Errorf("exact's after-sizes (width %v, entries %v) are not the full problem's (%v, %v)", get("width_after"), get("max_util_entries_after"), get("width_before"), get("max_util_entries_before"))
		}
	}
}

func TestCheckMetricVariantsRefusesAVariantOfNoFamily(t *testing.T) {
	rep := &solvers.Report{Metrics: []solvers.Metric{{Name: "messages", Variants: []string{VariantDPOP, "rumor"}}}}
	err := solverstest.CheckMetricVariants(New(), rep)
	if err == nil || !strings.Contains(err.Error(), `"rumor"`) || !strings.Contains(err.Error(), "messages") {
		t.Errorf("a DCOP metric meaningful for gossip's rumor: %v, want an error naming both", err)
	}
	rep.Metrics[0].Variants = []string{VariantDPOP, VariantExact}
	if err := solverstest.CheckMetricVariants(New(), rep); err != nil {
		t.Errorf("DCOP's own variants: %v", err)
	}
}
