package experiments

import (
	"strings"
	"testing"

	"schedlab/report"
)

// TestResultsReportUsesLogAxesWhenValuesSpanDecades: nodes 10 … 3000 and
// times 0.5 … 900 are drawn on log axes; 1.1 … 1.9 and 40 … 60 are not.
func TestResultsReportUsesLogAxesWhenValuesSpanDecades(t *testing.T) {
	rows := func(xs []string, ys []float64) []Row {
		var out []Row
		for i, x := range xs {
			out = append(out, Row{Params: map[string]string{"x": x}, Variant: "v", Metric: "m", N: 1, Mean: ptr(ys[i])})
		}
		return out
	}
	wide := MetricPlot(rows([]string{"10", "100", "3000"}, []float64{0.5, 30, 900}), Grouping{X: "x"}, "m", nil)
	if p := wide.Plot; !p.XLog || !p.YLog {
		t.Errorf("10…3000 against 0.5…900: log x %v, log y %v; want both", p.XLog, p.YLog)
	}
	narrow := MetricPlot(rows([]string{"1.1", "1.5", "1.9"}, []float64{40, 50, 60}), Grouping{X: "x"}, "m", nil)
	if p := narrow.Plot; p.XLog || p.YLog {
		t.Errorf("1.1…1.9 against 40…60: log x %v, log y %v; want neither", p.XLog, p.YLog)
	}
	negative := MetricPlot(rows([]string{"1", "1000"}, []float64{-5, 500}), Grouping{X: "x"}, "m", nil)
	if p := negative.Plot; !p.XLog || p.YLog {
		t.Errorf("a negative value cannot go on a log axis: log x %v, log y %v", p.XLog, p.YLog)
	}
}

// TestBoxPlotAndParallelCellsFromRuns builds both views from six runs by
// hand: the boxes hold each γ's done values per variant, and the parallel
// chart has an axis per varying parameter (text values as categories),
// the variant and the metric's cell mean.
func TestBoxPlotAndParallelCellsFromRuns(t *testing.T) {
	run := func(gamma, rule, variant, status string, v float64) RunResult {
		return RunResult{Params: map[string]string{"gamma": gamma, "rule": rule, "seed": "1"}, Variant: variant, Status: status,
			Values: []Metric{{Name: "objective", Value: v}}}
	}
	results := []RunResult{
		run("1.1", "fast", "a", "done", 3), run("1.1", "fast", "a", "done", 5), run("1.1", "slow", "a", "done", 4),
		run("1.3", "fast", "a", "failed", 99), run("1.3", "slow", "b", "done", 7), run("1.1", "fast", "b", "done", 1),
	}
	box := BoxPlot(results, Grouping{X: "gamma"}, "objective", MetricInfo{}).Plot
	if box.Kind != "box" || len(box.Lines) != 2 {
		t.Fatalf("box plot %+v", box)
	}
	if a := box.Lines[0]; a.Name != "a (1 of 4 runs failed)" || len(a.Points) != 3 {
		t.Errorf("variant a's samples %+v, want its 3 done runs (the failed one is not a sample)", a)
	}
	if BoxPlot(results, Grouping{X: "rule"}, "objective", MetricInfo{}).Drawn {
		t.Error("a box plot against a text parameter")
	}
	par, ok := Parallel(Aggregate(results), "objective", []string{"gamma", "rule", "seed"})
	if !ok {
		t.Fatal("no parallel coordinates with γ and the rule varying")
	}
	var names []string
	for _, a := range par.Axes {
		names = append(names, a.Name)
	}
	if strings.Join(names, ",") != "gamma,rule,variant,objective" {
		t.Errorf("axes %v: want the varying parameters (not the fixed seed), the variant, the metric", names)
	}
	if cats := par.Axes[1].Categories; len(cats) != 2 || cats[0] != "fast" {
		t.Errorf("rule categories %v", cats)
	}
	rowsA := par.Groups[0].Rows
	// Cells of a: (1.1, fast) mean 4, (1.1, slow) 4; (1.3, fast) only failed.
	if par.Groups[0].Name != "a" || len(rowsA) != 2 || rowsA[0][3] != 4 || rowsA[0][1] != 0 {
		t.Errorf("variant a's lines %v", rowsA)
	}
	if err := (&report.Report{Parallels: []report.Parallel{par}}).Validate(); err != nil {
		t.Error(err)
	}
	if _, ok := Parallel(Aggregate(results), "objective", []string{"gamma", "seed"}); ok {
		t.Error("parallel coordinates with one varying parameter")
	}
}
