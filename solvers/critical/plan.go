package critical

import (
	"cmp"
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
	MaxAnswers = 2 // optimal answers kept from one work's DP (ties; ours: the paper keeps all)
	maxPairs   = 200_000
)

// Failure cases of the seed (a variant that hits one is dropped).
const (
	FailPrecedence = "case 1: precedence broken by works planned independently"
	FailSlack      = "case 2: too little slack between planned tasks"
)

// variant is one partial plan: a priori processor and times per planned
// task (proc −1: not yet planned).
type variant struct {
	id     int
	proc   []int
	start  []float64
	finish []float64
	ord    []int // planning order (0-based), −1 unplanned
	next   int   // next ord value
	obj    float64
}

func (v *variant) clone(id int) *variant {
	return &variant{id: id, proc: slices.Clone(v.proc), start: slices.Clone(v.start), finish: slices.Clone(v.finish),
		ord: slices.Clone(v.ord), next: v.next, obj: v.obj}
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
	Schedule Schedule // the result when Complete
	Planned  Schedule // the chosen variant's a-priori plan before collision resolution
	// Partial is what exists when the run Stopped: the best variant's plan
	// before the work that struck out the last variants (processor −1 for
	// unplanned tasks), or, when every variant was struck out at collision
	// resolution, the best one's plan with its collisions left.
	Partial          Schedule
	Complete         bool // a feasible plan resulted
	Stopped          bool // no variant left (the paper's stop)
	StopWork         int  // rank of the work where planning stopped (0: at collision resolution, or not stopped)
	Fallback         bool // our fallback variant
	Generated        int  // variants created (the first and every branch)
	Kept             int
	Dropped          int // struck out: failure cases 1 and 2, unresolved collisions
	CollisionDropped int // of Dropped, at collision resolution
	Pruned           int // over the cap (ours)
	Replanned        int // works planned again on the processors' free times (reading replan)
	Relaxations      int // works planned by our fallback
	Steps            []WorkStep
	Events           []VariantEvent
	Collisions       []Collision
	PairsCapped      bool
	Chosen           int
	Horizon          float64
	// D is the DAG the Schedule (or a collision-stage Partial) refers
	// to: the input's, or with the processors scale-out added.
	D *DAG
}

type planner struct {
	d           *DAG
	crit        string
	horizon     float64 // the time frame's end, the deadline (+Inf: none)
	maxVariants int
	reading     string // the collision reading (collision_processors)
	boundAll    bool   // a task's latest finish bounded by every planned successor (the time readings)
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
		// early as possible instead (see PlanCriticalWorks).
		mk := *pl
		mk.crit = CriterionMakespan
		return mk.planWork(vr, w, true)
	}
	wp := &workPass{pl: pl, vr: vr, w: w, path: w.Path.Tasks}
	// Case 1: two planned neighbours on the path that break precedence.
	if !relaxed && wp.breaksPrecedence() {
		return nil, FailPrecedence
	}
	for i := range wp.path {
		if !wp.fixed(i) {
			return wp.answers(wp.forward(wp.latestFinish(relaxed)))
		}
	}
	return []answer{{}}, ""
}

// replanWork plans work w's unplanned tasks on vr again, each at the
// first time its processor is free (reading replan: the struck-out
// work re-planned on the processors of its variant), or gives the
// failure case that strikes the variant out.
func (pl *planner) replanWork(vr *variant, w Work) ([]answer, string) {
	wp := &workPass{pl: pl, vr: vr, w: w, path: w.Path.Tasks, busy: engagedIntervals(pl.d, vr)}
	if wp.breaksPrecedence() {
		return nil, FailPrecedence
	}
	return wp.answers(wp.forward(wp.latestFinish(false)))
}

// workPass is the planning of one work on one variant: path positions
// i = 0..k−1, some already planned (fixed) by earlier works.
type workPass struct {
	pl   *planner
	vr   *variant
	w    Work
	path []int
	// busy is, when the work is re-planned (reading replan), per
	// processor the intervals of the variant's planned tasks by start: a
	// task then starts at the first free time on its processor.
	busy [][][2]float64
}

// engagedIntervals is, per processor, the intervals of vr's planned
// tasks, by start.
func engagedIntervals(d *DAG, vr *variant) [][][2]float64 {
	busy := make([][][2]float64, d.M)
	for v := range d.N {
		if p := vr.proc[v]; p >= 0 {
			busy[p] = append(busy[p], [2]float64{vr.start[v], vr.finish[v]})
		}
	}
	for p := range busy {
		slices.SortFunc(busy[p], func(a, b [2]float64) int { return cmp.Compare(a[0], b[0]) })
	}
	return busy
}

// freeAt is the earliest start ≥ t at which processor p is free for dur
// (t itself without busy intervals).
func (wp *workPass) freeAt(p int, t, dur float64) float64 {
	if wp.busy == nil {
		return t
	}
	for _, iv := range wp.busy[p] {
		if iv[1] <= t+tol(t) {
			continue
		}
		if iv[0] >= t+dur-tol(t+dur) {
			break
		}
		t = max(t, iv[1])
	}
	return t
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
			if wp.pl.boundAll {
				// Bounds from every planned successor, on the path or not
				// («временные границы, заданные уже распределенными
				// задачами»), as the forward pass takes every planned
				// predecessor's data.
				for _, a := range d.Succ[path[i]] {
					if vr.proc[a.To] >= 0 {
						l = min(l, vr.start[a.To]-a.Comm)
					}
				}
			}
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
				ready = wp.freeAt(p, ready, d.T[v][p])
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
		pl.addObj(vr, t)
	}
}

// addObj adds planned task v to vr's partial criterion.
func (pl *planner) addObj(vr *variant, v int) {
	if pl.crit == CriterionMakespan {
		vr.obj = max(vr.obj, vr.finish[v])
	} else {
		vr.obj += pl.objDelta(v, vr.proc[v])
	}
}

// PlanOptions are the planner's settings.
type PlanOptions struct {
	// Criterion is what each work's DP optimizes (CriterionLoad, the
	// seed's; CriterionMakespan and CriterionCost are ours).
	Criterion string
	// Deadline is the job's time frame [0, Deadline] (the paper's "whole
	// time of optimization", an input); +Inf or 0: none.
	Deadline float64
	// Fallback is our variant: when every variant fails on a work, plan
	// it as early as possible without its windows instead of stopping,
	// and realize the result (serialize what stays in collision).
	Fallback bool
	// MaxVariants caps the variants carried to the next work (ours; the
	// paper keeps all m × n). 0: DefaultMaxVariants.
	MaxVariants int
	// Collision is the reading of the collision steps (run parameter
	// collision_processors, CollisionReadings; doc.go). "": CollisionIdle.
	Collision string
}

// DefaultMaxVariants is the default cap on the variants carried from one
// work to the next.
const DefaultMaxVariants = 8

// Ways a work was planned (the "planned_by" column).
const (
	PlannedByDP       = "DP in its time frame"
	PlannedByFallback = "fallback: as early as possible, no time frame (ours)"
	PlannedByNone     = "not planned: no variant left (the paper's stop)"
)

// WorkStep is what one iteration of the planning loop did.
type WorkStep struct {
	Rank      int
	PlannedBy string
	Before    int // variants at the start of the iteration
	Dropped   int // variants struck out on this work
	After     int // variants carried to the next work (after the cap)
}

// PlanCriticalWorks runs the seed's planning loop and collision resolution
// on the ranked works: work by work for every variant (planWork: a
// backward pass of latest finishes and a forward DP by criterion over
// [0, D], ties to the earlier finish, then the lower processor; the
// search-tree DP of [2] is not in the seed, ours is this pass; occupancy
// is left to collision resolution and every transfer counts), the
// variants hitting failure case 1 or 2 struck out, at most max_variants
// carried on (ours; the paper keeps all; the rest "pruned"), the run
// stopped when none is left (the paper's stop: stopped = 1, no schedule,
// the partial plan shown); then collision resolution on every variant
// left (resolveCollisions, under the reading opt.Collision, doc.go).
// Without Fallback a variant whose collisions stay unresolved is struck
// out too (under reserve only when, realized, it ends after D), and the
// result is the best feasible a-priori plan, inside [0, D] by
// construction; with Fallback (ours) a failing work is planned as early
// as possible (works_fallback) and every variant is realized in start
// order: valid by construction, checked every run.
func PlanCriticalWorks(ctx context.Context, d *DAG, works []Work, opt PlanOptions, progress func(done, total int, note string)) (*PlanResult, error) {
	if opt.MaxVariants <= 0 {
		opt.MaxVariants = DefaultMaxVariants
	}
	reading := cmp.Or(opt.Collision, CollisionIdle)
	pl := &planner{d: d, crit: opt.Criterion, horizon: math.Inf(1), maxVariants: opt.MaxVariants, reading: reading,
		boundAll: reading != CollisionIdle && reading != CollisionNew}
	if opt.Deadline > 0 {
		pl.horizon = opt.Deadline
	}
	res := &PlanResult{Horizon: pl.horizon, Fallback: opt.Fallback, D: d}
	root := &variant{id: 1, proc: make([]int, d.N), start: make([]float64, d.N), finish: make([]float64, d.N), ord: make([]int, d.N)}
	for i := range d.N {
		root.proc[i], root.ord[i] = -1, -1
	}
	vars := []*variant{root}
	nextID := 2
	// stopAt ends the run at works[wi] (the paper's stop), partial the
	// plan shown.
	stopAt := func(wi int, step WorkStep, partial *variant) *PlanResult {
		res.Stopped, res.StopWork = true, works[wi].Rank
		res.Partial = partialSchedule(partial)
		res.Steps = append(res.Steps, step)
		for _, rest := range works[wi+1:] {
			res.Steps = append(res.Steps, WorkStep{Rank: rest.Rank, PlannedBy: PlannedByNone})
		}
		res.Generated = nextID - 1
		progress(len(works), len(works), "stopped: no variant left")
		return res
	}
	for wi, w := range works {
		if wi%16 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			progress(wi, len(works), fmt.Sprintf("work %d of %d, %d variants", wi+1, len(works), len(vars)))
		}
		step := WorkStep{Rank: w.Rank, Before: len(vars)}
		cands, stop := pl.candidates(vars, w, opt.Fallback, res, &step)
		if stop {
			// The paper's stop: no variant left. The partial plan is the
			// best variant as it stood before this work.
			return stopAt(wi, step, vars[0]), nil
		}
		var pre map[*variant]*variant
		if pl.reading == CollisionReplan {
			// The variants as they were before this work, to re-plan it.
			pre = map[*variant]*variant{}
			for _, c := range cands {
				if pre[c.from] == nil {
					pre[c.from] = c.from.clone(c.from.id)
				}
			}
		}
		next := pl.combine(cands, &nextID)
		if pre != nil {
			parent := map[*variant]*variant{}
			for i, c := range cands {
				parent[next[i]] = pre[c.from]
			}
			pre = parent
		}
		vars = pl.prune(next, w, res)
		if pl.reading == CollisionPerWork || pl.reading == CollisionReplan {
			// Collisions resolved as each work's tasks are assigned
			// («коллизий, возникающих при последовательном назначении …
			// для задач каждой критической работы»).
			kept, err := pl.resolveWork(ctx, vars, w, res, &step, pre)
			if err != nil {
				return nil, err
			}
			if len(kept) == 0 {
				// No variant left: the best as planned, its collisions left.
				return stopAt(wi, step, vars[0]), nil
			}
			vars = kept
		}
		step.After = len(vars)
		res.Steps = append(res.Steps, step)
	}
	res.Generated = nextID - 1
	if err := pl.chooseVariant(ctx, vars, res); err != nil {
		return nil, err
	}
	progress(len(works), len(works), "planned")
	return res, nil
}

// partialSchedule is a variant's plan so far: unplanned tasks have
// processor −1.
func partialSchedule(v *variant) Schedule {
	return Schedule{Proc: slices.Clone(v.proc), Start: slices.Clone(v.start), Finish: slices.Clone(v.finish)}
}

// candidate is one answer of a work on the variant it continues.
type candidate struct {
	from *variant
	ans  answer
}

// candidates plans work w on every variant; a variant that hits a failure
// case is struck out. When every variant fails, the paper's algorithm
// stops (stop = true, every variant struck out); with fallback (ours) all
// of them continue with the work planned without its windows.
func (pl *planner) candidates(vars []*variant, w Work, fallback bool, res *PlanResult, step *WorkStep) ([]candidate, bool) {
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
	step.PlannedBy = PlannedByDP
	if len(cands) == 0 && fallback {
		res.Relaxations++
		step.PlannedBy = PlannedByFallback
		for i, vr := range failed {
			res.Events = append(res.Events, VariantEvent{Variant: vr.id, Work: w.Rank, Status: "relaxed", Reason: reasons[i] + "; every variant failed, so the work was planned without its time windows (our fallback)"})
			as, _ := pl.planWork(vr, w, true)
			for _, a := range as {
				cands = append(cands, candidate{vr, a})
			}
		}
		return cands, false
	}
	for i, vr := range failed {
		res.Dropped++
		step.Dropped++
		reason := reasons[i]
		if len(cands) == 0 {
			reason += "; no variant left: the algorithm ends (the paper's stop)"
		}
		res.Events = append(res.Events, VariantEvent{Variant: vr.id, Work: w.Rank, Status: "dropped", Reason: reason})
	}
	if len(cands) == 0 {
		step.PlannedBy = PlannedByNone
		return nil, true
	}
	return cands, false
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

// prune keeps the maxVariants best variants by partial criterion (ties to
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
	if len(next) > pl.maxVariants {
		for _, v := range next[pl.maxVariants:] {
			res.Pruned++
			if res.Pruned <= 50 {
				res.Events = append(res.Events, VariantEvent{Variant: v.id, Work: w.Rank, Status: "pruned", Reason: fmt.Sprintf("over the cap of %d variants (worse partial criterion; the cap is ours)", pl.maxVariants)})
			}
		}
		next = next[:pl.maxVariants]
	}
	return next
}

// Reasons a variant is struck out at collision resolution.
const FailCollision = "collision left unresolved: no representative, or no processor (and, under the time readings, no time inside the task's frame) where the task fits (the paper's exceptional situation)"

// FailReserve strikes a variant out under reading reserve.
const FailReserve = "collision left unresolved, and shifting the tasks after it inside the works' reserve ends after the deadline (the paper's exceptional situation)"

// chooseVariant resolves the collisions of every variant left. Without
// fallback a variant with a collision left is struck out and the rest keep
// their a-priori times (the paper's output); with fallback each variant is
// realized. The best by the criterion (then makespan, or cost under
// makespan) goes in res; when none is left, res.Stopped.
func (pl *planner) chooseVariant(ctx context.Context, vars []*variant, res *PlanResult) error {
	crit := pl.crit
	type done struct {
		d     *DAG
		vr    *variant
		plan  Schedule
		s     Schedule
		cols  []Collision
		cap   bool
		score [2]float64
	}
	var best, bestFailed *done
	for _, vr := range vars {
		if err := ctx.Err(); err != nil {
			return err
		}
		plan := partialSchedule(vr)
		rs, err := resolveCollisions(ctx, pl.d, vr, crit, pl.horizon, pl.reading)
		if err != nil {
			return err
		}
		d := extendDAG(pl.d, rs.Types)
		unresolved := rs.unresolved()
		var s Schedule
		shifted := false
		if unresolved && !res.Fallback && pl.reading == CollisionReserve && !rs.Capped {
			// Reading reserve: the tasks left in collision go where they
			// finish first, the tasks after them shift later, inside the
			// works' reserve: the variant stands if all ends by D.
			s = realize(d, rs.Proc, rs.Start, rs.Flex)
			if s.Makespan() <= pl.horizon+tol(pl.horizon) {
				unresolved, shifted = false, true
				for i := range rs.Collisions {
					if rs.Collisions[i].Outcome == OutcomeReplaced {
						rs.Collisions[i].Outcome = OutcomeShifted
					}
				}
			}
		}
		switch {
		case shifted:
		case res.Fallback:
			s = realize(d, rs.Proc, rs.Start, rs.Flex)
		default:
			s = Schedule{Proc: rs.Proc, Start: rs.Start, Finish: make([]float64, d.N)}
			for v := range d.N {
				s.Finish[v] = s.Start[v] + d.T[v][s.Proc[v]]
			}
		}
		dn := &done{d: d, vr: vr, plan: plan, s: s, cols: rs.Collisions, cap: rs.Capped}
		switch crit {
		case CriterionCost:
			dn.score = [2]float64{s.Cost(d), s.Makespan()}
		case CriterionLoad:
			dn.score = [2]float64{-s.LoadMean(d), s.Makespan()}
		default:
			dn.score = [2]float64{s.Makespan(), s.Cost(d)}
		}
		better := func(b *done) bool {
			return b == nil || dn.score[0] < b.score[0]-1e-9 || (dn.score[0] <= b.score[0]+1e-9 && dn.score[1] < b.score[1]-1e-9)
		}
		if unresolved && !res.Fallback {
			res.Dropped++
			res.CollisionDropped++
			res.Events = append(res.Events, VariantEvent{Variant: vr.id, Status: "dropped", Reason: collisionFail(pl.reading)})
			if better(bestFailed) {
				bestFailed = dn
			}
			continue
		}
		res.Kept++
		res.Events = append(res.Events, VariantEvent{Variant: vr.id, Status: "kept",
			Reason: fmt.Sprintf("makespan %.4g, cost %.4g, load %.3f after collision resolution", s.Makespan(), s.Cost(d), s.LoadMean(d))})
		if better(best) {
			best = dn
		}
	}
	pick := best
	if best == nil {
		// Every variant struck out at collision resolution: no variant left.
		pick, res.Stopped = bestFailed, true
		res.Partial = pick.s
	} else {
		res.Schedule, res.Complete = pick.s, true
	}
	res.Planned, res.Collisions, res.PairsCapped, res.Chosen, res.D = pick.plan, pick.cols, pick.cap, pick.vr.id, pick.d
	for i := range res.Events {
		if res.Events[i].Status == "kept" && res.Events[i].Variant == pick.vr.id {
			res.Events[i].Status = "kept (chosen)"
		}
	}
	return nil
}

// resolveWork is collision resolution under the per-work reading, after
// work w was planned on every variant: each variant's collisions are
// resolved now (tasks move inside their time frames); a variant with a
// collision left is struck out here. It returns the variants kept.
func (pl *planner) resolveWork(ctx context.Context, vars []*variant, w Work, res *PlanResult, step *WorkStep, pre map[*variant]*variant) ([]*variant, error) {
	kept := vars[:0:0]
	for _, vr := range vars {
		rs, err := resolveCollisions(ctx, pl.d, vr, pl.crit, pl.horizon, pl.reading)
		if err != nil {
			return nil, err
		}
		unresolved := rs.unresolved()
		if unresolved && res.Fallback {
			// Our fallback keeps every variant: what stays in collision
			// is placed at realization.
			kept = append(kept, vr)
			continue
		}
		if unresolved {
			reason := FailCollision
			if pre[vr] != nil {
				// Reading replan: before the variant is struck out, the
				// work is planned again on its processors' free times.
				nv := pre[vr].clone(vr.id)
				as, why := pl.replanWork(nv, w)
				if why == "" {
					pl.apply(nv, as[0])
					res.Replanned++
					res.Events = append(res.Events, VariantEvent{Variant: vr.id, Work: w.Rank, Status: "replanned",
						Reason: "a collision left unresolved; the work was planned again on the processors' free times (reading replan)"})
					kept = append(kept, nv)
					continue
				}
				reason = fmt.Sprintf("a collision left unresolved, and re-planning the work on the processors' free times failed (%s)", why)
			} else if len(kept) == 0 && vr == vars[len(vars)-1] {
				reason += "; no variant left: the algorithm ends (the paper's stop)"
			}
			res.Dropped++
			res.CollisionDropped++
			step.Dropped++
			res.Events = append(res.Events, VariantEvent{Variant: vr.id, Work: w.Rank, Status: "dropped", Reason: reason})
			continue
		}
		vr.obj = 0
		for v := range pl.d.N {
			if vr.proc[v] < 0 {
				continue
			}
			vr.proc[v], vr.start[v], vr.finish[v] = rs.Proc[v], rs.Start[v], rs.Start[v]+pl.d.T[v][rs.Proc[v]]
			pl.addObj(vr, v)
		}
		kept = append(kept, vr)
	}
	if len(kept) == 0 {
		step.PlannedBy = PlannedByNone
	}
	return kept, nil
}

// resolution is what collision resolution made of one variant.
type resolution struct {
	Proc       []int       // the processor of every task
	Start      []float64   // the priority for realization: the planned start
	Flex       []bool      // tasks left in collision, placed freely at realization
	Collisions []Collision // the pairs found, with their outcomes
	Capped     bool        // the pairs stopped at maxPairs
	Types      []int       // per processor instance, the platform processor it copies (len > d.M: scale-out added some)
}

// unresolved reports a collision left (or the pairs capped).
func (r *resolution) unresolved() bool {
	return r.Capped || slices.ContainsFunc(r.Collisions, func(c Collision) bool { return c.Outcome == OutcomeReplaced })
}

// resolveCollisions is the seed's step 4 on one variant (see PlanCriticalWorks), in
// phases: find the pairs planned on one processor at overlapping times;
// choose representatives on the bipartite graph of the pairs; in each pair
// the heavier task keeps the processor (the losers); move the losers where
// the reading lets them go; record each pair's outcome. Tasks not yet
// planned (processor −1, under per-work) are ignored.
func resolveCollisions(ctx context.Context, d *DAG, vr *variant, crit string, horizon float64, reading string) (*resolution, error) {
	occ := newOccupancy(d, vr, horizon, reading)
	res := &resolution{Proc: occ.proc, Start: occ.start, Flex: make([]bool, d.N)}
	res.Collisions, res.Capped = findCollisions(d, vr, occ)
	res.Types = occ.typ
	if len(res.Collisions) == 0 {
		res.Collisions = nil
		return res, nil
	}
	// The paper applies its procedure iteratively: the pairs a round
	// leaves are resolved again while some task still moves (a move only
	// goes where the task fits, so it creates no new pair).
	cols := res.Collisions
	rounds := maxCollisionRounds
	if reading != CollisionIdle && reading != CollisionNew {
		// A moved task never collides again, so every round with a move
		// takes one task out of collision: d.N rounds are enough.
		rounds = max(rounds, d.N)
	}
	for round := 0; round < rounds && len(cols) > 0; round++ {
		// Bipartite graph X (caused) – Y (placed).
		xAdj := map[int][]int{}
		var xs []int
		for _, c := range cols {
			if xAdj[c.X] == nil {
				xs = append(xs, c.X)
			}
			xAdj[c.X] = append(xAdj[c.X], c.Y)
		}
		rep := Representatives(xs, xAdj, occ.weight)
		moved, err := occ.moveLosers(ctx, occ.losers(xs, rep), crit)
		if err != nil {
			return nil, err
		}
		if moved == 0 {
			break
		}
		cols, _ = findCollisions(d, vr, occ)
	}
	res.Types = occ.typ
	markOutcomes(d, res, vr.start)
	return res, nil
}

// maxCollisionRounds bounds the rounds of collision resolution under the
// literal reading and scale-out.
const maxCollisionRounds = 10

// findCollisions lists, on each processor, every later-planned task that
// overlaps an earlier one (X the later in planning order, Y the earlier),
// at most maxPairs of them (capped: more were left out).
func findCollisions(d *DAG, vr *variant, occ *occupancy) (cols []Collision, capped bool) {
	start, fin := occ.start, occ.fin
	for p, ts := range occ.occ {
		for i := 0; i < len(ts) && !capped; i++ {
			a := ts[i]
			for j := i + 1; j < len(ts); j++ {
				b := ts[j]
				if start[b] >= fin[a]-eps*max(1, fin[a]) {
					break
				}
				ov := min(fin[a], fin[b]) - start[b]
				// A zero-length task strictly inside another also collides.
				zeroInside := fin[b]-start[b] <= eps*max(1, fin[b]) && start[b] > start[a]+eps*max(1, start[b])
				if ov <= eps*max(1, fin[a]) && !zeroInside {
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
// processor and times of every planned task, and per processor its tasks
// by start with the longest task there, so "is q free during [s, s+T)?"
// scans only the tasks starting in (s − longest, s + T).
type occupancy struct {
	d          *DAG
	proc       []int
	start, fin []float64
	occ        [][]int   // per processor, its tasks by start
	longest    []float64 // per processor, its longest task
	horizon    float64
	// typ is the platform processor each processor instance is a copy of;
	// instances past d.M are new ones scale-out added.
	typ      []int
	reading  string
	scaleOut bool
}

func newOccupancy(d *DAG, vr *variant, horizon float64, reading string) *occupancy {
	o := &occupancy{d: d, proc: slices.Clone(vr.proc), start: slices.Clone(vr.start), fin: slices.Clone(vr.finish),
		occ: make([][]int, d.M), longest: make([]float64, d.M), horizon: horizon, typ: make([]int, d.M),
		reading: reading, scaleOut: reading == CollisionNew}
	for q := range d.M {
		o.typ[q] = q
	}
	for v := range d.N {
		if p := o.proc[v]; p >= 0 {
			o.occ[p] = append(o.occ[p], v)
			o.longest[p] = max(o.longest[p], o.fin[v]-o.start[v])
		}
	}
	for q := range o.occ {
		slices.SortFunc(o.occ[q], o.byStart)
	}
	return o
}

// latest is the end of v's time frame: each planned successor's start
// less the transfer (transfers always count, as in planning) and the
// deadline. Successors keep their times or move later, never earlier
// than their own frame allows, so a task ending by latest keeps every
// precedence.
func (o *occupancy) latest(v int) float64 {
	l := o.horizon
	for _, a := range o.d.Succ[v] {
		if o.proc[a.To] >= 0 {
			l = min(l, o.start[a.To]-a.Comm)
		}
	}
	return l
}

// earliest is the start of v's time frame: each planned predecessor's
// finish plus the transfer.
func (o *occupancy) earliest(v int) float64 {
	e := 0.0
	for _, a := range o.d.Pred[v] {
		if o.proc[a.To] >= 0 {
			e = max(e, o.fin[a.To]+a.Comm)
		}
	}
	return e
}

// weight is a task's planned time on its current processor.
func (o *occupancy) weight(v int) float64 { return o.fin[v] - o.start[v] }

func (o *occupancy) byStart(a, b int) int { return cmp.Or(cmp.Compare(o.start[a], o.start[b]), a-b) }

// slot is where v can run on q under the reading, the earliest start
// (ok false: nowhere). idle and new: only at its planned start (the
// literal reading); shift: the earliest start in its time frame
// [earliest, latest − T]; delay: the same from its planned start on.
func (o *occupancy) slot(v, q int) (float64, bool) {
	dur := o.d.T[v][o.typ[q]]
	lo := o.start[v]
	if o.reading == CollisionShift || o.reading == CollisionPerWork || o.reading == CollisionReplan || o.reading == CollisionReserve {
		lo = o.earliest(v)
	}
	hi := o.latest(v) - dur
	if lo > hi+tol(hi) {
		return 0, false
	}
	t := lo
	i, _ := slices.BinarySearchFunc(o.occ[q], lo-o.longest[q]-eps*max(1, lo), func(u int, x float64) int {
		if o.start[u] < x {
			return -1
		}
		return 1
	})
	for _, u := range o.occ[q][i:] {
		if u == v || o.fin[u] <= t+tol(t) {
			continue
		}
		if o.start[u] >= t+dur-tol(t+dur) {
			break
		}
		// u overlaps [t, t+dur): the earliest start is after it.
		if o.reading == CollisionIdle || o.reading == CollisionNew {
			return 0, false
		}
		t = max(t, o.fin[u])
		if t > hi+tol(hi) {
			return 0, false
		}
	}
	return t, true
}

// move puts v on q from start t.
func (o *occupancy) move(v, q int, t float64) {
	from := o.proc[v]
	i, _ := slices.BinarySearchFunc(o.occ[from], v, o.byStart)
	o.occ[from] = slices.Delete(o.occ[from], i, i+1)
	o.proc[v] = q
	o.start[v] = t
	o.fin[v] = t + o.d.T[v][o.typ[q]]
	j, _ := slices.BinarySearchFunc(o.occ[q], v, o.byStart)
	o.occ[q] = slices.Insert(o.occ[q], j, v)
	o.longest[q] = max(o.longest[q], o.fin[v]-o.start[v])
}

// options lists the processors v can go to: under the literal reading
// and scale-out the other processors free at its planned time; under the
// time readings also its own, later or earlier inside its frame.
func (o *occupancy) options(v int) []int {
	var opts []int
	own := o.reading != CollisionIdle && o.reading != CollisionNew
	for q := range o.occ {
		if q == o.proc[v] && !own {
			continue
		}
		if _, ok := o.slot(v, q); ok {
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
			// No representative: x is not chosen at step 2, so step 3
			// looks for a processor for it.
			losers = append(losers, x)
			continue
		}
		if o.weight(x) > o.weight(y) {
			if len(o.options(y)) > 0 || o.newType(y) >= 0 {
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

// moveLosers is step 3: losers onto the processors the reading allows,
// the task with fewest options first. Literal and scale-out: each to its
// lightest option (time, or cost under the cost criterion) at its
// planned start; time readings: each to the earliest start its options
// give, ties to the lightest.
func (o *occupancy) moveLosers(ctx context.Context, losers []int, crit string) (int, error) {
	nopt := map[int]int{}
	for _, v := range losers {
		nopt[v] = len(o.options(v))
	}
	slices.SortStableFunc(losers, func(a, b int) int { return nopt[a] - nopt[b] })
	timed := o.reading != CollisionIdle && o.reading != CollisionNew
	moved := 0
	for k, v := range losers {
		if k%256 == 0 && ctx.Err() != nil {
			return moved, ctx.Err()
		}
		bestQ, bestT, bestW := -1, math.Inf(1), math.Inf(1)
		for _, q := range o.options(v) {
			t, _ := o.slot(v, q)
			w := o.d.T[v][o.typ[q]]
			if crit == CriterionCost {
				w *= o.d.Price[o.typ[q]]
			}
			if !timed {
				t = 0
			}
			if t < bestT-tol(t) || (t <= bestT+tol(t) && w < bestW) {
				bestQ, bestT, bestW = q, t, w
			}
		}
		if bestQ >= 0 {
			bestT, _ = o.slot(v, bestQ)
		} else if t := o.newType(v); t >= 0 {
			// No processor of the configuration is free: with scale-out,
			// a processor not used in the computation joins it (step 3).
			bestQ, bestT = len(o.occ), o.start[v]
			o.typ = append(o.typ, t)
			o.occ = append(o.occ, nil)
			o.longest = append(o.longest, 0)
		}
		if bestQ >= 0 {
			o.move(v, bestQ, bestT)
			moved++
		}
	}
	return moved, nil
}

// newType is, under scale-out, the platform processor a new copy of
// which would take v inside its time frame, the fastest (−1: none, or no
// scale-out).
func (o *occupancy) newType(v int) int {
	if !o.scaleOut {
		return -1
	}
	best := -1
	for t := range o.d.M {
		if f := o.start[v] + o.d.T[v][t]; f <= o.latest(v)+tol(f) && (best < 0 || o.d.T[v][t] < o.d.T[v][best]) {
			best = t
		}
	}
	return best
}

// markOutcomes records which task of each pair moved, or that neither
// did: then X stays in collision (Flex) and is re-placed at realization.
func markOutcomes(d *DAG, res *resolution, planned []float64) {
	where := func(v int) string {
		at := instanceID(d, res.Types, res.Proc[v])
		if math.Abs(res.Start[v]-planned[v]) > tol(planned[v]) {
			at += fmt.Sprintf(" at %.4g", res.Start[v])
		}
		return fmt.Sprintf("%s moved to %s", d.G.Tasks[v].ID, at)
	}
	moved := func(v, p int) bool {
		return res.Proc[v] != p || math.Abs(res.Start[v]-planned[v]) > tol(planned[v])
	}
	for i := range res.Collisions {
		c := &res.Collisions[i]
		switch {
		case moved(c.X, c.Proc):
			c.Outcome = where(c.X)
		case moved(c.Y, c.Proc):
			c.Outcome = where(c.Y)
		default:
			c.Outcome = OutcomeReplaced
			res.Flex[c.X] = true
		}
	}
}

// OutcomeReplaced is the outcome of a collision no processor move
// resolved: the paper's variant strikes the variant out; the fallback
// variant places the later-planned task at realization on the processor
// where it finishes first.
const OutcomeReplaced = "unresolved: no move the reading allows resolved it"

// OutcomeShifted is the outcome, under reading reserve, of a collision
// the moves left: the later-planned task went where it finishes first
// and the tasks after it shifted later, all ending by the deadline.
const OutcomeShifted = "placed where it finishes first, the tasks after it shifted inside the reserve (reading reserve)"

// instanceID names processor instance q: a platform processor's id, or
// for a copy scale-out added, "<id>+k" (the k-th copy).
func instanceID(d *DAG, typ []int, q int) string {
	if q < d.M {
		return d.G.Processors[q].ID
	}
	k := 0
	for r := d.M; r <= q; r++ {
		if typ[r] == typ[q] {
			k++
		}
	}
	return fmt.Sprintf("%s+%d", d.G.Processors[typ[q]].ID, k)
}

// extendDAG is d on the processor instances typ (typ[q] = the platform
// processor instance q copies): d itself when there are no copies.
func extendDAG(d *DAG, typ []int) *DAG {
	if len(typ) <= d.M {
		return d
	}
	e := *d
	g := *d.G
	e.G, e.M = &g, len(typ)
	g.Processors = slices.Clone(d.G.Processors)
	e.Price = slices.Clone(d.Price)
	for q := d.M; q < len(typ); q++ {
		pr := d.G.Processors[typ[q]]
		pr.ID = instanceID(d, typ, q)
		g.Processors = append(g.Processors, pr)
		e.Price = append(e.Price, d.Price[typ[q]])
	}
	e.T = make([][]float64, d.N)
	for i := range d.N {
		row := make([]float64, len(typ))
		for q, t := range typ {
			row[q] = d.T[i][t]
		}
		e.T[i] = row
	}
	if d.G.Times != nil {
		g.Times = e.T
	}
	return &e
}

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
	byWeight := func(a, b int) int { return cmp.Or(cmp.Compare(weight(a), weight(b)), a-b) }
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
