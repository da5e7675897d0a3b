package dcop

import (
	"context"
	"slices"
	"time"
)

// ExactResult is the centralized optimum for the makespan objective.
type ExactResult struct {
	Schedule Schedule // nil if no feasible schedule was found
	Makespan int
	Proven   bool // optimal: met the lower bound or exhausted the search
	Nodes    int  // search nodes expanded
}

// Exact minimizes the makespan by depth-first branch and bound: jobs in
// order of decreasing (degree, duration), each tried at every feasible start
// from the earliest, pruned when its end would not beat the incumbent. The
// greedy list schedule is the first incumbent. It stops at the time limit
// (≤ 0: none) or when ctx ends, returning the best found with Proven false;
// Proven is true when the incumbent meets LowerBound or the search is
// exhausted.
func Exact(ctx context.Context, in *Instance, limit time.Duration) ExactResult {
	n := len(in.Jobs)
	g := in.ConstraintGraph()
	res := ExactResult{}
	lb := LowerBound(in)
	if gs := Greedy(in); Makespan(in, gs) <= in.Horizon {
		res.Schedule, res.Makespan = gs, Makespan(in, gs)
	} else {
		res.Makespan = in.Horizon + 1 // anything feasible beats this
	}
	if res.Schedule != nil && res.Makespan <= lb {
		res.Proven = true
		return res
	}
	order := make([]int, n)
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int {
		if d := len(g.Adj[b]) - len(g.Adj[a]); d != 0 {
			return d
		}
		return in.Jobs[b].Duration - in.Jobs[a].Duration
	})
	var deadline time.Time
	if limit > 0 {
		deadline = time.Now().Add(limit)
	}
	cur := make(Schedule, n)
	stopped := false
	var rec func(i, ms int)
	rec = func(i, ms int) {
		if stopped {
			return
		}
		res.Nodes++
		if res.Nodes&1023 == 0 && (ctx.Err() != nil || (!deadline.IsZero() && time.Now().After(deadline))) {
			stopped = true
			return
		}
		if i == n {
			res.Schedule, res.Makespan = slices.Clone(cur), ms
			if ms <= lb {
				stopped = true
			}
			return
		}
		x := order[i]
		j := in.Jobs[x]
		for s := 1; s+j.Duration-1 < res.Makespan; s++ {
			ok := true
			for _, y := range g.Adj[x] {
				if cur[y] != 0 && overlap(s, j.Duration, cur[y], in.Jobs[y].Duration) {
					ok = false
					break
				}
			}
			if !ok {
				continue
			}
			cur[x] = s
			rec(i+1, max(ms, s+j.Duration-1))
			cur[x] = 0
			if stopped {
				break
			}
		}
	}
	rec(0, 0)
	if res.Schedule == nil {
		res.Makespan = 0
		res.Proven = !stopped // proven infeasible
		return res
	}
	res.Proven = !stopped || res.Makespan <= lb
	return res
}

// BruteForce enumerates every assignment of starts in 1..T−L+1 (pruning
// only assignments already infeasible) and returns the least makespan and
// the first schedule attaining it in lexicographic order; ok is false when
// none is feasible. For tests on tiny instances.
func BruteForce(in *Instance) (Schedule, int, bool) {
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
		for s := 1; s+j.Duration-1 <= in.Horizon; s++ {
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
