package batch

import (
	"context"
	"fmt"
	"math"
	"math/bits"
	"slices"
	"sort"

	"schedlab/errs"
	"schedlab/solvers"
	"schedlab/solvers/des"
)

// Policy is a queue policy.
type Policy string

// The policies; see the package doc.
const (
	FCFS         Policy = "fcfs"
	EASY         Policy = "easy"
	Conservative Policy = "conservative"
)

// Job is one rigid parallel job. Times are seconds.
type Job struct {
	ID       int     // the trace's job number, for output
	Submit   float64 // ≥ 0
	Size     int     // processors, 1..P
	Estimate float64 // > 0: the requested time the scheduler plans with
	Run      float64 // > 0: the real runtime (cut at Estimate)
}

// Duration is how long the job holds its processors: its runtime, cut at
// its estimate.
func (j Job) Duration() float64 { return math.Min(j.Run, j.Estimate) }

// Placement is where and when a job ran.
type Placement struct {
	Start, End float64
	Procs      []int // processor ids, ascending
}

// Reservation is a start time the scheduler promised a waiting job at time
// Made: the head's shadow time under EASY, every reservation under
// conservative.
type Reservation struct {
	Job   int // index into the jobs
	Made  float64
	Start float64
}

// Result is a simulated schedule: Placements[i] is where jobs[i] ran.
type Result struct {
	P            int
	Policy       Policy
	Placements   []Placement
	Reservations []Reservation
	Capped       int // jobs whose runtime exceeded their estimate and were cut
	Passes       int // scheduling passes
}

// running is a started job in the completion heap.
type running struct {
	job    int
	end    float64 // actual end
	estEnd float64 // start + estimate: what the scheduler believes
}

// endsFirst orders the completion heap by (end, job): a total order, so
// jobs leave it in the same order whatever the heap's layout.
func endsFirst(a, b running) bool { return a.end < b.end || a.end == b.end && a.job < b.job }

// Validate checks jobs against a machine of p processors; errors name the
// job's index and field.
func Validate(jobs []Job, p int) error {
	if p < 1 {
		return errs.Invalidf("processors", "the machine needs at least 1 processor, got %d", p)
	}
	if len(jobs) == 0 {
		return errs.Invalidf("jobs", "no jobs to simulate")
	}
	for i, j := range jobs {
		f := func(name string) string { return fmt.Sprintf("jobs[%d].%s", i, name) }
		switch {
		case !(j.Submit >= 0) || math.IsInf(j.Submit, 0):
			return errs.Invalidf(f("submit"), "job %d: submit time must be a finite number ≥ 0, got %v", j.ID, j.Submit)
		case j.Size < 1 || j.Size > p:
			return errs.Invalidf(f("size"), "job %d: size must be 1..%d processors, got %d", j.ID, p, j.Size)
		case !(j.Estimate > 0) || math.IsInf(j.Estimate, 0):
			return errs.Invalidf(f("estimate"), "job %d: requested time must be a finite number > 0, got %v", j.ID, j.Estimate)
		case !(j.Run > 0) || math.IsInf(j.Run, 0):
			return errs.Invalidf(f("run"), "job %d: runtime must be a finite number > 0, got %v", j.ID, j.Run)
		}
	}
	return nil
}

// SimulateBytes estimates the memory of Simulate and BuildReport on jobs
// and p processors: per processor its busy flag and Gantt lane; per job its
// order, reservation and placement, its event in the profile, its report
// row; per processor a job holds, its id in the placement.
func SimulateBytes(jobs []Job, p int) int64 {
	sizes := int64(0)
	for _, j := range jobs {
		sizes = solvers.SatAdd(sizes, int64(max(j.Size, 0)))
	}
	return solvers.SatAdd(solvers.SatMul(int64(p), 48), solvers.SatMul(int64(len(jobs)), 512), solvers.SatMul(sizes, 8))
}

// Simulate runs jobs on p processors under pol. Jobs are queued in order of
// submit time, ties in input order. progress (may be nil) hears how many
// jobs have started; ctx is checked every few hundred events.
func Simulate(ctx context.Context, jobs []Job, p int, pol Policy, progress func(done, total int)) (*Result, error) {
	if err := Validate(jobs, p); err != nil {
		return nil, err
	}
	if !slices.Contains([]Policy{FCFS, EASY, Conservative}, pol) {
		return nil, errs.Invalidf("policy", "unknown policy %q (known: fcfs, easy, conservative)", pol)
	}
	n := len(jobs)
	if err := solvers.Reserve(ctx, "procs", SimulateBytes(jobs, p), fmt.Sprintf("%d jobs on %d processors (placements, profile and Gantt lanes)", n, p)); err != nil {
		return nil, err
	}
	order := make([]int, n)
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return jobs[order[a]].Submit < jobs[order[b]].Submit })

	s := &sim{
		jobs: jobs, p: p, pol: pol,
		res:  &Result{P: p, Policy: pol, Placements: make([]Placement, n)},
		ids:  make([]int, 0, min(procsArena, sumSizes(jobs))),
		busy: newBusy(p),
		run:  des.NewHeap(endsFirst),
		prof: newProfile(jobs[order[0]].Submit, p),
		resv: make([]float64, n),
		last: make([]float64, n),
	}
	for i := range s.last {
		s.last[i] = math.NaN()
	}
	if pol == Conservative {
		s.res.Reservations = make([]Reservation, 0, n) // every job gets one at least
	}
	next := 0 // next arrival in order
	started := 0
	for events := 0; started < n; events++ {
		if events%256 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			if progress != nil {
				progress(started, n)
			}
		}
		// The next event time: an arrival or a completion.
		now := math.Inf(1)
		if next < n {
			now = jobs[order[next]].Submit
		}
		if s.run.Len() > 0 && s.run.Min().end < now {
			now = s.run.Min().end
		}
		if pol == Conservative {
			for _, q := range s.queue {
				now = min(now, s.resv[q]) // a reservation's time comes
			}
		}
		s.prof.advance(now)
		ended := false
		for s.run.Len() > 0 && s.run.Min().end <= now {
			r := s.run.Pop()
			for _, c := range s.res.Placements[r.job].Procs {
				s.busy[c>>6] &^= 1 << (c & 63)
			}
			if r.estEnd > r.end {
				s.prof.add(r.end, r.estEnd, -jobs[r.job].Size) // ended before its estimate
			}
			ended = true
		}
		arrived := s.arrived[:0]
		for next < n && jobs[order[next]].Submit <= now {
			arrived = append(arrived, order[next])
			next++
		}
		s.arrived = arrived
		started += s.pass(now, arrived, ended)
	}
	if progress != nil {
		progress(n, n)
	}
	return s.res, nil
}

// sim is one simulation's state.
type sim struct {
	jobs  []Job
	p     int
	pol   Policy
	res   *Result
	busy  []uint64          // processor ids in use, a bit each (the ids ≥ p are set)
	run   des.Heap[running] // by endsFirst
	queue []int             // waiting jobs in queue order
	prof  *profile
	resv  []float64 // conservative: each waiting job's reservation
	last  []float64 // the last reservation recorded for each job (NaN: none)

	arrived []int // this event's arrivals (reused)
	ids     []int // the processor ids of the placements, carved in chunks
}

// newBusy is the bit set of p processors, all free; the bits past p in
// the last word are set, so no id ≥ p is ever handed out.
func newBusy(p int) []uint64 {
	b := make([]uint64, (p+63)/64)
	if r := p % 64; r != 0 {
		b[len(b)-1] = ^uint64(0) << r
	}
	return b
}

// procsArena is how many processor ids (8 bytes each) a chunk of
// placements' processor lists holds: one allocation per chunk, not one per
// job.
const procsArena = 1 << 16

// sumSizes is Σ size over jobs (saturating).
func sumSizes(jobs []Job) int {
	sum := 0
	for _, j := range jobs {
		sum += max(j.Size, 0)
		if sum < 0 {
			return math.MaxInt
		}
	}
	return sum
}

// pass is one scheduling pass at now; it returns how many jobs started.
func (s *sim) pass(now float64, arrived []int, ended bool) int {
	s.res.Passes++
	if s.pol == Conservative {
		return s.passConservative(now, arrived, ended)
	}
	s.queue = append(s.queue, arrived...)
	startedN := 0
	// FCFS and EASY: start the head while it fits now.
	for len(s.queue) > 0 && s.prof.freeNow() >= s.jobs[s.queue[0]].Size {
		s.start(now, s.queue[0])
		s.queue = s.queue[1:]
		startedN++
	}
	if s.pol == FCFS || len(s.queue) == 0 {
		return startedN
	}
	// EASY: reserve the head at its shadow time, backfill the rest around
	// it, then lift the reservation (it is recomputed every pass).
	head := s.queue[0]
	hj := s.jobs[head]
	shadow := s.prof.earliest(hj.Size, hj.Estimate)
	s.record(head, now, shadow)
	s.prof.add(shadow, shadow+hj.Estimate, hj.Size)
	kept := s.queue[:1]
	for _, q := range s.queue[1:] {
		j := s.jobs[q]
		if s.prof.freeNow() >= j.Size && s.prof.earliest(j.Size, j.Estimate) == now {
			s.start(now, q)
			startedN++
			continue
		}
		kept = append(kept, q)
	}
	s.queue = kept
	s.prof.add(shadow, shadow+hj.Estimate, -hj.Size)
	return startedN
}

// passConservative compresses the reservations after a job ended, gives
// every arrival its reservation, and starts the jobs whose time has come.
// Compressing after every end, not only an early one, matters: an earlier
// compression may have moved a job ahead of the one reserved behind it, so
// an on-time end can free room sooner than the reservations behind it
// assumed.
func (s *sim) passConservative(now float64, arrived []int, ended bool) int {
	if ended {
		for _, q := range s.queue {
			j := s.jobs[q]
			old := s.resv[q]
			if old < s.prof.origin() {
				// Not reached (a reservation's time is an event), kept
				// for safety: give it up, then take the earliest.
				s.prof.add(old, old+j.Estimate, -j.Size)
				t := s.prof.earliest(j.Size, j.Estimate)
				s.resv[q] = t
				s.prof.add(t, t+j.Estimate, j.Size)
				s.record(q, now, t)
				continue
			}
			// The start it would get after giving up its booking, asked
			// without giving it up (see earliestBefore): most jobs stay
			// put, and then neither the profile nor the record changes.
			t := s.prof.earliestBefore(j.Size, j.Estimate, old)
			if t == old {
				continue
			}
			s.prof.add(old, old+j.Estimate, -j.Size)
			s.prof.add(t, t+j.Estimate, j.Size)
			s.resv[q] = t
			s.record(q, now, t)
		}
	}
	for _, q := range arrived {
		j := s.jobs[q]
		t := s.prof.earliest(j.Size, j.Estimate)
		s.resv[q] = t
		s.prof.add(t, t+j.Estimate, j.Size)
		s.record(q, now, t)
		s.queue = append(s.queue, q)
	}
	startedN := 0
	kept := s.queue[:0]
	for _, q := range s.queue {
		if s.resv[q] <= now {
			if s.resv[q] < now {
				// Defensive: a reservation whose time passed without an
				// event (none should) is booked again from now.
				j := s.jobs[q]
				s.prof.add(s.resv[q], s.resv[q]+j.Estimate, -j.Size)
				s.prof.add(now, now+j.Estimate, j.Size)
			}
			s.place(now, q)
			startedN++
			continue
		}
		kept = append(kept, q)
	}
	s.queue = kept
	return startedN
}

// record notes a reservation when it differs from the job's last one.
func (s *sim) record(job int, now, start float64) {
	if s.last[job] == start {
		return
	}
	s.last[job] = start
	s.res.Reservations = append(s.res.Reservations, Reservation{Job: job, Made: now, Start: start})
}

// start books job q on the profile from now and places it.
func (s *sim) start(now float64, q int) {
	s.prof.add(now, now+s.jobs[q].Estimate, s.jobs[q].Size)
	s.place(now, q)
}

// place gives job q the lowest free processor ids and puts it on the
// completion heap. The profile must already hold its booking.
func (s *sim) place(now float64, q int) {
	j := s.jobs[q]
	if cap(s.ids)-len(s.ids) < j.Size {
		s.ids = make([]int, 0, max(procsArena, j.Size))
	}
	k := len(s.ids)
	procs := s.ids[k : k : k+j.Size]
	s.ids = s.ids[:k+j.Size]
	for w := 0; w < len(s.busy) && len(procs) < j.Size; w++ {
		for free := ^s.busy[w]; free != 0 && len(procs) < j.Size; free &= free - 1 {
			b := bits.TrailingZeros64(free)
			s.busy[w] |= 1 << b
			procs = append(procs, w<<6|b)
		}
	}
	if len(procs) < j.Size {
		// The profile said it fits: a broken invariant, not bad input.
		panic(fmt.Sprintf("batch: job %d needs %d processors at %v, only %d free", j.ID, j.Size, now, len(procs)))
	}
	if j.Run > j.Estimate {
		s.res.Capped++
	}
	end := now + j.Duration()
	s.res.Placements[q] = Placement{Start: now, End: end, Procs: procs}
	s.run.Push(running{job: q, end: end, estEnd: now + j.Estimate})
}
