package cyclic

import (
	"context"
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

func (p *BackfillPlanner) plan(ctx context.Context, d *Domain, batch []Job, waited []int) (*CyclePlan, error) {
	p.jobs = grow(p.jobs, len(batch))
	cp := &CyclePlan{Jobs: p.jobs}
	if p.pool == nil {
		p.pool = &requestPool{}
	}
	p.pool.reset()
	reqs := make([]*Request, len(batch))
	queue := make([]int, len(batch))
	for i := range batch {
		cp.Jobs[i] = JobPlan{Job: batch[i], Chosen: -1, Waited: waited[i]}
		reqs[i] = p.pool.get(d, &batch[i])
		queue[i] = i
	}
	var pending []release
	// resv: batch index → its reservation, held in d. freed counts the
	// changes that give space back; a reservation made since the last one
	// is still the earliest window and is kept as it is (the time saver
	// of conservative backfilling, where every waiting job holds one).
	type held struct {
		w     Window
		freed int
	}
	resv := map[int]held{}
	freed := 0
	sr := &p.sr
	for t := 0; len(queue) > 0; {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		// Completions first: give back the unused tails due by t.
		keep := pending[:0]
		for _, r := range pending {
			if r.at <= t {
				if err := d.Release(r.node, r.iv); err != nil {
					return nil, err
				}
				freed++
			} else {
				keep = append(keep, r)
			}
		}
		pending = keep
		// One pass over the queue. A job holding a reservation gives it
		// back first; its old window is then free, so its new one (start
		// now, or the earliest) is never later.
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
			h, had := resv[i]
			if had && h.freed == freed && h.w.Start > t {
				next = append(next, i) // nothing given back: still the earliest
				continue
			}
			if had {
				if err := d.ReleaseWindow(h.w); err != nil {
					return nil, err
				}
				free += covering(h.w, t)
				delete(resv, i)
			}
			var w Window
			ok := false
			if free >= reqs[i].M {
				w, ok = sr.cheapest(d, reqs[i], t, t+1)
			}
			if ok {
				if err := d.OccupyWindow(w); err != nil {
					return nil, err
				}
				free -= len(w.Nodes)
				if had && !sameWindow(w, h.w) {
					freed++
				}
				cp.Jobs[i].Alts = []Window{w}
				cp.Jobs[i].Chosen = 0
				cp.Jobs[i].Planned = w
				if p.Early != nil {
					f := p.Early(&batch[i])
					for k, n := range w.Nodes {
						if a := max(1, int(math.Ceil(f*float64(w.Times[k])-1e-9))); a < w.Times[k] {
							// Split the slot so that its tail can be given back.
							tail := Interval{t + a, t + w.Times[k]}
							if err := errors.Join(d.Release(n, w.Span(k)), d.Occupy(n, Interval{t, t + a}), d.Occupy(n, tail)); err != nil {
								return nil, err
							}
							pending = append(pending, release{at: t + a, node: n, iv: tail})
						}
					}
				}
				continue
			}
			next = append(next, i)
			if had || p.Depth == DepthInf || len(resv) < p.Depth {
				if w, ok := sr.cheapest(d, reqs[i], t, d.T+1); ok {
					if err := d.OccupyWindow(w); err != nil {
						return nil, err
					}
					free -= covering(w, t) // none: it starts later
					if had && !sameWindow(w, h.w) {
						freed++
					}
					resv[i] = held{w, freed}
					if p.Log != nil {
						*p.Log = append(*p.Log, Reservation{Job: i, At: t, Start: w.Start})
					}
				}
			}
		}
		queue = next
		// The next event: the first busy end or completion after t.
		nt := math.MaxInt
		for n := range d.busy {
			for _, b := range d.busy[n] {
				if b.End > t {
					nt = min(nt, b.End)
					break
				}
			}
		}
		for _, r := range pending {
			nt = min(nt, r.at)
		}
		if nt >= d.T {
			break
		}
		t = nt
	}
	for _, r := range pending {
		if err := d.Release(r.node, r.iv); err != nil {
			return nil, err
		}
	}
	for _, h := range resv { // jobs left waiting at the end of the cycle
		if err := d.ReleaseWindow(h.w); err != nil {
			return nil, err
		}
	}
	return cp, nil
}

// EarlyFraction is the early-completion law: a job runs U[lo, 1] of its
// reserved time, drawn from the run's seed and the job's id, so a job
// carried to a later cycle keeps its draw and every method sees the same.
func EarlyFraction(seed int64, lo float64) func(j *Job) float64 {
	return func(j *Job) float64 {
		h := fnv.New64a()
		var b [8]byte
		for i := range b {
			b[i] = byte(seed >> (8 * i))
		}
		h.Write(b[:])
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
