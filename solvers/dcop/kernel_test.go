package dcop

import (
	"context"
	"math/rand"
	"reflect"
	"testing"
)

// withMaskBits runs f with the kernel's mask limit set to bits (0 forces
// the sorted forbidden ranges for every domain).
func withMaskBits(bits int, f func()) {
	old := maskBits
	maskBits = bits
	defer func() { maskBits = old }()
	f()
}

// TestKernelRangesAgreeWithMasks: the two ways the kernel decides the
// allowed own values (a bit mask for |D_x| ≤ 64, sorted forbidden ranges
// otherwise) give the same results, schedule and UTIL sizes on every
// objective, domain reading and heuristic, with restricted (WD) domains
// too. The pins check the mask path against the kernel before issue 23.
func TestKernelRangesAgreeWithMasks(t *testing.T) {
	ctx := context.Background()
	for seed := int64(1); seed <= 4; seed++ {
		in, err := Generate(Namekata2008(9), rand.New(rand.NewSource(seed)))
		if err != nil {
			t.Fatal(err)
		}
		for k := range in.Jobs {
			in.Jobs[k].Value = float64(1 + (k+int(seed))%3)
		}
		for _, h := range []string{HeuristicMaxDegree, HeuristicMinFill, HeuristicDFS} {
			pt, err := BuildPseudoTree(in.ConstraintGraph(), h, nil)
			if err != nil {
				t.Fatal(err)
			}
			for _, obj := range []string{ObjectiveMakespan, ObjectiveValue} {
				for _, dm := range []string{DomainStarts, DomainFit} {
					opts := []Options{{Objective: obj, Domain: dm, Tree: pt}}
					if wd, err := WidthDelete(in, pt, Domains(in, obj, dm), 2, RuleBalanced, nil); err == nil {
						opts = append(opts, Options{Objective: obj, Tree: wd.Tree, Domains: wd.Domains})
					}
					for _, o := range opts {
						want, err := Solve(ctx, in, o)
						if err != nil {
							t.Fatal(err)
						}
						var got *Result
						withMaskBits(0, func() { got, err = Solve(ctx, in, o) })
						if err != nil {
							t.Fatal(err)
						}
						if got.Feasible != want.Feasible || got.Cost != want.Cost || !reflect.DeepEqual(got.Schedule, want.Schedule) ||
							!reflect.DeepEqual(got.Allocated, want.Allocated) || got.Stats != want.Stats {
							t.Fatalf("seed %d %s %s %s (restricted %v): ranges %v %v %v, masks %v %v %v", seed, h, obj, dm, o.Domains != nil,
								got.Feasible, got.Cost, got.Schedule, want.Feasible, want.Cost, want.Schedule)
						}
					}
				}
			}
		}
	}
}

// TestKernelWideDomainsAreOptimal: domains of more than 64 values (the
// ranges path) give the exact optimum.
func TestKernelWideDomainsAreOptimal(t *testing.T) {
	ctx := context.Background()
	tested := 0
	for seed := int64(1); seed <= 8; seed++ {
		cfg := Namekata2008(6)
		cfg.Resources, cfg.Horizon, cfg.DurMin, cfg.DurMax = 8, 66, 8, 20
		in, err := Generate(cfg, rand.New(rand.NewSource(seed)))
		if err != nil {
			t.Fatal(err)
		}
		e := Exact(ctx, in, DomainStarts, 0)
		if !e.Proven {
			t.Fatalf("seed %d: exact not proven", seed)
		}
		for _, h := range []string{HeuristicMaxDegree, HeuristicMinFill} {
			pt, err := BuildPseudoTree(in.ConstraintGraph(), h, nil)
			if err != nil {
				t.Fatal(err)
			}
			if joinEntries(pt, Domains(in, ObjectiveMakespan, DomainStarts)) > 3e7 {
				continue // keep the test fast: a width of at most 3 here
			}
			tested++
			r, err := Solve(ctx, in, Options{Tree: pt})
			if err != nil {
				t.Fatal(err)
			}
			if len(r.Domains[0]) <= 64 || !r.Feasible || Feasible(in, r.Schedule, false, DomainStarts) != nil || Makespan(in, r.Schedule) != e.Makespan || r.Cost != float64(e.Makespan) {
				t.Fatalf("seed %d %s: DPOP %v %v (cost %v), exact makespan %d", seed, h, r.Feasible, r.Schedule, r.Cost, e.Makespan)
			}
		}
	}
	if tested < 6 {
		t.Fatalf("only %d wide-domain runs small enough to test", tested)
	}
}
