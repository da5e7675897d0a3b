package dcop

import (
	"context"
	"math/rand"
	"slices"
	"testing"

	"schedlab/errs"
)

// TestEveryWDRuleReachesTheLimitOrReportsFailure: on namekata2008
// instances of every size and both pseudo-tree constructions, every rule
// either leaves a tree of width ≤ 5 (recomputed from scratch) or fails
// with errs.Invalid on width_limit and a reached width over the limit
// (greedy-guided without a reference: on wd_rule). A sound rule's deleted
// pairs can never overlap: the latest end of the earlier job is before
// the earliest start of the later one, over the restricted domains. The
// input tree and domains are left unchanged.
func TestEveryWDRuleReachesTheLimitOrReportsFailure(t *testing.T) {
	for _, jobs := range []int{20, 30, 40, 50} {
		in, err := Generate(Namekata2008(jobs), rand.New(rand.NewSource(int64(jobs))))
		if err != nil {
			t.Fatal(err)
		}
		for _, h := range []string{HeuristicMinFill, HeuristicMaxDegree} {
			pt, err := BuildPseudoTree(in.ConstraintGraph(), h, nil)
			if err != nil {
				t.Fatal(err)
			}
			dom := Domains(in, ObjectiveMakespan, DomainStarts)
			width := pt.Width()
			for _, rule := range WDRules {
				wd, err := WidthDelete(in, pt, dom, 5, rule, greedyRef(in, DomainStarts))
				if pt.Width() != width || len(dom[0]) != in.Horizon {
					t.Fatalf("%d jobs %s %s: WD modified its input", jobs, h, rule)
				}
				if err != nil {
					switch {
					case rule == RuleGreedyGuided && greedyRef(in, DomainStarts) == nil && errs.FieldOf(err) == "wd_rule":
					case !errs.Is(err, errs.Invalid) || errs.FieldOf(err) != "width_limit":
						t.Fatalf("%d jobs %s %s: %v", jobs, h, rule, err)
					case wd == nil || wd.WidthAfter <= 5:
						t.Fatalf("%d jobs %s %s: failed at a reached width %v ≤ 5", jobs, h, rule, wd)
					}
					continue
				}
				check := *wd.Tree
				check.computeSeparators()
				if wd.WidthAfter > 5 || check.Width() > 5 {
					t.Fatalf("%d jobs %s %s: width %d (recomputed %d) after WD", jobs, h, rule, wd.WidthAfter, check.Width())
				}
				for _, e := range wd.Deleted {
					if slices.Contains(wd.Tree.Adj[e[0]], e[1]) {
						t.Fatalf("%d jobs %s %s: deleted edge %v still in force", jobs, h, rule, e)
					}
					if soundRule(rule) && !apart(in, wd.Domains, e[0], e[1]) {
						t.Fatalf("%d jobs %s %s: deleted pair %v can still overlap: %v / %v", jobs, h, rule, e, wd.Domains[e[0]], wd.Domains[e[1]])
					}
				}
			}
		}
	}
}

// apart reports whether no start of a in dom overlaps any start of b.
func apart(in *Instance, dom [][]int, a, b int) bool {
	for _, sa := range dom[a] {
		for _, sb := range dom[b] {
			if overlap(sa, in.Jobs[a].Duration, sb, in.Jobs[b].Duration) {
				return false
			}
		}
	}
	return true
}

func TestWDNeverBeatsTheOptimum(t *testing.T) {
	ctx := context.Background()
	for seed := int64(1); seed <= 200; seed++ {
		src := rand.New(rand.NewSource(seed))
		in, err := Generate(smallConfig(src), src)
		if err != nil {
			continue
		}
		_, opt, _ := BruteForce(in, DomainStarts)
		pt, _ := BuildPseudoTree(in.ConstraintGraph(), HeuristicMaxDegree, nil)
		for _, rule := range WDRules {
			wd, err := WidthDelete(in, pt, Domains(in, ObjectiveMakespan, DomainStarts), 1, rule, greedyRef(in, DomainStarts))
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
			if err := Feasible(in, r.Schedule, false, DomainStarts); err != nil {
				if soundRule(rule) {
					t.Fatalf("seed %d %s: %v", seed, rule, err)
				}
				continue // the literal start sets let a deleted pair collide
			}
			if ms := Makespan(in, r.Schedule); ms < opt {
				t.Fatalf("seed %d %s: WD makespan %d below the optimum %d", seed, rule, ms, opt)
			}
		}
	}
}
