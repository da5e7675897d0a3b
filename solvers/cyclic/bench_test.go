package cyclic

import (
	"context"
	"os"
	"strconv"
	"testing"

	"schedlab/solvers"
)

// BenchmarkFullSetting is the seed's full setting: toporkov2014 (24 nodes,
// 20 jobs per cycle), 5000 cycles, per variant. Target ≤ 20 s per op.
func BenchmarkFullSetting(b *testing.B) {
	g := Toporkov2014()
	in, err := Generate(g)
	if err != nil {
		b.Fatal(err)
	}
	for _, v := range []struct {
		name string
		cfg  SimConfig
	}{
		{"css", SimConfig{Variant: VariantCSS, Strategy: StratRuntime, K: 1}},
		{"fair", SimConfig{Variant: VariantFair, Strategy: StratRuntime, K: 1}},
		{"css+shift", SimConfig{Variant: VariantCSS, Strategy: StratRuntime, K: 1, Shift: true}},
		{"backfill-0", SimConfig{Variant: VariantBackfill, Depth: 0}},
		{"backfill-easy", SimConfig{Variant: VariantBackfill, Depth: 1}},
		{"backfill-conservative", SimConfig{Variant: VariantBackfill, Depth: DepthInf}},
	} {
		b.Run(v.name, func(b *testing.B) {
			cfg := v.cfg
			cfg.Cycles, cfg.GanttCycle = 5000, 1
			for b.Loop() {
				if _, err := RunConfig(context.Background(), in, cfg, nil); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(cfg.Cycles)*float64(b.N)/b.Elapsed().Seconds(), "cycles/s")
		})
	}
}

// BenchmarkReproduceDefault times the default reproduce (target ≈ 1 min).
func BenchmarkReproduceDefault(b *testing.B) {
	s := New()
	for b.Loop() {
		r, err := s.Reproduce(context.Background(), solvers.Params{}, nil)
		if err != nil {
			b.Fatal(err)
		}
		if err := r.Validate(); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkNodeCountStudy times Figs 5–8: 8 node counts × 4 methods at
// flow_cycles cycles (CYCLIC_STUDY_CYCLES, default 5000: the seed's).
// Target ≤ 60 s per op on 2 cores.
func BenchmarkNodeCountStudy(b *testing.B) {
	cfg := DefaultReproConfig()
	cfg.FlowCycles = 5000
	if c := os.Getenv("CYCLIC_STUDY_CYCLES"); c != "" {
		n, err := strconv.Atoi(c)
		if err != nil {
			b.Fatal(err)
		}
		cfg.FlowCycles = n
	}
	set := ReproSetting{Config: cfg, Seed: 1, Base: Toporkov2014()}
	for b.Loop() {
		e, err := nodeStudy(set)
		if err != nil {
			b.Fatal(err)
		}
		if err := RunRepro(context.Background(), []*ReproExperiment{e}, solvers.NoProgress); err != nil {
			b.Fatal(err)
		}
	}
}
