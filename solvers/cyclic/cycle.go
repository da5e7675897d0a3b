package cyclic

import (
	"context"
	"fmt"
	"math/rand"
	"slices"
)

// SimConfig is a simulation's settings: a run's Config resolved for a
// variant, or an experiment of the reproduce.
type SimConfig struct {
	Variant    string  // VariantCSS or VariantFair
	Strategy   string  // a VO strategy (Strategies)
	K          int     // sub-batches (fair only); ≥ 1
	Shift      bool    // apply the shift heuristic after the choice
	Limit      float64 // g* per batch; ≤ 0: the seed's eq. (2)/(4) rule
	Cycles     int     // planning cycles
	GanttCycle int     // cycle whose plan is kept for the Gantt (1-based)
	Depth      int     // backfill: reservations per pass (DepthInf: every waiting job)
	// EarlyMin > 0 turns early completion on: a job runs U[EarlyMin, 1]
	// of its reserved time (EarlyFraction of Seed and its id).
	EarlyMin float64
	Seed     int64
	// Early, when set with EarlyMin > 0, replaces the U[EarlyMin, 1] law:
	// a trace's jobs run their recorded share of the estimate.
	Early func(*Job) float64
	// combined: the share N_css / N of the batch the fair-share model
	// plans, chosen by Priority; the rest is backfilled (Depth).
	Share    float64
	Priority string
	// Independent: a job with no plan is a failure of its cycle and is
	// not carried to the next (the seed's «5000 независимых циклов»);
	// otherwise it is carried.
	Independent bool
	// TrackNode > 0 keeps node TrackNode − 1's VO processor time of every
	// cycle in CycleStats.Tracked (Table 2's owner, per cycle).
	TrackNode int
}

// JobPlan is one job's fate in a cycle.
type JobPlan struct {
	Job     Job
	Waited  int      // cycles it was postponed before this one
	Alts    []Window // its alternatives (disjoint from each other and from other jobs' of the same sub-batch)
	Chosen  int      // index into Alts, −1: postponed
	Planned Window   // the committed window (after shift when shifting)
	// Actual is the window as run: its start and each node's time actually
	// used (early completion). Empty (no Nodes) means as Planned.
	Actual Window
}

// CyclePlan is what a planner made of one cycle.
type CyclePlan struct {
	Jobs   []JobPlan
	Limits []float64 // the limit of each sub-batch's choice
	Raised int       // sub-batches whose limit was raised to admit a combination
}

// Planner plans one cycle's batch (in priority order) on d, which holds the
// owners' local jobs; on return d holds the committed windows too. d,
// batch and waited stay the caller's: a planner keeps none of them. The
// plan may live in the planner's buffers: it is valid until the planner's
// next Plan (clonePlan keeps one). The
// job/cycle loop (Simulate) is open to any planner: CSS and fair here, a
// backfilling planner over the same Domain later.
type Planner interface {
	Plan(ctx context.Context, d *Domain, batch []Job, waited []int) (*CyclePlan, error)
}

// BatchPlanner is the CSS / fair-share planner of one cycle. The batch
// (Simulate: carried jobs, longest-waiting first, then the new ones) is
// cut into K contiguous sub-batches, larger first (SubBatches; css: K = 1).
// Per sub-batch, alternatives are searched round after round, one more
// disjoint window per job each round: css by first fit (the earliest
// start, slots in scan order — slot start, then node index — the m
// cheapest if those exceed the budget), fair by AEP on the job's own
// criterion (exact: see searcher.find; tests compare it with enumeration
// and a plain scan). The choice is Choose's exact DP under the VO
// strategy (income eq. 10, runtime eq. 11, proctime = eq. 11 on processor
// time as in Fig. 3, cost eq. 12, idle eq. 13) with g* from eqs. (2), (4)
// per sub-batch (DefaultLimit); a fixed Limit is split by the sub-batch's
// share of the jobs; if nothing fits g* it is raised to Σ each job's least
// g (counted in CyclePlan.Raised); DP ties go to the earlier alternative.
// Shift (§1.4, Domain.Shift) then moves the chosen windows earlier in
// start order; jobs without a window are postponed (carried).
type BatchPlanner struct {
	AEP      bool // fair: AEP by the job's criterion; else first fit
	Strategy string
	K        int
	Shift    bool
	Limit    float64

	// Before, when set, receives the windows before the shift (per job of
	// the last planned batch; zero Window for postponed jobs).
	Before *[]Window

	pool *requestPool
	sr   searcher
	jobs []JobPlan // the plan's jobs, reused
	// scratch of Plan
	reqs      []*Request
	modes     []string
	withAlts  [][]Window
	idx       []int
	chosen    []Window
	chosenJob []int
}

// SubBatches cuts n jobs (priority order) into k contiguous sub-batches of
// sizes as equal as possible, the larger first; returns the cut points.
func SubBatches(n, k int) []int {
	k = max(1, min(k, n))
	cuts := []int{0}
	for i := range k {
		cuts = append(cuts, cuts[i]+n/k+btoi(i < n%k)) // the larger first
	}
	return cuts
}

// Plan implements Planner.
func (p *BatchPlanner) Plan(ctx context.Context, d *Domain, batch []Job, waited []int) (*CyclePlan, error) {
	p.jobs = grow(p.jobs, len(batch))
	cp := &CyclePlan{Jobs: p.jobs}
	for i, j := range batch {
		cp.Jobs[i] = JobPlan{Job: j, Chosen: -1, Waited: waited[i]}
	}
	p.sr.store, p.sr.ints = p.sr.store[:0], p.sr.ints[:0]
	if p.pool == nil {
		p.pool = &requestPool{}
	}
	p.pool.reset()
	cuts := SubBatches(len(batch), p.K)
	p.chosen, p.chosenJob = p.chosen[:0], p.chosenJob[:0]
	defer func() { // the buffers for the next Plan, without stale windows
		clear(p.chosen)
		p.chosen, p.chosenJob = p.chosen[:0], p.chosenJob[:0]
	}()
	for b := 0; b+1 < len(cuts); b++ {
		if err := p.planSubBatch(ctx, d, batch, cp, cuts[b], cuts[b+1], len(cuts)-1); err != nil {
			return nil, err
		}
	}
	if p.Before != nil {
		before := make([]Window, len(batch))
		for i := range cp.Jobs {
			before[i] = cp.Jobs[i].Planned
		}
		*p.Before = before
	}
	if p.Shift && len(p.chosen) > 0 {
		shifted, err := d.Shift(p.chosen)
		if err != nil {
			return nil, err
		}
		for k, i := range p.chosenJob {
			cp.Jobs[i].Planned = shifted[k]
		}
	}
	return cp, nil
}

// planSubBatch plans the jobs batch[lo:hi], one of n sub-batches: their
// alternatives on what is left of d, then the DP choice under the VO
// strategy and the sub-batch's share of the limit; the chosen windows are
// occupied in d and appended to p.chosen (their jobs to p.chosenJob).
func (p *BatchPlanner) planSubBatch(ctx context.Context, d *Domain, batch []Job, cp *CyclePlan, lo, hi, n int) error {
	p.reqs, p.modes = grow(p.reqs, hi-lo), grow(p.modes, hi-lo)
	reqs, modes := p.reqs, p.modes
	for i := lo; i < hi; i++ {
		reqs[i-lo] = p.pool.get(d, &batch[i])
		modes[i-lo] = ModeFirstFit
		if p.AEP {
			modes[i-lo] = batch[i].Criterion
		}
	}
	alts, err := p.sr.alternatives(ctx, d, reqs, modes)
	if err != nil {
		return err
	}
	withAlts, idx := p.withAlts[:0], p.idx[:0]
	if err := d.releaseAlternatives(alts); err != nil {
		return err
	}
	for i, a := range alts {
		cp.Jobs[lo+i].Alts = a
		if len(a) > 0 {
			withAlts = append(withAlts, a)
			idx = append(idx, lo+i)
		}
	}
	p.withAlts, p.idx = withAlts, idx
	if len(withAlts) == 0 {
		return nil
	}
	limit := p.Limit
	if limit > 0 && n > 1 {
		limit = p.Limit * float64(hi-lo) / float64(len(batch))
	}
	ch, err := Choose(withAlts, p.Strategy, limit)
	if err != nil {
		return err
	}
	cp.Limits = append(cp.Limits, ch.Limit)
	if ch.Raised {
		cp.Raised++
	}
	for k, j := range ch.Pick {
		i := idx[k]
		w := cp.Jobs[i].Alts[j]
		if err := d.OccupyWindow(w); err != nil {
			return fmt.Errorf("chosen window of %s: %w", batch[i].ID, err)
		}
		cp.Jobs[i].Chosen = j
		cp.Jobs[i].Planned = w
		p.chosen = append(p.chosen, w)
		p.chosenJob = append(p.chosenJob, i)
	}
	return nil
}

// maxCarried caps the carried queue: past it the longest-waiting jobs are
// dropped (counted), so an overloaded domain cannot grow the batch forever.
func maxCarried(jobsPerCycle int) int { return max(100, 5*jobsPerCycle) }

// CycleSource yields each cycle's local load and new jobs. It recycles:
// the domain given back by Release is the next cycle's, and one random
// source serves every cycle (reseeded as cycleRNG would seed a new one).
type CycleSource struct {
	in    *Instance
	spare *Domain
	rng   *rand.Rand
}

// Release gives back a cycle's domain, which its caller no longer uses.
func (cs *CycleSource) Release(d *Domain) { cs.spare = d }

// domain returns the instance's first-cycle domain, in the spare's memory
// when there is one.
func (cs *CycleSource) domain() *Domain {
	in, d := cs.in, cs.spare
	if d == nil || d.Nodes() != len(in.Nodes) {
		return in.Domain()
	}
	cs.spare = nil
	d.T = in.Interval
	for n, nd := range in.Nodes {
		d.Perf[n], d.Price[n] = nd.Perf, nd.Price
		d.setBusy(n, append(d.busy[n][:0], nd.Busy...))
	}
	return d
}

// Cycle returns cycle c's domain (local jobs busy) and new jobs: cycle 1 is
// the instance's; later cycles are drawn by the instance's generator from
// cycleRNG(seed, c), or repeat cycle 1 (jobs renamed) without one.
func (cs *CycleSource) Cycle(c int) (*Domain, []Job) {
	in := cs.in
	d := cs.domain()
	if c == 1 {
		return d, slices.Clone(in.Jobs)
	}
	if in.Later != nil {
		if c-2 < len(in.Later) {
			return d, slices.Clone(in.Later[c-2])
		}
		return d, nil
	}
	if g := in.Generator; g != nil {
		seed := cycleSeed(g.Seed, c)
		if cs.rng == nil {
			cs.rng = rand.New(rand.NewSource(seed))
		} else {
			cs.rng.Seed(seed)
		}
		for n := range in.Nodes {
			// local jobs past a shorter instance interval are cut
			d.setBusy(n, clip(g.appendLocalJobs(d.busy[n][:0], cs.rng), in.Interval))
		}
		return d, g.NewJobs(cs.rng, c, in.Nodes)
	}
	jobs := slices.Clone(in.Jobs)
	for i := range jobs {
		jobs[i].ID = fmt.Sprintf("c%d-%s", c, jobs[i].ID)
	}
	return d, jobs
}

func clip(b []Interval, T int) []Interval {
	out := b[:0]
	for _, iv := range b {
		if iv.Start >= T {
			break
		}
		iv.End = min(iv.End, T)
		out = append(out, iv)
	}
	return out
}

// CycleStats are one cycle's numbers.
type CycleStats struct {
	Cycle, Batch, Carried, Planned, Postponed, Dropped, Alternatives int
	Start, Runtime, Finish, Cost, ProcTime                           float64 // sums over planned jobs
	Limit                                                            float64 // Σ of the sub-batch limits
	Raised                                                           int
	// ActStart and ActProcTime sum the actual start and processor time
	// over planned jobs (Result.Actual per cycle).
	ActStart, ActProcTime float64
	// ByCrit is the cycle's jobs by their own criterion (criteria order);
	// Unshifted, with shift on, the cycle's windows before the shift
	// (Result.ByCrit and Result.Unshifted per cycle): the per-cycle values
	// the Claims rules take.
	ByCrit    [len(criteria)]CritStats
	Unshifted CritStats
	// Tracked is the VO processor time on SimConfig.TrackNode's node.
	Tracked float64
}

// CritStats accumulate per user criterion (Table 1).
type CritStats struct {
	Jobs, Planned, Alternatives          int
	Start, Runtime, Finish, Cost, ProcTm float64
}

// add counts planned window w.
func (x *CritStats) add(w Window) {
	x.Planned++
	x.Start += float64(w.Start)
	x.Runtime += float64(w.Runtime())
	x.Finish += float64(w.Finish())
	x.Cost += w.Cost
	x.ProcTm += float64(w.ProcTime())
}

// critIndex is c's index in criteria (the last for an unknown one, as
// Result.ByCrit has no other entry either).
func critIndex(c string) int {
	if i := slices.Index(criteria[:], c); i >= 0 {
		return i
	}
	return len(criteria) - 1
}

// Result is a whole run.
type Result struct {
	Cycles    []CycleStats
	ByCrit    map[string]*CritStats
	All       CritStats
	Failures  int       // cycles where some job of the batch got no plan
	Dropped   int       // jobs dropped from an over-long carried queue
	NodeLoad  []float64 // Σ over cycles of VO processor time on each node
	NodeIncom []float64 // Σ over cycles of VO income on each node
	Income    float64   // Σ over cycles of Σ cost
	Raised    int       // sub-batches whose limit was raised
	Gantt     *GanttCycle
	// Actual sums the actual start and runtime over planned jobs (equal to
	// the planned ones without early completion).
	Actual struct{ Start, Runtime, ProcTime float64 }
	// Unshifted, with shift on, is All over the windows as chosen, before
	// the shift: the same run with shift off, for free (the shift changes
	// no choice, and every cycle starts from its own fresh domain).
	Unshifted CritStats
}

// GanttCycle keeps one cycle for drawing.
type GanttCycle struct {
	Cycle  int
	Local  [][]Interval
	Plan   *CyclePlan
	Before []Window // chosen windows before the shift (nil without shift)
}

// Simulate runs cfg.Cycles planning cycles on in with planner p: each
// cycle's batch is the carried jobs (longest-waiting first, then their
// order) followed by the cycle's new jobs; jobs without an alternative are
// carried to the next cycle, unless cfg.Independent.
func Simulate(ctx context.Context, in *Instance, cfg SimConfig, p Planner, before *[]Window, progress func(done, total int, note string)) (*Result, error) {
	sim := newSimulation(in, cfg, before)
	every := max(1, cfg.Cycles/200)
	for c := 1; c <= cfg.Cycles; c++ {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if (c-1)%every == 0 {
			progress(c-1, cfg.Cycles, fmt.Sprintf("cycle %d of %d", c, cfg.Cycles))
		}
		d, fresh := sim.src.Cycle(c)
		var local [][]Interval
		if c == cfg.GanttCycle {
			local = make([][]Interval, d.Nodes())
			for n := range local {
				local[n] = slices.Clone(d.busy[n])
			}
		}
		st := CycleStats{Cycle: c, Carried: len(sim.queue)}
		sim.fillBatch(&st, fresh)
		cp, err := p.Plan(ctx, d, sim.batch, sim.waited)
		if err != nil {
			return nil, err
		}
		sim.tally(cp, d, &st)
		sim.closeCycle(cp, &st)
		sim.src.Release(d) // nothing of the result refers to it
		if c == cfg.GanttCycle {
			g := &GanttCycle{Cycle: c, Local: local, Plan: clonePlan(cp)}
			if cfg.Shift && before != nil {
				g.Before = cloneWindows(*before)
			}
			sim.res.Gantt = g
		}
	}
	progress(cfg.Cycles, cfg.Cycles, "done")
	return sim.res, nil
}

// carriedJob is a job carried to the next cycle with the cycles it waited.
type carriedJob struct {
	job    Job
	waited int
}

// simulation is the state Simulate keeps from cycle to cycle: the source
// of the cycles' domains, the result so far and the carried queue (batch
// and waited are the planner's input, reused).
type simulation struct {
	cfg      SimConfig
	before   *[]Window // the planner's pre-shift windows, or nil
	src      *CycleSource
	res      *Result
	queue    []carriedJob
	batch    []Job
	waited   []int
	perCycle int                // the most new jobs of a cycle
	early    func(*Job) float64 // the early-completion law, or nil
}

func newSimulation(in *Instance, cfg SimConfig, before *[]Window) *simulation {
	sim := &simulation{cfg: cfg, before: before, src: &CycleSource{in: in}, perCycle: len(in.Jobs),
		res: &Result{ByCrit: map[string]*CritStats{}, NodeLoad: make([]float64, len(in.Nodes)), NodeIncom: make([]float64, len(in.Nodes))}}
	for _, c := range criteria {
		sim.res.ByCrit[c] = &CritStats{}
	}
	if in.Generator != nil {
		sim.perCycle = max(sim.perCycle, in.Generator.Jobs)
	}
	for _, js := range in.Later {
		sim.perCycle = max(sim.perCycle, len(js))
	}
	if cfg.EarlyMin > 0 {
		sim.early = cfg.earlyLaw()
	}
	return sim
}

// fillBatch makes the cycle's batch: the carried jobs (beyond the cap the
// longest-waiting are dropped, counted in st) followed by the new ones.
func (sim *simulation) fillBatch(st *CycleStats, fresh []Job) {
	if lim := maxCarried(sim.perCycle); len(sim.queue) > lim {
		st.Dropped = len(sim.queue) - lim
		sim.queue = sim.queue[st.Dropped:]
	}
	sim.batch, sim.waited = sim.batch[:0], sim.waited[:0] // no planner keeps them
	for _, q := range sim.queue {
		sim.batch = append(sim.batch, q.job)
		sim.waited = append(sim.waited, q.waited)
	}
	for _, j := range fresh {
		sim.batch = append(sim.batch, j)
		sim.waited = append(sim.waited, 0)
	}
	st.Batch = len(sim.batch)
}

// tally adds the plan's jobs to the statistics and carries the postponed
// ones.
func (sim *simulation) tally(cp *CyclePlan, d *Domain, st *CycleStats) {
	res := sim.res
	sim.queue = sim.queue[:0]
	for i := range cp.Jobs {
		jp := &cp.Jobs[i] // not a copy per job: &jp.Job below would move each to the heap
		acc := [...]*CritStats{res.ByCrit[jp.Job.Criterion], &st.ByCrit[critIndex(jp.Job.Criterion)], &res.All}
		for _, x := range acc {
			x.Jobs++
			x.Alternatives += len(jp.Alts)
		}
		st.Alternatives += len(jp.Alts)
		if jp.Chosen < 0 {
			st.Postponed++
			if !sim.cfg.Independent {
				sim.queue = append(sim.queue, carriedJob{jp.Job, jp.Waited + 1})
			}
			continue
		}
		w := jp.Planned
		act := jp.Actual
		if act.Nodes == nil {
			act = w
			if sim.early != nil {
				act = w.Scaled(sim.early(&jp.Job))
			}
		}
		res.Actual.Start += float64(act.Start)
		res.Actual.Runtime += float64(act.Runtime())
		res.Actual.ProcTime += float64(act.ProcTime())
		st.ActStart += float64(act.Start)
		st.ActProcTime += float64(act.ProcTime())
		st.Planned++
		st.Start += float64(w.Start)
		st.Runtime += float64(w.Runtime())
		st.Finish += float64(w.Finish())
		st.Cost += w.Cost
		st.ProcTime += float64(w.ProcTime())
		for _, x := range acc {
			x.add(w)
		}
		for i, n := range w.Nodes {
			if n == sim.cfg.TrackNode-1 {
				st.Tracked += float64(w.Times[i])
			}
			res.NodeLoad[n] += float64(w.Times[i])
			res.NodeIncom[n] += d.Price[n] * float64(w.Times[i])
		}
	}
}

// closeCycle adds the pre-shift windows, the limits and the cycle's totals
// to the result, and orders the carried queue longest-waiting first.
func (sim *simulation) closeCycle(cp *CyclePlan, st *CycleStats) {
	res := sim.res
	if sim.cfg.Shift && sim.before != nil {
		for i, jp := range cp.Jobs {
			res.Unshifted.Jobs++
			res.Unshifted.Alternatives += len(jp.Alts)
			st.Unshifted.Jobs++
			st.Unshifted.Alternatives += len(jp.Alts)
			if jp.Chosen >= 0 {
				res.Unshifted.add((*sim.before)[i])
				st.Unshifted.add((*sim.before)[i])
			}
		}
	}
	// longest-waiting first, stable
	slices.SortStableFunc(sim.queue, func(a, b carriedJob) int { return b.waited - a.waited })
	for _, l := range cp.Limits {
		st.Limit += l
	}
	st.Raised = cp.Raised
	res.Raised += cp.Raised
	res.Income += st.Cost
	res.Dropped += st.Dropped
	if st.Postponed > 0 {
		res.Failures++
	}
	res.Cycles = append(res.Cycles, *st)
}

// clonePlan copies cp out of its planner's buffers.
func clonePlan(cp *CyclePlan) *CyclePlan {
	c := *cp
	c.Jobs = slices.Clone(cp.Jobs)
	for i := range c.Jobs {
		jp := &c.Jobs[i]
		jp.Alts = cloneWindows(jp.Alts)
		jp.Planned, jp.Actual = cloneWindow(jp.Planned), cloneWindow(jp.Actual)
	}
	c.Limits = slices.Clone(cp.Limits)
	return &c
}

func cloneWindow(w Window) Window {
	w.Nodes, w.Times = slices.Clone(w.Nodes), slices.Clone(w.Times)
	return w
}

func cloneWindows(ws []Window) []Window {
	out := slices.Clone(ws)
	for i := range out {
		out[i] = cloneWindow(out[i])
	}
	return out
}

// earlyLaw is the early-completion fraction of a job under cfg.
func (cfg SimConfig) earlyLaw() func(*Job) float64 {
	if cfg.Early != nil {
		return cfg.Early
	}
	return EarlyFraction(cfg.Seed, cfg.EarlyMin)
}

// NewBatchPlanner returns the planner of a CSS/fair config; before, when
// not nil, receives the pre-shift windows of each cycle.
func NewBatchPlanner(cfg SimConfig, before *[]Window) *BatchPlanner {
	v, k := variantOf(cfg.Variant), cfg.K
	if v.wholeBatch {
		k = 1
	}
	return &BatchPlanner{AEP: v.aep, Strategy: cfg.Strategy, K: k, Shift: cfg.Shift, Limit: cfg.Limit, Before: before}
}
