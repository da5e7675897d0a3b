package gossip

import (
	"context"
	"runtime"
	"strings"
	"testing"

	"schedlab/errs"
	"schedlab/solvers"
)

func allocated() uint64 {
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.TotalAlloc
}

// The audit's call: nodes=100000 (now rescale_nodes) with memory_mb raised to 1 TiB ended in a
// fatal out-of-memory inside sim.init. The server's budget caps memory_mb.
func TestBudgetRefusesTheAuditedRunBeforeAllocating(t *testing.T) {
	s := New()
	w := genWorkload(t, solvers.Params{"nodes": "10", "sites": "2", "duration_h": "1"}, 1)
	params := solvers.Params{"rescale_nodes": "100000", "memory_mb": "1048576"}
	for _, ctx := range []context.Context{
		solvers.WithBudget(context.Background(), solvers.Budget{Memory: 4 << 30}),
		context.Background(), // no limits: the default 4 GiB
	} {
		before := allocated()
		_, err := s.Run(ctx, w, VariantGossip, params, nil)
		if errs.KindOf(err) != errs.TooLarge || errs.FieldOf(err) != "rescale_nodes" || !strings.Contains(err.Error(), "over the memory budget of 4 GiB") {
			t.Errorf("rescale_nodes=100000 memory_mb=1048576: %v, want TooLarge on rescale_nodes against 4 GiB", err)
		}
		if d := allocated() - before; d > 256<<20 {
			t.Errorf("refusing it allocated %d MiB", d>>20)
		}
	}
	// memory_mb still lowers the budget.
	_, err := s.Run(context.Background(), w, VariantGossip, solvers.Params{"rescale_nodes": "2000", "memory_mb": "1"}, nil)
	if errs.KindOf(err) != errs.TooLarge || !strings.Contains(err.Error(), "1 MiB") {
		t.Errorf("2000 nodes under memory_mb=1: %v", err)
	}
}

func TestBudgetRefusesAJobStreamOverTheBudget(t *testing.T) {
	s := New()
	ctx := solvers.WithBudget(context.Background(), solvers.Budget{Memory: 8 << 20})
	p, err := solvers.Resolve(s.Presets[0].Params, solvers.Params{"nodes": "100000", "duration_h": "7.5"})
	if err != nil {
		t.Fatal(err)
	}
	before := allocated()
	_, err = s.Generate(ctx, PresetUmeda2006, p, 1)
	if errs.KindOf(err) != errs.TooLarge || errs.FieldOf(err) != "duration_h" {
		t.Errorf("a million jobs under 8 MiB: %v, want TooLarge on duration_h", err)
	}
	if d := allocated() - before; d > 32<<20 {
		t.Errorf("refusing it allocated %d MiB", d>>20)
	}
}

func TestBudgetRefusesAReproduceOverTheBudget(t *testing.T) {
	_, err := New().Reproduce(context.Background(), solvers.Params{"fig9_nodes": "10,100000"}, nil)
	if errs.KindOf(err) != errs.TooLarge || errs.FieldOf(err) != "fig9_nodes" {
		t.Errorf("Fig. 9 at 100000 nodes: %v, want TooLarge on fig9_nodes", err)
	}
}

func TestStringParametersAreCheckedAtResolve(t *testing.T) {
	s := New()
	for _, v := range []string{"", "random", "0-19,500", " 3 "} {
		if _, err := solvers.Resolve(s.Params, solvers.Params{"gantt_lanes": v}); err != nil {
			t.Errorf("gantt_lanes %q: %v", v, err)
		}
	}
	for _, v := range []string{"x", "5-1", "0-5000", "-3", "200000"} {
		_, err := solvers.Resolve(s.Params, solvers.Params{"gantt_lanes": v})
		if errs.KindOf(err) != errs.Invalid || errs.FieldOf(err) != "gantt_lanes" {
			t.Errorf("gantt_lanes %q: %v, want Invalid on gantt_lanes", v, err)
		}
	}
	for _, v := range []string{"10,x", "1", ",", "100001"} {
		_, err := solvers.Resolve(s.ReproduceParams, solvers.Params{"fig9_nodes": v})
		if errs.KindOf(err) != errs.Invalid || errs.FieldOf(err) != "fig9_nodes" {
			t.Errorf("fig9_nodes %q: %v, want Invalid on fig9_nodes", v, err)
		}
	}
	if _, err := solvers.Resolve(s.ReproduceParams, solvers.Params{"fig9_nodes": "10, 20"}); err != nil {
		t.Errorf("fig9_nodes 10, 20: %v", err)
	}
}
