package critical

import (
	"context"
	"fmt"
	"math/rand"
	"strings"
	"testing"

	"schedlab/solvers"
)

// TestReadingsOnOneProcessor: two independent tasks planned on the one
// processor at the same time, deadline 20. The literal reading (idle)
// finds no other processor free at the planned time and strikes the
// variant out; the time readings move a task later inside its time
// frame; scale-out adds a processor.
func TestReadingsOnOneProcessor(t *testing.T) {
	d := chainGraph([]float64{4, 8}, []float64{1}, nil)
	works := []Work{workOf(d, 1), workOf(d, 0)}
	works[1].Rank = 2
	for _, r := range CollisionReadings {
		res, err := PlanCriticalWorks(context.Background(), d, works, PlanOptions{Criterion: CriterionMakespan, Deadline: 20, Collision: r}, solvers.NoProgress)
		if err != nil {
			t.Fatal(err)
		}
		if r == CollisionIdle {
			if res.Complete || !res.Stopped || res.CollisionDropped != 1 {
				t.Errorf("idle: complete %v stopped %v collision drops %d", res.Complete, res.Stopped, res.CollisionDropped)
			}
			continue
		}
		if !res.Complete {
			t.Fatalf("%s: no schedule (%+v)", r, res.Events)
		}
		if err := CheckSchedule(res.D, res.Schedule); err != nil {
			t.Errorf("%s: %v", r, err)
		}
		want := 12.0 // one processor: back to back
		if r == CollisionNew {
			want = 8
		}
		if ms := res.Schedule.Makespan(); ms != want {
			t.Errorf("%s: makespan %v, want %v", r, ms, want)
		}
	}
	// With a deadline under the two tasks' total, no reading on the one
	// processor keeps a variant, and the stop says why.
	for _, r := range []string{CollisionShift, CollisionDelay, CollisionPerWork, CollisionReplan, CollisionReserve} {
		res, err := PlanCriticalWorks(context.Background(), d, works, PlanOptions{Criterion: CriterionMakespan, Deadline: 10, Collision: r}, solvers.NoProgress)
		if err != nil {
			t.Fatal(err)
		}
		if res.Complete || !res.Stopped {
			t.Errorf("%s at deadline 10: complete %v", r, res.Complete)
		}
		if last := res.Events[len(res.Events)-1]; last.Status != "dropped" || last.Reason == "" {
			t.Errorf("%s: last event %+v, want a drop with its reason", r, last)
		}
	}
}

// TestShiftMovesInsideTheFrame: the loser of a collision goes to the
// earliest time its frame allows, never past its successor's planned
// start less the transfer.
func TestShiftMovesInsideTheFrame(t *testing.T) {
	// a (4) and b (8) independent on P1 at 0; c after a (transfer 1)
	// planned at 20.
	d := chainGraph([]float64{4, 8, 2}, []float64{1}, [][3]float64{{0, 2, 1}})
	vr := handVariant(d, map[int][3]float64{0: {0, 0, 4}, 1: {0, 0, 8}, 2: {0, 20, 22}})
	rs, err := resolveCollisions(context.Background(), d, vr, CriterionMakespan, 30, CollisionShift)
	if err != nil {
		t.Fatal(err)
	}
	if rs.Start[0] != 8 || rs.Proc[0] != 0 || rs.Start[1] != 0 {
		t.Errorf("starts %v, want a moved to 8 after b", rs.Start)
	}
	if !strings.Contains(rs.Collisions[0].Outcome, "moved to P1 at 8") {
		t.Errorf("outcome %q", rs.Collisions[0].Outcome)
	}
	// c at 10: a's frame ends at 9, too early after b: a cannot move, so
	// (step 2) the heavier b does not take the processor from it and
	// moves itself, after c.
	vr = handVariant(d, map[int][3]float64{0: {0, 0, 4}, 1: {0, 0, 8}, 2: {0, 10, 12}})
	rs, err = resolveCollisions(context.Background(), d, vr, CriterionMakespan, 30, CollisionShift)
	if err != nil {
		t.Fatal(err)
	}
	if rs.Start[0] != 0 || rs.Start[1] != 12 || !strings.Contains(rs.Collisions[0].Outcome, "b moved to P1 at 12") {
		t.Errorf("starts %v, outcome %q", rs.Start, rs.Collisions[0].Outcome)
	}
	// Deadline 19: b has no room after c either; the pair stays.
	rs, err = resolveCollisions(context.Background(), d, vr, CriterionMakespan, 19, CollisionShift)
	if err != nil {
		t.Fatal(err)
	}
	if rs.Collisions[0].Outcome != OutcomeReplaced {
		t.Errorf("outcome %q, want unresolved", rs.Collisions[0].Outcome)
	}
}

// TestCheckScheduleCatches: the checker refuses each kind of wrong
// schedule.
func TestCheckScheduleCatches(t *testing.T) {
	d := chainGraph([]float64{4, 8}, []float64{1, 2}, [][3]float64{{0, 1, 3}})
	good := Schedule{Proc: []int{0, 1}, Start: []float64{0, 7}, Finish: []float64{4, 11}}
	if err := CheckSchedule(d, good); err != nil {
		t.Fatal(err)
	}
	for name, s := range map[string]Schedule{
		"duration":   {Proc: []int{0, 1}, Start: []float64{0, 7}, Finish: []float64{3, 11}},
		"transfer":   {Proc: []int{0, 1}, Start: []float64{0, 5}, Finish: []float64{4, 9}},
		"precedence": {Proc: []int{0, 0}, Start: []float64{8, 0}, Finish: []float64{12, 8}},
		"processor":  {Proc: []int{0, 2}, Start: []float64{0, 7}, Finish: []float64{4, 11}},
	} {
		if CheckSchedule(d, s) == nil {
			t.Errorf("%s: accepted %+v", name, s)
		}
	}
	// Overlap: two independent tasks on one processor.
	d2 := chainGraph([]float64{4, 8}, []float64{1}, nil)
	if CheckSchedule(d2, Schedule{Proc: []int{0, 0}, Start: []float64{0, 2}, Finish: []float64{4, 10}}) == nil {
		t.Error("overlap accepted")
	}
	// The lower bound over the processors used: both tasks on P1.
	if lb := LowerBoundOn(d2, []bool{true}); lb != 12 {
		t.Errorf("lower bound %v, want 12", lb)
	}
}

// TestFastestNode: every task on the fastest processor, back to back in
// topological order, makespan the sum of its times there.
func TestFastestNode(t *testing.T) {
	for seed := range int64(20) {
		g, err := Generate(GenConfig{Tasks: 12, Layers: 4, Density: 0.4, VolMin: 1, VolMax: 10, TransferMin: 1, TransferMax: 20, Processors: 3, PerfMin: 1, PerfMax: 4}, rand.New(rand.NewSource(seed)))
		if err != nil {
			t.Fatal(err)
		}
		o, err := Solve(context.Background(), g, VariantFastestNode, DefaultRunConfig(), nil)
		if err != nil {
			t.Fatal(err)
		}
		if err := CheckSchedule(o.D, o.Sched); err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		fast, sum := 0, 0.0
		for q, p := range g.Processors {
			if p.Performance > g.Processors[fast].Performance {
				fast = q
			}
		}
		for v := range o.D.N {
			if o.Sched.Proc[v] != fast {
				t.Fatalf("seed %d: task %d on %d, fastest is %d", seed, v, o.Sched.Proc[v], fast)
			}
			sum += o.D.T[v][fast]
		}
		if ms := o.Sched.Makespan(); ms < sum-1e-9 || ms > sum+1e-9 {
			t.Errorf("seed %d: makespan %v, want %v", seed, ms, sum)
		}
	}
}

// TestEveryVariantAndReadingChecked is the property test: on small
// random DAGs, every variant under every reading at several deadlines
// either gives a schedule the checker accepts or stops with a reason.
func TestEveryVariantAndReadingChecked(t *testing.T) {
	cfgGen := GenConfig{Tasks: 10, Layers: 3, Density: 0.4, VolMin: 10, VolMax: 100, TransferMin: 5, TransferMax: 50, Processors: 3, PerfMin: 1, PerfMax: 4}
	for seed := range int64(12) {
		g, err := Generate(cfgGen, rand.New(rand.NewSource(seed)))
		if err != nil {
			t.Fatal(err)
		}
		for _, v := range variants {
			readings := []string{CollisionIdle}
			if v.plans {
				readings = CollisionReadings
			}
			for _, r := range readings {
				for _, f := range []float64{1.2, 2, 3} {
					cfg := DefaultRunConfig()
					cfg.CollisionProcessors, cfg.DeadlineFactor = r, f
					name := fmt.Sprintf("seed %d %s %s ×%v", seed, v.Name, r, f)
					o, err := Solve(context.Background(), g, v.Name, cfg, nil)
					if err != nil {
						t.Fatalf("%s: %v", name, err)
					}
					if !o.Complete {
						if !v.paper() || o.Plan == nil || !o.Plan.Stopped {
							t.Fatalf("%s: no schedule and no stop", name)
						}
						if last := o.Plan.Events[len(o.Plan.Events)-1]; last.Reason == "" {
							t.Errorf("%s: stop without a reason", name)
						}
						continue
					}
					if err := CheckSchedule(o.D, o.Sched); err != nil {
						t.Errorf("%s: %v", name, err)
					}
					if v.paper() && r != CollisionNew && o.Sched.Makespan() > o.Deadline*(1+1e-9) {
						t.Errorf("%s: makespan %v past the deadline %v", name, o.Sched.Makespan(), o.Deadline)
					}
				}
			}
		}
	}
}

// TestDefaultReadingSchedulesTheWorkflows pins the measured effect of
// the default reading on the repository's workflows (bench/README.md):
// at deadline factor 3 every one gets a checked schedule, which the
// literal reading gives none of.
func TestDefaultReadingSchedulesTheWorkflows(t *testing.T) {
	names, gs, err := Workflows()
	if err != nil {
		t.Fatal(err)
	}
	for i, g := range gs {
		for _, r := range []string{CollisionReserve, CollisionIdle} {
			cfg := DefaultRunConfig()
			cfg.CollisionProcessors, cfg.DeadlineFactor = r, 3
			gp, err := withPlatform(g, cfg)
			if err != nil {
				t.Fatal(err)
			}
			o, err := Solve(context.Background(), gp, VariantCritical, cfg, nil)
			if err != nil {
				t.Fatal(err)
			}
			if o.Complete != (r == CollisionReserve) {
				t.Errorf("%s, %s: complete %v", names[i], r, o.Complete)
			}
			if o.Complete {
				if err := CheckSchedule(o.D, o.Sched); err != nil {
					t.Errorf("%s: %v", names[i], err)
				}
			}
		}
	}
}

// TestMeasureReadings: the measurement behind bench/README.md counts
// every instance once, scheduled ones only when checked, and its ratios
// are over the scheduled ones (makespan ≥ the lower bound).
func TestMeasureReadings(t *testing.T) {
	gs, err := RandomGraphs(4)
	if err != nil {
		t.Fatal(err)
	}
	cells, err := MeasureReadings(context.Background(), gs, []string{CollisionIdle, CollisionReserve}, []float64{1.5, 3}, DefaultRunConfig())
	if err != nil {
		t.Fatal(err)
	}
	if len(cells) != 4 {
		t.Fatalf("%d cells", len(cells))
	}
	scheduled := 0
	for _, c := range cells {
		if c.Instances != 4 || c.Scheduled+c.StopsPlanning+c.StopsCollision != 4 {
			t.Errorf("%+v: instances and outcomes do not add up", c)
		}
		if c.Scheduled > 0 && (c.OverLB < 1 || c.OverHEFT <= 0) {
			t.Errorf("%+v: ratios", c)
		}
		if c.StopRate != 1-float64(c.Scheduled)/4 {
			t.Errorf("%+v: stop rate", c)
		}
		if c.Reading == CollisionReserve {
			scheduled += c.Scheduled
		}
	}
	if scheduled == 0 {
		t.Error("the default reading scheduled none of 4 random DAGs at ×1.5 and ×3")
	}
	if out := FormatReadings("t", cells); !strings.Contains(out, "reserve") || strings.Count(out, "\n") != 6 {
		t.Errorf("table:\n%s", out)
	}
}
