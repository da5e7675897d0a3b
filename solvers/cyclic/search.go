package cyclic

import (
	"context"
	"math"
	"math/bits"
)

// Search modes: ModeFirstFit is the CSS's first fit; the user criteria
// (CritStart, …) are AEP's.
const ModeFirstFit = "first-fit"

// modeCheapest is backfilling's rule (not a user mode): the earliest
// start whose m cheapest candidates fit the budget, those m.
const modeCheapest = "cheapest"

// costEps absorbs float rounding when a sum of costs is compared with a budget.
const costEps = 1e-9

// searcher holds the scratch space of window searches, reused across calls.
//
// Every eligible node's slots long enough for the job give it a range of
// feasible starts [a, b] (a = the slot's start, b = its end − the job's
// time on the node); the node is a candidate at s iff a ≤ s ≤ b. Runtime,
// finish and cost sweep time once: the ranges' ends go into per-time event
// lists (head for openings, shut for closings, a bit set of the times
// that have any), so the sweep visits
// the event times in order in O(T/64 + events) without sorting, keeping
// the candidate set (in, count, and bit sets by cost and time rank) up to
// date; the m nodes are picked only at slot starts with at least m
// candidates. First fit and start, which want the first window, count the
// candidates per time of a 64-unit step instead (first).
type searcher struct {
	in        []bool // candidate at the start being tried (eligible index)
	slotStart []int  // start of the slot of the node's current range
	count     int
	// byCost and byTime are in again as bit sets over the positions of
	// the request's byCost and byTime orders: the picks walk only set bits.
	byCost, byTime []uint64

	head  []int32  // per time: first range opening, −1 = none (all −1 between sweeps)
	shut  []int32  // per time: first range closing, the same
	ev    []event  // event pool
	bits  []uint64 // times with events (all zero between sweeps)
	words int      // the words of bits the sweep's times fall in

	// the lazy load of a sweep (see load): its cut and bounds, per node
	// its least value and next range, per word the nodes waiting for it
	cutAt                  cutoff
	lo, hi, loaded         int
	least                  []float64
	cursor, wakeNext, wake []int32
	fcur                   []int32 // first: per node the first range not ended before the step

	opened                []int32 // nodes whose ranges opened at the last time applied
	nodes                 []int32 // the nodes (eligible indices) with a range
	own                   []int32 // collect's list when it has no history
	step                  []stepSpan
	cand, sel, heap, best []int

	found []Window // alternatives: every window found, and its job
	owner []int32
	store []Window // the alternatives' storage of the current plan
	ints  []int    // their nodes' and times' storage
}

// stepSpan is node k's range cut to a step of first: [a0, b0] of a slot
// starting at a.
type stepSpan struct{ k, a, a0, b0 int32 }

type event struct {
	k    int32 // eligible index; ^k closes its range
	a    int32 // the slot's start (opens)
	next int32
}

// history is what the earlier searches of one request found, on the same
// domain, which has only shrunk since (FindAlternatives takes windows
// out): no window is now better than best, and only the nodes in live
// (nil: all) may still have a feasible range.
type history struct {
	lbs    lowerBounds
	best   prior
	before float64 // every window starting before best.start is worth at least this
	live   []int32
}

// lowerBounds are a search's bounds over the nodes with a range: the
// cost of the m cheapest (and of their m − 1 cheapest), the longest time
// of the m fastest within the budget; nodes holds both picks.
type lowerBounds struct {
	ok         bool
	cost, rest float64
	run        int
	nodes      []int
}

// prior is a window's value and start.
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
func better(a, b float64) bool { return a < b-costEps*max(1, math.Abs(a), math.Abs(b)) }

// beyond reports whether every window worth at least bound is worse than
// a window of value v (bound +Inf: there is no such window).
func beyond(v, bound float64) bool { return math.IsInf(bound, 1) || better(v, bound) }

func (sr *searcher) reset(d *Domain, r *Request) {
	n := len(r.Eligible)
	// No clearing: every use of in, byCost and byTime starts with clearIn,
	// and slotStart is written before it is read.
	sr.in = grow(sr.in, n)
	sr.slotStart = grow(sr.slotStart, n)
	sr.byCost = grow(sr.byCost, (n+63)/64)
	sr.byTime = grow(sr.byTime, (n+63)/64)
	if len(sr.head) < d.T+2 {
		sr.head, sr.shut = make([]int32, d.T+2), make([]int32, d.T+2)
		for i := range sr.head {
			sr.head[i], sr.shut[i] = -1, -1
		}
		sr.bits = make([]uint64, (d.T+2+63)/64)
	}
}

// grow returns s with length n, its contents undefined.
func grow[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n)
	}
	return s[:n]
}

// push adds event e at time t to its list (e.k < 0: closes).
func (sr *searcher) push(t int, e event) {
	list := sr.head
	if e.k < 0 {
		list = sr.shut
	}
	e.next = list[t]
	list[t] = int32(len(sr.ev))
	sr.ev = append(sr.ev, e)
	sr.bits[t>>6] |= 1 << (t & 63)
}

// load prepares the lazy loading of q's ranges, cut to starts in [lo,
// hi), into the event lists, leaving out those of nodes that cannot be in
// a window beating q.best (as it is now); it reports whether any is left.
// Each node waits in the list of the 64-unit word of its next range's
// opening (wake) until the sweep reaches that word (loadWord): a sweep
// that stops early never loads the ranges after it. The events, and so
// the sweep, are the same as if every range were loaded at once.
func (sr *searcher) load(q *query, lo, hi int) bool {
	sr.ev = sr.ev[:0]
	r := q.r
	sr.cutAt = q.cut(lo)
	sr.lo, sr.hi = lo, hi
	n := len(r.Eligible)
	sr.cursor, sr.wakeNext, sr.least = grow(sr.cursor, n), grow(sr.wakeNext, n), grow(sr.least, n)
	sr.wake = grow(sr.wake, len(sr.bits))
	for w := range sr.wake {
		sr.wake[w] = -1
	}
	sr.loaded = lo>>6 - 1
	any := false
	for _, k := range sr.nodes {
		n := r.Eligible[k]
		var v float64 // the node's least value (finish: add the start)
		if q.mode == CritCost {
			v = r.Cost[n] + q.restCost
		} else {
			v = float64(r.Time[n])
		}
		if q.mode == CritFinish && !sr.cutAt.pass(v+float64(lo)) || q.mode != CritFinish && !sr.cutAt.pass(v) {
			continue // no window with it beats the best (finish: from lo on)
		}
		sr.least[k] = v
		sr.cursor[k] = int32(firstEnding(r.ranges[k].spans, lo))
		any = sr.schedule(q, k) || any
	}
	return any
}

// firstEnding is the index of the first of spans (in time order) that
// ends at t or later, len(spans) if none.
func firstEnding(spans []span, t int) int {
	i, j := 0, len(spans)
	for i < j {
		if h := int(uint(i+j) >> 1); int(spans[h].b) < t {
			i = h + 1
		} else {
			j = h
		}
	}
	return i
}

// schedule puts node k in the wake list of the word where its next range
// (from its cursor on) opens, skipping the ranges that end before lo; it
// reports whether it has one.
func (sr *searcher) schedule(q *query, k int32) bool {
	spans := q.r.ranges[k].spans
	for i := int(sr.cursor[k]); i < len(spans); i++ {
		sp := spans[i]
		if int(sp.a) >= sr.hi {
			return false // spans are in time order
		}
		a0, b0 := max(int(sp.a), sr.lo), min(int(sp.b), sr.hi-1)
		if a0 > b0 {
			continue
		}
		if q.mode == CritFinish && !sr.cutAt.pass(sr.least[k]+float64(a0)) {
			return false // the later spans start later still
		}
		sr.cursor[k] = int32(i)
		w := a0 >> 6
		sr.wakeNext[k] = sr.wake[w]
		sr.wake[w] = k
		return true
	}
	return false
}

// loadWord loads the ranges opening in word w of the nodes waiting for
// it, and puts each node in the wake list of its next range.
func (sr *searcher) loadWord(q *query, w int) {
	k := sr.wake[w]
	sr.wake[w] = -1
	for k >= 0 {
		nk := sr.wakeNext[k]
		spans := q.r.ranges[k].spans
		i := int(sr.cursor[k])
		for ; i < len(spans); i++ {
			sp := spans[i]
			a0, b0 := max(int(sp.a), sr.lo), min(int(sp.b), sr.hi-1)
			if a0>>6 != w || int(sp.a) >= sr.hi || a0 > b0 {
				break
			}
			if q.mode == CritFinish && !sr.cutAt.pass(sr.least[k]+float64(a0)) {
				i = len(spans) // the later spans start later still
				break
			}
			sr.push(a0, event{k: k, a: sp.a})
			sr.push(b0+1, event{k: ^k})
		}
		sr.cursor[k] = int32(i)
		sr.schedule(q, k)
		k = nk
	}
}

// nextLoaded returns the next event time at or after t (−1 if none),
// clearing its bit; the words it reaches are loaded first (q nil: none).
func (sr *searcher) nextLoaded(q *query, t int) int {
	for w := t >> 6; w < sr.words; w++ {
		if q != nil && w > sr.loaded {
			sr.loadWord(q, w)
			sr.loaded = w
		}
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

func (sr *searcher) drain(t int) {
	for ; t >= 0; t = sr.nextLoaded(nil, t) {
		sr.head[t], sr.shut[t] = -1, -1
	}
}

// apply processes the events at time t (closes first); the nodes whose
// ranges open there are left in sr.opened.
func (sr *searcher) apply(r *Request, t int) {
	sr.opened = sr.opened[:0]
	for i := sr.shut[t]; i >= 0; i = sr.ev[i].next {
		sr.remove(r, int(^sr.ev[i].k))
	}
	for i := sr.head[t]; i >= 0; i = sr.ev[i].next {
		e := sr.ev[i]
		sr.add(r, int(e.k))
		sr.slotStart[e.k] = int(e.a)
		sr.opened = append(sr.opened, e.k)
	}
	sr.head[t], sr.shut[t] = -1, -1
}

// query is one search: the request, its mode, the bounds that stop it
// and the best window so far.
type query struct {
	r        *Request
	mode     string
	bound    float64 // a window this good ends the search (of the phase)
	lbRun    float64 // the least runtime any window can have
	restCost float64 // the least cost of m − 1 nodes
	best     prior

	// Lower bounds for skipping a later search's second phase: every
	// window starting before the phase's lo is worth at least earlier;
	// every window starting before best.start at least before (see sweep).
	earlier, before float64
	seen            float64 // the sweep's least value so far, its load's cut included
}

// setBest makes the window of value v at t (picked in pick) the best: the
// windows before it are worth at least the least seen before t.
func (sr *searcher) setBest(q *query, v float64, t int, pick []int) {
	q.best = prior{true, v, t}
	q.before = min(q.earlier, q.seen)
	sr.best = append(sr.best[:0], pick...)
}

// beats reports whether a window of value v at start t beats q.best:
// better, or as good and earlier.
func (q *query) beats(v float64, t int) bool {
	return !q.best.ok || better(v, q.best.value) || (t < q.best.start && !better(q.best.value, v))
}

// useful reports whether node n could be in a window at start t (or later,
// for finish: later only finishes later) that beats q.best: for cost, its
// cost plus the least cost of m − 1 others; for runtime, its time; for
// finish, t plus its time. It may pass a node that cannot (tolerance),
// never miss one that can.
func (q *query) useful(n, t int) bool {
	c := q.cut(t)
	switch q.mode {
	case CritCost:
		return c.pass(q.r.Cost[n] + q.restCost)
	case CritFinish:
		return c.pass(float64(t + q.r.Time[n]))
	}
	return c.pass(float64(q.r.Time[n])) // runtime
}

// cutoff passes the values that may beat the best at starts from t on.
type cutoff struct {
	all  bool // no best yet: everything
	incl bool // ties pass (t before best's start)
	thr  float64
}

func (q *query) cut(t int) cutoff {
	if !q.best.ok {
		return cutoff{all: true}
	}
	if t < q.best.start {
		// as good as best within the tolerance of better, with room
		return cutoff{incl: true, thr: q.best.value + 2*costEps*max(1, math.Abs(q.best.value))}
	}
	return cutoff{thr: q.best.value} // better passes v < best − tolerance
}

func (c cutoff) pass(v float64) bool { return c.all || v < c.thr || (c.incl && v <= c.thr) }

// sweep tries the slot starts in [lo, hi) in order for runtime, finish or
// cost, keeping the best window in q.best, and reports whether the phase
// is done: a window as good as q.bound, or for finish a time past which no
// window finishes early enough.
//
// A start is tried only if a node whose range opens there is useful.
// Otherwise every window beating q.best at t would use nodes all open at
// an earlier tried start t′ (the last of them to open), where the pick
// was already at least as good, and t′ < t. lo opens every range across
// it: trying it is harmless, as a window there is feasible, and no worse,
// at the latest start of its slots.
//
// Along the way it keeps q.seen, the least value of a window at the
// starts swept so far: the picks tried and, for the rest, the best at the
// time (a start not tried, or a node not loaded, gives no window better
// than the best or than an earlier tried pick). So when the best moves to
// t, every window before t is worth at least min(q.earlier, q.seen).
func (sr *searcher) sweep(q *query, lo, hi int) bool {
	q.seen = math.Inf(1)
	if q.best.ok {
		q.seen = q.best.value // the load leaves out nodes by it
	}
	if !sr.load(q, lo, hi) {
		return false
	}
	sr.words = min(len(sr.bits), hi>>6+1) // events at times ≤ hi
	r := q.r
	r.order()
	sr.clearIn()
	for t := sr.nextLoaded(q, lo); t >= 0; t = sr.nextLoaded(q, t+1) {
		sr.apply(r, t)
		if len(sr.opened) == 0 || sr.count < r.M {
			continue
		}
		if q.best.ok {
			if q.mode == CritFinish && !q.beats(float64(t)+q.lbRun, t) {
				sr.drain(t + 1)
				return true // every later window finishes no earlier
			}
			try := false
			for _, k := range sr.opened {
				if try = q.useful(r.Eligible[k], t); try {
					break
				}
			}
			if !try {
				continue
			}
		}
		pick, v, ok := sr.pickAt(r, q.mode, t)
		if !ok {
			continue
		}
		if q.beats(v, t) {
			sr.setBest(q, v, t, pick)
		}
		q.seen = min(q.seen, v)
		if !better(q.bound, v) {
			sr.drain(t + 1)
			return true
		}
	}
	return false
}

// probe tries start lo alone, the pick among all candidates there, into
// q.best: what the sweep from lo tries first anyway, but known before its
// load, which then leaves out every node that cannot be in a better
// window (see load).
func (sr *searcher) probe(q *query, lo int) {
	r := q.r
	r.order()
	sr.clearIn()
	for _, k := range sr.nodes {
		spans := r.ranges[k].spans
		if i := firstEnding(spans, lo); i < len(spans) && int(spans[i].a) <= lo {
			sr.add(r, int(k))
			sr.slotStart[k] = int(spans[i].a)
		}
	}
	if sr.count < r.M {
		return
	}
	if pick, v, ok := sr.pickAt(r, q.mode, lo); ok {
		q.seen = math.Inf(1) // nothing swept yet: before lo is q.earlier
		sr.setBest(q, v, lo, pick)
	}
}

// phase sweeps the starts in [lo, hi). First fit and start take the first
// window found, mostly near lo: see first.
func (sr *searcher) phase(q *query, lo, hi int) {
	if q.mode != ModeFirstFit && q.mode != CritStart && q.mode != modeCheapest {
		sr.sweep(q, lo, hi)
		return
	}
	sr.fcur = grow(sr.fcur, len(q.r.Eligible))
	for _, k := range sr.nodes {
		sr.fcur[k] = 0
	}
	for lo < hi {
		h := min(hi, lo+64)
		if sr.first(q, lo, h) {
			return
		}
		lo = h
	}
}

// first finds, for first fit and start, the first window in [lo, hi)
// (hi ≤ lo + 64) into q.best. It needs no candidate set until it has a
// start to try: per time of the step the number of candidates (from the
// ranges' ends) and whether a range opens there (a bit of a word), and
// only at a start with m candidates the candidates themselves. lo is
// tried even if no slot starts there, harmlessly: a window there is
// feasible at the latest start of its slots, which an earlier step tried.
func (sr *searcher) first(q *query, lo, hi int) bool {
	r := q.r
	var diff [65]int32
	var opens uint64
	step := sr.step[:0] // the ranges meeting the step
	for _, k := range sr.nodes {
		spans := r.ranges[k].spans
		i := int(sr.fcur[k])
		for i < len(spans) && int(spans[i].b) < lo {
			i++ // ended before the step: before every later step too
		}
		sr.fcur[k] = int32(i)
		for _, sp := range spans[i:] {
			if int(sp.a) >= hi {
				break // spans are in time order
			}
			a0, b0 := max(int(sp.a), lo), min(int(sp.b), hi-1)
			diff[a0-lo]++
			diff[b0+1-lo]--
			opens |= 1 << (a0 - lo)
			step = append(step, stepSpan{k, sp.a, int32(a0), int32(b0)})
		}
	}
	sr.step = step
	count := int32(0)
	for t := lo; t < hi; t++ {
		count += diff[t-lo]
		if opens&(1<<(t-lo)) == 0 || int(count) < r.M {
			continue
		}
		var pick []int
		var v float64
		var ok bool
		if q.mode == ModeFirstFit || q.mode == modeCheapest {
			// The picks straight from the step, without the candidate
			// set: first fit's first m in scan order, and the m cheapest
			// (cheapest's pick, first fit's when its first m exceed the
			// budget).
			within := func(pick []int) bool { return sumCost(r, r.Eligible, pick) <= r.Budget+costEps*max(1, r.Budget) }
			if q.mode == ModeFirstFit {
				pick = sr.cand[:0]
				for _, sp := range step {
					if int(sp.a0) <= t && t <= int(sp.b0) {
						sr.slotStart[sp.k] = int(sp.a)
						pick = sr.keepFirst(pick, r.M, int(sp.k))
					}
				}
				sr.cand = pick
				ok = within(pick)
			}
			if !ok {
				pick = sr.sel[:0]
				for _, sp := range step {
					if int(sp.a0) <= t && t <= int(sp.b0) {
						pick = keepCheapest(r, pick, int(sp.k))
					}
				}
				sr.sel = pick
				ok = within(pick)
			}
			v = float64(t)
		} else {
			r.order()
			sr.clearIn()
			for _, sp := range step {
				if int(sp.a0) <= t && t <= int(sp.b0) {
					sr.add(r, int(sp.k))
					sr.slotStart[sp.k] = int(sp.a)
				}
			}
			pick, v, ok = sr.pickAt(r, q.mode, t)
		}
		if ok {
			q.best = prior{true, v, t}
			sr.best = append(sr.best[:0], pick...)
			return true
		}
	}
	return false
}

// find returns the best window of request r on d's free slots for a
// mode: ModeFirstFit (CSS: the earliest start; the first m candidates in
// scan order, or the m cheapest if those exceed the budget) or a user
// criterion (AEP): CritStart (earliest start), CritRuntime (shortest
// runtime), CritFinish (earliest finish) or CritCost (lowest cost), always
// within the job's budget; among windows equal on the criterion, the
// earliest start, and at one start the pick rule (cost: the m cheapest;
// the others: least longest time, then cheapest). Only starts of slots
// need be tried: moving a window earlier to the latest start among its
// slots keeps it feasible and no worse on any criterion, so AEP is exact.
//
// h, when not nil, holds the earlier searches of r on the same domain,
// which has only shrunk since: no window can now beat their last, so the starts before it need no try
// for first fit and start, and for the other criteria the sweep stops at
// a window as good as it, trying first the starts from its start on.
func (sr *searcher) find(d *Domain, r *Request, mode string, h *history) (Window, bool) {
	el := r.Eligible
	if len(el) < r.M {
		return Window{}, false
	}
	sr.reset(d, r)
	var prev prior
	if h != nil {
		prev = h.best
	}
	first := mode == ModeFirstFit || mode == CritStart // the first window found is the answer
	lo := 0
	if prev.ok && first {
		lo = prev.start // no window starts earlier
	}
	sr.collect(d, r, h, lo)
	if len(sr.nodes) < r.M {
		return Window{}, false
	}
	q := query{r: r, mode: mode}
	lb := 0.0
	if !first {
		lbs, ok := sr.lowerBounds(r, h)
		if !ok {
			return Window{}, false // no m such nodes within the budget
		}
		lbCost, lbRun := lbs.cost, lbs.run
		q.restCost = lbs.rest
		lb = value(mode, 0, lbRun, lbCost) // finish ≥ runtime ≥ lbRun
		q.lbRun = float64(lbRun)
		q.bound, q.earlier = lb, math.Inf(1)
		if prev.ok {
			q.bound = max(q.bound, prev.value)
			lo = prev.start
			q.earlier = h.before
		}
	}
	if !first {
		// The window at lo first: the sweep then loads only the nodes
		// that can beat it, and need not run if it is as good as the bound.
		sr.probe(&q, lo)
	}
	if first || !q.best.ok || better(q.bound, q.best.value) {
		sr.phase(&q, lo, d.T+1)
	}
	if lo > 0 && !first && !(q.best.ok && (!better(prev.value, q.best.value) || beyond(q.best.value, h.before))) {
		// Not as good as prev from its start on: try the starts before it,
		// where every window is worse than prev but may beat the best so
		// far or tie with it earlier; unless all of them are worth at
		// least h.before (prev's search saw to that), which is worse.
		q.bound, q.earlier = lb, math.Inf(1)
		sr.phase(&q, 0, lo)
	}
	if !q.best.ok {
		return Window{}, false
	}
	if h != nil {
		h.best, h.before = q.best, q.before
	}
	return sr.window(r, el, q.best.start, sr.best), true
}

// lowerBounds are the bounds of find over the nodes with a range: the m
// cheapest, the m fastest within the budget; false when no m such nodes
// fit the budget. They are kept in h while their nodes live: a node
// leaving the live set changes neither pick unless in it (and stale bounds
// would still be bounds, only looser).
func (sr *searcher) lowerBounds(r *Request, h *history) (lowerBounds, bool) {
	if h != nil && h.lbs.ok {
		return h.lbs, true
	}
	el := r.Eligible
	var lbs lowerBounds
	r.order()
	sr.clearIn()
	for _, k := range sr.nodes {
		sr.add(r, int(k))
	}
	cheap, ok := sr.cheapestIn(r)
	if !ok {
		return lbs, false
	}
	lbs.cost = sumCost(r, el, cheap)
	lbs.rest = lbs.cost - r.Cost[el[cheap[r.M-1]]] // cheap is in cost order
	fast, _ := sr.fastestIn(r)
	for _, k := range fast {
		lbs.run = max(lbs.run, r.Time[el[k]])
	}
	if h != nil {
		lbs.ok = true
		lbs.nodes = append(append(h.lbs.nodes[:0], cheap...), fast...)
		h.lbs = lbs
	}
	return lbs, true
}

// cheapest is backfilling's window of r: the earliest start in [lo, hi)
// at which the m cheapest candidates (by cost, time, node) fit the budget,
// with those m. Within a backfilling pass lo only rises, so r's cached
// ranges stay valid but for the nodes that changed.
func (sr *searcher) cheapest(d *Domain, r *Request, lo, hi int) (Window, bool) {
	if len(r.Eligible) < r.M {
		return Window{}, false
	}
	if hi == lo+1 && lo <= d.T {
		return sr.cheapestAt(d, r, lo)
	}
	sr.reset(d, r)
	sr.collect(d, r, nil, lo)
	if len(sr.nodes) < r.M {
		return Window{}, false
	}
	q := query{r: r, mode: modeCheapest}
	sr.phase(&q, lo, min(hi, d.T+1))
	if !q.best.ok {
		return Window{}, false
	}
	return makeWindow(r, r.Eligible, q.best.start, sr.best), true
}

// cheapestAt is cheapest for the one start s, in one pass over the
// nodes: each brought up to date and, if a range of it holds s, a
// candidate for the m cheapest.
func (sr *searcher) cheapestAt(d *Domain, r *Request, s int) (Window, bool) {
	pick, count := sr.sel[:0], 0
	for k, n := range r.Eligible {
		nr := &r.ranges[k]
		if nr.ver != d.ver[n] || int(nr.floor) > s {
			nr.update(d, r, n, s)
		}
		if int(nr.last) < s {
			continue
		}
		for _, sp := range nr.spans {
			if int(sp.a) > s {
				break // spans are in time order
			}
			if s <= int(sp.b) {
				pick = keepCheapest(r, pick, k)
				count++
				break
			}
		}
	}
	sr.sel = pick
	if count < r.M || sumCost(r, r.Eligible, pick) > r.Budget+costEps*max(1, r.Budget) {
		return Window{}, false
	}
	return makeWindow(r, r.Eligible, s, pick), true
}

// alternatives is the seed's alternatives search: round after round,
// each job still searching (in batch order) gets one more window by its
// mode, whose slots are then taken out of d, until no job finds one. The
// alternatives are therefore disjoint. On return d holds all of them busy;
// the caller releases them (ReleaseWindow) before committing the choice.
func (sr *searcher) alternatives(ctx context.Context, d *Domain, reqs []*Request, modes []string) ([][]Window, error) {
	count := make([]int, len(reqs))
	done := make([]bool, len(reqs))
	hist := make([]history, len(reqs))
	found, owner := sr.found[:0], sr.owner[:0] // the windows in the order found
	for more := true; more; {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		more = false
		for i, r := range reqs {
			if done[i] {
				continue
			}
			w, ok := sr.find(d, r, modes[i], &hist[i])
			if !ok || count[i] >= maxAlternatives {
				done[i] = true
				continue
			}
			if err := d.OccupyWindow(w); err != nil {
				return nil, err
			}
			found, owner = append(found, w), append(owner, int32(i))
			count[i]++
			more = true
		}
	}
	// Each job's windows, in the order found, next in sr.store (which a
	// planner empties at each Plan: the windows are the plan's).
	n := len(found)
	if cap(sr.store)-len(sr.store) < n {
		sr.store = make([]Window, 0, max(2*cap(sr.store), n, 64)) // the old array stays with its plans
	}
	all := sr.store[len(sr.store) : len(sr.store)+n]
	sr.store = sr.store[:len(sr.store)+n]
	alts := make([][]Window, len(reqs))
	at := 0
	for i, c := range count {
		alts[i] = all[at : at : at+c]
		at += c
	}
	for k, w := range found {
		alts[owner[k]] = append(alts[owner[k]], w)
	}
	clear(found) // no stale node slices kept alive by the scratch
	sr.found, sr.owner = found[:0], owner[:0]
	return alts, nil
}

// maxAlternatives caps one job's alternatives in a cycle (the DP keeps an
// int16 index); the seed has no cap and ours is never reached on its setting.
const maxAlternatives = 30_000
