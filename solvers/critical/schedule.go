package critical

import (
	"cmp"
	"fmt"
	"math"
	"slices"

	"schedlab/solvers/des"
)

// Schedule places every task on a processor at a start time; it finishes
// at Start + T[task][Proc].
type Schedule struct {
	Proc   []int
	Start  []float64
	Finish []float64
}

func newSchedule(n int) Schedule {
	return Schedule{Proc: make([]int, n), Start: make([]float64, n), Finish: make([]float64, n)}
}

// eps absorbs floating-point rounding in the checks.
const eps = 1e-7

// Makespan is the latest finish.
func (s Schedule) Makespan() float64 {
	m := 0.0
	for _, f := range s.Finish {
		m = max(m, f)
	}
	return m
}

// Check returns an error when s breaks a rule: every task on a processor
// for exactly its time there; a task starts no earlier than each
// predecessor's finish plus the transfer time (0 on the same processor);
// no two tasks overlap on a processor.
func (s Schedule) Check(d *DAG) error {
	if len(s.Proc) != d.N {
		return fmt.Errorf("schedule has %d tasks, graph %d", len(s.Proc), d.N)
	}
	tol := func(x float64) float64 { return eps * max(1, math.Abs(x)) }
	for v := range d.N {
		p := s.Proc[v]
		if p < 0 || p >= d.M {
			return fmt.Errorf("task %s on processor %d of %d", d.G.Tasks[v].ID, p, d.M)
		}
		if s.Start[v] < -eps || math.Abs(s.Finish[v]-s.Start[v]-d.T[v][p]) > tol(s.Finish[v]) {
			return fmt.Errorf("task %s runs [%v, %v) on %s, its time there is %v", d.G.Tasks[v].ID, s.Start[v], s.Finish[v], d.G.Processors[p].ID, d.T[v][p])
		}
		for _, a := range d.Pred[v] {
			ready := s.Finish[a.To]
			if s.Proc[a.To] != p {
				ready += a.Comm
			}
			if s.Start[v] < ready-tol(ready) {
				return fmt.Errorf("task %s starts at %v before its data from %s is ready at %v", d.G.Tasks[v].ID, s.Start[v], d.G.Tasks[a.To].ID, ready)
			}
		}
	}
	byProc := make([][]int, d.M)
	for v := range d.N {
		byProc[s.Proc[v]] = append(byProc[s.Proc[v]], v)
	}
	for p, ts := range byProc {
		slices.SortFunc(ts, func(a, b int) int {
			return cmp.Or(cmp.Compare(s.Start[a], s.Start[b]), cmp.Compare(s.Finish[a], s.Finish[b]), a-b)
		})
		for i := 1; i < len(ts); i++ {
			a, b := ts[i-1], ts[i]
			if s.Start[b] < s.Finish[a]-tol(s.Finish[a]) {
				return fmt.Errorf("tasks %s [%v, %v) and %s [%v, %v) overlap on %s", d.G.Tasks[a].ID, s.Start[a], s.Finish[a], d.G.Tasks[b].ID, s.Start[b], s.Finish[b], d.G.Processors[p].ID)
			}
		}
	}
	return nil
}

// Cost is Σ time on the processor × its price.
func (s Schedule) Cost(d *DAG) float64 {
	c := 0.0
	for v := range d.N {
		c += d.T[v][s.Proc[v]] * d.Price[s.Proc[v]]
	}
	return c
}

// LoadMean is the mean over processors of busy time / makespan (0 for an
// empty makespan): the paper's average processor load.
func (s Schedule) LoadMean(d *DAG) float64 {
	ms := s.Makespan()
	if ms <= 0 {
		return 0
	}
	return busyTime(d, s) / (ms * float64(d.M))
}

// UpwardRank is HEFT's rank_u: mean time over the processors plus the
// largest (mean communication + rank_u) over the successors. With one
// link speed the mean communication time is the edge's transfer time.
func UpwardRank(d *DAG) []float64 {
	r := make([]float64, d.N)
	for i := len(d.Order) - 1; i >= 0; i-- {
		v := d.Order[i]
		m := 0.0
		for _, a := range d.Succ[v] {
			m = max(m, a.Comm+r[a.To])
		}
		r[v] = d.Mean[v] + m
	}
	return r
}

// rankOrder sorts tasks by decreasing upward rank, ties to the lower
// topological position; it is a topological order because rank_u(u) ≥
// rank_u(v) exactly (in floating point too: adding non-negative numbers
// never decreases) for every edge u → v, and equal ranks keep topological
// order.
func rankOrder(d *DAG, r []float64) []int {
	pos := make([]int, d.N)
	for i, v := range d.Order {
		pos[v] = i
	}
	o := make([]int, d.N)
	for i := range o {
		o[i] = i
	}
	// Round to 1e-9 so ranks equal on paper (t3 and t4 of Topcuoglu's
	// example, both 80) compare equal; rounding is monotone, so the order
	// stays topological.
	r = slices.Clone(r)
	for i := range r {
		r[i] = math.Round(r[i]*1e9) / 1e9
	}
	slices.SortFunc(o, func(a, b int) int { return cmp.Or(cmp.Compare(r[b], r[a]), pos[a]-pos[b]) })
	return o
}

// readyTime is when task v's data is on processor p.
func readyTime(d *DAG, s *Schedule, v, p int) float64 {
	t := 0.0
	for _, a := range d.Pred[v] {
		r := s.Finish[a.To]
		if s.Proc[a.To] != p {
			r += a.Comm
		}
		t = max(t, r)
	}
	return t
}

// HEFT is Topcuoglu, Hariri and Wu (2002): tasks by decreasing upward
// rank, each on the processor that gives the earliest finish time, with
// insertion into the earliest idle gap that fits. Ties go to the lower
// processor index. rank_u uses mean times and is rounded to 1e-9, then
// ties go to topological order; the 2002 paper's example gives its
// makespan 80 (tested).
func HEFT(d *DAG) Schedule {
	s := newSchedule(d.N)
	busy := make([][][2]float64, d.M) // sorted intervals per processor
	for _, v := range rankOrder(d, UpwardRank(d)) {
		bestP, bestS, bestF := -1, 0.0, math.Inf(1)
		for p := range d.M {
			ready := readyTime(d, &s, v, p)
			st := insertionStart(busy[p], ready, d.T[v][p])
			if f := st + d.T[v][p]; f < bestF-1e-12 {
				bestP, bestS, bestF = p, st, f
			}
		}
		s.Proc[v], s.Start[v], s.Finish[v] = bestP, bestS, bestF
		busy[bestP] = insertInterval(busy[bestP], bestS, bestF)
	}
	return s
}

// insertionStart is the earliest start ≥ ready of a job of length dur in
// an idle gap of the sorted busy intervals (or after the last one).
func insertionStart(iv [][2]float64, ready, dur float64) float64 {
	t := ready
	for _, b := range iv {
		if t+dur <= b[0]+eps*max(1, b[0]) {
			return t
		}
		t = max(t, b[1])
	}
	return t
}

func insertInterval(iv [][2]float64, s, f float64) [][2]float64 {
	i, _ := slices.BinarySearchFunc(iv, s, func(a [2]float64, t float64) int { return cmp.Compare(a[0], t) })
	return slices.Insert(iv, i, [2]float64{s, f})
}

// List is plain list scheduling: tasks by decreasing upward rank, each on
// the processor that becomes free first (ties to the lower index), started
// when that processor is free and its data has arrived; no insertion.
func List(d *DAG) Schedule {
	s := newSchedule(d.N)
	free := make([]float64, d.M)
	for _, v := range rankOrder(d, UpwardRank(d)) {
		p := 0
		for q := 1; q < d.M; q++ {
			if free[q] < free[p] {
				p = q
			}
		}
		st := max(free[p], readyTime(d, &s, v, p))
		s.Proc[v], s.Start[v], s.Finish[v] = p, st, st+d.T[v][p]
		free[p] = s.Finish[v]
	}
	return s
}

// FastestNode is the FastestNode baseline (ours; the baseline of PISA,
// Coleman and Krishnamachari, IPDPS 2025, and of its SAGA library): every
// task on the fastest processor (least total time over the tasks, ties to
// the lower index), in topological order, back to back; no transfer, all
// being on one processor.
func FastestNode(d *DAG) Schedule {
	s := newSchedule(d.N)
	p, best := 0, math.Inf(1)
	for q := range d.M {
		t := 0.0
		for v := range d.N {
			t += d.T[v][q]
		}
		if t < best {
			p, best = q, t
		}
	}
	now := 0.0
	for _, v := range d.Order {
		s.Proc[v], s.Start[v], s.Finish[v] = p, now, now+d.T[v][p]
		now = s.Finish[v]
	}
	return s
}

// realize turns a processor assignment and a priority (smaller first)
// into a valid schedule: repeatedly the ready task (all predecessors
// placed) of smallest priority starts on its processor when the processor
// is free and its data has arrived; a task marked flex (nil: none) goes
// instead to the processor where it finishes first (its own on ties, then
// the lowest index). Every schedule it returns passes Check.
func realize(d *DAG, proc []int, prio []float64, flex []bool) Schedule {
	s := newSchedule(d.N)
	copy(s.Proc, proc)
	indeg := make([]int, d.N)
	for v := range d.N {
		indeg[v] = len(d.Pred[v])
	}
	h := des.NewHeap(func(x, y int) bool { return prio[x] < prio[y] || prio[x] == prio[y] && x < y }) // ready tasks by (prio, index)
	for v := range d.N {
		if indeg[v] == 0 {
			h.Push(v)
		}
	}
	free := make([]float64, d.M)
	for h.Len() > 0 {
		v := h.Pop()
		p := proc[v]
		st := max(free[p], readyTime(d, &s, v, p))
		if flex != nil && flex[v] {
			for q := range d.M {
				if sq := max(free[q], readyTime(d, &s, v, q)); sq+d.T[v][q] < st+d.T[v][p]-1e-12 {
					p, st = q, sq
				}
			}
			s.Proc[v] = p
		}
		s.Start[v], s.Finish[v] = st, st+d.T[v][p]
		free[p] = s.Finish[v]
		for _, a := range d.Succ[v] {
			indeg[a.To]--
			if indeg[a.To] == 0 {
				h.Push(a.To)
			}
		}
	}
	return s
}

// CheckSchedule is the schedule checker every variant's tests use: s is
// complete and valid on d (Check: each task on a processor of d for
// exactly its time there, a task starting no earlier than each
// predecessor's finish plus the transfer time, 0 on the same processor,
// no two tasks overlapping on a processor), and its makespan is at least
// the lower bound over the processors it uses (LowerBoundOn).
func CheckSchedule(d *DAG, s Schedule) error {
	if err := s.Check(d); err != nil {
		return err
	}
	if len(s.Finish) != d.N {
		return fmt.Errorf("schedule has %d finish times, graph %d tasks", len(s.Finish), d.N)
	}
	used := make([]bool, d.M)
	for _, p := range s.Proc {
		used[p] = true
	}
	lb := LowerBoundOn(d, used)
	if ms := s.Makespan(); ms < lb-eps*max(1, lb) {
		return fmt.Errorf("makespan %v below the lower bound %v over the %d processors used", ms, lb, countTrue(used))
	}
	return nil
}

func countTrue(b []bool) int {
	n := 0
	for _, x := range b {
		if x {
			n++
		}
	}
	return n
}

// LowerBoundOn is the lower bound of a schedule on the processors used
// (used[p]; none: 0): the longest path of each task's fastest time among
// them (transfers vanish on one processor), and the total work over their
// total speed (Σ fastest time among them / their number with a times
// matrix).
func LowerBoundOn(d *DAG, used []bool) float64 {
	if countTrue(used) == 0 {
		return 0
	}
	path, work := boundParts(d, used)
	return max(path, work)
}

// boundParts are the two parts of LowerBoundOn: the path of fastest
// times and the work over the speed, over the processors used.
func boundParts(d *DAG, used []bool) (path, work float64) {
	fast := make([]float64, d.N)
	for v := range d.N {
		fast[v] = math.Inf(1)
		for p := range d.M {
			if used[p] {
				fast[v] = min(fast[v], d.T[v][p])
			}
		}
	}
	ef := make([]float64, d.N)
	for _, v := range d.Order {
		s := 0.0
		for _, a := range d.Pred[v] {
			s = max(s, ef[a.To])
		}
		ef[v] = s + fast[v]
		path = max(path, ef[v])
	}
	if d.G.Times == nil {
		w, sp := 0.0, 0.0
		for _, t := range d.G.Tasks {
			w += t.Volume
		}
		for p, pr := range d.G.Processors {
			if used[p] {
				sp += pr.Performance
			}
		}
		work = w / sp
	} else {
		for _, f := range fast {
			work += f
		}
		work /= float64(countTrue(used))
	}
	return path, work
}
