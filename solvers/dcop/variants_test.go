package dcop

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"schedlab/report"
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
	for _, v := range s.Variants {
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
	rep := &report.Report{Metrics: []report.Metric{{Name: "messages", Variants: []string{VariantDPOP, "rumor"}}}}
	err := solverstest.CheckMetricVariants(New(), rep)
	if err == nil || !strings.Contains(err.Error(), `"rumor"`) || !strings.Contains(err.Error(), "messages") {
		t.Errorf("a DCOP metric meaningful for gossip's rumor: %v, want an error naming both", err)
	}
	rep.Metrics[0].Variants = []string{VariantDPOP, VariantExact}
	if err := solverstest.CheckMetricVariants(New(), rep); err != nil {
		t.Errorf("DCOP's own variants: %v", err)
	}
}

// TestOnlyFullDPOPIsOptimalByConstruction: without the exact search's
// proof, a makespan above the lower bound is proven optimal for full DPOP
// alone (its table row says so); the reductions may cut the optimum off.
// The instance is a 5-cycle of jobs (job i on resources i and i+1 mod 5):
// no three share a resource, so the bound is 2, while any schedule needs 3.
func TestOnlyFullDPOPIsOptimalByConstruction(t *testing.T) {
	in := &Instance{Horizon: 5, Resources: []string{"r0", "r1", "r2", "r3", "r4"}}
	for i := range 5 {
		in.Jobs = append(in.Jobs, Job{ID: fmt.Sprint("j", i), Resources: []int{min(i, (i+1)%5), max(i, (i+1)%5)}, Duration: 1})
	}
	if lb := LowerBound(in); lb != 2 {
		t.Fatalf("lower bound %d, want 2", lb)
	}
	cfg := runConfig{Config: DefaultConfig()}
	for _, v := range variants {
		opt, proven := optimum(in, v, cfg, &outcome{}, 3)
		if want := v.Name == VariantDPOP; opt != 3 || (proven == 1) != want {
			t.Errorf("%s: optimum %v, proven %v; want 3, proven %v", v.Name, opt, proven, want)
		}
	}
}
