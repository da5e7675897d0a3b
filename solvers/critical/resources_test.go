package critical

import (
	"context"
	"fmt"
	"math/rand"
	"testing"
)

// boundOverUsed is the lower bound on a schedule's makespan over the
// processors it occupies (LowerBoundOn, which CheckSchedule uses).
func boundOverUsed(d *DAG, s Schedule) float64 {
	used := make([]bool, d.M)
	for _, p := range s.Proc {
		used[p] = true
	}
	return LowerBoundOn(d, used)
}

// checkEqualResources runs every variant under both readings of collision
// step 3 and checks the report: processors is the platform's count,
// processors_used the configuration the run had, and a schedule never
// ends before the lower bound over the processors it used, so
// makespan_over_bound ≥ 1.
func checkEqualResources(t *testing.T, name string, g *Graph, cfg RunConfig) (runs, scaled int) {
	t.Helper()
	for _, cp := range []string{CollisionIdle, CollisionNew} {
		cfg.CollisionProcessors = cp
		for _, v := range []string{VariantCritical, VariantCriticalFallback, VariantHEFT, VariantList} {
			o, err := Solve(context.Background(), g, v, cfg, nil)
			if err != nil {
				t.Fatalf("%s %s %s: %v", name, v, cp, err)
			}
			r := runReport(o)
			at := fmt.Sprintf("%s %s %s", name, v, cp)
			if got := metric(t, r, "processors"); got != float64(len(g.Processors)) {
				t.Fatalf("%s: processors %v, the platform has %d", at, got, len(g.Processors))
			}
			used := metric(t, r, "processors_used")
			if used != float64(o.D.M) || used < float64(len(g.Processors)) {
				t.Fatalf("%s: processors_used %v, configuration %d", at, used, o.D.M)
			}
			if used > float64(len(g.Processors)) {
				scaled++
				if cp != CollisionNew || (v != VariantCritical && v != VariantCriticalFallback) {
					t.Fatalf("%s: %v processors on a platform of %d without scale-out", at, used, len(g.Processors))
				}
			}
			if !o.Complete {
				continue
			}
			runs++
			ms := o.Sched.Makespan()
			if lb := boundOverUsed(o.D, o.Sched); ms < lb*(1-1e-9) {
				t.Fatalf("%s: makespan %v below the bound %v over the processors it used", at, ms, lb)
			}
			if got := metric(t, r, "makespan_over_bound"); got < 1-1e-9 {
				t.Fatalf("%s: makespan_over_bound %v < 1 (makespan %v, lower_bound %v)", at, got, ms, metric(t, r, "lower_bound"))
			}
		}
	}
	return runs, scaled
}

// TestMakespanAtLeastBoundOverProcessorsUsed: on every shared workflow
// and on 300 random DAGs (fixed seeds), every variant's makespan is at
// least the lower bound over the processors it used and
// makespan_over_bound ≥ 1, under both readings of collision step 3.
func TestMakespanAtLeastBoundOverProcessorsUsed(t *testing.T) {
	runs, scaled := 0, 0
	names, wfs, err := Workflows()
	if err != nil {
		t.Fatal(err)
	}
	for i, g := range wfs {
		for _, f := range []float64{1, 1.5, 2} {
			cfg := DefaultRunConfig()
			cfg.DeadlineFactor = f
			r, s := checkEqualResources(t, names[i], g, cfg)
			runs, scaled = runs+r, scaled+s
		}
	}
	crits := []string{CriterionLoad, CriterionMakespan, CriterionCost}
	factors := []float64{1, 1.25, 1.5, 2, 4}
	for i := range 300 {
		rng := rand.New(rand.NewSource(int64(50_000 + i)))
		c := DefaultGenConfig()
		c.Tasks = 4 + rng.Intn(40)
		c.Layers = 1 + rng.Intn(min(c.Tasks, 8))
		c.Processors = 1 + rng.Intn(6)
		g, err := Generate(c, rng)
		if err != nil {
			t.Fatal(err)
		}
		if i%4 == 0 { // a times matrix
			g.Times = make([][]float64, len(g.Tasks))
			for v := range g.Times {
				for range g.Processors {
					g.Times[v] = append(g.Times[v], 1+float64(rng.Intn(40)))
				}
			}
		}
		cfg := DefaultRunConfig()
		cfg.Criterion, cfg.DeadlineFactor = crits[i%3], factors[i%5]
		r, s := checkEqualResources(t, fmt.Sprintf("random #%d", i), g, cfg)
		runs, scaled = runs+r, scaled+s
	}
	// The check must have bitten: schedules, some of them on scale-out's
	// larger configurations.
	if runs < 1000 || scaled < 50 {
		t.Fatalf("%d complete runs, %d on scaled-out configurations: too few to test", runs, scaled)
	}
	t.Logf("%d complete runs, %d runs on scaled-out configurations", runs, scaled)
}
