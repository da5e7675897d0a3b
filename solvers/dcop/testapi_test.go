package dcop

import (
	"context"
	"fmt"
	"math/rand"
	"slices"
)

// Generate is GenerateContext without a context, for tests.
func Generate(cfg GenConfig, src *rand.Rand) (*Instance, error) {
	return GenerateContext(context.Background(), cfg, src)
}

// Split is SplitWD without WD, for tests.
func Split(ctx context.Context, in *Instance, opt Options) (*SplitResult, error) {
	return SplitWD(ctx, in, opt, nil)
}

// BruteForce enumerates every assignment of starts in 1..maxStart (pruning
// only assignments already infeasible) and returns the least makespan and
// the first schedule attaining it in lexicographic order; ok is false when
// none is feasible. For tests on tiny instances.
func BruteForce(in *Instance, domain string) (Schedule, int, bool) {
	n := len(in.Jobs)
	g := in.ConstraintGraph()
	cur := make(Schedule, n)
	var best Schedule
	bestMS := 0
	var rec func(x int)
	rec = func(x int) {
		if x == n {
			if ms := Makespan(in, cur); best == nil || ms < bestMS {
				best, bestMS = slices.Clone(cur), ms
			}
			return
		}
		j := in.Jobs[x]
		for s := 1; s <= maxStart(in, x, domain); s++ {
			ok := true
			for _, y := range g.Adj[x] {
				if y < x && overlap(s, j.Duration, cur[y], in.Jobs[y].Duration) {
					ok = false
					break
				}
			}
			if ok {
				cur[x] = s
				rec(x + 1)
			}
		}
		cur[x] = 0
	}
	rec(0)
	return best, bestMS, best != nil
}

// soundRule reports whether a rule's restrictions make every deleted pair
// unable to overlap (all but RuleLiteral).
func soundRule(rule string) bool { return rule != RuleLiteral }

func (r *WDResult) String() string {
	return fmt.Sprintf("WD: width %d → %d, %d back edges deleted", r.WidthBefore, r.WidthAfter, len(r.Deleted))
}

// Shares reports whether jobs a and b need a common resource (both
// Resources lists ascending).
func (in *Instance) Shares(a, b int) bool {
	ra, rb := in.Jobs[a].Resources, in.Jobs[b].Resources
	i, j := 0, 0
	for i < len(ra) && j < len(rb) {
		switch {
		case ra[i] == rb[j]:
			return true
		case ra[i] < rb[j]:
			i++
		default:
			j++
		}
	}
	return false
}

// IsAncestor reports whether a is a proper ancestor of x.
func (t *PseudoTree) IsAncestor(a, x int) bool {
	for p := t.Parent[x]; p != -1; p = t.Parent[p] {
		if p == a {
			return true
		}
	}
	return false
}
