package dcop

import (
	"context"
	"math/rand"
	"testing"

	"schedlab/errs"
)

func TestWDKeepsWidthUnderLimit(t *testing.T) {
	ctx := context.Background()
	for _, jobs := range []int{20, 30, 40, 50} {
		for seed := int64(1); seed <= 2; seed++ {
			in, err := Generate(Namekata2008(jobs), rand.New(rand.NewSource(seed)))
			if err != nil {
				t.Fatal(err)
			}
			pt, err := BuildPseudoTree(in.ConstraintGraph(), HeuristicMaxDegree, nil)
			if err != nil {
				t.Fatal(err)
			}
			for _, rule := range []string{RuleSeed, RuleBalanced} {
				wd, err := WidthDelete(in, pt, Domains(in, ObjectiveMakespan), 5, rule, Greedy(in))
				if err != nil {
					// the seed's rule empties domains on most instances of ≥ 30 jobs;
					// the balanced rule must reach the limit up to 40 jobs
					if rule == RuleBalanced || !errs.Is(errs.Invalid, err) || errs.FieldOf(err) != "width_limit" {
						t.Fatalf("%d jobs seed %d %s: %v", jobs, seed, rule, err)
					}
					t.Logf("%d jobs seed %d %s: %v", jobs, seed, rule, err)
					continue
				}
				if wd.WidthAfter > 5 || wd.Tree.Width() > 5 {
					t.Fatalf("%d jobs seed %d %s: width %d after WD", jobs, seed, rule, wd.WidthAfter)
				}
				if pt.Width() != wd.WidthBefore {
					t.Fatalf("WD modified the input tree")
				}
				r, err := Solve(ctx, in, Options{Tree: wd.Tree, Domains: wd.Domains})
				if err != nil {
					t.Fatalf("%d jobs seed %d %s: %v", jobs, seed, rule, err)
				}
				for x := range r.Allocated {
					if float64(r.Allocated[x]) != r.Predicted[x] {
						t.Fatalf("node %d allocated %d, predicted %v", x, r.Allocated[x], r.Predicted[x])
					}
				}
				if !r.Feasible && rule == RuleBalanced {
					t.Fatalf("%d jobs seed %d: balanced WD guided by the greedy schedule left no feasible schedule", jobs, seed)
				}
				if !r.Feasible {
					t.Logf("%d jobs seed %d %s: relaxed problem infeasible (%d edges deleted)", jobs, seed, rule, len(wd.Deleted))
					continue
				}
				if err := Feasible(in, r.Schedule, false); err != nil {
					t.Fatalf("%d jobs seed %d %s: %v", jobs, seed, rule, err)
				}
				t.Logf("%d jobs seed %d %s: width %d→%d, %d deleted, makespan %d (LB %d), max msg %.3g MB, cycles %d",
					jobs, seed, rule, wd.WidthBefore, wd.WidthAfter, len(wd.Deleted), Makespan(in, r.Schedule), LowerBound(in),
					r.Stats.MaxMessageBytes/1e6, r.Stats.MessageCycles)
			}
		}
	}
}

func TestWDNeverBeatsTheOptimum(t *testing.T) {
	ctx := context.Background()
	for seed := int64(1); seed <= 200; seed++ {
		src := rand.New(rand.NewSource(seed))
		in, err := Generate(smallConfig(src), src)
		if err != nil {
			continue
		}
		_, opt, _ := BruteForce(in)
		pt, _ := BuildPseudoTree(in.ConstraintGraph(), HeuristicMaxDegree, nil)
		for _, rule := range []string{RuleSeed, RuleBalanced} {
			wd, err := WidthDelete(in, pt, Domains(in, ObjectiveMakespan), 1, rule, nil)
			if err != nil {
				continue // cannot reach width 1 without emptying a domain
			}
			if wd.WidthAfter > 1 {
				t.Fatalf("seed %d %s: width %d", seed, rule, wd.WidthAfter)
			}
			r, err := Solve(ctx, in, Options{Tree: wd.Tree, Domains: wd.Domains})
			if err != nil {
				t.Fatal(err)
			}
			if !r.Feasible {
				continue
			}
			if err := Feasible(in, r.Schedule, false); err != nil {
				t.Fatalf("seed %d %s: %v", seed, rule, err)
			}
			if ms := Makespan(in, r.Schedule); ms < opt {
				t.Fatalf("seed %d %s: WD makespan %d below the optimum %d", seed, rule, ms, opt)
			}
		}
	}
}
