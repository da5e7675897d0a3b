package dcop

import (
	"context"
	"math/rand"
	"reflect"
	"strings"
	"testing"

	"schedlab/errs"
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

// bruteValue is the best total value over every schedule with starts in
// {0} ∪ {1..maxStart} (0 = unscheduled), by enumeration.
func bruteValue(in *Instance, domain string) float64 {
	n := len(in.Jobs)
	sched := make(Schedule, n)
	best := -1.0
	var rec func(k int)
	rec = func(k int) {
		if k == n {
			if Feasible(in, sched, true, domain) == nil {
				best = max(best, TotalValue(in, sched))
			}
			return
		}
		for s := 0; s <= maxStart(in, k, domain); s++ {
			sched[k] = s
			rec(k + 1)
		}
		sched[k] = 0
	}
	rec(0)
	return best
}

// TestValueObjectiveMatchesBruteForce: the value objective's optimum is the
// enumerated one, on a node with a constrained parent and three children
// (job X below P, over B, C and D on the dfs tree: the kernel's three-child
// loop) and on small random draws with uneven values, in both domains.
func TestValueObjectiveMatchesBruteForce(t *testing.T) {
	ctx := context.Background()
	star := &Instance{Horizon: 4, Resources: []string{"r0", "r1", "r2", "r3", "r4", "r5", "r6", "r7"}, Jobs: []Job{
		{ID: "P", Resources: []int{0, 1}, Duration: 2, Value: 3},
		{ID: "X", Resources: []int{0, 2, 3, 4}, Duration: 3, Value: 3},
		{ID: "B", Resources: []int{2, 5}, Duration: 2, Value: 0.5},
		{ID: "C", Resources: []int{3, 6}, Duration: 2, Value: 0.5},
		{ID: "D", Resources: []int{4, 7}, Duration: 2, Value: 0.5},
	}}
	insts := []*Instance{star}
	for seed := int64(1); len(insts) < 12 && seed < 100; seed++ {
		src := rand.New(rand.NewSource(seed))
		cfg := GenConfig{Jobs: 5, Resources: 4, PerJob: 2, DurMin: 1, DurMax: 3, Horizon: 5, Filter: FilterNone}
		in, err := Generate(cfg, src)
		if err != nil {
			continue
		}
		for k := range in.Jobs {
			in.Jobs[k].Value = float64(src.Intn(5))
		}
		insts = append(insts, in)
	}
	threeChildren := false
	for i, in := range insts {
		for _, dm := range []string{DomainStarts, DomainFit} {
			want := bruteValue(in, dm)
			for _, h := range []string{HeuristicDFS, HeuristicMaxDegree, HeuristicMinFill} {
				pt, err := BuildPseudoTree(in.ConstraintGraph(), h, nil)
				if err != nil {
					t.Fatal(err)
				}
				for x := range pt.Children {
					if len(pt.Children[x]) == 3 && pt.Parent[x] != -1 {
						threeChildren = true
					}
				}
				r, err := Solve(ctx, in, Options{Objective: ObjectiveValue, Domain: dm, Tree: pt})
				if err != nil {
					t.Fatal(err)
				}
				if !r.Feasible || Feasible(in, r.Schedule, true, dm) != nil || TotalValue(in, r.Schedule) != want || r.Cost != -want {
					t.Fatalf("instance %d %s %s: DPOP %v value %v (cost %v), brute force %v", i, dm, h, r.Schedule, TotalValue(in, r.Schedule), r.Cost, want)
				}
			}
		}
	}
	if !threeChildren {
		t.Fatal("no node with a parent and three children: the three-child loop went untested")
	}
}

// TestSolveRefusesUnsortedDomains: the kernel's forbidden ranges need
// ascending domains; others are errs.Invalid on domains naming the job.
func TestSolveRefusesUnsortedDomains(t *testing.T) {
	in, err := Generate(Namekata2008(5), rand.New(rand.NewSource(1)))
	if err != nil {
		t.Fatal(err)
	}
	dom := Domains(in, ObjectiveMakespan, DomainStarts)
	dom[2][3], dom[2][4] = dom[2][4], dom[2][3]
	_, err = Solve(context.Background(), in, Options{Domains: dom})
	if errs.KindOf(err) != errs.Invalid || errs.FieldOf(err) != "domains" || !strings.Contains(err.Error(), in.Jobs[2].ID) {
		t.Fatalf("unsorted domain: %v", err)
	}
	dom[2][3], dom[2][4] = dom[2][4], dom[2][3]
	if _, err := Solve(context.Background(), in, Options{Domains: dom}); err != nil {
		t.Fatal(err)
	}
}
