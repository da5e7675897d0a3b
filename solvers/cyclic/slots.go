package cyclic

import (
	"fmt"
	"maps"
	"math"
	"slices"
	"sync/atomic"
)

// Interval is the half-open time span [Start, End) in whole time units of
// the planning interval (0 ≤ Start < End ≤ T).
type Interval struct {
	Start, End int
}

// Len is End − Start.
func (iv Interval) Len() int { return iv.End - iv.Start }

// Window is one alternative (the seed's "window"): m slots on distinct nodes
// that start together; on node Nodes[i] it lasts Times[i] = ⌈volume / p⌉
// (a "rough right edge"). Nodes are ascending.
type Window struct {
	Start int
	Nodes []int
	Times []int
	Cost  float64 // Σ price × time
}

// Runtime is the longest of the window's slots.
func (w Window) Runtime() int {
	r := 0
	for _, t := range w.Times {
		r = max(r, t)
	}
	return r
}

// ProcTime is the processor time: Σ of the slot lengths.
func (w Window) ProcTime() int {
	s := 0
	for _, t := range w.Times {
		s += t
	}
	return s
}

// Finish is Start + Runtime.
func (w Window) Finish() int { return w.Start + w.Runtime() }

// Span is the occupied interval on the window's i-th node.
func (w Window) Span(i int) Interval { return Interval{w.Start, w.Start + w.Times[i]} }

// At returns a copy of w moved to start s (nodes, times and cost kept).
func (w Window) At(s int) Window {
	w.Start, w.Nodes, w.Times = s, slices.Clone(w.Nodes), slices.Clone(w.Times)
	return w
}

// Scaled is w with each slot cut to ⌈f × its time⌉ (at least 1): the
// window as run by a job that completes early.
func (w Window) Scaled(f float64) Window {
	c := w.At(w.Start)
	for i, t := range c.Times {
		c.Times[i] = max(1, min(t, int(math.Ceil(f*float64(t)-1e-9))))
	}
	return c
}

// Domain is the slot model of one planning interval [0, T): nodes with a
// performance and a price per time unit, and per node the busy intervals
// (owners' local jobs and committed or tentatively taken windows). The free
// gaps between busy intervals are the slots. It is the core shared by every
// per-cycle planner (first fit, AEP, backfilling).
type Domain struct {
	T     int
	Perf  []float64
	Price []float64
	busy  [][]Interval // per node: sorted by Start, pairwise disjoint
	// ver[n] changes whenever busy[n] does, to a value no other node of
	// any domain has had (a clone shares them while equal): searches cache
	// what they derive from a node's busy intervals under its version.
	ver []uint64
	// pver[n] is node n's version before its last change if that change
	// occupied occ[n] (else 0): a cache of that version can follow the
	// change instead of being rebuilt.
	pver []uint64
	occ  []Interval
	// gone is ReleaseWindows' scratch: per node the intervals to remove.
	gone [][]Interval
	// vnext, vend: the block of versions (vnext, vend] this domain has
	// taken from versions and not used yet.
	vnext, vend uint64
}

// versions numbers the states of domain nodes across all domains; a
// domain takes them in blocks, so that runs in parallel do not contend.
var versions atomic.Uint64

const versionBlock = 1 << 12

// newVersion returns a version no node of any domain has had.
func (d *Domain) newVersion() uint64 {
	if d.vnext == d.vend {
		d.vend = versions.Add(versionBlock)
		d.vnext = d.vend - versionBlock
	}
	d.vnext++
	return d.vnext
}

func (d *Domain) setBusy(n int, b []Interval) {
	d.busy[n] = b
	d.ver[n] = d.newVersion()
	d.pver[n] = 0
}

// NewDomain returns an empty domain over [0, T) for nodes of the given
// performances and prices.
func NewDomain(T int, perf, price []float64) *Domain {
	N := len(perf)
	d := &Domain{T: T, Perf: perf, Price: price, busy: make([][]Interval, N), ver: make([]uint64, N), pver: make([]uint64, N), occ: make([]Interval, N)}
	for n := range d.ver {
		d.ver[n] = d.newVersion()
	}
	return d
}

// Nodes is the number of nodes.
func (d *Domain) Nodes() int { return len(d.Perf) }

// Busy returns node n's busy intervals (sorted; do not modify).
func (d *Domain) Busy(n int) []Interval { return d.busy[n] }

// Clone returns an independent copy.
func (d *Domain) Clone() *Domain {
	c := &Domain{T: d.T, Perf: d.Perf, Price: d.Price, busy: make([][]Interval, len(d.busy)),
		ver: slices.Clone(d.ver), pver: slices.Clone(d.pver), occ: slices.Clone(d.occ)}
	for i, b := range d.busy {
		c.busy[i] = slices.Clone(b)
	}
	return c
}

// IsFree reports whether [iv.Start, iv.End) on node n is inside [0, T) and
// overlaps no busy interval.
func (d *Domain) IsFree(n int, iv Interval) bool {
	_, ok := d.freeAt(n, iv)
	return ok
}

// freeAt reports whether iv is free on node n (as IsFree) and the index of
// the first busy interval ending after iv.Start: where iv goes in busy[n].
func (d *Domain) freeAt(n int, iv Interval) (int, bool) {
	if iv.Start < 0 || iv.End > d.T || iv.End <= iv.Start {
		return 0, false
	}
	b := d.busy[n]
	i, j := 0, len(b)
	for i < j {
		if h := int(uint(i+j) >> 1); b[h].End <= iv.Start {
			i = h + 1
		} else {
			j = h
		}
	}
	return i, i == len(b) || b[i].Start >= iv.End
}

// Occupy marks iv busy on node n; it is an error if iv is not free.
func (d *Domain) Occupy(n int, iv Interval) error {
	i, ok := d.freeAt(n, iv)
	if !ok {
		return fmt.Errorf("node %d: [%d, %d) is not free", n, iv.Start, iv.End)
	}
	d.insertBusy(n, i, iv)
	return nil
}

// insertBusy puts the free iv into node n's busy intervals at index i.
func (d *Domain) insertBusy(n, i int, iv Interval) {
	old := d.ver[n]
	d.setBusy(n, slices.Insert(d.busy[n], i, iv))
	d.pver[n], d.occ[n] = old, iv
}

// Release removes the busy interval iv (exactly as occupied) from node n.
func (d *Domain) Release(n int, iv Interval) error {
	b := d.busy[n]
	i, ok := slices.BinarySearchFunc(b, iv.Start, func(x Interval, s int) int { return x.Start - s })
	if !ok || b[i] != iv {
		return fmt.Errorf("node %d: [%d, %d) is not a busy interval", n, iv.Start, iv.End)
	}
	d.setBusy(n, slices.Delete(b, i, i+1))
	return nil
}

// Free returns node n's slots: the gaps of [0, T) between busy intervals.
func (d *Domain) Free(n int) []Interval { return d.appendFree(nil, n) }

func (d *Domain) appendFree(dst []Interval, n int) []Interval {
	at := 0
	for _, b := range d.busy[n] {
		if b.Start > at {
			dst = append(dst, Interval{at, b.Start})
		}
		at = max(at, b.End)
	}
	if at < d.T {
		dst = append(dst, Interval{at, d.T})
	}
	return dst
}

// BusyTime is the total busy time of node n.
func (d *Domain) BusyTime(n int) int {
	s := 0
	for _, b := range d.busy[n] {
		s += b.Len()
	}
	return s
}

// WindowFits reports whether every slot of w is free.
func (d *Domain) WindowFits(w Window) bool { return d.fitsAt(w, w.Start) }

// fitsAt reports whether every slot of w moved to start s is free.
func (d *Domain) fitsAt(w Window, s int) bool {
	for i, n := range w.Nodes {
		if !d.IsFree(n, Interval{s, s + w.Times[i]}) {
			return false
		}
	}
	return true
}

// OccupyWindow marks all of w's slots busy, or none (error) if one is not free.
func (d *Domain) OccupyWindow(w Window) error {
	// Where each slot goes in its node's busy intervals, found once: a
	// window has at most a few dozen nodes, so on the stack.
	var at [32]int
	pos := at[:0]
	if len(w.Nodes) > len(at) {
		pos = make([]int, 0, len(w.Nodes))
	}
	for i, n := range w.Nodes {
		k, ok := d.freeAt(n, w.Span(i))
		if !ok {
			return fmt.Errorf("window at %d on nodes %v does not fit", w.Start, w.Nodes)
		}
		pos = append(pos, k)
	}
	for i, n := range w.Nodes {
		d.insertBusy(n, pos[i], w.Span(i))
	}
	return nil
}

// releaseAlternatives frees the slots of every window of alts, which hold
// distinct busy intervals (FindAlternatives' windows): the same as
// ReleaseWindow on each, in one pass over each node's busy intervals
// instead of one deletion a slot.
func (d *Domain) releaseAlternatives(alts [][]Window) error {
	if d.gone == nil {
		d.gone = make([][]Interval, len(d.busy))
	}
	var touched []int
	for _, ws := range alts {
		for _, w := range ws {
			for i, n := range w.Nodes {
				if len(d.gone[n]) == 0 {
					touched = append(touched, n)
				}
				d.gone[n] = append(d.gone[n], w.Span(i))
			}
		}
	}
	var err error
	for _, n := range touched {
		gone := d.gone[n]
		slices.SortFunc(gone, func(a, b Interval) int { return a.Start - b.Start })
		b, g := d.busy[n], 0
		out := b[:0]
		for _, iv := range b {
			if g < len(gone) && iv == gone[g] {
				g++
				continue
			}
			out = append(out, iv)
		}
		if g < len(gone) && err == nil {
			err = fmt.Errorf("node %d: [%d, %d) is not a busy interval", n, gone[g].Start, gone[g].End)
		}
		clear(b[len(out):])
		d.setBusy(n, out)
		d.gone[n] = gone[:0]
	}
	return err
}

// ReleaseWindow frees all of w's slots.
func (d *Domain) ReleaseWindow(w Window) error {
	for i, n := range w.Nodes {
		if err := d.Release(n, w.Span(i)); err != nil {
			return err
		}
	}
	return nil
}

// EarliestStart returns the earliest s in [0, limit] at which all of w's
// slots (its nodes and times) are free, or −1 if none is.
func (d *Domain) EarliestStart(w Window, limit int) int {
	cands := []int{0}
	for _, n := range w.Nodes {
		for _, b := range d.busy[n] {
			if b.End <= limit {
				cands = append(cands, b.End)
			}
		}
	}
	slices.Sort(cands)
	cands = slices.Compact(cands)
	for _, s := range cands {
		if s > limit {
			break
		}
		if d.fitsAt(w, s) {
			return s
		}
	}
	if limit >= 0 && d.fitsAt(w, limit) {
		return limit
	}
	return -1
}

// Shift is the seed's shift heuristic (Section 1.4): the windows, in order
// of start time (ties by index), are each moved to the earliest start at
// which all of their nodes are free, keeping nodes, times and cost. d must
// hold every window (busy); on return it holds the shifted ones. Starts
// never move later, and no two windows overlap (each is moved only into
// free time).
func (d *Domain) Shift(ws []Window) ([]Window, error) {
	order := make([]int, len(ws))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return ws[a].Start - ws[b].Start })
	out := make([]Window, len(ws))
	for _, i := range order {
		w := ws[i]
		if err := d.ReleaseWindow(w); err != nil {
			return nil, err
		}
		s := d.EarliestStart(w, w.Start)
		if s < 0 {
			s = w.Start
		}
		nw := w.At(s)
		if err := d.OccupyWindow(nw); err != nil {
			return nil, err
		}
		out[i] = nw
	}
	return out, nil
}

// Request is one job's resource request as the slot search sees it:
// m nodes, each eligible node's time and cost, and the job's budget.
type Request struct {
	M        int
	Budget   float64 // max total cost of the window
	Eligible []int   // nodes with performance ≥ the job's minimum, ascending
	Time     []int   // per node (all nodes): ⌈volume / perf⌉
	Cost     []float64

	// byCost and byTime order Eligible's indices as the window search
	// picks nodes; computed by the first search, reused by the others.
	byCost, byTime     []int
	costRank, timeRank []int32 // positions in byCost and byTime
	// ranges caches, per eligible index, the node's feasible start ranges.
	ranges []nodeRanges

	// Scratch kept for reuse by a requestPool: the slab behind ranges, the
	// live list of FindAlternatives, the orders' backing arrays.
	slab  []span
	live  []int32
	ord   []int
	ranks []int32
	keys  []orderKey
}

// fill makes r job j's request on d, reusing r's arrays: nothing of a
// request r was before (cached ranges, orders) survives.
func (r *Request) fill(d *Domain, j *Job) {
	N := d.Nodes()
	r.M, r.Budget = j.Nodes, j.MaxPrice
	r.Time, r.Cost = grow(r.Time, N), grow(r.Cost, N)
	r.Eligible = r.Eligible[:0]
	for n := range d.Perf {
		r.Time[n] = NodeTime(j.Volume, d.Perf[n])
		r.Cost[n] = d.Price[n] * float64(r.Time[n])
		if d.Perf[n] >= j.MinPerf && r.Time[n] <= d.T && r.Cost[n] <= j.MaxPrice {
			r.Eligible = append(r.Eligible, n)
		}
	}
	r.byCost, r.byTime, r.costRank, r.timeRank = nil, nil, nil, nil
	n := len(r.Eligible)
	r.ranges = grow(r.ranges, n)
	r.slab = grow(r.slab, 4*n) // room for 4 ranges a node
	for k := range r.ranges {
		r.ranges[k] = nodeRanges{spans: r.slab[4*k : 4*k : 4*k+4]} // ver 0: none cached
	}
}

// requestPool recycles the requests of a planner: they die when its Plan
// returns, so the next Plan refills them instead of allocating per-node
// arrays for every job of every cycle (most of a long run's garbage). A job
// planned again (carried to the next cycle, or the backfilling re-run
// after its dry run) gets its request back as it was, orders and cached
// ranges included: its times and costs depend only on the job and the
// domain's nodes, which a run does not change, and the ranges are keyed by
// node versions, which no other domain state shares. A planner with a pool
// is not safe for concurrent use.
type requestPool struct {
	last, cur map[Job]*Request // the requests of the last Plan and this one
	free      []*Request
	// the domain the requests were made on: T, performances and prices;
	// checked: the Plan's domain was compared with it
	T           int
	perf, price []float64
	checked     bool
}

// reset starts a Plan: the last Plan's requests can be had again by their
// jobs (get), the others of the one before are free.
func (p *requestPool) reset() {
	p.free = slices.AppendSeq(p.free, maps.Values(p.last))
	if p.last == nil {
		p.last = map[Job]*Request{}
	}
	clear(p.last)
	p.last, p.cur = p.cur, p.last
	if p.last == nil {
		p.last = map[Job]*Request{}
	}
	p.checked = false
}

// get returns job j's request on d: the last Plan's for j if d has the
// same nodes, else a recycled one refilled.
func (p *requestPool) get(d *Domain, j *Job) *Request {
	if !p.checked && (d.T != p.T || !slices.Equal(d.Perf, p.perf) || !slices.Equal(d.Price, p.price)) {
		p.free = slices.AppendSeq(p.free, maps.Values(p.last))
		clear(p.last)
		p.T, p.perf, p.price = d.T, slices.Clone(d.Perf), slices.Clone(d.Price)
	}
	p.checked = true
	r, ok := p.last[*j]
	if ok {
		delete(p.last, *j)
	} else {
		if n := len(p.free); n > 0 {
			r, p.free = p.free[n-1], p.free[:n-1]
		} else {
			r = &Request{}
		}
		r.fill(d, j)
	}
	p.cur[*j] = r
	return r
}

// NodeTime is a job's time on a node: ⌈volume / performance⌉ time units
// (at least 1).
func NodeTime(volume, perf float64) int {
	t := int(math.Ceil(volume/perf - 1e-9))
	return max(t, 1)
}
