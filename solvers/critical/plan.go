package critical

import (
	"context"
	"fmt"
	"math"
	"slices"
)

// Criteria of the critical-works planner (run parameter criterion).
const (
	CriterionLoad     = "load"     // the seed's: maximize the mean load of the processors inside the planning interval
	CriterionMakespan = "makespan" // minimize finish times
	CriterionCost     = "cost"     // minimize Σ time × price
)

// Planner limits (constants, documented in doc.go).
const (
	MaxAnswers  = 2 // optimal answers kept from one work's DP (ties)
	MaxVariants = 8 // variants kept after combining m variants × n answers
	maxPairs    = 200_000
)

// Failure cases of the seed (a variant that hits one is dropped).
const (
	FailPrecedence = "case 1: precedence broken by works planned independently"
	FailSlack      = "case 2: too little slack between planned tasks"
)

// variant is one partial plan: a priori processor and times per planned
// task (proc −1: not yet planned).
type variant struct {
	id      int
	proc    []int
	start   []float64
	finish  []float64
	ord     []int // planning order (0-based), −1 unplanned
	next    int   // next ord value
	obj     float64
	relaxed int
}

func (v *variant) clone(id int) *variant {
	return &variant{id: id, proc: slices.Clone(v.proc), start: slices.Clone(v.start), finish: slices.Clone(v.finish),
		ord: slices.Clone(v.ord), next: v.next, obj: v.obj, relaxed: v.relaxed}
}

// answer is one optimal placement of a work's unplanned tasks.
type answer struct {
	tasks  []int
	proc   []int
	start  []float64
	finish []float64
}

// VariantEvent is one row of the variants table.
type VariantEvent struct {
	Variant int
	Work    int // rank of the work where it happened (0: at the end)
	Status  string
	Reason  string
}

// Collision is one pair of tasks planned on one processor at overlapping times.
type Collision struct {
	X, Y    int // X caused it (planned later), Y was placed before
	Proc    int
	Overlap float64
	Outcome string
}

// PlanResult is what the critical-works planner produced.
type PlanResult struct {
	Schedule    Schedule
	Planned     Schedule // the chosen variant's a-priori plan before collision resolution
	Kept        int
	Dropped     int
	Pruned      int
	Relaxations int
	Events      []VariantEvent
	Collisions  []Collision
	PairsCapped bool
	Chosen      int
	Horizon     float64
}

type planner struct {
	d       *DAG
	crit    string
	horizon float64 // planning interval for the load criterion (+Inf otherwise)
}

func (pl *planner) objDelta(v, p int) float64 {
	switch pl.crit {
	case CriterionCost:
		return pl.d.T[v][p] * pl.d.Price[p]
	case CriterionLoad:
		return -pl.d.T[v][p]
	}
	return 0
}

// ready is when task v's data from its planned predecessors can be there.
// While planning, every transfer counts, even between tasks the estimates
// put on one processor: the seed's planner yields a-priori time estimates
// and processors are assigned afterwards (see the package doc).
func (pl *planner) ready(vr *variant, v int) float64 {
	t := 0.0
	for _, a := range pl.d.Pred[v] {
		if vr.proc[a.To] >= 0 {
			t = max(t, vr.finish[a.To]+a.Comm)
		}
	}
	return t
}

type dpState struct {
	ok     bool
	obj    float64
	finish float64
	start  float64
	from   int // processor of the previous position
}

// planWork is one iteration of the seed's loop for one variant: the
// backward pass fixes each unplanned task's latest finish per processor
// from the work's planned successors (and the planning interval); the
// forward pass places the tasks in path order, each at its earliest start
// on each processor, keeping per (position, processor) the best criterion
// value. It returns up to MaxAnswers optimal answers, or a failure reason.
func (pl *planner) planWork(vr *variant, w Work, relaxed bool) ([]answer, string) {
	if relaxed && pl.crit != CriterionMakespan {
		// Without its windows the load trade-off is gone: place the work as
		// early as possible instead (see doc.go).
		mk := *pl
		mk.crit = CriterionMakespan
		return mk.planWork(vr, w, true)
	}
	wp := &workPass{pl: pl, vr: vr, w: w, path: w.Path.Tasks}
	// Case 1: two planned neighbours on the path that break precedence.
	if !relaxed && wp.breaksPrecedence() {
		return nil, FailPrecedence
	}
	unplanned := 0
	for i := range wp.path {
		if !wp.fixed(i) {
			unplanned++
		}
	}
	if unplanned == 0 {
		return []answer{{}}, ""
	}
	return wp.answers(wp.forward(wp.latestFinish(relaxed)))
}

// workPass is the planning of one work on one variant: path positions
// i = 0..k−1, some already planned (fixed) by earlier works.
type workPass struct {
	pl   *planner
	vr   *variant
	w    Work
	path []int
}

func (wp *workPass) fixed(i int) bool { return wp.vr.proc[wp.path[i]] >= 0 }

// comm is the transfer time of the path edge between positions i and i+1.
func (wp *workPass) comm(i int) float64 { return wp.pl.d.Comm(wp.w.Path.Edges[i]) }

func tol(x float64) float64 { return eps * max(1, math.Abs(x)) }

// breaksPrecedence reports the seed's failure case 1: two planned
// neighbours on the path, the second starting before the first's data can
// arrive.
func (wp *workPass) breaksPrecedence() bool {
	vr := wp.vr
	for i := 0; i+1 < len(wp.path); i++ {
		if wp.fixed(i) && wp.fixed(i+1) {
			u, v := wp.path[i], wp.path[i+1]
			r := vr.finish[u] + wp.comm(i)
			if vr.start[v] < r-tol(r) {
				return true
			}
		}
	}
	return false
}

// latestFinish is the backward pass: per unplanned position and processor
// the latest finish that leaves the rest of the path room before its next
// planned task (and the planning interval); +Inf when relaxed.
func (wp *workPass) latestFinish(relaxed bool) [][]float64 {
	d, vr, path := wp.pl.d, wp.vr, wp.path
	k, m := len(path), d.M
	inf := math.Inf(1)
	lf := make([][]float64, k)
	for i := k - 1; i >= 0; i-- {
		if wp.fixed(i) {
			continue
		}
		lf[i] = make([]float64, m)
		for p := range m {
			l := wp.pl.horizon
			if i+1 < k {
				nx := path[i+1]
				c := wp.comm(i)
				if wp.fixed(i + 1) {
					l = min(l, vr.start[nx]-c)
				} else {
					best := -inf
					for q := range m {
						best = max(best, lf[i+1][q]-d.T[nx][q]-c)
					}
					l = min(l, best)
				}
			}
			if relaxed {
				l = inf
			}
			lf[i][p] = l
		}
	}
	return lf
}

// forward is the forward pass: per (position, processor) the best
// criterion value of placing the path up to there, each task at its
// earliest start within its latest finish lf.
func (wp *workPass) forward(lf [][]float64) [][]dpState {
	pl, d, vr, path := wp.pl, wp.pl.d, wp.vr, wp.path
	k, m := len(path), d.M
	st := make([][]dpState, k)
	for i := range k {
		v := path[i]
		st[i] = make([]dpState, m)
		if wp.fixed(i) {
			p := vr.proc[v]
			s := dpState{ok: i == 0, obj: 0, finish: vr.finish[v], start: vr.start[v], from: -1}
			if i > 0 {
				for q := range m {
					ps := st[i-1][q]
					if !ps.ok {
						continue
					}
					if !s.ok || ps.obj < s.obj {
						s.ok, s.obj, s.from = true, ps.obj, q
					}
				}
			}
			st[i][p] = s
			continue
		}
		base := pl.ready(vr, v)
		for p := range m {
			best := dpState{}
			try := func(ready, obj float64, from int) {
				f := ready + d.T[v][p]
				if f > lf[i][p]+tol(f) {
					return
				}
				o := obj + pl.objDelta(v, p)
				if pl.crit == CriterionMakespan {
					o = f
				}
				if !best.ok || o < best.obj-1e-12 || (o <= best.obj+1e-12 && f < best.finish-1e-12) {
					best = dpState{ok: true, obj: o, finish: f, start: ready, from: from}
				}
			}
			if i == 0 {
				try(base, 0, -1)
			} else {
				c := wp.comm(i - 1)
				for q := range m {
					ps := st[i-1][q]
					if !ps.ok {
						continue
					}
					try(max(base, ps.finish+c), ps.obj, q)
				}
			}
			st[i][p] = best
		}
	}
	return st
}

// answers are the optimal states at the last position traced back (up to
// MaxAnswers), or the seed's failure case 2 when no state is feasible.
func (wp *workPass) answers(st [][]dpState) ([]answer, string) {
	path := wp.path
	k := len(path)
	last := st[k-1]
	bestObj := math.Inf(1)
	for _, s := range last {
		if s.ok {
			bestObj = min(bestObj, s.obj)
		}
	}
	if math.IsInf(bestObj, 1) {
		return nil, FailSlack
	}
	var out []answer
	for p, s := range last {
		if !s.ok || s.obj > bestObj+1e-9*max(1, math.Abs(bestObj)) || len(out) == MaxAnswers {
			continue
		}
		var a answer
		q := p
		for i := k - 1; i >= 0; i-- {
			cur := st[i][q]
			if !wp.fixed(i) {
				a.tasks = append(a.tasks, path[i])
				a.proc = append(a.proc, q)
				a.start = append(a.start, cur.start)
				a.finish = append(a.finish, cur.finish)
			}
			q = cur.from
			if i > 0 && q < 0 {
				break
			}
		}
		out = append(out, a)
	}
	return out, ""
}

func (pl *planner) apply(vr *variant, a answer) {
	// Answers are collected backwards: planning order follows the path.
	for j := len(a.tasks) - 1; j >= 0; j-- {
		t := a.tasks[j]
		vr.proc[t], vr.start[t], vr.finish[t] = a.proc[j], a.start[j], a.finish[j]
		vr.ord[t] = vr.next
		vr.next++
		switch pl.crit {
		case CriterionMakespan:
			vr.obj = max(vr.obj, a.finish[j])
		default:
			vr.obj += pl.objDelta(t, a.proc[j])
		}
	}
}

// PlanCriticalWorks runs the seed's steps 3 and 4 on the ranked works:
// planning work by work with variants, then collision resolution and the
// realization of each kept variant; the best by the criterion is returned.
func PlanCriticalWorks(ctx context.Context, d *DAG, works []Work, crit string, horizon float64, progress func(done, total int, note string)) (*PlanResult, error) {
	pl := &planner{d: d, crit: crit, horizon: math.Inf(1)}
	if crit == CriterionLoad {
		pl.horizon = horizon
	}
	res := &PlanResult{Horizon: pl.horizon}
	root := &variant{id: 1, proc: make([]int, d.N), start: make([]float64, d.N), finish: make([]float64, d.N), ord: make([]int, d.N)}
	for i := range d.N {
		root.proc[i], root.ord[i] = -1, -1
	}
	vars := []*variant{root}
	nextID := 2
	for wi, w := range works {
		if wi%16 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			progress(wi, len(works), fmt.Sprintf("work %d of %d, %d variants", wi+1, len(works), len(vars)))
		}
		cands := pl.candidates(vars, w, res)
		vars = pl.prune(pl.combine(cands, &nextID), w, res)
	}
	if err := pl.chooseVariant(ctx, vars, res); err != nil {
		return nil, err
	}
	progress(len(works), len(works), "planned")
	return res, nil
}

// candidate is one answer of a work on the variant it continues.
type candidate struct {
	from *variant
	ans  answer
}

// candidates plans work w on every variant. A variant that hits a failure
// case is dropped, unless every variant failed: then all of them continue
// with the work planned without its windows (a relaxation).
func (pl *planner) candidates(vars []*variant, w Work, res *PlanResult) []candidate {
	var cands []candidate
	var failed []*variant
	var reasons []string
	for _, vr := range vars {
		as, why := pl.planWork(vr, w, false)
		if why != "" {
			failed = append(failed, vr)
			reasons = append(reasons, why)
			continue
		}
		for _, a := range as {
			cands = append(cands, candidate{vr, a})
		}
	}
	if len(cands) == 0 {
		// Every variant failed: continue them all with the windows relaxed.
		res.Relaxations++
		for i, vr := range failed {
			res.Events = append(res.Events, VariantEvent{Variant: vr.id, Work: w.Rank, Status: "relaxed", Reason: reasons[i] + "; every variant failed, so the work was planned without its time windows"})
			as, _ := pl.planWork(vr, w, true)
			vr.relaxed++
			for _, a := range as {
				cands = append(cands, candidate{vr, a})
			}
		}
	} else {
		for i, vr := range failed {
			res.Dropped++
			res.Events = append(res.Events, VariantEvent{Variant: vr.id, Work: w.Rank, Status: "dropped", Reason: reasons[i]})
		}
	}
	return cands
}

// combine applies every candidate: a variant with one answer continues
// under its id; more answers branch into new variants (ids from *nextID).
func (pl *planner) combine(cands []candidate, nextID *int) []*variant {
	count := map[*variant]int{}
	next := make([]*variant, 0, len(cands))
	for _, c := range cands {
		count[c.from]++
		nv := c.from
		if count[c.from] > 1 {
			nv = c.from.clone(*nextID)
			*nextID++
		}
		next = append(next, nv)
	}
	// Apply in reverse so the original (shared) variant is applied last,
	// after its clones were taken from its unmodified state.
	for i := len(cands) - 1; i >= 0; i-- {
		pl.apply(next[i], cands[i].ans)
	}
	return next
}

// prune keeps the MaxVariants best variants by partial criterion (ties to
// the lower id).
func (pl *planner) prune(next []*variant, w Work, res *PlanResult) []*variant {
	slices.SortStableFunc(next, func(a, b *variant) int {
		switch {
		case a.obj < b.obj-1e-12:
			return -1
		case a.obj > b.obj+1e-12:
			return 1
		}
		return a.id - b.id
	})
	if len(next) > MaxVariants {
		for _, v := range next[MaxVariants:] {
			res.Pruned++
			if res.Pruned <= 50 {
				res.Events = append(res.Events, VariantEvent{Variant: v.id, Work: w.Rank, Status: "pruned", Reason: fmt.Sprintf("over the cap of %d variants (worse partial criterion)", MaxVariants)})
			}
		}
		next = next[:MaxVariants]
	}
	return next
}

// chooseVariant resolves the collisions of every kept variant, realizes
// it, and puts the best by the criterion (then makespan, or cost under
// makespan) in res.
func (pl *planner) chooseVariant(ctx context.Context, vars []*variant, res *PlanResult) error {
	d, crit := pl.d, pl.crit
	// Collision resolution and realization of every kept variant.
	type done struct {
		vr    *variant
		plan  Schedule
		s     Schedule
		cols  []Collision
		cap   bool
		score [2]float64
	}
	var best *done
	for _, vr := range vars {
		if err := ctx.Err(); err != nil {
			return err
		}
		plan := Schedule{Proc: slices.Clone(vr.proc), Start: slices.Clone(vr.start), Finish: slices.Clone(vr.finish)}
		rs, err := resolveCollisions(ctx, d, vr, crit)
		if err != nil {
			return err
		}
		s := realize(d, rs.Proc, rs.Start, rs.Flex)
		dn := &done{vr: vr, plan: plan, s: s, cols: rs.Collisions, cap: rs.Capped}
		switch crit {
		case CriterionCost:
			dn.score = [2]float64{s.Cost(d), s.Makespan()}
		case CriterionLoad:
			dn.score = [2]float64{-s.LoadMean(d), s.Makespan()}
		default:
			dn.score = [2]float64{s.Makespan(), s.Cost(d)}
		}
		res.Kept++
		res.Events = append(res.Events, VariantEvent{Variant: vr.id, Status: "kept",
			Reason: fmt.Sprintf("makespan %.4g, cost %.4g, load %.3f after collision resolution", s.Makespan(), s.Cost(d), s.LoadMean(d))})
		if best == nil || dn.score[0] < best.score[0]-1e-9 || (dn.score[0] <= best.score[0]+1e-9 && dn.score[1] < best.score[1]-1e-9) {
			best = dn
		}
	}
	res.Schedule, res.Planned, res.Collisions, res.PairsCapped, res.Chosen = best.s, best.plan, best.cols, best.cap, best.vr.id
	for i := range res.Events {
		if res.Events[i].Status == "kept" && res.Events[i].Variant == best.vr.id {
			res.Events[i].Status = "kept (chosen)"
		}
	}
	return nil
}

// resolution is what collision resolution made of one variant.
type resolution struct {
	Proc       []int       // the processor of every task
	Start      []float64   // the priority for realization: the planned start
	Flex       []bool      // tasks left in collision, placed freely at realization
	Collisions []Collision // the pairs found, with their outcomes
	Capped     bool        // the pairs stopped at maxPairs
}

// resolveCollisions is the seed's step 4 on one variant (see doc.go), in
// phases: find the pairs planned on one processor at overlapping times;
// choose representatives on the bipartite graph of the pairs; in each pair
// the heavier task keeps the processor (the losers); move the losers onto
// processors idle over their interval; record each pair's outcome.
func resolveCollisions(ctx context.Context, d *DAG, vr *variant, crit string) (*resolution, error) {
	occ := newOccupancy(d, vr)
	res := &resolution{Proc: occ.proc, Start: occ.start, Flex: make([]bool, d.N)}
	res.Collisions, res.Capped = findCollisions(d, vr, occ)
	if len(res.Collisions) == 0 {
		res.Collisions = nil
		return res, nil
	}
	// Bipartite graph X (caused) – Y (placed).
	xAdj := map[int][]int{}
	var xs []int
	for _, c := range res.Collisions {
		if _, ok := xAdj[c.X]; !ok {
			xs = append(xs, c.X)
		}
		xAdj[c.X] = append(xAdj[c.X], c.Y)
	}
	rep := Representatives(xs, xAdj, occ.weight)
	if err := occ.moveLosers(ctx, occ.losers(xs, rep), crit); err != nil {
		return nil, err
	}
	markOutcomes(d, res)
	return res, nil
}

// findCollisions lists, on each processor, every later-planned task that
// overlaps an earlier one (X the later in planning order, Y the earlier),
// at most maxPairs of them (capped: more were left out).
func findCollisions(d *DAG, vr *variant, occ *occupancy) (cols []Collision, capped bool) {
	proc, start, fin := occ.proc, occ.start, occ.fin
	byProc := make([][]int, d.M)
	for v := range d.N {
		byProc[proc[v]] = append(byProc[proc[v]], v)
	}
	for p, ts := range byProc {
		slices.SortFunc(ts, func(a, b int) int {
			if start[a] != start[b] {
				if start[a] < start[b] {
					return -1
				}
				return 1
			}
			return a - b
		})
		for i := 0; i < len(ts) && !capped; i++ {
			a := ts[i]
			for j := i + 1; j < len(ts); j++ {
				b := ts[j]
				if start[b] >= fin[a]-eps*max(1, fin[a]) {
					break
				}
				ov := min(fin[a], fin[b]) - start[b]
				if ov <= eps*max(1, fin[a]) {
					continue
				}
				x, y := a, b
				if vr.ord[a] < vr.ord[b] {
					x, y = b, a
				}
				if len(cols) >= maxPairs {
					capped = true
					break
				}
				cols = append(cols, Collision{X: x, Y: y, Proc: p, Overlap: ov})
			}
		}
	}
	return cols, capped
}

// occupancy is a variant's processors during collision resolution: the
// processor and planned times of every task, and per processor the tasks
// by planned start with the longest task there, so "can v run on q during
// [s, s+T) without overlap?" scans only the tasks starting in
// (s − longest, s + T).
type occupancy struct {
	d          *DAG
	proc       []int
	start, fin []float64
	occ        [][]int   // per processor, its tasks by planned start
	longest    []float64 // per processor, its longest task
}

func newOccupancy(d *DAG, vr *variant) *occupancy {
	o := &occupancy{d: d, proc: slices.Clone(vr.proc), start: slices.Clone(vr.start), fin: slices.Clone(vr.finish),
		occ: make([][]int, d.M), longest: make([]float64, d.M)}
	for v := range d.N {
		o.occ[o.proc[v]] = append(o.occ[o.proc[v]], v)
		o.longest[o.proc[v]] = max(o.longest[o.proc[v]], o.fin[v]-o.start[v])
	}
	for q := range o.occ {
		slices.SortFunc(o.occ[q], o.byStart)
	}
	return o
}

// weight is a task's planned time on its current processor.
func (o *occupancy) weight(v int) float64 { return o.fin[v] - o.start[v] }

func (o *occupancy) byStart(a, b int) int {
	switch {
	case o.start[a] < o.start[b]:
		return -1
	case o.start[a] > o.start[b]:
		return 1
	}
	return a - b
}

// fits reports whether v can run on q at its planned start without
// overlapping a task there.
func (o *occupancy) fits(v, q int) bool {
	s, f := o.start[v], o.start[v]+o.d.T[v][q]
	lo, _ := slices.BinarySearchFunc(o.occ[q], s-o.longest[q]-eps*max(1, s), func(u int, t float64) int {
		if o.start[u] < t {
			return -1
		}
		return 1
	})
	for _, u := range o.occ[q][lo:] {
		if o.start[u] >= f-eps*max(1, f) {
			break
		}
		if u != v && s < o.fin[u]-eps*max(1, s) {
			return false
		}
	}
	return true
}

// move puts v on q at its planned start.
func (o *occupancy) move(v, q int) {
	from := o.proc[v]
	i, _ := slices.BinarySearchFunc(o.occ[from], v, o.byStart)
	o.occ[from] = slices.Delete(o.occ[from], i, i+1)
	o.proc[v] = q
	o.fin[v] = o.start[v] + o.d.T[v][q]
	j, _ := slices.BinarySearchFunc(o.occ[q], v, o.byStart)
	o.occ[q] = slices.Insert(o.occ[q], j, v)
	o.longest[q] = max(o.longest[q], o.fin[v]-o.start[v])
}

// options lists the other processors v fits on.
func (o *occupancy) options(v int) []int {
	var opts []int
	for q := range o.d.M {
		if q != o.proc[v] && o.fits(v, q) {
			opts = append(opts, q)
		}
	}
	return opts
}

// losers is step 2: in each pair of a task x and its representative y the
// heavier keeps the processor, unless y could go nowhere else; x without a
// representative is left to serialization. Each loser once, in order.
func (o *occupancy) losers(xs []int, rep map[int]int) []int {
	var losers []int
	for _, x := range xs {
		y, ok := rep[x]
		if !ok {
			continue // no representative: left to serialization
		}
		if o.weight(x) > o.weight(y) {
			other := false
			for q := range o.d.M {
				if q != o.proc[y] && o.fits(y, q) {
					other = true
					break
				}
			}
			if other {
				losers = append(losers, y)
				continue
			}
		}
		losers = append(losers, x)
	}
	seen := map[int]bool{}
	uniq := losers[:0]
	for _, v := range losers {
		if !seen[v] {
			seen[v] = true
			uniq = append(uniq, v)
		}
	}
	return uniq
}

// moveLosers is step 3: losers onto processors idle over their interval,
// the task with fewest options first, each to its lightest (time, or cost
// under the cost criterion) option.
func (o *occupancy) moveLosers(ctx context.Context, losers []int, crit string) error {
	nopt := map[int]int{}
	for _, v := range losers {
		nopt[v] = len(o.options(v))
	}
	slices.SortStableFunc(losers, func(a, b int) int { return nopt[a] - nopt[b] })
	for k, v := range losers {
		if k%256 == 0 && ctx.Err() != nil {
			return ctx.Err()
		}
		bestQ, bestW := -1, math.Inf(1)
		for _, q := range o.options(v) {
			w := o.d.T[v][q]
			if crit == CriterionCost {
				w *= o.d.Price[q]
			}
			if w < bestW {
				bestQ, bestW = q, w
			}
		}
		if bestQ >= 0 {
			o.move(v, bestQ)
		}
	}
	return nil
}

// markOutcomes records which task of each pair moved, or that neither
// did: then X stays in collision (Flex) and is re-placed at realization.
func markOutcomes(d *DAG, res *resolution) {
	for i := range res.Collisions {
		c := &res.Collisions[i]
		switch {
		case res.Proc[c.X] != c.Proc:
			c.Outcome = fmt.Sprintf("%s moved to %s", d.G.Tasks[c.X].ID, d.G.Processors[res.Proc[c.X]].ID)
		case res.Proc[c.Y] != c.Proc:
			c.Outcome = fmt.Sprintf("%s moved to %s", d.G.Tasks[c.Y].ID, d.G.Processors[res.Proc[c.Y]].ID)
		default:
			c.Outcome = OutcomeReplaced
			res.Flex[c.X] = true
		}
	}
}

// OutcomeReplaced is the outcome of a collision no processor move
// resolved: the later-planned task is placed at realization on the
// processor where it finishes first.
const OutcomeReplaced = "unresolved: re-placed at realization (earliest finish)"

// Representatives is the seed's step 1 of collision resolution on the
// bipartite graph X (tasks that caused collisions, in the order given) –
// Y (tasks they collide with; adj[x] lists x's Y neighbours), vertex
// weight = planned time: (a) every Y vertex of degree 1, by increasing
// weight, becomes the representative of its X neighbour; (b) the X
// vertices still without one, ordered by increasing number of free
// (non-representative) Y neighbours, each take their lightest free
// neighbour. An X vertex left without a representative (every neighbour
// taken) is absent from the result. Ties go to the lower task index.
func Representatives(xs []int, adj map[int][]int, weight func(int) float64) map[int]int {
	byWeight := func(a, b int) int {
		wa, wb := weight(a), weight(b)
		switch {
		case wa < wb:
			return -1
		case wa > wb:
			return 1
		}
		return a - b
	}
	deg := map[int]int{}
	owner := map[int]int{}
	var ys []int
	for _, x := range xs {
		for _, y := range adj[x] {
			if deg[y] == 0 {
				ys = append(ys, y)
			}
			deg[y]++
			owner[y] = x
		}
	}
	rep := map[int]int{}
	isRep := map[int]bool{}
	var y1 []int
	for _, y := range ys {
		if deg[y] == 1 {
			y1 = append(y1, y)
		}
	}
	slices.SortFunc(y1, byWeight)
	for _, y := range y1 {
		if x := owner[y]; !hasKey(rep, x) {
			rep[x], isRep[y] = y, true
		}
	}
	var rest []int
	for _, x := range xs {
		if !hasKey(rep, x) {
			rest = append(rest, x)
		}
	}
	nfree := map[int]int{}
	for _, x := range rest {
		for _, y := range adj[x] {
			if !isRep[y] {
				nfree[x]++
			}
		}
	}
	slices.SortStableFunc(rest, func(a, b int) int { return nfree[a] - nfree[b] })
	for _, x := range rest {
		cand := -1
		for _, y := range adj[x] {
			if !isRep[y] && (cand < 0 || byWeight(y, cand) < 0) {
				cand = y
			}
		}
		if cand >= 0 {
			rep[x], isRep[cand] = cand, true
		}
	}
	return rep
}

func hasKey(m map[int]int, k int) bool { _, ok := m[k]; return ok }
