package dcop

import (
	"cmp"
	"context"
	"math/bits"
	"slices"
	"time"
)

// ExactResult is the centralized optimum for the makespan objective.
type ExactResult struct {
	Schedule Schedule // nil if no feasible schedule was found
	Makespan int
	Proven   bool // optimal (or proven infeasible when Schedule is nil)
	Nodes    int  // search nodes expanded
	Bound    int  // the lower bound the search started from (LowerBound)
}

// maxCSPWords bounds the bitset domains of the decision search (jobs ×
// ⌈T/64⌉ words, 32 MiB); past it Exact falls back to the plain branch and
// bound.
const maxCSPWords = 1 << 22

// Exact minimizes the makespan under the domain reading (DomainStarts or
// DomainFit). It starts from LowerBound and decides, for M = bound, bound+1,
// ..., whether every job fits with makespan ≤ M: a backtracking search
// with forward checking over bitset domains of starts (a placed job removes
// the overlapping starts of its unplaced neighbours; the unplaced job with
// the fewest starts goes next, ties to more neighbours, then the lower
// index; starts ascending). The first M that is feasible is the optimum,
// proven because every smaller M was refuted. The greedy list schedule,
// when it lies inside the domains, is the incumbent that ends the ladder.
// It stops at the time limit (≤ 0: none) or when ctx ends, returning the
// best found with Proven false. Tests cross-check it by brute force.
func Exact(ctx context.Context, in *Instance, domain string, limit time.Duration) ExactResult {
	n := len(in.Jobs)
	lb := LowerBound(in)
	res := ExactResult{Bound: lb}
	top := lastEnd(in, domain)
	ub := top + 1
	if gs := Greedy(in); Feasible(in, gs, false, domain) == nil {
		res.Schedule, res.Makespan, ub = gs, Makespan(in, gs), Makespan(in, gs)
	}
	if n*((top+63)/64) > maxCSPWords {
		return exactDFS(ctx, in, domain, deadlineOf(limit), res)
	}
	d := newDecider(ctx, in, domain, deadlineOf(limit))
	for m := lb; m < ub; m++ {
		sched, ok, stopped := d.decide(m)
		res.Nodes = d.nodes
		if stopped {
			return res // best found, not proven
		}
		if ok {
			res.Schedule, res.Makespan, res.Proven = sched, Makespan(in, sched), true
			return res
		}
	}
	res.Proven = true // the greedy schedule is optimal, or nothing is feasible
	if res.Schedule == nil {
		res.Makespan = 0
	}
	return res
}

// HasSchedule decides whether in has a schedule of every job with starts
// in the domain reading: the greedy list schedule when it lies inside the
// domains, refuted at once when LowerBound exceeds the last possible end,
// else the decision search with makespan ≤ that last end. decided is false
// when the time limit or ctx stopped it first (or the bitset domains
// would be too large).
func HasSchedule(ctx context.Context, in *Instance, domain string, limit time.Duration) (ok, decided bool) {
	if Feasible(in, Greedy(in), false, domain) == nil {
		return true, true
	}
	top := lastEnd(in, domain)
	if LowerBound(in) > top {
		return false, true
	}
	if len(in.Jobs)*((top+63)/64) > maxCSPWords {
		return false, false
	}
	_, ok, stopped := newDecider(ctx, in, domain, deadlineOf(limit)).decide(top)
	return ok, !stopped
}

// lastEnd is the largest end any schedule can have under the domain
// reading.
func lastEnd(in *Instance, domain string) int {
	top := 0
	for k := range in.Jobs {
		top = max(top, maxStart(in, k, domain)+in.Jobs[k].Duration-1)
	}
	return top
}

// deadlineOf is now + limit (zero: no limit when limit ≤ 0).
func deadlineOf(limit time.Duration) time.Time {
	if limit <= 0 {
		return time.Time{}
	}
	return time.Now().Add(limit)
}

// decider answers "is there a schedule with makespan ≤ M?" by
// backtracking with forward checking.
type decider struct {
	ctx      context.Context
	in       *Instance
	g        *Graph
	domain   string
	deadline time.Time
	nodes    int
	stopped  bool
	dom      [][]uint64 // dom[k]: bit s−1 set when start s is still possible
	cnt      []int      // starts left per job
	cur      Schedule
	trail    []trailEntry
}

type trailEntry struct {
	job, word int
	old       uint64
}

func newDecider(ctx context.Context, in *Instance, domain string, deadline time.Time) *decider {
	return &decider{ctx: ctx, in: in, g: in.ConstraintGraph(), domain: domain, deadline: deadline}
}

// decide returns a schedule of makespan ≤ m (ok), or ok false when none
// exists; stopped when the time limit or ctx ended the search first.
func (d *decider) decide(m int) (Schedule, bool, bool) {
	in := d.in
	n := len(in.Jobs)
	words := (m + 63) / 64
	d.dom = make([][]uint64, n)
	d.cnt = make([]int, n)
	d.cur = make(Schedule, n)
	d.trail = d.trail[:0]
	for k, j := range in.Jobs {
		last := min(maxStart(in, k, d.domain), m-j.Duration+1)
		d.dom[k] = make([]uint64, words)
		for s := 1; s <= last; s++ {
			d.dom[k][(s-1)/64] |= 1 << uint((s-1)%64)
		}
		d.cnt[k] = max(last, 0)
		if d.cnt[k] == 0 {
			return nil, false, false
		}
	}
	ok := d.search(0)
	if d.stopped {
		return nil, false, true
	}
	if !ok {
		return nil, false, false
	}
	return slices.Clone(d.cur), true, false
}

// search places the remaining n − placed jobs.
func (d *decider) search(placed int) bool {
	d.nodes++
	if d.nodes&1023 == 0 && (d.ctx.Err() != nil || (!d.deadline.IsZero() && time.Now().After(d.deadline))) {
		d.stopped = true
	}
	if d.stopped {
		return false
	}
	in := d.in
	if placed == len(in.Jobs) {
		return true
	}
	x := -1
	for k := range in.Jobs {
		if d.cur[k] != 0 {
			continue
		}
		if x == -1 || d.cnt[k] < d.cnt[x] || (d.cnt[k] == d.cnt[x] && len(d.g.Adj[k]) > len(d.g.Adj[x])) {
			x = k
		}
	}
	lx := in.Jobs[x].Duration
	for w, word := range d.dom[x] {
		for word != 0 {
			b := bits.TrailingZeros64(word)
			word &^= 1 << uint(b)
			s := w*64 + b + 1
			mark := len(d.trail)
			d.cur[x] = s
			if d.forward(x, s, lx) && d.search(placed+1) {
				return true
			}
			d.cur[x] = 0
			d.undo(mark)
			if d.stopped {
				return false
			}
		}
	}
	return false
}

// forward removes from every unplaced neighbour y of x the starts that
// overlap x at s (s−L_y+1 .. s+L_x−1); false when one is left empty.
func (d *decider) forward(x, s, lx int) bool {
	for _, y := range d.g.Adj[x] {
		if d.cur[y] != 0 {
			continue
		}
		lo, hi := max(1, s-d.in.Jobs[y].Duration+1), s+lx-1
		dy := d.dom[y]
		for t := lo; t <= hi && (t-1)/64 < len(dy); {
			w := (t - 1) / 64
			from := uint((t - 1) % 64)
			to := min(uint(63), uint(hi-1-w*64))
			mask := (^uint64(0) >> (63 - to)) &^ (1<<from - 1)
			if old := dy[w]; old&mask != 0 {
				d.trail = append(d.trail, trailEntry{y, w, old})
				dy[w] = old &^ mask
				d.cnt[y] -= bits.OnesCount64(old & mask)
			}
			t = (w+1)*64 + 1
		}
		if d.cnt[y] == 0 {
			return false
		}
	}
	return true
}

// undo restores the domains changed since the trail had mark entries.
func (d *decider) undo(mark int) {
	for i := len(d.trail) - 1; i >= mark; i-- {
		e := d.trail[i]
		d.cnt[e.job] += bits.OnesCount64(e.old) - bits.OnesCount64(d.dom[e.job][e.word])
		d.dom[e.job][e.word] = e.old
	}
	d.trail = d.trail[:mark]
}

// exactDFS is the plain depth-first branch and bound for instances whose
// bitset domains would be too large: jobs by decreasing (degree, duration),
// each at every start from the earliest, pruned when its end would not
// beat the incumbent res.
func exactDFS(ctx context.Context, in *Instance, domain string, deadline time.Time, res ExactResult) ExactResult {
	n := len(in.Jobs)
	g := in.ConstraintGraph()
	lb := res.Bound
	if res.Schedule != nil && res.Makespan <= lb {
		res.Proven = true
		return res
	}
	if res.Schedule == nil {
		for k := range in.Jobs {
			res.Makespan = max(res.Makespan, maxStart(in, k, domain)+in.Jobs[k].Duration)
		}
	}
	order := rangeFrom(0, n)
	slices.SortStableFunc(order, func(a, b int) int {
		return cmp.Or(len(g.Adj[b])-len(g.Adj[a]), in.Jobs[b].Duration-in.Jobs[a].Duration)
	})
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
		for s := 1; s <= maxStart(in, x, domain) && s+j.Duration-1 < res.Makespan; s++ {
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
