package critical

import (
	"context"
	"math"
	"testing"

	"schedlab/solvers"
)

// TestRepresentativesFig2 builds the seed's Fig. 2 situation by hand: p4
// and p30 both collide with p24, p4 also with p25; p25 is shared with p5,
// which alone owns p26. Naively (X in index order, each taking its
// lightest neighbour) p4 takes p24, the lightest, and p30 is left without
// a representative, the seed's exceptional situation. The seed's rules:
// (a) p26 has degree 1, so it represents p5; (b) p30 has 1 free neighbour
// and p4 two, so p30 goes first and takes p24, and p4 takes p25.
func TestRepresentativesFig2(t *testing.T) {
	const p4, p5, p30, p24, p25, p26 = 4, 5, 30, 24, 25, 26
	w := map[int]float64{p24: 2, p25: 5, p26: 7, p4: 6, p5: 3, p30: 4}
	weight := func(v int) float64 { return w[v] }
	xs := []int{p4, p5, p30}
	adj := map[int][]int{p4: {p24, p25}, p5: {p25, p26}, p30: {p24}}
	rep := Representatives(xs, adj, weight)
	want := map[int]int{p5: p26, p30: p24, p4: p25}
	for x, y := range want {
		if rep[x] != y {
			t.Errorf("representative of p%d is p%d, want p%d", x, rep[x], y)
		}
	}
	if len(rep) != 3 {
		t.Errorf("%d representatives, want every X vertex represented: %v", len(rep), rep)
	}
	// The naive order would have isolated p30.
	taken := map[int]bool{}
	naive := map[int]int{}
	for _, x := range xs {
		best := -1
		for _, y := range adj[x] {
			if !taken[y] && (best < 0 || w[y] < w[best]) {
				best = y
			}
		}
		if best >= 0 {
			naive[x], taken[best] = best, true
		}
	}
	if _, ok := naive[p30]; ok || naive[p4] != p24 {
		t.Errorf("the hand-built case does not show the exceptional situation: %v", naive)
	}
}

// handVariant builds a variant with the given planned tasks.
func handVariant(d *DAG, plan map[int][3]float64) *variant {
	v := &variant{id: 1, proc: make([]int, d.N), start: make([]float64, d.N), finish: make([]float64, d.N), ord: make([]int, d.N)}
	for i := range d.N {
		v.proc[i], v.ord[i] = -1, -1
	}
	for t, pl := range plan {
		v.proc[t], v.start[t], v.finish[t] = int(pl[0]), pl[1], pl[2]
		v.ord[t] = t
	}
	v.next = d.N
	return v
}

func chainGraph(vols []float64, perfs []float64, edges [][3]float64) *DAG {
	g := &Graph{}
	for i, v := range vols {
		g.Tasks = append(g.Tasks, Task{ID: string(rune('a' + i)), Volume: v})
	}
	for i, p := range perfs {
		g.Processors = append(g.Processors, Processor{ID: "P" + string(rune('1'+i)), Performance: p, Price: 1})
	}
	for _, e := range edges {
		g.Edges = append(g.Edges, Edge{From: int(e[0]), To: int(e[1]), Transfer: e[2]})
	}
	if err := g.Validate(); err != nil {
		panic(err)
	}
	return Prepare(g, 10)
}

func workOf(d *DAG, tasks ...int) Work {
	w := Work{Rank: 1, Path: Path{Tasks: tasks}}
	for i := 0; i+1 < len(tasks); i++ {
		w.Path.Edges = append(w.Path.Edges, d.EdgeIdx[[2]int{tasks[i], tasks[i+1]}])
	}
	return w
}

func TestFailureCase1PrecedenceBrokenBetweenPlannedTasks(t *testing.T) {
	// a → b and c → b; a→b planned with b at 10, c planned independently
	// finishing at 50: the work c → b (a pure transfer) finds c too late.
	d := chainGraph([]float64{10, 10, 50}, []float64{1}, [][3]float64{{0, 1, 0}, {2, 1, 0}})
	pl := &planner{d: d, crit: CriterionMakespan, horizon: math.Inf(1)}
	vr := handVariant(d, map[int][3]float64{0: {0, 0, 10}, 1: {0, 10, 20}, 2: {0, 0, 50}})
	if _, why := pl.planWork(vr, workOf(d, 2, 1), false); why != FailPrecedence {
		t.Errorf("got %q, want case 1", why)
	}
	if as, why := pl.planWork(vr, workOf(d, 2, 1), true); why != "" || len(as) != 1 {
		t.Errorf("relaxed: %v %q", as, why)
	}
}

func TestFailureCase2NoSlackBetweenPlannedEnds(t *testing.T) {
	// a → c planned back to back; the work a → x → c must fit x (volume 5)
	// between them: no slack on any processor.
	d := chainGraph([]float64{10, 10, 5}, []float64{1, 2}, [][3]float64{{0, 1, 3}, {0, 2, 1}, {2, 1, 1}})
	pl := &planner{d: d, crit: CriterionMakespan, horizon: math.Inf(1)}
	vr := handVariant(d, map[int][3]float64{0: {0, 0, 10}, 1: {0, 10, 20}})
	if _, why := pl.planWork(vr, workOf(d, 0, 2, 1), false); why != FailSlack {
		t.Errorf("got %q, want case 2", why)
	}
	// With c planned later there is room: x on P2 (2.5) after a's data (1).
	vr = handVariant(d, map[int][3]float64{0: {0, 0, 10}, 1: {0, 20, 30}})
	as, why := pl.planWork(vr, workOf(d, 0, 2, 1), false)
	if why != "" || len(as) != 1 || as[0].proc[0] != 1 || as[0].start[0] != 11 || as[0].finish[0] != 13.5 {
		t.Errorf("got %+v %q, want x on P2 [11, 13.5)", as, why)
	}
}

func TestLoadCriterionUsesSlowerProcessorInsideWindow(t *testing.T) {
	// One task, processors of performance 1 and 4, interval 20: load takes
	// the slow one (time 10 fits), makespan the fast one.
	d := chainGraph([]float64{10}, []float64{1, 4}, nil)
	for crit, want := range map[string]int{CriterionLoad: 0, CriterionMakespan: 1, CriterionCost: 1} {
		pl := &planner{d: d, crit: crit, horizon: 20}
		as, why := pl.planWork(handVariant(d, nil), workOf(d, 0), false)
		if why != "" || as[0].proc[0] != want {
			t.Errorf("%s: %+v %q, want processor %d", crit, as, why, want)
		}
	}
	// Interval 5: the slow processor no longer fits.
	pl := &planner{d: d, crit: CriterionLoad, horizon: 5}
	as, _ := pl.planWork(handVariant(d, nil), workOf(d, 0), false)
	if as[0].proc[0] != 1 {
		t.Errorf("load with a tight interval took processor %d", as[0].proc[0])
	}
}

func TestDPTiesGiveSeveralAnswers(t *testing.T) {
	// Two identical processors: a lone work has two optimal answers, and
	// the planner keeps both as variants (m × n combination).
	d := chainGraph([]float64{4, 6}, []float64{1, 1}, [][3]float64{{0, 1, 2}})
	pl := &planner{d: d, crit: CriterionMakespan, horizon: math.Inf(1)}
	as, _ := pl.planWork(handVariant(d, nil), workOf(d, 0, 1), false)
	if len(as) != 2 {
		t.Fatalf("%d answers, want 2", len(as))
	}
	// The paper's variant keeps the a-priori times, in which every
	// transfer counts: b starts at 4 + 2; our fallback variant realizes
	// the plan and drops the transfer between co-located tasks.
	for fb, want := range map[bool]float64{false: 12, true: 10} {
		res, err := PlanCriticalWorks(context.Background(), d, []Work{workOf(d, 0, 1)}, PlanOptions{Criterion: CriterionMakespan, Fallback: fb}, solvers.NoProgress)
		if err != nil {
			t.Fatal(err)
		}
		if res.Kept != 2 || res.Generated != 2 || res.Schedule.Makespan() != want {
			t.Errorf("fallback %v: kept %d of %d, makespan %v; want 2 variants and %v", fb, res.Kept, res.Generated, res.Schedule.Makespan(), want)
		}
	}
}

func TestCollisionStepsHeavierKeepsLighterMoves(t *testing.T) {
	// Two independent tasks planned on P1 at overlapping times; P2 is idle.
	// The heavier (x, 8) keeps P1, the lighter placed one (y, 4) moves.
	d := chainGraph([]float64{4, 8}, []float64{1, 1}, nil)
	vr := handVariant(d, map[int][3]float64{0: {0, 0, 4}, 1: {0, 1, 9}})
	rs := mustResolve(t, d, vr)
	proc, flex, cols := rs.Proc, rs.Flex, rs.Collisions
	if len(cols) != 1 || cols[0].X != 1 || cols[0].Y != 0 {
		t.Fatalf("collisions %+v", cols)
	}
	if proc[1] != 0 || proc[0] != 1 || flex[0] || flex[1] {
		t.Errorf("procs %v flex %v, want x on P1, y moved to P2", proc, flex)
	}
	// One processor only: no move is possible, x is re-placed at realization.
	d1 := chainGraph([]float64{4, 8}, []float64{1}, nil)
	vr = handVariant(d1, map[int][3]float64{0: {0, 0, 4}, 1: {0, 1, 9}})
	rs = mustResolve(t, d1, vr)
	proc, start, flex, cols := rs.Proc, rs.Start, rs.Flex, rs.Collisions
	if proc[0] != 0 || proc[1] != 0 || !flex[1] || cols[0].Outcome != OutcomeReplaced {
		t.Errorf("procs %v flex %v outcome %q", proc, flex, cols[0].Outcome)
	}
	s := realize(d1, proc, start, flex)
	if err := CheckSchedule(d1, s); err != nil || s.Makespan() != 12 {
		t.Errorf("realized %v makespan %v", err, s.Makespan())
	}
	// The lighter x loses: it moves to the idle processor.
	vr = handVariant(d, map[int][3]float64{1: {0, 0, 8}, 0: {0, 1, 5}})
	vr.ord[0], vr.ord[1] = 1, 0
	rs = mustResolve(t, d, vr)
	proc, cols = rs.Proc, rs.Collisions
	if cols[0].X != 0 || proc[0] != 1 || proc[1] != 0 {
		t.Errorf("procs %v collisions %+v, want the lighter x moved", proc, cols)
	}
}

func mustResolve(t *testing.T, d *DAG, vr *variant) *resolution {
	t.Helper()
	rs, err := resolveCollisions(context.Background(), d, vr, CriterionMakespan, math.Inf(1), CollisionIdle)
	if err != nil {
		t.Fatal(err)
	}
	return rs
}
