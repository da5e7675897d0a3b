package dcop

import (
	"context"
	"math/rand"
	"runtime"
	"strings"
	"testing"
	"time"

	"schedlab/errs"
	"schedlab/solvers"
)

func allocated() uint64 {
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.TotalAlloc
}

func TestFitsHorizonAgreesWithTheGreedyMakespan(t *testing.T) {
	src := rand.New(rand.NewSource(7))
	for i := 0; i < 2000; i++ {
		cfg := GenConfig{Jobs: 1 + src.Intn(12), Resources: 1 + src.Intn(5), DurMin: 1, Horizon: 1 + src.Intn(15)}
		cfg.PerJob = 1 + src.Intn(cfg.Resources)
		cfg.DurMax = 1 + src.Intn(cfg.Horizon)
		in := draw(cfg, src, false)
		want := Makespan(in, Greedy(in)) <= in.Horizon
		if got := fitsHorizon(in); got != want {
			t.Fatalf("instance %d (%+v): fitsHorizon %v, greedy makespan %d against horizon %d", i, cfg, got, Makespan(in, Greedy(in)), in.Horizon)
		}
	}
}

// The audit's call: jobs = resources = per_job = 1000, horizon = dur_max =
// 10000 grew to 8.2 GiB in 210 s and ran on after the client left. Now each
// draw's test is bounded by resources × horizon and the generator stops
// with its context.
func TestGenerateOfTheAuditedSizeIsBoundedAndStopsWithItsContext(t *testing.T) {
	p := solvers.Params{"jobs": "1000", "resources": "1000", "per_job": "1000", "horizon": "10000", "dur_max": "10000"}
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	before := allocated()
	_, err := New().Generate(ctx, PresetNamekata2008, p, 1)
	if errs.KindOf(err) != errs.Canceled && errs.KindOf(err) != errs.Invalid {
		t.Errorf("the audited generate: %v, want it stopped (Canceled) or refused", err)
	}
	if d := allocated() - before; d > 1<<30 {
		t.Errorf("the audited generate allocated %d MiB before stopping", d>>20)
	}
	// Under a small budget it is refused before any draw.
	small := solvers.WithBudget(context.Background(), solvers.Budget{Memory: 32 << 20})
	_, err = New().Generate(small, PresetNamekata2008, p, 1)
	if errs.KindOf(err) != errs.TooLarge || errs.FieldOf(err) != "jobs" {
		t.Errorf("the audited generate under 32 MiB: %v, want TooLarge on jobs", err)
	}
}

func TestRunBudgetIsTheLowerOfMemoryMBAndTheServers(t *testing.T) {
	w := genWorkload(t, 30, 3)
	s := New()
	// memory_mb at its maximum (1 TiB) cannot lift a 1 MiB server budget.
	ctx := solvers.WithBudget(context.Background(), solvers.Budget{Memory: 1 << 20})
	_, err := s.Run(ctx, w, VariantDPOP, solvers.Params{"memory_mb": "1048576"}, nil)
	if errs.KindOf(err) != errs.TooLarge || !strings.Contains(err.Error(), "memory") {
		t.Errorf("DPOP on 30 jobs under a 1 MiB server budget, memory_mb 1 TiB: %v, want TooLarge", err)
	}
	if _, err := s.Run(context.Background(), w, VariantWD, solvers.Params{"memory_mb": "1048576", "wd_rule": RuleGreedyGuided, "width_limit": "4"}, nil); err != nil {
		t.Errorf("dpop-wd on 30 jobs under the default budget: %v", err)
	}
}

func TestBudgetKnobsAreMarked(t *testing.T) {
	s := New()
	want := map[string]string{"memory_mb": solvers.LimitMemoryMiB, "time_limit_s": solvers.LimitTimeSeconds}
	for _, p := range s.Params {
		if p.Limit != want[p.Name] {
			t.Errorf("run parameter %s: Limit %q, want %q", p.Name, p.Limit, want[p.Name])
		}
	}
	err := solvers.CheckLimits(s.ReproduceParams, solvers.Params{"time_limit_s": "600"}, solvers.Budget{Timeout: time.Minute})
	if errs.FieldOf(err) != "time_limit_s" {
		t.Errorf("reproduce time_limit_s over a 1 min --timeout: %v", err)
	}
}
