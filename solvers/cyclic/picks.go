package cyclic

import (
	"cmp"
	"math/bits"
	"slices"
)

// The pick rules: which m candidates a window at one start takes, per
// mode, and the candidate set they pick from.

// order sorts r's eligible nodes into byCost and byTime (and their ranks)
// the first time a search picks nodes for r: requests that never get as
// far (a backfilling queue at an instant with no room) never pay for it.
func (r *Request) order() {
	n := len(r.Eligible)
	if len(r.byCost) == n {
		return
	}
	// byCost: by cost, time, node; byTime: by time, cost, node. Sorted
	// as keys, not through index indirection.
	r.keys = grow(r.keys, n)
	keys := r.keys
	for k, nd := range r.Eligible {
		keys[k] = orderKey{r.Cost[nd], int32(r.Time[nd]), int32(k)}
	}
	slices.SortFunc(keys, func(a, b orderKey) int {
		return cmp.Or(cmp.Compare(a.cost, b.cost), cmp.Compare(a.tm, b.tm), cmp.Compare(a.k, b.k))
	})
	r.ord, r.ranks = grow(r.ord, 2*n), grow(r.ranks, 2*n)
	r.byCost, r.byTime = r.ord[:n:n], r.ord[n:]
	r.costRank, r.timeRank = r.ranks[:n:n], r.ranks[n:]
	for p, kk := range keys {
		r.byCost[p] = int(kk.k)
		r.costRank[kk.k] = int32(p)
	}
	slices.SortFunc(keys, func(a, b orderKey) int {
		return cmp.Or(cmp.Compare(a.tm, b.tm), cmp.Compare(a.cost, b.cost), cmp.Compare(a.k, b.k))
	})
	for p, kk := range keys {
		r.byTime[p] = int(kk.k)
		r.timeRank[kk.k] = int32(p)
	}
}

// orderKey is an eligible node k's cost and time, sorted by order.
type orderKey struct {
	cost float64
	tm   int32
	k    int32
}

func (sr *searcher) add(r *Request, k int) {
	sr.in[k] = true
	sr.count++
	c, t := r.costRank[k], r.timeRank[k]
	sr.byCost[c>>6] |= 1 << (c & 63)
	sr.byTime[t>>6] |= 1 << (t & 63)
}

func (sr *searcher) remove(r *Request, k int) {
	sr.in[k] = false
	sr.count--
	c, t := r.costRank[k], r.timeRank[k]
	sr.byCost[c>>6] &^= 1 << (c & 63)
	sr.byTime[t>>6] &^= 1 << (t & 63)
}

func (sr *searcher) clearIn() {
	clear(sr.in)
	clear(sr.byCost)
	clear(sr.byTime)
	sr.count = 0
}

// pickAt picks the m nodes at start t among the candidates (sr.in) by
// mode's rule and returns them with the window's value.
func (sr *searcher) pickAt(r *Request, mode string, t int) ([]int, float64, bool) {
	var pick []int
	ok := false
	switch mode {
	case ModeFirstFit:
		pick, ok = sr.firstFit(r)
	case CritCost, modeCheapest:
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

// firstFit is the CSS pick at a start: the candidates in scan order (the
// start of the node's slot, then node index), the first m of them, or the
// m cheapest if those exceed the budget.
func (sr *searcher) firstFit(r *Request) ([]int, bool) {
	pick := sr.cand[:0]
	for k, in := range sr.in {
		if in {
			pick = sr.keepFirst(pick, r.M, k)
		}
	}
	sr.cand = pick
	if sumCost(r, r.Eligible, pick) <= r.Budget+costEps*max(1, r.Budget) {
		return pick, true
	}
	return sr.cheapestIn(r)
}

// keepCheapest adds candidate k to pick, the m cheapest candidates so far
// by (cost, time, node) in that order: the byCost order, without it.
func keepCheapest(r *Request, pick []int, k int) []int {
	el := r.Eligible
	before := func(a, b int) bool {
		ca, cb := r.Cost[el[a]], r.Cost[el[b]]
		if ca != cb {
			return ca < cb
		}
		if ta, tb := r.Time[el[a]], r.Time[el[b]]; ta != tb {
			return ta < tb
		}
		return a < b
	}
	m := r.M
	if len(pick) == m {
		if !before(k, pick[m-1]) {
			return pick
		}
		pick = pick[:m-1]
	}
	i := len(pick)
	for i > 0 && before(k, pick[i-1]) {
		i--
	}
	return slices.Insert(pick, i, k)
}

// keepFirst adds candidate k to pick, the first m candidates so far by
// (slot start, node) in that order; candidates come in node order, so a
// tie keeps the one already there.
func (sr *searcher) keepFirst(pick []int, m, k int) []int {
	if len(pick) == m {
		if sr.slotStart[k] >= sr.slotStart[pick[m-1]] {
			return pick
		}
		pick = pick[:m-1]
	}
	i := len(pick)
	for i > 0 && sr.slotStart[pick[i-1]] > sr.slotStart[k] {
		i--
	}
	return slices.Insert(pick, i, k)
}

func sumCost(r *Request, el, pick []int) float64 {
	s := 0.0
	for _, k := range pick {
		s += r.Cost[el[k]]
	}
	return s
}

func makeWindow(r *Request, el []int, s int, pick []int) Window {
	return fillWindow(r, el, s, pick, make([]int, 2*len(pick)))
}

// window is makeWindow with the nodes and times in sr.ints, which a
// planner empties at each Plan (the windows are the plan's).
func (sr *searcher) window(r *Request, el []int, s int, pick []int) Window {
	n := 2 * len(pick)
	if cap(sr.ints)-len(sr.ints) < n {
		sr.ints = make([]int, 0, max(2*cap(sr.ints), n, 1024)) // the old array stays with its windows
	}
	buf := sr.ints[len(sr.ints) : len(sr.ints)+n : len(sr.ints)+n]
	sr.ints = sr.ints[:len(sr.ints)+n]
	return fillWindow(r, el, s, pick, buf)
}

// fillWindow is the window at s on the picked nodes, in buf (2m long).
func fillWindow(r *Request, el []int, s int, pick []int, buf []int) Window {
	m := len(pick)
	nodes := buf[:m:m]
	for i, k := range pick {
		nodes[i] = el[k]
	}
	slices.Sort(nodes)
	w := Window{Start: s, Nodes: nodes, Times: buf[m:]}
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
walk:
	for w, x := range sr.byCost {
		for ; x != 0; x &= x - 1 {
			pick = append(pick, r.byCost[w<<6+bits.TrailingZeros64(x)])
			if len(pick) == r.M {
				break walk
			}
		}
	}
	sr.sel = pick
	if len(pick) < r.M || sumCost(r, el, pick) > r.Budget+costEps*max(1, r.Budget) {
		return nil, false
	}
	return pick, true
}

// fastestIn returns m candidates (those marked in sr.in) whose longest
// time is the least possible within the budget: candidates by time (the
// presorted byTime); at each prefix the m cheapest of it; the first prefix
// whose m cheapest fit the budget is optimal (an earlier optimum would have
// fitted at an earlier prefix).
func (sr *searcher) fastestIn(r *Request) ([]int, bool) {
	el := r.Eligible
	h := sr.heap[:0] // the m cheapest so far, sorted by cost
	for w, x := range sr.byTime {
		for ; x != 0; x &= x - 1 {
			k := r.byTime[w<<6+bits.TrailingZeros64(x)]
			// insert k by cost rank (the byCost order), keeping m
			i, ck := len(h), r.costRank[k]
			for i > 0 && r.costRank[h[i-1]] > ck {
				i--
			}
			if i == r.M {
				continue // costlier than the m kept
			}
			if len(h) == r.M {
				h = h[:r.M-1]
			}
			h = slices.Insert(h, i, k)
			if len(h) == r.M && sumCost(r, el, h) <= r.Budget+costEps*max(1, r.Budget) {
				sr.heap = h
				return h, true
			}
		}
	}
	sr.heap = h
	return nil, false
}
