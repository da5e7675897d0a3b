package critical

import (
	"context"
	"slices"
	"strings"
	"testing"

	"schedlab/solvers"
)

// TestFig1TreeByHand builds the seed's tree of critical paths on a
// four-task graph by hand (one processor, unit times): a→b (transfer 1),
// b→d (1), a→c (0), c→d (0). D0 = a→b→d (length 5). Without a→b the
// longest path is b→d (3, a tie with a→c→d broken to the earlier in-arc
// of d): one edge, a leaf; without b→d it is a→b (3): a leaf. The ranked
// works take D0, skip the two leaves (no new edge) and complete the
// uncovered a→c, c→d with a→c→d (3).
func TestFig1TreeByHand(t *testing.T) {
	d := chainGraph([]float64{1, 1, 1, 1}, []float64{1}, [][3]float64{{0, 1, 1}, {1, 3, 1}, {0, 2, 0}, {2, 3, 0}})
	tr, err := BuildTree(context.Background(), d, DefaultRunConfig().Tree())
	if err != nil {
		t.Fatal(err)
	}
	type node struct {
		parent int
		tasks  []int
		length float64
		leaf   string
	}
	want := []node{
		{-1, []int{0, 1, 3}, 5, LeafExpanded},
		{0, []int{1, 3}, 3, LeafOneEdge},
		{0, []int{0, 1}, 3, LeafOneEdge},
	}
	if len(tr.Nodes) != len(want) {
		t.Fatalf("%d nodes, want %d: %+v", len(tr.Nodes), len(want), tr.Nodes)
	}
	for i, w := range want {
		n := tr.Nodes[i]
		if n.Parent != w.parent || !slices.Equal(n.Path.Tasks, w.tasks) || n.Path.Length != w.length || n.Leaf != w.leaf {
			t.Errorf("node %d: parent %d tasks %v length %v leaf %q, want %+v", i, n.Parent, n.Path.Tasks, n.Path.Length, n.Leaf, w)
		}
	}
	if !TreeStructureHolds(tr) {
		t.Error("structure check fails on the hand-built tree")
	}
	works, err := RankWorks(d, tr)
	if err != nil {
		t.Fatal(err)
	}
	if len(works) != 2 || !slices.Equal(works[0].Path.Tasks, []int{0, 1, 3}) || works[0].Source != SourceTree ||
		!slices.Equal(works[1].Path.Tasks, []int{0, 2, 3}) || works[1].Source != SourceCompletion || works[1].Path.Length != 3 {
		t.Errorf("ranked works %+v", works)
	}
	// A depth-first enumeration visits both source-to-sink paths.
	if n := CountPaths(d); n != 2 {
		t.Errorf("CountPaths %v, want 2", n)
	}
}

// TestCountPathsMatchesDFS checks the count against an explicit
// depth-first enumeration on random DAGs.
func TestCountPathsMatchesDFS(t *testing.T) {
	for seed := range int64(30) {
		d := smallDAG(seed)
		if got, want := CountPaths(d), float64(len(allMaximalPaths(d))); got != want {
			t.Errorf("seed %d: CountPaths %v, DFS %v", seed, got, want)
		}
	}
}

// allMaximalPaths enumerates every source-to-sink path depth-first.
func allMaximalPaths(d *DAG) [][]int {
	var out [][]int
	var walk func(v int, p []int)
	walk = func(v int, p []int) {
		p = append(p, v)
		if len(d.Succ[v]) == 0 {
			out = append(out, slices.Clone(p))
			return
		}
		for _, a := range d.Succ[v] {
			walk(a.To, p)
		}
	}
	for v := range d.N {
		if len(d.Pred[v]) == 0 {
			walk(v, nil)
		}
	}
	return out
}

// stopGraph is a → b (transfer 0) and c → b, volumes 10, 10, 50, one
// processor of performance 1.
func stopGraph() *DAG {
	return chainGraph([]float64{10, 10, 50}, []float64{1}, [][3]float64{{0, 1, 0}, {2, 1, 0}})
}

// TestFailureCase1DropsTheVariant: works a→b, then c alone (planned at
// [0, 50) independently), then the arc c→b: both ends planned, c ends
// after b starts: case 1 strikes the only variant out, and the paper's
// algorithm stops at work 3 with works 1–2 as the partial plan.
func TestFailureCase1DropsTheVariant(t *testing.T) {
	d := stopGraph()
	works := []Work{workOf(d, 0, 1), workOf(d, 2), workOf(d, 2, 1)}
	for i := range works {
		works[i].Rank = i + 1
	}
	res, err := PlanCriticalWorks(context.Background(), d, works, PlanOptions{Criterion: CriterionMakespan}, solvers.NoProgress)
	if err != nil {
		t.Fatal(err)
	}
	if !res.Stopped || res.StopWork != 3 || res.Complete || res.Dropped != 1 || res.Kept != 0 || res.Generated != 1 {
		t.Fatalf("stopped %v at %d, complete %v, dropped %d kept %d generated %d", res.Stopped, res.StopWork, res.Complete, res.Dropped, res.Kept, res.Generated)
	}
	if countStatus(res.Events, "dropped", "case 1") != 1 {
		t.Errorf("events %+v", res.Events)
	}
	if res.Partial.Proc[0] != 0 || res.Partial.Proc[1] != 0 || res.Partial.Proc[2] != 0 || res.Partial.Finish[2] != 50 {
		t.Errorf("partial plan %+v", res.Partial)
	}
	if got := []string{res.Steps[0].PlannedBy, res.Steps[1].PlannedBy, res.Steps[2].PlannedBy}; got[2] != PlannedByNone || got[0] != PlannedByDP {
		t.Errorf("planned by %v", got)
	}
	// Our fallback plans the arc anyway and realizes a valid schedule.
	fb, err := PlanCriticalWorks(context.Background(), d, works, PlanOptions{Criterion: CriterionMakespan, Fallback: true}, solvers.NoProgress)
	if err != nil {
		t.Fatal(err)
	}
	if !fb.Complete || fb.Stopped || fb.Relaxations != 1 || fb.Steps[2].PlannedBy != PlannedByFallback {
		t.Fatalf("fallback: complete %v stopped %v relaxations %d", fb.Complete, fb.Stopped, fb.Relaxations)
	}
	if err := CheckSchedule(d, fb.Schedule); err != nil {
		t.Error(err)
	}
}

// TestFailureCase2DropsTheVariant: works a→b, then c→b: c (50) must end
// before b starts at 10: too little slack on the only processor, case 2.
func TestFailureCase2DropsTheVariant(t *testing.T) {
	d := stopGraph()
	works := []Work{workOf(d, 0, 1), workOf(d, 2, 1)}
	works[1].Rank = 2
	res, err := PlanCriticalWorks(context.Background(), d, works, PlanOptions{Criterion: CriterionMakespan}, solvers.NoProgress)
	if err != nil {
		t.Fatal(err)
	}
	if !res.Stopped || res.StopWork != 2 || countStatus(res.Events, "dropped", "case 2") != 1 {
		t.Fatalf("stopped %v at %d, events %+v", res.Stopped, res.StopWork, res.Events)
	}
}

// TestPaperStopEndsTheRun: a task longer than the time frame on every
// processor: the first work strikes the only variant out, the run ends
// with stopped = 1 and no schedule metrics, the partial plan empty.
func TestPaperStopEndsTheRun(t *testing.T) {
	g := &Graph{Tasks: []Task{{ID: "a", Volume: 10}, {ID: "b", Volume: 10}}, Edges: []Edge{{From: 0, To: 1, Transfer: 1}},
		Processors: []Processor{{ID: "P1", Performance: 1, Price: 1}}}
	cfg := DefaultRunConfig()
	cfg.Deadline = 15 // a → b needs 21
	o, err := Solve(context.Background(), g, VariantCritical, cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	if o.Complete || !o.Plan.Stopped || o.Plan.StopWork != 1 || o.Sched.Proc[0] != -1 {
		t.Fatalf("complete %v stopped %v at %d", o.Complete, o.Plan.Stopped, o.Plan.StopWork)
	}
	r := runReport(o)
	if err := r.Validate(); err != nil {
		t.Fatal(err)
	}
	if metric(t, r, "stopped") != 1 || metric(t, r, "meets_deadline") != 0 || metric(t, r, "variants_dropped") != 1 || metric(t, r, "works_planned") != 0 || hasMetric(r, "makespan") {
		t.Error("the report does not say the run stopped")
	}
	if !strings.HasPrefix(r.Gantts[0].Title, "Partial plan") || len(r.Gantts[0].Bars) != 0 {
		t.Errorf("gantt %q with %d bars", r.Gantts[0].Title, len(r.Gantts[0].Bars))
	}
	if !strings.Contains(strings.Join(r.Notes, " "), "STOPPED") {
		t.Error("no note says STOPPED")
	}
	// The fallback variant gives a schedule past the deadline.
	o, err = Solve(context.Background(), g, VariantCriticalFallback, cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !o.Complete || metric(t, runReport(o), "meets_deadline") != 0 {
		t.Error("fallback: no schedule, or one said to meet the deadline")
	}
}

// TestScaleOutResolvesWhatIdleCannot: two independent tasks planned on
// the one processor at the same time: with collision_processors idle the
// collision stays and the variant is struck out (stop); with new a second
// processor joins and the plan is feasible.
func TestScaleOutResolvesWhatIdleCannot(t *testing.T) {
	d := chainGraph([]float64{4, 8}, []float64{1}, nil)
	works := []Work{workOf(d, 1), workOf(d, 0)}
	works[1].Rank = 2
	for _, so := range []bool{false, true} {
		res, err := PlanCriticalWorks(context.Background(), d, works, PlanOptions{Criterion: CriterionMakespan, Collision: map[bool]string{false: CollisionIdle, true: CollisionNew}[so]}, solvers.NoProgress)
		if err != nil {
			t.Fatal(err)
		}
		if res.Complete != so || res.Stopped == so {
			t.Fatalf("scale-out %v: complete %v stopped %v", so, res.Complete, res.Stopped)
		}
		if so {
			if res.D.M != 2 || CheckSchedule(res.D, res.Schedule) != nil || res.Schedule.Makespan() != 8 {
				t.Errorf("scale-out: %d processors, makespan %v", res.D.M, res.Schedule.Makespan())
			}
		} else if res.CollisionDropped != 1 || res.StopWork != 0 {
			t.Errorf("idle: collision drops %d, stop work %d", res.CollisionDropped, res.StopWork)
		}
	}
}

func TestRepresentativesExperimentFig2(t *testing.T) {
	r := RepresentativesExperiment(50, 1)
	if r.Fig2Heuristic != 0 || r.Fig2Naive != 1 || r.Graphs != 50 {
		t.Errorf("%+v", r)
	}
}
