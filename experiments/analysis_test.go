package experiments

import (
	"math"
	"strings"
	"testing"

	"schedlab/runtypes"
	"schedlab/stats"
)

func TestDefaultXIsTheParameterWithTheMostValues(t *testing.T) {
	var runs []RunResult
	for _, shift := range []string{"on", "off"} {
		for _, n := range []string{"10", "20", "40"} {
			runs = append(runs, RunResult{Params: map[string]string{"shift": shift, "nodes": n, "policy": "easy"}, Variant: "v", Status: runtypes.StatusDone})
		}
	}
	dims := Dims(runs)
	if got := DefaultX(dims); got != "nodes" {
		t.Errorf("default x %q, want nodes (3 values, not policy's 1 or shift's 2)", got)
	}
	if DefaultX(nil) != "" {
		t.Error("nothing swept: no x")
	}
}

// No silent pooling: by default every swept parameter splits the lines;
// pooling one says so, with its values and n per point.
func TestMetricPlotSplitsUnlessPooledAndSaysWhatItPools(t *testing.T) {
	var runs []RunResult
	for _, shift := range []string{"on", "off"} {
		for _, n := range []string{"10", "20"} {
			for rep := range 4 {
				runs = append(runs, RunResult{Params: map[string]string{"shift": shift, "nodes": n}, Variant: "css", Status: runtypes.StatusDone,
					Metrics: map[string]float64{"m": float64(rep)}, Replicate: rep})
			}
		}
	}
	dims := Dims(runs)
	g := NewGrouping(dims, "nodes", nil)
	c := MetricPlot(AggregateWith(runs, Options{Keep: g.Keep()}), g, "m", nil)
	if len(c.Plot.Lines) != 2 || c.Plot.Lines[0].Name != "css · shift=off" || !strings.Contains(c.Caption, "no parameter pooled") ||
		!strings.Contains(c.Caption, "n = 4 runs per point") {
		t.Errorf("unpooled: %d lines (%v), caption %q", len(c.Plot.Lines), c.Plot.Lines, c.Caption)
	}
	g = NewGrouping(dims, "nodes", []string{"shift"})
	c = MetricPlot(AggregateWith(runs, Options{Keep: g.Keep()}), g, "m", nil)
	if len(c.Plot.Lines) != 1 || !strings.Contains(c.Caption, "pooled over shift: 2 values; n = 8 runs per point") {
		t.Errorf("pooled: %d lines, caption %q", len(c.Plot.Lines), c.Caption)
	}
}

// A metric bounded by its definition: the interval of its mean stays
// within [0, 1] (bootstrap), where Student's t passes 1, and the method
// is named on the row and in the pivot's caption.
func TestBoundedMetricIntervalsStayWithinTheBounds(t *testing.T) {
	acc := []float64{1, 1, 1, 1, 0.7, 1, 1, 0.9}
	var runs []RunResult
	for i, a := range acc {
		runs = append(runs, RunResult{Params: map[string]string{"x": "1"}, Variant: "dpop", Status: runtypes.StatusDone,
			Metrics: map[string]float64{"accuracy": a}, Replicate: i})
	}
	tRow := Aggregate(runs)[0]
	if *tRow.CI95High <= 1 || tRow.Method != stats.MethodT {
		t.Fatalf("Student t was expected to pass 1 here: %+v", tRow)
	}
	rows := AggregateWith(runs, Options{Bounded: map[string]bool{"accuracy": true}})
	r := rows[0]
	if r.Method != stats.MethodBootstrap || *r.CI95High > 1 || *r.CI95Low < 0.7 || math.Abs(*r.Mean-0.95) > 1e-12 {
		t.Errorf("bounded row %+v [%v, %v]", r, *r.CI95Low, *r.CI95High)
	}
	p, err := NewPivot(rows, "accuracy", []string{"x"}, []string{VariantKey})
	if err != nil {
		t.Fatal(err)
	}
	if c := p.Caption(); !strings.Contains(c, stats.MethodBootstrap) || strings.Contains(c, "Student") {
		t.Errorf("caption %q", c)
	}
	if cell := p.CellText(0, 0); !strings.HasPrefix(cell, "0.95 [") {
		t.Errorf("a bootstrap cell is mean [low, high]: %q", cell)
	}
}

// In the paired view an instance where one side failed is counted, never
// dropped: A failed on one, B on another, both on a third.
func TestPairCountsEveryInstanceWithAFailedSide(t *testing.T) {
	run := func(v string, rep int, status string, x float64) RunResult {
		return RunResult{Params: map[string]string{"g": "1"}, Variant: v, Status: status, Replicate: rep, Metrics: map[string]float64{"m": x}}
	}
	runs := []RunResult{
		run("a", 0, runtypes.StatusDone, 1), run("b", 0, runtypes.StatusDone, 2),
		run("a", 1, runtypes.StatusDone, 5), run("b", 1, runtypes.StatusDone, 3),
		run("a", 2, runtypes.StatusFailed, 0), run("b", 2, runtypes.StatusDone, 3),
		run("a", 3, runtypes.StatusDone, 4), run("b", 3, runtypes.StatusCanceled, 0),
		run("a", 4, runtypes.StatusFailed, 0), run("b", 4, runtypes.StatusFailed, 0),
		run("a", 5, runtypes.StatusQueued, 0), run("b", 5, runtypes.StatusDone, 1), // not ended: a's side ran only on b
	}
	p := Pair(runs, "m", "a", "b", MetricInfo{Better: "lower"})
	if p.Instances != 6 || p.BothDone != 2 || p.AFailed != 1 || p.BFailed != 1 || p.BothFailed != 1 || p.OneSidedOnly != 1 {
		t.Errorf("counts %+v", p)
	}
	if p.Win != 1 || p.Loss != 1 || p.Diff.Est != 0.5 || len(p.Failures) != 3 {
		t.Errorf("a better (lower) once, worse once, mean difference (−1 + 2)/2: %+v", p)
	}
}

// The performance profile on the table worked by hand in package stats,
// with the instances as cells and the failed runs as failures.
func TestProfileOfAnExperiment(t *testing.T) {
	table := map[string][]float64{"A": {1, 3, 5, math.NaN()}, "B": {2, 3, 4, math.NaN()}, "C": {4, 6, math.NaN(), math.NaN()}}
	var runs []RunResult
	for v, xs := range table {
		for i, x := range xs {
			st := runtypes.StatusDone
			if math.IsNaN(x) {
				st = runtypes.StatusFailed
			}
			runs = append(runs, RunResult{Params: map[string]string{"i": string(rune('0' + i))}, Variant: v, Status: st, Metrics: map[string]float64{"m": x}})
		}
	}
	plot, caption, ok := Profile(runs, "m", []string{"A", "B", "C"}, MetricInfo{Better: "lower"})
	if !ok || len(plot.Lines) != 3 || !strings.Contains(caption, "4 instances") {
		t.Fatalf("profile %v %q", ok, caption)
	}
	at := func(l int, tau float64) float64 {
		y := 0.0
		for _, pt := range plot.Lines[l].Points {
			if pt[0] <= tau+1e-9 {
				y = pt[1]
			}
		}
		return y
	}
	// τ = 1: A 2/4, B 2/4, C 0; τ = 4 (the worst ratio): A 3/4, B 3/4, C 2/4.
	if at(0, 1) != 0.5 || at(1, 1) != 0.5 || at(2, 1) != 0 || at(0, 4) != 0.75 || at(2, 4) != 0.5 {
		t.Errorf("profile %v", plot.Lines)
	}
	if _, _, ok := Profile(runs, "m", []string{"A", "B"}, MetricInfo{}); ok {
		t.Error("a profile of an unranked metric")
	}
}
