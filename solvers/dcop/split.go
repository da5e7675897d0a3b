package dcop

import (
	"context"
	"slices"

	"schedlab/errs"
)

// GreedyIn is the greedy list schedule inside domains: each job at its
// earliest start in dom (ascending) where all its resources are free, the
// jobs in index order, or when that leaves a job without a start, jobs
// with fewer starts first (ties in index order); nil when both fail. With
// full domains it is Greedy whenever Greedy lies inside them. It is the
// reference of RuleGreedyGuided (for a split half with restricted domains
// too).
func GreedyIn(in *Instance, dom [][]int) Schedule {
	order := rangeFrom(0, len(in.Jobs))
	if s := greedyInOrder(in, dom, order); s != nil {
		return s
	}
	slices.SortStableFunc(order, func(a, b int) int { return len(dom[a]) - len(dom[b]) })
	return greedyInOrder(in, dom, order)
}

// greedyInOrder places the jobs in order at their earliest free start in
// dom; nil when one has none.
func greedyInOrder(in *Instance, dom [][]int, order []int) Schedule {
	type span struct{ from, to int }
	busy := make([][]span, len(in.Resources))
	sched := make(Schedule, len(in.Jobs))
	for _, k := range order {
		j := in.Jobs[k]
		for _, s := range dom[k] {
			if s <= 0 {
				continue
			}
			free := true
			for _, r := range j.Resources {
				for _, b := range busy[r] {
					if s <= b.to && b.from <= s+j.Duration-1 {
						free = false
					}
				}
			}
			if free {
				sched[k] = s
				break
			}
		}
		if sched[k] == 0 {
			return nil
		}
		for _, r := range j.Resources {
			busy[r] = append(busy[r], span{sched[k], sched[k] + j.Duration - 1})
		}
	}
	return sched
}

// SplitResult is the problem split (seed Section 3.2): two DPOP runs.
type SplitResult struct {
	Schedule Schedule // whole instance; nil when Feasible is false
	Feasible bool
	Cost     float64 // makespan, or −(total value)
	First    *Result // E1 = the first ⌈k/2⌉ jobs
	Second   *Result // E2 = the rest, domains restricted by E1's answer; nil if E1 failed
	EdgesCut int     // constraint edges between E1 and E2
	Deleted  int     // back edges WD deleted inside the halves (SplitOptions.WDRule)
	Stats    Stats   // sums of both halves (MaxMessageBytes: the larger)
}

// HalfWD asks Split to reduce each half whose pseudo-tree is wider than
// Limit with WidthDelete and Rule before its DPOP run (variant
// dpop-split-wd, ours: the seed solves each half with plain DPOP). The
// reproduce uses RuleGreedyGuided with GreedyIn as its reference.
type HalfWD struct {
	Limit int
	Rule  string
}

// SplitWD solves the first ⌈k/2⌉ jobs with DPOP, then removes from the domain
// of every later job j each start that would overlap an earlier job i
// sharing a resource with it (i at t holds t..t+L_i−1, so j keeps starts s
// with s+L_j−1 < t or s > t+L_i−1; the seed's {1..t−1, t+L_i+1, ..}
// fixed: it lets j run into t and drops t+L_i), and solves the rest with DPOP. Resources
// and the time grid are unchanged. opt applies to both halves (its Domains
// and Tree are ignored). An E2 job left without a start makes the result
// infeasible. With hw not nil, each half is reduced by WD first when
// the half's pseudo-tree is wider than hw.Limit. A WD failure is
// returned as its error (errs.Invalid on width_limit).
func SplitWD(ctx context.Context, in *Instance, opt Options, hw *HalfWD) (*SplitResult, error) {
	k := len(in.Jobs)
	h := (k + 1) / 2
	obj := opt.Objective
	if obj == "" {
		obj = ObjectiveMakespan
	}
	domain := opt.Domain
	if domain == "" {
		domain = DomainStarts
	}
	half := func(jobs []Job) *Instance {
		return &Instance{Horizon: in.Horizon, Resources: in.Resources, Jobs: jobs}
	}
	e1, e2 := half(in.Jobs[:h]), half(in.Jobs[h:])
	res := &SplitResult{EdgesCut: splitCut(in)}
	g := in.ConstraintGraph()
	o1 := opt
	o1.Domains, o1.Tree = nil, nil
	solveHalf := func(half *Instance, o Options) (*Result, error) {
		if hw == nil {
			return Solve(ctx, half, o)
		}
		dom := o.Domains
		if dom == nil {
			dom = Domains(half, obj, domain)
		}
		t, err := BuildPseudoTree(half.ConstraintGraph(), o.Heuristic, o.Rand)
		if err != nil {
			return nil, errs.Wrap(errs.Invalid, err)
		}
		if t.Width() > hw.Limit {
			wd, err := WidthDelete(half, t, dom, hw.Limit, hw.Rule, GreedyIn(half, dom))
			if err != nil {
				return nil, err
			}
			t, dom = wd.Tree, wd.Domains
			res.Deleted += len(wd.Deleted)
		}
		o.Tree, o.Domains = t, dom
		return Solve(ctx, half, o)
	}
	r1, err := solveHalf(e1, o1)
	if err != nil {
		return nil, err
	}
	res.First = r1
	res.Stats = r1.Stats
	if !r1.Feasible {
		return res, nil
	}
	res.Feasible = true
	if len(e2.Jobs) == 0 {
		res.Schedule, res.Cost = r1.Schedule, r1.Cost
		return res, nil
	}
	dom := Domains(e2, obj, domain)
	for j := range e2.Jobs {
		lj := e2.Jobs[j].Duration
		for _, i := range g.Adj[h+j] {
			if i >= h || r1.Schedule[i] == 0 {
				continue
			}
			t, li := r1.Schedule[i], in.Jobs[i].Duration
			dom[j] = slices.DeleteFunc(dom[j], func(s int) bool { return overlap(s, lj, t, li) })
		}
		if firstStart(dom[j]) < 0 && obj == ObjectiveMakespan {
			res.Feasible = false
			return res, nil
		}
	}
	o2 := o1
	o2.Domains = dom
	r2, err := solveHalf(e2, o2)
	if err != nil {
		return nil, err
	}
	res.Second = r2
	res.Stats.MessageCycles += r2.Stats.MessageCycles
	res.Stats.Messages += r2.Stats.Messages
	res.Stats.TotalBytes += r2.Stats.TotalBytes
	res.Stats.JoinOps += r2.Stats.JoinOps
	res.Stats.MaxMessageBytes = max(res.Stats.MaxMessageBytes, r2.Stats.MaxMessageBytes)
	if !r2.Feasible {
		res.Feasible = false
		return res, nil
	}
	res.Schedule = append(slices.Clone(r1.Schedule), r2.Schedule...)
	if obj == ObjectiveValue {
		res.Cost = r1.Cost + r2.Cost
	} else {
		res.Cost = max(r1.Cost, r2.Cost)
	}
	return res, nil
}
