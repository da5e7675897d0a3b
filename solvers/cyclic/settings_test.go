package cyclic

import (
	"context"
	"encoding/json"
	"math"
	"math/rand"
	"os"
	"strconv"
	"testing"

	"schedlab/solvers/formats"
)

// TestToporkov2014StatedSettings pins the settings the seed states (§2.1:
// 24 nodes, p ~ U[2, 10], T = 600, 20 jobs per cycle, budgets up to
// market + 60 %) and the levels set from its failure rates (§2.3).
func TestToporkov2014StatedSettings(t *testing.T) {
	g := Toporkov2014()
	if g.Nodes != 24 || g.PerfMin != 2 || g.PerfMax != 10 || g.Interval != 600 || g.Jobs != 20 || g.BudgetMax != 1.6 {
		t.Errorf("stated settings changed: %+v", g)
	}
	if g.BudgetMin >= 1 {
		t.Errorf("budget_min %v: the poorest must need a discount (< 1)", g.BudgetMin)
	}
	if g.JobLaw != JobLawKTH || g.NodesMax != 24 || g.PriceLaw != PriceLinear || g.VolumeScale != 1 {
		t.Errorf("job/price law: %+v", g)
	}
	// the seed's medium load (Fig. 4) is the default; Fig 3's levels high > medium > low
	if g.LocalLoad != fig3Loads[1].load || !(fig3Loads[0].load > fig3Loads[1].load && fig3Loads[1].load > fig3Loads[2].load) {
		t.Errorf("local load %v, levels %+v", g.LocalLoad, fig3Loads)
	}
	// the reproduce's cycles are independent, as the seed's («независимых циклов»)
	set := ReproSetting{Config: DefaultReproConfig(), Cycles: 10}
	if !runCfg(set, VariantFair, StratRuntime, 1).Independent || !flowCfg(set, VariantBackfill).Independent {
		t.Error("reproduce runs carry jobs between cycles")
	}
}

// TestKTHTableIsTheTrace recomputes the embedded histogram from the KTH
// SP2 log in the repository: (requested processors, requested time) per
// record, with the record counts.
func TestKTHTableIsTheTrace(t *testing.T) {
	data, err := os.ReadFile(kthFull)
	if err != nil {
		t.Fatal(err)
	}
	s, err := formats.ReadSWF("kth", data)
	if err != nil {
		t.Fatal(err)
	}
	want := map[[2]int]int{}
	for _, j := range s.Jobs {
		p := j.Req
		if p <= 0 {
			p = j.Alloc
		}
		want[[2]int{p, int(math.Round(j.ReqTime))}]++
	}
	got := map[[2]int]int{}
	total, maxReq := 0, 0
	for _, r := range kthTable() {
		got[[2]int{r.procs, r.reqS}] += r.jobs
		total += r.jobs
		maxReq = max(maxReq, r.reqS)
	}
	if total != 27992 || len(s.Jobs) != 27992 || maxReq != kthMaxRequest {
		t.Errorf("records %d (trace %d), longest request %d", total, len(s.Jobs), maxReq)
	}
	if len(got) != len(want) {
		t.Fatalf("%d pairs, the trace has %d", len(got), len(want))
	}
	for k, n := range want {
		if got[k] != n {
			t.Errorf("pair %v: %d jobs, the trace has %d", k, got[k], n)
		}
	}
}

const kthFull = "../formats/testdata/swf/KTH-SP2-1996-2.1-cln.swf.gz"

// TestKTHJobLaw: widths never pass nodes_max, every job fits the interval
// on the slowest node, and the means are the log's (width 4.68, time 12.5
// units on p = 6 for records ≤ 24 wide).
func TestKTHJobLaw(t *testing.T) {
	rng := rand.New(rand.NewSource(7))
	const n = 200_000
	var sw, st float64
	for range n {
		m, v := kthJob(rng, 24, 600, 2)
		if m < 1 || m > 24 || v <= 0 || v/2 > 600+1e-9 {
			t.Fatalf("job %d nodes, volume %v", m, v)
		}
		sw += float64(m)
		st += v / 6
	}
	if mw, mt := sw/n, st/n; math.Abs(mw-4.68) > 0.05 || math.Abs(mt-12.5) > 0.3 {
		t.Errorf("mean width %.3f (want 4.68), mean time on p = 6 %.2f (want 12.5)", mw, mt)
	}
	for range 1000 {
		if m, _ := kthJob(rng, 4, 600, 2); m > 4 {
			t.Fatalf("width %d past nodes_max 4", m)
		}
	}
	// a generated instance: every job fits an empty domain
	g := Toporkov2014()
	in, err := Generate(g)
	if err != nil {
		t.Fatal(err)
	}
	for _, j := range in.Jobs {
		if j.Nodes > 24 || NodeTime(j.Volume, g.PerfMin) > g.Interval {
			t.Errorf("job %s: %d nodes, %d units on the slowest node", j.ID, j.Nodes, NodeTime(j.Volume, g.PerfMin))
		}
	}
}

// TestPriceLaws: every law prices the average node (p = 6) alike; sqrt
// makes fast nodes' work cheaper, square dearer.
func TestPriceLaws(t *testing.T) {
	g := Toporkov2014()
	price := func(law string, p float64) float64 { g.PriceLaw = law; return g.basePrice(p) }
	for _, law := range PriceLaws() {
		if math.Abs(price(law, 6)-6) > 1e-9 {
			t.Errorf("%s: p = 6 costs %v", law, price(law, 6))
		}
	}
	if price(PriceLinear, 10) != 10 || !(price(PriceSqrt, 10)/10 < 1) || !(price(PriceSquare, 10)/10 > 1) {
		t.Errorf("p = 10: linear %v, sqrt %v, square %v", price(PriceLinear, 10), price(PriceSqrt, 10), price(PriceSquare, 10))
	}
	g.PriceLaw = "cubic"
	if err := g.Validate(); err == nil {
		t.Error("unknown price law accepted")
	}
}

// TestIndependentCycles: with Independent no job is carried, so every
// batch is the cycle's new jobs and a failure leaves the flow; with carry
// the same overloaded run carries jobs.
func TestIndependentCycles(t *testing.T) {
	g := Toporkov2014()
	g.Nodes, g.LocalLoad = 6, 0.3
	in, err := Generate(g)
	if err != nil {
		t.Fatal(err)
	}
	for _, ind := range []bool{true, false} {
		res, err := RunConfig(context.Background(), in, SimConfig{Variant: VariantFair, Strategy: StratProcTime, K: 1, Cycles: 20, GanttCycle: 1, Independent: ind}, nil)
		if err != nil {
			t.Fatal(err)
		}
		carried := 0
		for _, c := range res.Cycles {
			carried += c.Carried
			if ind && c.Batch != g.Jobs {
				t.Errorf("independent cycle %d: batch %d", c.Cycle, c.Batch)
			}
		}
		if res.Failures == 0 {
			t.Fatalf("independent=%v: no failure on an overloaded domain", ind)
		}
		if (carried == 0) != ind {
			t.Errorf("independent=%v: %d jobs carried", ind, carried)
		}
	}
}

// BenchmarkSensitivityData regenerates data/sensitivity.json (minutes: an
// engineer's tool, never run by go test); the stored file is of 300 cycles
// (about 15 minutes on 2 shared cores):
//
//	CYCLIC_SENS=300 go test ./solvers/cyclic -run XXX -bench SensitivityData -benchtime 1x
func BenchmarkSensitivityData(t *testing.B) {
	env := os.Getenv("CYCLIC_SENS")
	if env == "" {
		env = "300"
	}
	cycles, err := strconv.Atoi(env)
	if err != nil {
		t.Fatal(err)
	}
	d, err := MeasureSensitivity(context.Background(), cycles)
	if err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(d) // compact: thousands of block values
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile("data/sensitivity.json", append(b, '\n'), 0o644); err != nil {
		t.Fatal(err)
	}
}
