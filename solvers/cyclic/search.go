package cyclic

import (
	"context"
	"math/bits"
	"slices"
)

// Search modes: ModeFirstFit is the CSS's first fit; the user criteria
// (CritStart, …) are AEP's.
const ModeFirstFit = "first-fit"

// costEps absorbs float rounding when a sum of costs is compared with a budget.
const costEps = 1e-9

// FindWindow returns the best window of request r on d's free slots for a
// mode: ModeFirstFit (CSS: the earliest start; the first m candidates in
// scan order, or the m cheapest if those exceed the budget) or a user
// criterion (AEP): CritStart (earliest start), CritRuntime (shortest
// runtime), CritFinish (earliest finish) or CritCost (lowest cost), always
// within the job's budget; among windows equal on the criterion, the
// earliest start, and at one start the pick rule (cost: the m cheapest;
// the others: least longest time, then cheapest). Only starts of slots
// need be tried: moving a window earlier to the latest start among its
// slots keeps it feasible and no worse on any criterion, so AEP is exact.
func FindWindow(d *Domain, r *Request, mode string) (Window, bool) {
	var s searcher
	return s.find(d, r, mode, nil)
}

// searcher holds the scratch space of window searches, reused across calls.
//
// A search sweeps time once. Every eligible node's slots long enough for
// the job give it a range of feasible starts [a, b] (a = the slot's start,
// b = its end − the job's time on the node); the node is a candidate at s
// iff a ≤ s ≤ b. The range's ends go into per-time event lists (head, a
// bit set of the times that have any), so the sweep visits the event times
// in order in O(T/64 + events) without sorting, keeping the candidate set
// (in, count) up to date; the m nodes are picked only at slot starts with
// at least m candidates.
type searcher struct {
	in        []bool // candidate at the start being tried (eligible index)
	has       []bool // has a feasible range at all
	slotStart []int  // start of the slot of the node's current range
	count     int

	head []int32  // per time: first event, −1 = none (all −1 between sweeps)
	ev   []event  // event pool
	bits []uint64 // times with events (all zero between sweeps)

	opened                []int32 // nodes whose ranges opened at the last time applied
	cand, sel, heap, best []int
}

// span is a range of feasible starts [a, b] in one slot (a is the slot's
// start).
type span struct{ a, b int32 }

// nodeRanges are a request's spans on one node, as of the node's version.
type nodeRanges struct {
	ver   uint64
	spans []span
}

type event struct {
	k    int32 // eligible index; ^k closes its range
	a    int32 // the slot's start (opens)
	next int32
}

// prior is what an earlier search of the same request on the same, since
// only shrunk, domain found: no window is now better than it.
type prior struct {
	ok    bool
	value float64 // the criterion's value
	start int
}

// value is a window's value on the criterion of mode (lower is better).
func value(mode string, start, runtime int, cost float64) float64 {
	switch mode {
	case CritRuntime:
		return float64(runtime)
	case CritFinish:
		return float64(start + runtime)
	case CritCost:
		return cost
	}
	return float64(start) // CritStart, ModeFirstFit
}

// better reports whether criterion value a beats b (costs compare with a
// relative tolerance, integers exactly).
func better(a, b float64) bool { return a < b-costEps*max(1, abs(a), abs(b)) }

func abs(x float64) float64 {
	if x < 0 {
		return -x
	}
	return x
}

func (sr *searcher) reset(d *Domain, r *Request) {
	n := len(r.Eligible)
	sr.in = resize(sr.in, n)
	sr.has = resize(sr.has, n)
	sr.slotStart = resize(sr.slotStart, n)
	if len(sr.head) < d.T+2 {
		sr.head = make([]int32, d.T+2)
		for i := range sr.head {
			sr.head[i] = -1
		}
		sr.bits = make([]uint64, (d.T+2+63)/64)
	}
	if len(r.byCost) != n {
		all := make([]int, n)
		for k := range all {
			all[k] = k
		}
		el := r.Eligible
		r.byCost = slices.Clone(all)
		slices.SortFunc(r.byCost, func(a, b int) int { return cmpCostTime(r, el[a], el[b]) })
		r.byTime = all
		slices.SortFunc(r.byTime, func(a, b int) int { return cmpTimeCost(r, el[a], el[b]) })
	}
}

func resize[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n)
	}
	s = s[:n]
	clear(s)
	return s
}

func (sr *searcher) push(t int, e event) {
	e.next = sr.head[t]
	sr.head[t] = int32(len(sr.ev))
	sr.ev = append(sr.ev, e)
	sr.bits[t>>6] |= 1 << (t & 63)
}

// collect brings r's feasible ranges up to date with d (recomputing only
// the nodes whose busy intervals changed since) and marks in has the nodes
// with one.
func (sr *searcher) collect(d *Domain, r *Request) {
	if len(r.ranges) != len(r.Eligible) {
		r.ranges = make([]nodeRanges, len(r.Eligible))
	}
	for k, n := range r.Eligible {
		nr := &r.ranges[k]
		if nr.ver != d.ver[n] {
			nr.ver = d.ver[n]
			nr.spans = nr.spans[:0]
			t := r.Time[n]
			at := 0
			for _, iv := range d.busy[n] {
				if iv.Start-t >= at {
					nr.spans = append(nr.spans, span{int32(at), int32(iv.Start - t)})
				}
				at = max(at, iv.End)
			}
			if d.T-t >= at {
				nr.spans = append(nr.spans, span{int32(at), int32(d.T - t)})
			}
		}
		sr.has[k] = len(nr.spans) > 0
	}
}

// load puts r's ranges, cut to starts in [lo, hi), into the event lists;
// it reports whether any falls there.
func (sr *searcher) load(r *Request, lo, hi int) bool {
	sr.ev = sr.ev[:0]
	for k := range r.ranges {
		for _, sp := range r.ranges[k].spans {
			a0, b0 := max(int(sp.a), lo), min(int(sp.b), hi-1)
			if a0 > b0 {
				continue
			}
			sr.push(a0, event{k: int32(k), a: sp.a})
			sr.push(b0+1, event{k: ^int32(k)})
		}
	}
	return len(sr.ev) > 0
}

// next returns the next event time at or after t (−1 if none), clearing
// its bit.
func (sr *searcher) next(t int) int {
	for w := t >> 6; w < len(sr.bits); w++ {
		x := sr.bits[w]
		if w == t>>6 {
			x &^= (1 << (t & 63)) - 1
		}
		if x != 0 {
			s := w<<6 + bits.TrailingZeros64(x)
			sr.bits[w] &^= 1 << (s & 63)
			return s
		}
	}
	return -1
}

// drain clears the event lists of a sweep stopped early.
func (sr *searcher) drain(t int) {
	for ; t >= 0; t = sr.next(t) {
		sr.head[t] = -1
	}
}

// apply processes the events at time t (closes first); the nodes whose
// ranges open there are left in sr.opened.
func (sr *searcher) apply(t int) {
	sr.opened = sr.opened[:0]
	for i := sr.head[t]; i >= 0; i = sr.ev[i].next {
		if e := sr.ev[i]; e.k < 0 {
			sr.in[^e.k] = false
			sr.count--
		}
	}
	for i := sr.head[t]; i >= 0; i = sr.ev[i].next {
		if e := sr.ev[i]; e.k >= 0 {
			sr.in[e.k] = true
			sr.slotStart[e.k] = int(e.a)
			sr.count++
			sr.opened = append(sr.opened, e.k)
		}
	}
	sr.head[t] = -1
}

// sweep tries the slot starts in [lo, hi) in order and keeps the best window
// (value, start) into *best; it stops early at a window whose value reaches
// bound (no window can beat it) or, for first fit and start, at the first
// window found.
//
// A start is tried only if a node whose range opens there could be part of
// a window better than best (cost: its cost plus restCost, the least cost
// of m − 1 other nodes, below best; runtime: its time below best; finish:
// start plus its time below best). Otherwise every better window at t
// would use nodes all open at an earlier tried start t′ (the last of
// them to open), where the pick was already at least as good, and t′ < t.
func (sr *searcher) sweep(r *Request, mode string, lo, hi int, bound, lbRun, restCost float64, best *prior) {
	if !sr.load(r, lo, hi) {
		return
	}
	clear(sr.in)
	sr.count = 0
	el := r.Eligible
	for t := sr.next(lo); t >= 0; t = sr.next(t + 1) {
		sr.apply(t)
		if len(sr.opened) == 0 || sr.count < r.M {
			continue
		}
		if best.ok {
			// Below best's start (it was found by the sweep after this
			// one), a window equal to best also beats it.
			beats := func(v float64) bool {
				return better(v, best.value) || (t < best.start && !better(best.value, v))
			}
			if mode == CritFinish && !beats(float64(t)+lbRun) {
				sr.drain(t + 1)
				return // every later window finishes no earlier
			}
			try := false
			for _, k := range sr.opened {
				n := el[k]
				switch mode {
				case CritCost:
					try = beats(r.Cost[n] + restCost)
				case CritRuntime:
					try = beats(float64(r.Time[n]))
				case CritFinish:
					try = beats(float64(t + r.Time[n]))
				default:
					try = true
				}
				if try {
					break
				}
			}
			if !try {
				continue
			}
		}
		pick, v, ok := sr.pickAt(r, mode, t)
		if !ok {
			continue
		}
		if !best.ok || better(v, best.value) || (!better(best.value, v) && t < best.start) {
			*best = prior{true, v, t}
			sr.best = append(sr.best[:0], pick...)
		}
		if mode == ModeFirstFit || mode == CritStart || !better(bound, v) {
			sr.drain(t + 1)
			return
		}
	}
}

// pickAt picks the m nodes at start t among the candidates (sr.in) by
// mode's rule and returns them with the window's value.
func (sr *searcher) pickAt(r *Request, mode string, t int) ([]int, float64, bool) {
	var pick []int
	ok := false
	switch mode {
	case ModeFirstFit:
		pick, ok = sr.firstFit(r)
	case CritCost:
		pick, ok = sr.cheapestIn(r)
	default:
		pick, ok = sr.fastestIn(r)
	}
	if !ok {
		return nil, 0, false
	}
	run := 0
	for _, k := range pick {
		run = max(run, r.Time[r.Eligible[k]])
	}
	return pick, value(mode, t, run, sumCost(r, r.Eligible, pick)), true
}

// find searches r's best window on d for mode. prev, when not nil, is the
// previous search of r on the same domain, which has only shrunk since:
// no window can now beat it, so the starts before it need no try for
// first fit and start, and for the other criteria the sweep stops at a
// window as good as it, trying first the starts from its start on.
func (sr *searcher) find(d *Domain, r *Request, mode string, prev *prior) (Window, bool) {
	el := r.Eligible
	if len(el) < r.M {
		return Window{}, false
	}
	sr.reset(d, r)
	// Lower bounds over the nodes with a long enough slot anywhere.
	sr.collect(d, r)
	copy(sr.in, sr.has)
	cheap, ok := sr.cheapestIn(r)
	if !ok {
		return Window{}, false // no m such nodes within the budget
	}
	lbCost := sumCost(r, el, cheap)
	restCost := lbCost - r.Cost[el[cheap[r.M-1]]] // cheap is in cost order
	fast, _ := sr.fastestIn(r)
	lbRun := 0
	for _, k := range fast {
		lbRun = max(lbRun, r.Time[el[k]])
	}
	lb := value(mode, 0, lbRun, lbCost) // finish ≥ runtime ≥ lbRun
	bound := lb

	var best prior
	lo := 0
	if prev != nil && prev.ok {
		bound = max(bound, prev.value)
		lo = prev.start
	}
	sr.sweep(r, mode, lo, d.T+1, bound, float64(lbRun), restCost, &best)
	if lo > 0 && mode != ModeFirstFit && mode != CritStart && !(best.ok && !better(prev.value, best.value)) {
		// Not as good as prev from its start on: try the starts before it,
		// where every window is worse than prev but may beat best or tie
		// with it earlier.
		sr.sweep(r, mode, 0, lo, lb, float64(lbRun), restCost, &best)
	}
	if !best.ok {
		return Window{}, false
	}
	if prev != nil {
		*prev = best
	}
	return makeWindow(r, el, best.start, sr.best), true
}

// firstFit is the CSS pick at a start: the candidates in scan order (the
// start of the node's slot, then node index), the first m of them, or the
// m cheapest if those exceed the budget.
func (sr *searcher) firstFit(r *Request) ([]int, bool) {
	el := r.Eligible
	cand := sr.cand[:0]
	for k, in := range sr.in {
		if in {
			cand = append(cand, k)
		}
	}
	sr.cand = cand
	slices.SortStableFunc(cand, func(a, b int) int { return sr.slotStart[a] - sr.slotStart[b] })
	pick := cand[:r.M]
	if sumCost(r, el, pick) <= r.Budget+costEps*max(1, r.Budget) {
		return pick, true
	}
	return sr.cheapestIn(r)
}

func sumCost(r *Request, el, pick []int) float64 {
	s := 0.0
	for _, k := range pick {
		s += r.Cost[el[k]]
	}
	return s
}

func makeWindow(r *Request, el []int, s int, pick []int) Window {
	nodes := make([]int, len(pick))
	for i, k := range pick {
		nodes[i] = el[k]
	}
	slices.Sort(nodes)
	w := Window{Start: s, Nodes: nodes, Times: make([]int, len(nodes))}
	for i, n := range nodes {
		w.Times[i] = r.Time[n]
		w.Cost += r.Cost[n]
	}
	return w
}

// cheapestIn is cheapest over the candidates marked in sr.in, walking the
// presorted byCost: the same pick without a sort at every start.
func (sr *searcher) cheapestIn(r *Request) ([]int, bool) {
	el := r.Eligible
	pick := sr.sel[:0]
	for _, k := range r.byCost {
		if sr.in[k] {
			pick = append(pick, k)
			if len(pick) == r.M {
				break
			}
		}
	}
	sr.sel = pick
	if len(pick) < r.M || sumCost(r, el, pick) > r.Budget+costEps*max(1, r.Budget) {
		return nil, false
	}
	return pick, true
}

// cmpTimeCost orders nodes by time, then as cmpCostTime.
func cmpTimeCost(r *Request, a, b int) int {
	if r.Time[a] != r.Time[b] {
		return r.Time[a] - r.Time[b]
	}
	return cmpCostTime(r, a, b)
}

// fastestIn returns m candidates (those marked in sr.in) whose longest
// time is the least possible within the budget: candidates by time (the
// presorted byTime); at each prefix the m cheapest of it; the first prefix
// whose m cheapest fit the budget is optimal (an earlier optimum would have
// fitted at an earlier prefix).
func (sr *searcher) fastestIn(r *Request) ([]int, bool) {
	el := r.Eligible
	h := sr.heap[:0] // the m cheapest so far, sorted by cost
	for _, k := range r.byTime {
		if !sr.in[k] {
			continue
		}
		i, _ := slices.BinarySearchFunc(h, k, func(x, y int) int { return cmpCostTime(r, el[x], el[y]) })
		h = slices.Insert(h, i, k)
		if len(h) > r.M {
			h = h[:len(h)-1]
		}
		if len(h) == r.M && sumCost(r, el, h) <= r.Budget+costEps*max(1, r.Budget) {
			sr.heap = h
			return h, true
		}
	}
	sr.heap = h
	return nil, false
}

func cmpCostTime(r *Request, a, b int) int {
	switch {
	case r.Cost[a] < r.Cost[b]:
		return -1
	case r.Cost[a] > r.Cost[b]:
		return 1
	case r.Time[a] != r.Time[b]:
		return r.Time[a] - r.Time[b]
	}
	return a - b
}

// FindAlternatives is the seed's alternatives search: round after round,
// each job still searching (in batch order) gets one more window by its
// mode, whose slots are then taken out of d, until no job finds one. The
// alternatives are therefore disjoint. On return d holds all of them busy;
// the caller releases them (ReleaseWindow) before committing the choice.
func FindAlternatives(ctx context.Context, d *Domain, reqs []*Request, modes []string) ([][]Window, error) {
	alts := make([][]Window, len(reqs))
	active := make([]bool, len(reqs))
	for i := range active {
		active[i] = true
	}
	var sr searcher
	prev := make([]prior, len(reqs))
	for more := true; more; {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		more = false
		for i, r := range reqs {
			if !active[i] {
				continue
			}
			w, ok := sr.find(d, r, modes[i], &prev[i])
			if !ok || len(alts[i]) >= maxAlternatives {
				active[i] = false
				continue
			}
			if err := d.OccupyWindow(w); err != nil {
				return nil, err
			}
			alts[i] = append(alts[i], w)
			more = true
		}
	}
	return alts, nil
}

// maxAlternatives caps one job's alternatives in a cycle (the DP keeps an
// int16 index); the seed has no cap and ours is never reached on its setting.
const maxAlternatives = 30_000
