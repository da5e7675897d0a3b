package cyclic

import (
	"context"
	"fmt"
	"math"
	"math/rand"
	"slices"
	"testing"
)

// uniform is a domain of n identical nodes (performance 1, price 1).
func uniform(n, T int) *Domain {
	perf, price := make([]float64, n), make([]float64, n)
	for i := range perf {
		perf[i], price[i] = 1, 1
	}
	return NewDomain(T, perf, price)
}

func starts(t *testing.T, d *Domain, jobs []Job, depth int) []int {
	t.Helper()
	cp, err := (&BackfillPlanner{Depth: depth}).Plan(context.Background(), d, jobs, make([]int, len(jobs)))
	if err != nil {
		t.Fatal(err)
	}
	out := make([]int, len(jobs))
	for i, jp := range cp.Jobs {
		out[i] = -1
		if jp.Chosen >= 0 {
			out[i] = jp.Planned.Start
		}
	}
	return out
}

func job(id string, m int, volume float64) Job {
	return Job{ID: id, Nodes: m, Volume: volume, MinPerf: 1, MaxPrice: 1e9, Criterion: CritStart}
}

// Three identical nodes, the queue J1..J4 in FCFS order. Worked out by hand
// (a window takes the lowest-numbered free nodes, all costing the same):
func TestBackfillHandChecked(t *testing.T) {
	// A. J1 1×10, J2 3×10, J3 1×20, J4 1×5.
	//   depth 0: at 0 J1 takes n0, J2 (3 nodes) cannot start, nobody
	//     protects it, J3 takes n1 for [0,20), J4 n2 for [0,5); J2 waits
	//     until n1 is free at 20.
	//   EASY: at 0 J2 is the head and reserves [10,20) on all three; J3
	//     would overlap it on n1; J4 (5 long) backfills on n1 [0,5). At 10
	//     J2 starts; J3, the new head, reserves n0 [20,40) and starts there.
	//   conservative: J3 also reserves [20,40) at 0; J4 backfills as in
	//     EASY: the same schedule.
	a := []Job{job("J1", 1, 10), job("J2", 3, 10), job("J3", 1, 20), job("J4", 1, 5)}
	// B. J1 2×10, J2 2×10, J3 3×10, J4 1×30.
	//   EASY: J1 on n0,n1 [0,10); J2 reserves n0,n1 [10,20); J3 is not
	//     protected, so J4 backfills on n2 [0,30), delaying J3 to 30.
	//   conservative: J3 reserves [20,30) on all three at 0; J4 on n2 from
	//     0 would overlap it, so J4 reserves and gets n0 [30,60).
	//   depth 0: as EASY (J4 fits at 0 in both).
	b := []Job{job("J1", 2, 10), job("J2", 2, 10), job("J3", 3, 10), job("J4", 1, 30)}
	for _, c := range []struct {
		name  string
		jobs  []Job
		depth int
		want  []int
	}{
		{"A depth 0", a, 0, []int{0, 20, 0, 0}},
		{"A EASY", a, 1, []int{0, 10, 20, 0}},
		{"A conservative", a, DepthInf, []int{0, 10, 20, 0}},
		{"B depth 0", b, 0, []int{0, 10, 30, 0}},
		{"B EASY", b, 1, []int{0, 10, 30, 0}},
		{"B conservative", b, DepthInf, []int{0, 10, 20, 30}},
	} {
		if got := starts(t, uniform(3, 100), c.jobs, c.depth); !slices.Equal(got, c.want) {
			t.Errorf("%s: starts %v, want %v", c.name, got, c.want)
		}
	}
	// A job that cannot end by T is postponed, and leaves no trace.
	d := uniform(2, 30)
	if got := starts(t, d, []Job{job("J1", 2, 20), job("J2", 1, 15)}, 1); !slices.Equal(got, []int{0, -1}) {
		t.Errorf("short interval: starts %v, want [0 -1]", got)
	}
	if d.BusyTime(0) != 20 || d.BusyTime(1) != 20 {
		t.Errorf("busy time %d, %d after the cycle, want 20 each (no reservation left behind)", d.BusyTime(0), d.BusyTime(1))
	}
}

func randomBatch(rng *rand.Rand, n, nodes int) []Job {
	jobs := make([]Job, n)
	for i := range jobs {
		jobs[i] = Job{ID: fmt.Sprintf("j%d", i), Nodes: 1 + rng.Intn(min(3, nodes)), Volume: float64(2 + rng.Intn(20)),
			MinPerf: float64(1 + rng.Intn(3)), MaxPrice: float64(10 + rng.Intn(200)), Criterion: CritStart}
	}
	return jobs
}

// Over many random domains (heterogeneous nodes, owners' local jobs) and
// batches, with and without early completion, every depth yields feasible
// windows, keeps every promise, and leaves the domain holding exactly the
// local jobs and what the jobs actually used.
func TestBackfillReplay(t *testing.T) {
	for seed := int64(1); seed <= 300; seed++ {
		rng := rand.New(rand.NewSource(seed))
		nodes := 2 + rng.Intn(5)
		local := randomDomain(rng, nodes, 60+rng.Intn(60))
		jobs := randomBatch(rng, 3+rng.Intn(8), nodes)
		for _, depth := range []int{0, 1, 2, DepthInf} {
			for _, early := range []bool{false, true} {
				name := fmt.Sprintf("seed %d depth %d early %v", seed, depth, early)
				d := local.Clone()
				var log []Reservation
				p := &BackfillPlanner{Depth: depth, Log: &log}
				if early {
					p.Early = EarlyFraction(seed, 0.2)
				}
				cp, err := p.Plan(context.Background(), d, jobs, make([]int, len(jobs)))
				if err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				want := replayWindows(t, name, local, jobs, cp, p.Early)
				for n := range nodes {
					if d.BusyTime(n) != want.BusyTime(n) {
						t.Fatalf("%s: node %d busy %d after the cycle, want %d", name, n, d.BusyTime(n), want.BusyTime(n))
					}
				}
				replayPromises(t, name, cp, log, depth, early)
			}
		}
	}
}

// replayWindows checks every started job's window against its request on
// local (early: the window as run, its times the early law's) and returns
// local with each job's actual slots occupied.
func replayWindows(t *testing.T, name string, local *Domain, jobs []Job, cp *CyclePlan, earlyLaw func(*Job) float64) *Domain {
	t.Helper()
	early := earlyLaw != nil
	want := local.Clone() // local jobs plus each job's actual slots
	for i, jp := range cp.Jobs {
		if jp.Chosen < 0 {
			continue
		}
		w := jp.Planned
		if early { // the window as run; Planned is the plan made at 0
			w = jp.Actual
			if jp.Actual.Nodes == nil {
				t.Fatalf("%s: job %d has no actual window", name, i)
			}
			if got := jp.Actual.Scaled(1); !slices.Equal(got.Nodes, w.Nodes) {
				t.Fatal("Scaled(1) changed the nodes")
			}
		}
		r := NewRequest(local, &jobs[i])
		if len(w.Nodes) != jobs[i].Nodes || w.Cost > jobs[i].MaxPrice+1e-9 {
			t.Fatalf("%s: job %d window %+v breaks its request", name, i, w)
		}
		cost := 0.0
		for k, n := range w.Nodes {
			a := w.Times[k]
			if early {
				a = max(1, int(math.Ceil(earlyLaw(&jobs[i])*float64(r.Time[n])-1e-9)))
			}
			if k > 0 && n <= w.Nodes[k-1] || local.Perf[n] < jobs[i].MinPerf || w.Times[k] != min(a, r.Time[n]) {
				t.Fatalf("%s: job %d window %+v: nodes not distinct, too slow, or wrong time", name, i, w)
			}
			cost += r.Cost[n]
			if err := want.Occupy(n, Interval{w.Start, w.Start + a}); err != nil {
				t.Fatalf("%s: job %d overlaps a local job or another job: %v", name, i, err)
			}
			// Reserved time is held until the actual end only.
		}
		if math.Abs(cost-jp.Planned.Cost) > 1e-6 && !early {
			t.Fatalf("%s: job %d cost %v, nodes say %v", name, i, w.Cost, cost)
		}
	}
	return want
}

// replayPromises checks the reservations logged: none at depth 0, every
// promised job started no later than promised, and at most depth jobs hold
// a promise at any pass.
func replayPromises(t *testing.T, name string, cp *CyclePlan, log []Reservation, depth int, early bool) {
	t.Helper()
	if depth == 0 && len(log) > 0 {
		t.Fatalf("%s: depth 0 made %d reservations", name, len(log))
	}
	for _, r := range log {
		jp := cp.Jobs[r.Job]
		started := jp.Planned.Start
		if early {
			started = jp.Actual.Start
		}
		if jp.Chosen < 0 || started > r.Start {
			t.Fatalf("%s: job %d was promised %d at %d but started %d (chosen %d)", name, r.Job, r.Start, r.At, started, jp.Chosen)
		}
	}
	if depth <= 0 {
		return
	}
	byAt := map[int]map[int]bool{}
	for _, r := range log {
		if byAt[r.At] == nil {
			byAt[r.At] = map[int]bool{}
		}
		byAt[r.At][r.Job] = true
	}
	for at, js := range byAt {
		if len(js) > depth {
			t.Fatalf("%s: %d reservations at %d, depth %d", name, len(js), at, depth)
		}
	}
}

func TestEarlyFraction(t *testing.T) {
	f := EarlyFraction(7, 0.2)
	lo, hi := 1.0, 0.0
	for i := range 2000 {
		v := f(&Job{ID: fmt.Sprint(i)})
		lo, hi = min(lo, v), max(hi, v)
	}
	if lo < 0.2 || hi > 1 || lo > 0.21 || hi < 0.99 {
		t.Errorf("fractions span [%v, %v], want about [0.2, 1]", lo, hi)
	}
	if f(&Job{ID: "x"}) != EarlyFraction(7, 0.2)(&Job{ID: "x"}) || f(&Job{ID: "x"}) == EarlyFraction(8, 0.2)(&Job{ID: "x"}) {
		t.Error("the draw is not a function of the seed and the job id")
	}
}

// The variant runs cycle after cycle; depth reaches the planner, and a run
// is a function of its workload and parameters.
func TestBackfillVariant(t *testing.T) {
	s := New()
	w, err := s.Generate(context.Background(), PresetToporkov2014, nil, 3)
	if err != nil {
		t.Fatal(err)
	}
	run := func(depth string) []float64 {
		t.Helper()
		r, err := s.Run(context.Background(), w, VariantBackfill, map[string]string{"depth": depth, "cycles": "40"}, nil)
		if err != nil {
			t.Fatal(err)
		}
		if err := r.Validate(); err != nil {
			t.Fatal(err)
		}
		var v []float64
		for _, m := range r.Metrics {
			if m.Name != "wall_ms" {
				v = append(v, m.Value)
			}
		}
		return v
	}
	greedy, easy, cons := run("0"), run("1"), run("inf")
	if !slices.Equal(easy, run("1")) {
		t.Error("two runs with the same parameters differ")
	}
	if slices.Equal(greedy, cons) && slices.Equal(easy, cons) {
		t.Error("depth 0, 1 and inf gave the same numbers: depth does not reach the planner")
	}
	if _, err := s.Run(context.Background(), w, VariantBackfill, map[string]string{"depth": "2"}, nil); err == nil {
		t.Error("depth 2 accepted; the choices are 0, 1, inf")
	}
}

// Early completion: css and fair keep their starts and only end early;
// backfill re-plans on the completions and so starts jobs earlier than its
// plan from the cycle's start; off, actual equals planned.
func TestEarlyCompletionPlannedVersusActual(t *testing.T) {
	s := New()
	w, err := s.Generate(context.Background(), PresetToporkov2014, nil, 5)
	if err != nil {
		t.Fatal(err)
	}
	m := func(variant, early string) map[string]float64 {
		t.Helper()
		r, err := s.Run(context.Background(), w, variant, map[string]string{"early": early, "cycles": "60", "depth": "inf"}, nil)
		if err != nil {
			t.Fatal(err)
		}
		out := map[string]float64{}
		for _, x := range r.Metrics {
			out[x.Name] = x.Value
		}
		return out
	}
	for _, v := range []string{VariantCSS, VariantFair, VariantBackfill} {
		off := m(v, "off")
		if off["actual_start"] != off["planned_start"] || off["actual_runtime"] != off["planned_runtime"] || off["planned_start"] != off["start"] {
			t.Errorf("%s, early off: %v", v, off)
		}
		on := m(v, "on")
		if r := on["actual_runtime"] / on["planned_runtime"]; r < 0.5 || r > 0.7 {
			t.Errorf("%s: actual/planned runtime %.3f, want about 0.6 (the mean of U[0.2, 1])", v, r)
		}
		switch v {
		case VariantBackfill:
			if on["actual_start"] >= on["planned_start"] {
				t.Errorf("backfill: actual start %.2f not earlier than planned %.2f", on["actual_start"], on["planned_start"])
			}
		default:
			if on["actual_start"] != on["planned_start"] || on["planned_start"] != off["planned_start"] {
				t.Errorf("%s: starts moved with early completion: %v vs %v", v, on, off)
			}
		}
	}
}

// windowAt, the plain reference of backfilling's window, is r's cheapest window starting exactly at s: the m cheapest
// eligible nodes free for r's whole time on each (ties: shorter time, then
// lower index), if their cost is within the budget and they end by T.
func windowAt(d *Domain, r *Request, s int) (Window, bool) {
	var cand []int
	for _, n := range r.Eligible {
		if s+r.Time[n] <= d.T && d.IsFree(n, Interval{s, s + r.Time[n]}) {
			cand = append(cand, n)
		}
	}
	if len(cand) < r.M {
		return Window{}, false
	}
	slices.SortStableFunc(cand, func(a, b int) int {
		switch {
		case r.Cost[a] != r.Cost[b]:
			if r.Cost[a] < r.Cost[b] {
				return -1
			}
			return 1
		case r.Time[a] != r.Time[b]:
			return r.Time[a] - r.Time[b]
		}
		return a - b
	})
	pick := slices.Clone(cand[:r.M])
	slices.Sort(pick)
	w := Window{Start: s, Nodes: pick, Times: make([]int, r.M)}
	for k, n := range pick {
		w.Times[k] = r.Time[n]
		w.Cost += r.Cost[n]
	}
	if w.Cost > r.Budget+costEps*max(1, r.Budget) {
		return Window{}, false
	}
	return w, true
}

// earliestWindow is the plain reference of r's window of least start ≥ from. Only from and the
// ends of busy intervals on eligible nodes can be that start: at any other
// instant every node free then was free a unit earlier too.
func earliestWindow(d *Domain, r *Request, from int) (Window, bool) {
	starts := []int{from}
	for _, n := range r.Eligible {
		for _, b := range d.busy[n] {
			if b.End > from {
				starts = append(starts, b.End)
			}
		}
	}
	slices.Sort(starts)
	for _, s := range slices.Compact(starts) {
		if w, ok := windowAt(d, r, s); ok {
			return w, true
		}
	}
	return Window{}, false
}

// The searcher's backfilling queries (cheapest) equal the plain ones over
// a pass: the time only rises, windows are taken and given back between
// queries, so the cached ranges of the request must follow the domain.
func TestCheapestEqualsPlainWindows(t *testing.T) {
	rng := rand.New(rand.NewSource(5))
	for it := range 300 {
		T := 30 + rng.Intn(60)
		if it%10 == 0 {
			T = 200 + rng.Intn(300)
		}
		d := randomDomain(rng, 3+rng.Intn(10), T)
		var reqs []*Request
		for range 2 + rng.Intn(5) {
			m := 1 + rng.Intn(3)
			j := Job{ID: "x", Nodes: m, Volume: float64(1 + rng.Intn(20)), MinPerf: float64(rng.Intn(3))}
			j.MaxPrice = float64(m) * j.Volume * (0.6 + rng.Float64())
			reqs = append(reqs, NewRequest(d, &j))
		}
		var sr searcher
		var held []Window
		for tm := 0; tm < T; tm += 1 + rng.Intn(8) {
			for i, r := range reqs {
				got, gok := sr.cheapest(d, r, tm, tm+1)
				want, wok := windowAt(d, r, tm)
				if gok != wok || gok && (got.Start != want.Start || !slices.Equal(got.Nodes, want.Nodes) || !slices.Equal(got.Times, want.Times)) {
					t.Fatalf("it %d t %d job %d: at t %v %+v, plain %v %+v", it, tm, i, gok, got, wok, want)
				}
				got, gok = sr.cheapest(d, r, tm, d.T+1)
				want, wok = earliestWindow(d, r, tm)
				if gok != wok || gok && (got.Start != want.Start || !slices.Equal(got.Nodes, want.Nodes) || !slices.Equal(got.Times, want.Times)) {
					t.Fatalf("it %d t %d job %d: earliest %v %+v, plain %v %+v", it, tm, i, gok, got, wok, want)
				}
				switch {
				case gok && rng.Intn(3) == 0:
					must(d.OccupyWindow(got))
					held = append(held, got)
				case len(held) > 0 && rng.Intn(4) == 0:
					k := rng.Intn(len(held))
					must(d.ReleaseWindow(held[k]))
					held = slices.Delete(held, k, k+1)
				}
			}
		}
	}
}
