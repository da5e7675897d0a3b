package cyclic

import (
	"context"
	"slices"
)

// Search modes: ModeFirstFit is the CSS's first fit; the user criteria
// (CritStart, …) are AEP's.
const ModeFirstFit = "first-fit"

// costEps absorbs float rounding when a sum of costs is compared with a budget.
const costEps = 1e-9

// searcher holds the scratch space of window searches, reused across calls.
type searcher struct {
	free   [][]Interval
	ptr    []int
	starts []int
	cand   []int
	sel    []int
	heap   []int
	// byCost and byTime are the eligible nodes (indices into Eligible) in
	// the orders cheapest and fastest pick in, sorted once per search;
	// in marks the candidates at the start being tried.
	byCost, byTime []int
	in             []bool
}

// key orders windows for a mode: lexicographically smaller is better.
func key(mode string, w Window) [3]float64 {
	s, r, c := float64(w.Start), float64(w.Runtime()), w.Cost
	switch mode {
	case CritRuntime:
		return [3]float64{r, c, s}
	case CritFinish:
		return [3]float64{s + r, c, s}
	case CritCost:
		return [3]float64{c, r, s}
	}
	return [3]float64{s, r, c} // start, first fit
}

func less(a, b [3]float64) bool {
	for i := range a {
		eps := costEps * max(1, abs(a[i]), abs(b[i]))
		if a[i] < b[i]-eps {
			return true
		}
		if a[i] > b[i]+eps {
			return false
		}
	}
	return false
}

func abs(x float64) float64 {
	if x < 0 {
		return -x
	}
	return x
}

// FindWindow returns the best window of request r on d's free slots for a
// mode: ModeFirstFit (CSS: the earliest start; the first m candidates in
// scan order, or the m cheapest if those exceed the budget) or a user
// criterion (AEP): CritStart (earliest start, then shortest runtime),
// CritRuntime (shortest runtime), CritFinish (earliest finish) or CritCost
// (lowest cost), always within the job's budget. Only starts of slots need
// be tried: moving a window earlier to the latest start among its slots
// keeps it feasible and no worse on any criterion, so AEP is exact.
func FindWindow(d *Domain, r *Request, mode string) (Window, bool) {
	var s searcher
	return s.find(d, r, mode)
}

func (sr *searcher) find(d *Domain, r *Request, mode string) (Window, bool) {
	el := r.Eligible
	if len(el) < r.M {
		return Window{}, false
	}
	// Lower bounds over all eligible nodes, ignoring time.
	all := append(sr.cand[:0], make([]int, len(el))...)
	for k := range el {
		all[k] = k
	}
	sr.cand = all
	if len(r.byCost) != len(el) {
		r.byCost = slices.Clone(all)
		slices.SortFunc(r.byCost, func(a, b int) int { return cmpCostTime(r, el[a], el[b]) })
		r.byTime = slices.Clone(all)
		slices.SortFunc(r.byTime, func(a, b int) int { return cmpTimeCost(r, el[a], el[b]) })
	}
	sr.byCost, sr.byTime = r.byCost, r.byTime
	if cap(sr.in) < len(el) {
		sr.in = make([]bool, len(el))
	}
	sr.in = sr.in[:len(el)]
	for k := range sr.in {
		sr.in[k] = true
	}
	cheap, ok := sr.cheapestIn(r)
	if !ok {
		return Window{}, false // no m eligible nodes within the budget
	}
	lbCost := sumCost(r, el, cheap)
	fast, _ := sr.fastestIn(r)
	lbRun := 0
	for _, k := range fast {
		lbRun = max(lbRun, r.Time[el[k]])
	}

	if cap(sr.free) < len(el) {
		sr.free = make([][]Interval, len(el))
		sr.ptr = make([]int, len(el))
	}
	sr.free, sr.ptr = sr.free[:len(el)], sr.ptr[:len(el)]
	sr.starts = sr.starts[:0]
	for k, n := range el {
		sr.free[k] = d.appendFree(sr.free[k][:0], n)
		sr.ptr[k] = 0
		for _, iv := range sr.free[k] {
			if iv.Len() >= r.Time[n] {
				sr.starts = append(sr.starts, iv.Start)
			}
		}
	}
	slices.Sort(sr.starts)
	starts := slices.Compact(sr.starts)

	var best Window
	var bestKey [3]float64
	found := false
	for _, s := range starts {
		if found {
			switch mode {
			case ModeFirstFit, CritStart:
				return best, true
			case CritFinish:
				if float64(s+lbRun) >= bestKey[0] {
					return best, true
				}
			}
		}
		cand := sr.cand[:0]
		for k, n := range el {
			fl := sr.free[k]
			p := sr.ptr[k]
			for p+1 < len(fl) && fl[p+1].Start <= s {
				p++
			}
			sr.ptr[k] = p
			if len(fl) > 0 && fl[p].Start <= s && fl[p].End >= s+r.Time[n] {
				cand = append(cand, k)
			}
		}
		sr.cand = cand
		if len(cand) < r.M {
			continue
		}
		var pick []int
		if mode != ModeFirstFit {
			clear(sr.in)
			for _, k := range cand {
				sr.in[k] = true
			}
		}
		switch mode {
		case ModeFirstFit:
			// scan order: by the start of the node's slot, then node index
			slices.SortStableFunc(cand, func(a, b int) int { return sr.free[a][sr.ptr[a]].Start - sr.free[b][sr.ptr[b]].Start })
			pick, ok = cand[:r.M], true
			if sumCost(r, el, pick) > r.Budget+costEps*max(1, r.Budget) {
				pick, ok = sr.cheapest(r, cand)
			}
		case CritCost:
			pick, ok = sr.cheapestIn(r)
		default:
			pick, ok = sr.fastestIn(r)
		}
		if !ok {
			continue
		}
		w := makeWindow(r, el, s, pick)
		k := key(mode, w)
		if !found || less(k, bestKey) {
			best, bestKey, found = w, k, true
		}
		if mode == CritCost && w.Cost <= lbCost+costEps*max(1, lbCost) {
			break
		}
		if mode == CritRuntime && w.Runtime() <= lbRun {
			break
		}
	}
	return best, found
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

// cheapest returns the m candidates of lowest cost (ties: shorter time,
// lower node) if their total is within the budget.
func (sr *searcher) cheapest(r *Request, cand []int) ([]int, bool) {
	el := r.Eligible
	sel := append(sr.sel[:0], cand...)
	slices.SortFunc(sel, func(a, b int) int { return cmpCostTime(r, el[a], el[b]) })
	sr.sel = sel
	pick := sel[:r.M]
	if sumCost(r, el, pick) > r.Budget+costEps*max(1, r.Budget) {
		return nil, false
	}
	return pick, true
}

// cheapestIn is cheapest over the candidates marked in sr.in, walking the
// presorted byCost: the same pick without a sort at every start.
func (sr *searcher) cheapestIn(r *Request) ([]int, bool) {
	el := r.Eligible
	pick := sr.sel[:0]
	for _, k := range sr.byCost {
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
	for _, k := range sr.byTime {
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
	for more := true; more; {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		more = false
		for i, r := range reqs {
			if !active[i] {
				continue
			}
			w, ok := sr.find(d, r, modes[i])
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
