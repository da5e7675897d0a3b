package dcop

import (
	"context"
	"fmt"
	"math/rand"
	"reflect"
	"strings"
	"testing"
	"time"

	"schedlab/errs"
)

// seedExample is the seed's Fig. 1: jobs E1..E5 needing AB, AF, BCD, BDF, CE.
func seedExample(durations ...int) *Instance {
	in := &Instance{Horizon: 20, Resources: []string{"A", "B", "C", "D", "E", "F"}}
	needs := [][]int{{0, 1}, {0, 5}, {1, 2, 3}, {1, 3, 5}, {2, 4}}
	for k, r := range needs {
		in.Jobs = append(in.Jobs, Job{ID: fmt.Sprintf("E%d", k+1), Resources: r, Duration: durations[k], Value: 1})
	}
	return in
}

func TestSeedExampleGraphAndTree(t *testing.T) {
	in := seedExample(1, 1, 1, 1, 1)
	g := in.ConstraintGraph()
	want := [][]int{{1, 2, 3}, {0, 3}, {0, 3, 4}, {0, 1, 2}, {2}}
	if !reflect.DeepEqual(g.Adj, want) {
		t.Fatalf("adjacency %v, want %v", g.Adj, want)
	}
	pt, err := BuildPseudoTree(g, HeuristicMaxDegree, nil)
	if err != nil {
		t.Fatal(err)
	}
	// degrees 3,2,3,3,1: root E1; its neighbours by degree E3, E4 (3), E2 (2).
	// DFS: E1 → E3 → E4 → E2, E3 → E5. Chain E1-E3-E4-E2 with E5 under E3.
	if pt.Roots[0] != 0 || pt.Parent[2] != 0 || pt.Parent[3] != 2 || pt.Parent[1] != 3 || pt.Parent[4] != 2 {
		t.Fatalf("parents %v", pt.Parent)
	}
	// Sep(E2) = {E1, E4}; Sep(E4) = {E1, E3}; Sep(E3) = {E1}; Sep(E5) = {E3}.
	wantSep := [][]int{nil, {0, 3}, {0}, {0, 2}, {2}}
	if !reflect.DeepEqual(pt.Sep, wantSep) {
		t.Fatalf("separators %v, want %v", pt.Sep, wantSep)
	}
	if pt.Width() != 2 || len(pt.BackEdges()) != 2 {
		t.Fatalf("width %d back edges %v", pt.Width(), pt.BackEdges())
	}
}

func TestSeedExampleMakespan(t *testing.T) {
	// E1, E2, E4 pairwise share resources (A, B, F): unit jobs need 3 slots.
	in := seedExample(1, 1, 1, 1, 1)
	r, err := Solve(context.Background(), in, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := Feasible(in, r.Schedule, false, DomainStarts); err != nil {
		t.Fatal(err)
	}
	if got := Makespan(in, r.Schedule); got != 3 || r.Cost != 3 {
		t.Fatalf("makespan %d (cost %v), want 3", got, r.Cost)
	}
}

func TestLoneJobMakespanIsDuration(t *testing.T) {
	in := &Instance{Horizon: 10, Resources: []string{"A"}, Jobs: []Job{{ID: "j", Resources: []int{0}, Duration: 4, Value: 1}}}
	r, err := Solve(context.Background(), in, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if r.Schedule[0] != 1 || Makespan(in, r.Schedule) != 4 {
		t.Fatalf("schedule %v makespan %d, want start 1 makespan 4", r.Schedule, Makespan(in, r.Schedule))
	}
	if e := Exact(context.Background(), in, DomainStarts, 0); e.Makespan != 4 || !e.Proven {
		t.Fatalf("exact %+v", e)
	}
}

func TestValueObjectiveLeavesOutWhatDoesNotFit(t *testing.T) {
	// three jobs on one resource, horizon 5: durations 3, 2, 2 worth 5, 3, 3.
	in := &Instance{Horizon: 5, Resources: []string{"A"}, Jobs: []Job{
		{ID: "a", Resources: []int{0}, Duration: 3, Value: 5},
		{ID: "b", Resources: []int{0}, Duration: 2, Value: 3},
		{ID: "c", Resources: []int{0}, Duration: 2, Value: 3},
	}}
	// §2.2's objective counts the jobs scheduled inside τ: the fit domain.
	r, err := Solve(context.Background(), in, Options{Objective: ObjectiveValue, Domain: DomainFit})
	if err != nil {
		t.Fatal(err)
	}
	if err := Feasible(in, r.Schedule, true, DomainFit); err != nil {
		t.Fatal(err)
	}
	if v := TotalValue(in, r.Schedule); v != 8 || r.Cost != -8 {
		t.Fatalf("value %v (cost %v), want 8", v, r.Cost)
	}
}

func smallConfig(src *rand.Rand) GenConfig {
	return GenConfig{
		Jobs:      2 + src.Intn(7), // 2..8
		Resources: 3 + src.Intn(4),
		PerJob:    1 + src.Intn(2),
		DurMin:    1,
		DurMax:    1 + src.Intn(3),
		Horizon:   6 + src.Intn(3),
		Filter:    FilterFeasible,
	}
}

func TestDPOPMatchesExactAndBruteForce(t *testing.T) {
	ctx := context.Background()
	for seed := int64(1); seed <= 150; seed++ {
		src := rand.New(rand.NewSource(seed))
		in, err := Generate(smallConfig(src), src)
		if err != nil {
			continue // no feasible connected instance for this config
		}
		_, bf, ok := BruteForce(in, DomainStarts)
		if !ok {
			t.Fatalf("seed %d: generator returned an infeasible instance", seed)
		}
		for _, h := range Heuristics {
			r, err := Solve(ctx, in, Options{Heuristic: h, Rand: rand.New(rand.NewSource(seed))})
			if err != nil {
				t.Fatalf("seed %d %s: %v", seed, h, err)
			}
			if err := Feasible(in, r.Schedule, false, DomainStarts); err != nil {
				t.Fatalf("seed %d %s: %v", seed, h, err)
			}
			if got := Makespan(in, r.Schedule); got != bf || r.Cost != float64(bf) {
				t.Fatalf("seed %d %s: DPOP makespan %d (cost %v), brute force %d", seed, h, got, r.Cost, bf)
			}
			for x := range r.Allocated {
				if float64(r.Allocated[x]) != r.Predicted[x] {
					t.Fatalf("seed %d %s: node %d allocated %d entries, predicted %v", seed, h, x, r.Allocated[x], r.Predicted[x])
				}
			}
		}
		e := Exact(ctx, in, DomainStarts, 0)
		if !e.Proven || e.Makespan != bf {
			t.Fatalf("seed %d: exact %d proven %v, brute force %d", seed, e.Makespan, e.Proven, bf)
		}
		if err := Feasible(in, e.Schedule, false, DomainStarts); err != nil {
			t.Fatalf("seed %d exact: %v", seed, err)
		}
		// The fit domain: every job ends inside the grid; the instance may
		// then have no schedule, which all three must agree on.
		_, bfFit, okFit := BruteForce(in, DomainFit)
		r, err := Solve(ctx, in, Options{Domain: DomainFit})
		if err != nil {
			t.Fatalf("seed %d fit: %v", seed, err)
		}
		ef := Exact(ctx, in, DomainFit, 0)
		if r.Feasible != okFit || (ef.Schedule != nil) != okFit || !ef.Proven ||
			(okFit && (Makespan(in, r.Schedule) != bfFit || ef.Makespan != bfFit || Feasible(in, r.Schedule, false, DomainFit) != nil)) {
			t.Fatalf("seed %d fit: DPOP %v %v, exact %d %v, brute force %d %v", seed, r.Feasible, r.Schedule, ef.Makespan, ef.Proven, bfFit, okFit)
		}
	}
}

// TestHasScheduleAgreesWithBruteForce on small connected draws of every
// kind, feasible or not, in both domain readings.
func TestHasScheduleAgreesWithBruteForce(t *testing.T) {
	ctx := context.Background()
	for seed := int64(1); seed <= 100; seed++ {
		src := rand.New(rand.NewSource(seed))
		cfg := smallConfig(src)
		cfg.Filter = FilterNone
		in, err := Generate(cfg, src)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range []string{DomainStarts, DomainFit} {
			_, _, want := BruteForce(in, d)
			if got, decided := HasSchedule(ctx, in, d, 0); !decided || got != want {
				t.Fatalf("seed %d %s: HasSchedule %v (decided %v), brute force %v", seed, d, got, decided, want)
			}
		}
	}
}

func TestDPOPIsDeterministic(t *testing.T) {
	in, err := Generate(Namekata2008(12), rand.New(rand.NewSource(7)))
	if err != nil {
		t.Fatal(err)
	}
	in2, _ := Generate(Namekata2008(12), rand.New(rand.NewSource(7)))
	if !reflect.DeepEqual(in, in2) {
		t.Fatal("generator is not deterministic for a seed")
	}
	a, err := Solve(context.Background(), in, Options{})
	if err != nil {
		t.Fatal(err)
	}
	b, _ := Solve(context.Background(), in2, Options{})
	if !reflect.DeepEqual(a.Schedule, b.Schedule) || a.Stats != b.Stats {
		t.Fatalf("two runs differ: %v %+v / %v %+v", a.Schedule, a.Stats, b.Schedule, b.Stats)
	}
}

func TestGeneratorSeedSettingIsConnectedAndFeasible(t *testing.T) {
	for _, jobs := range []int{20, 30, 40} {
		for seed := int64(1); seed <= 3; seed++ {
			in, err := Generate(Namekata2008(jobs), rand.New(rand.NewSource(seed)))
			if err != nil {
				t.Fatalf("%d jobs seed %d: %v", jobs, seed, err)
			}
			if c := in.ConstraintGraph().Components(); c != 1 {
				t.Fatalf("%d jobs seed %d: %d components", jobs, seed, c)
			}
			if err := in.Validate(); err != nil {
				t.Fatal(err)
			}
		}
	}
}

func TestMemoryGuardFailsBeforeAllocating(t *testing.T) {
	in, err := Generate(Namekata2008(50), rand.New(rand.NewSource(1)))
	if err != nil {
		t.Fatal("50-job seed instance not generated:", err)
	}
	_, err = Solve(context.Background(), in, Options{})
	if !errs.Is(err, errs.TooLarge) {
		t.Fatalf("want errs.TooLarge, got %v", err)
	}
	if msg := err.Error(); !strings.Contains(msg, "separator") || !strings.Contains(msg, "node E") {
		t.Fatalf("error does not name the node and separator: %s", msg)
	}
}

func TestExactHonoursTimeLimit(t *testing.T) {
	in, err := Generate(Namekata2008(40), rand.New(rand.NewSource(3)))
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	e := Exact(context.Background(), in, DomainStarts, 50*time.Millisecond)
	if time.Since(start) > 2*time.Second {
		t.Fatalf("exact ran %v past a 50 ms limit", time.Since(start))
	}
	if e.Schedule == nil || Feasible(in, e.Schedule, false, DomainStarts) != nil {
		t.Fatalf("exact returned no feasible schedule: %+v", e)
	}
	if e.Makespan < LowerBound(in) {
		t.Fatalf("makespan %d below lower bound %d", e.Makespan, LowerBound(in))
	}
}

func TestSolveStopsOnCanceledContext(t *testing.T) {
	in, err := Generate(Namekata2008(20), rand.New(rand.NewSource(1)))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Solve(ctx, in, Options{}); !errs.Is(err, errs.Canceled) {
		t.Fatalf("want a canceled error, got %v", err)
	}
}

func TestWDIsDeterministic(t *testing.T) {
	in, err := Generate(Namekata2008(40), rand.New(rand.NewSource(5)))
	if err != nil {
		t.Fatal(err)
	}
	pt, _ := BuildPseudoTree(in.ConstraintGraph(), HeuristicMaxDegree, nil)
	a, err := WidthDelete(in, pt, Domains(in, ObjectiveMakespan, DomainStarts), 5, RuleBalanced, Greedy(in))
	if err != nil {
		t.Fatal(err)
	}
	b, _ := WidthDelete(in, pt, Domains(in, ObjectiveMakespan, DomainStarts), 5, RuleBalanced, Greedy(in))
	if !reflect.DeepEqual(a.Deleted, b.Deleted) || !reflect.DeepEqual(a.Domains, b.Domains) {
		t.Fatal("two WD runs differ")
	}
}
