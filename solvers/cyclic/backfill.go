package cyclic

import (
	"context"
	"encoding/binary"
	"errors"
	"hash/fnv"
	"math"
	"slices"
)

// Backfilling on the slot model (seed §1.1): the batch is a FCFS queue; at
// each event time t (the cycle's start, the end of a busy interval, a
// job's actual completion) one pass walks the queue in order. A job that
// has a window starting exactly at t (on the cheapest m eligible nodes free
// for its whole time on each, within its budget) starts. A job that has
// none gets a reservation, its earliest window given what is running and
// the reservations before it, while fewer than Depth jobs hold one; the
// later jobs may start now only where they do not overlap a reservation.
// A reservation is held across events; at each pass its job gives it back
// and takes the earliest window again, which is never later because the
// old window is free then (the conservative scheme's compression): a job
// starts no later than any start it was promised. Depth 0 keeps
// no reservation (greedy: a small job can overtake the queue head for
// ever); depth 1 protects the queue head (EASY, aggressive backfilling);
// depth −1 (∞) protects every waiting job (conservative).

// DepthInf is the reservation depth of conservative backfilling.
const DepthInf = -1

// BackfillPlanner is the backfilling planner of one cycle.
type BackfillPlanner struct {
	Depth int // reservations kept per pass: 0, 1, …, or DepthInf

	// Early, when set, gives the fraction of its reserved time a job
	// actually runs (in (0, 1]); the rest of each of its slots is freed at
	// its actual completion, an event at which the queue is passed again.
	Early func(j *Job) float64

	// Log, when set, receives every reservation made: the job (batch
	// index), the pass time and the promised start, for replay checks.
	Log *[]Reservation

	pool *requestPool
	sr   searcher
	jobs []JobPlan // the plan's jobs, reused
}

// Reservation is one promise made during a backfilling pass.
type Reservation struct {
	Job, At, Start int
}

// release is a tail of a slot given back at an early completion.
type release struct {
	at   int
	node int
	iv   Interval
}

// Plan implements Planner. Postponed jobs are those that found no window in
// the cycle (Chosen −1). A started job's single alternative is its window
// with the reserved times; Planned is that window. With Early, Planned is
// the window the plan made at the cycle's start gave it (reserved times,
// no completion known yet; the window as run when that plan had none) and
// Actual the window as run after re-planning on every actual completion;
// d then holds the slots as actually used.
func (p *BackfillPlanner) Plan(ctx context.Context, d *Domain, batch []Job, waited []int) (*CyclePlan, error) {
	if p.pool == nil {
		p.pool = &requestPool{}
	}
	if p.Early == nil {
		return p.plan(ctx, d, batch, waited)
	}
	// The plan made at the cycle's start knows only reserved times: run it
	// on a copy; then run the cycle with the actual completions.
	dry := &BackfillPlanner{Depth: p.Depth, pool: p.pool, sr: p.sr} // scratch shared: one after the other
	plan, err := dry.plan(ctx, d.Clone(), batch, waited)
	if err != nil {
		return nil, err
	}
	cp, err := p.plan(ctx, d, batch, waited)
	if err != nil {
		return nil, err
	}
	for i := range cp.Jobs {
		jp := &cp.Jobs[i]
		if jp.Chosen < 0 {
			continue
		}
		jp.Actual = jp.Planned.Scaled(p.Early(&batch[i]))
		if pl := plan.Jobs[i]; pl.Chosen >= 0 {
			jp.Planned = pl.Planned
			jp.Alts = []Window{pl.Planned}
		}
	}
	return cp, nil
}

// backfillPass is the state of one cycle's backfilling: the plan, the
// requests, the tails to give back at early completions (pending) and the
// reservations held (resv: batch index → its reservation, held in d).
// freed counts the changes that give space back; a reservation made since
// the last one is still the earliest window and is kept as it is (the time
// saver of conservative backfilling, where every waiting job holds one).
type backfillPass struct {
	p       *BackfillPlanner
	d       *Domain
	batch   []Job
	cp      *CyclePlan
	reqs    []*Request
	pending []release
	resv    map[int]heldWindow
	freed   int
}

// heldWindow is a reservation with the freed count when it was made.
type heldWindow struct {
	w     Window
	freed int
}

func (p *BackfillPlanner) plan(ctx context.Context, d *Domain, batch []Job, waited []int) (*CyclePlan, error) {
	p.jobs = grow(p.jobs, len(batch))
	p.pool.reset() // Plan made it
	bp := &backfillPass{p: p, d: d, batch: batch, cp: &CyclePlan{Jobs: p.jobs}, reqs: make([]*Request, len(batch)), resv: map[int]heldWindow{}}
	queue := make([]int, len(batch))
	for i := range batch {
		bp.cp.Jobs[i] = JobPlan{Job: batch[i], Chosen: -1, Waited: waited[i]}
		bp.reqs[i] = p.pool.get(d, &batch[i])
		queue[i] = i
	}
	for t := 0; len(queue) > 0; {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		// Completions first: give back the unused tails due by t.
		if err := bp.releaseDue(t); err != nil {
			return nil, err
		}
		var err error
		if queue, err = bp.pass(t, queue); err != nil {
			return nil, err
		}
		nt := bp.nextEvent(t)
		if nt >= d.T {
			break
		}
		t = nt
	}
	if err := bp.releaseAll(); err != nil {
		return nil, err
	}
	return bp.cp, nil
}

func (bp *backfillPass) releaseDue(t int) error {
	keep := bp.pending[:0]
	for _, r := range bp.pending {
		if r.at <= t {
			if err := bp.d.Release(r.node, r.iv); err != nil {
				return err
			}
			bp.freed++
		} else {
			keep = append(keep, r)
		}
	}
	bp.pending = keep
	return nil
}

// pass walks the queue once at t and returns the jobs still waiting. A
// job holding a reservation gives it back first; its old window is then
// free, so its new one (start now, or the earliest) is never later.
func (bp *backfillPass) pass(t int, queue []int) ([]int, error) {
	d := bp.d
	// free counts the nodes free at t: a job starts now only on m of
	// them (a quick no for most of a long queue on a full domain).
	free := 0
	for n := range d.busy {
		if _, ok := d.freeAt(n, Interval{t, t + 1}); ok {
			free++
		}
	}
	next := queue[:0]
	for _, i := range queue {
		h, had := bp.resv[i]
		if had && h.freed == bp.freed && h.w.Start > t {
			next = append(next, i) // nothing given back: still the earliest
			continue
		}
		if had {
			if err := d.ReleaseWindow(h.w); err != nil {
				return nil, err
			}
			free += covering(h.w, t)
			delete(bp.resv, i)
		}
		if free >= bp.reqs[i].M {
			if w, ok := bp.p.sr.cheapest(d, bp.reqs[i], t, t+1); ok {
				if err := bp.start(i, t, w, h, had); err != nil {
					return nil, err
				}
				free -= len(w.Nodes)
				continue
			}
		}
		next = append(next, i)
		if had || bp.p.Depth == DepthInf || len(bp.resv) < bp.p.Depth {
			taken, err := bp.reserve(i, t, h, had)
			if err != nil {
				return nil, err
			}
			free -= taken // none: it starts later
		}
	}
	return next, nil
}

// start starts job i at t in window w (h: the reservation it gave back,
// when had). With Early, each slot is split so that its unused tail can be
// given back at the job's actual completion.
func (bp *backfillPass) start(i, t int, w Window, h heldWindow, had bool) error {
	d := bp.d
	if err := d.OccupyWindow(w); err != nil {
		return err
	}
	if had && !sameWindow(w, h.w) {
		bp.freed++
	}
	jp := &bp.cp.Jobs[i]
	jp.Alts = []Window{w}
	jp.Chosen = 0
	jp.Planned = w
	if bp.p.Early == nil {
		return nil
	}
	f := bp.p.Early(&bp.batch[i])
	for k, n := range w.Nodes {
		if a := max(1, int(math.Ceil(f*float64(w.Times[k])-1e-9))); a < w.Times[k] {
			// Split the slot so that its tail can be given back.
			tail := Interval{t + a, t + w.Times[k]}
			if err := errors.Join(d.Release(n, w.Span(k)), d.Occupy(n, Interval{t, t + a}), d.Occupy(n, tail)); err != nil {
				return err
			}
			bp.pending = append(bp.pending, release{at: t + a, node: n, iv: tail})
		}
	}
	return nil
}

// reserve gives waiting job i its earliest window as a reservation (h: the
// one it gave back, when had) and returns how many of the nodes free at t
// it takes (none: a job that could start at t has started).
func (bp *backfillPass) reserve(i, t int, h heldWindow, had bool) (int, error) {
	w, ok := bp.p.sr.cheapest(bp.d, bp.reqs[i], t, bp.d.T+1)
	if !ok {
		return 0, nil
	}
	if err := bp.d.OccupyWindow(w); err != nil {
		return 0, err
	}
	if had && !sameWindow(w, h.w) {
		bp.freed++
	}
	bp.resv[i] = heldWindow{w, bp.freed}
	if bp.p.Log != nil {
		*bp.p.Log = append(*bp.p.Log, Reservation{Job: i, At: t, Start: w.Start})
	}
	return covering(w, t), nil
}

// nextEvent is the first busy end or completion after t.
func (bp *backfillPass) nextEvent(t int) int {
	nt := math.MaxInt
	for n := range bp.d.busy {
		for _, b := range bp.d.busy[n] {
			if b.End > t {
				nt = min(nt, b.End)
				break
			}
		}
	}
	for _, r := range bp.pending {
		nt = min(nt, r.at)
	}
	return nt
}

// releaseAll gives back, at the end of the cycle, the tails still pending
// and the reservations of the jobs left waiting.
func (bp *backfillPass) releaseAll() error {
	for _, r := range bp.pending {
		if err := bp.d.Release(r.node, r.iv); err != nil {
			return err
		}
	}
	for _, h := range bp.resv {
		if err := bp.d.ReleaseWindow(h.w); err != nil {
			return err
		}
	}
	return nil
}

// EarlyFraction is the early-completion law: a job runs U[lo, 1] of its
// reserved time, drawn from the run's seed and the job's id, so a job
// carried to a later cycle keeps its draw and every method sees the same.
func EarlyFraction(seed int64, lo float64) func(j *Job) float64 {
	return func(j *Job) float64 {
		h := fnv.New64a()
		h.Write(binary.LittleEndian.AppendUint64(nil, uint64(seed)))
		h.Write([]byte(j.ID))
		x := h.Sum64() // FNV mixes short ids poorly: finish with splitmix64
		x ^= x >> 30
		x *= 0xbf58476d1ce4e5b9
		x ^= x >> 27
		x *= 0x94d049bb133111eb
		x ^= x >> 31
		u := float64(x>>11) / (1 << 53)
		return lo + (1-lo)*u
	}
}

// covering is the number of w's slots that contain time t.
func covering(w Window, t int) int {
	c := 0
	for k := range w.Nodes {
		if s := w.Span(k); s.Start <= t && t < s.End {
			c++
		}
	}
	return c
}

// sameWindow reports whether a and b take the same slots.
func sameWindow(a, b Window) bool {
	return a.Start == b.Start && slices.Equal(a.Nodes, b.Nodes) && slices.Equal(a.Times, b.Times)
}
