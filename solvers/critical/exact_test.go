package critical

import (
	"context"
	"math/rand"
	"testing"
)

func TestNoVariantBeatsTheExactOptimum(t *testing.T) {
	rng := rand.New(rand.NewSource(9))
	gap := map[string]float64{}
	const n = 40
	for i := range n {
		c := GenConfig{Tasks: 2 + rng.Intn(5), Density: 0.2 + 0.6*rng.Float64(), VolMin: 1, VolMax: 20,
			TransferMin: 0, TransferMax: 15, Processors: 1 + rng.Intn(3), PerfMin: 1, PerfMax: 3}
		c.Layers = 1 + rng.Intn(c.Tasks)
		g, err := Generate(c, rng)
		if err != nil {
			t.Fatal(err)
		}
		d := Prepare(g, 10)
		opt, err := ExactMakespan(context.Background(), d)
		if err != nil {
			t.Fatal(err)
		}
		lb := d.ComputeBounds().Lower
		if opt < lb-1e-9 {
			t.Fatalf("instance %d: optimum %v below the lower bound %v", i, opt, lb)
		}
		for _, v := range []string{VariantCritical, VariantHEFT, VariantList} {
			for _, crit := range []string{CriterionLoad, CriterionMakespan} {
				cfg := DefaultRunConfig()
				cfg.Criterion = crit
				o, err := Solve(context.Background(), g, v, cfg, nil)
				if err != nil {
					t.Fatal(err)
				}
				ms := o.Sched.Makespan()
				if ms < opt-1e-9 {
					t.Fatalf("instance %d %s: makespan %v below the exact optimum %v", i, v, ms, opt)
				}
				gap[v+"/"+crit] += ms/opt - 1
			}
		}
	}
	for k, g := range gap {
		t.Logf("%s: mean gap to optimum %.1f %%", k, 100*g/n)
	}
}
