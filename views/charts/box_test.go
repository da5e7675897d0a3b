package charts

import (
	"reflect"
	"testing"

	"schedlab/report"
)

// TestBoxQuartilesInterpolateLinearly checks Box against quartiles worked
// by hand with type 7 (h = (n−1)p, interpolate between order statistics).
func TestBoxQuartilesInterpolateLinearly(t *testing.T) {
	cases := []struct {
		in   []float64
		want [5]float64
	}{
		{[]float64{7}, [5]float64{7, 7, 7, 7, 7}},
		// n = 4: h = 0.75, 1.5, 2.25 → 1+0.75·1, (2+3)/2, 3+0.25·6.
		{[]float64{9, 1, 3, 2}, [5]float64{1, 1.75, 2.5, 4.5, 9}},
		// n = 5: h = 1, 2, 3 exactly.
		{[]float64{5, 4, 3, 2, 1}, [5]float64{1, 2, 3, 4, 5}},
	}
	for _, c := range cases {
		if got := Box(append([]float64(nil), c.in...)); got != c.want {
			t.Errorf("Box(%v) = %v, want %v", c.in, got, c.want)
		}
	}
}

func TestBoxPlotHasOneBoxPerCategoryAndLine(t *testing.T) {
	p := report.Plot{Title: "objective by gamma", Kind: "box", XLabel: "gamma", YLabel: "objective",
		Lines: []report.Line{
			{Name: "online", Points: [][2]float64{{1.1, 3}, {1.1, 1}, {1.1, 2}, {1.3, 5}}},
			{Name: "average", Points: [][2]float64{{1.3, 4}, {1.3, 6}}},
		}}
	o := option(t)(PlotOption(p))
	if got := get(t, o, "xAxis", 0, "data"); !reflect.DeepEqual(got, []any{"1.1", "1.3"}) {
		t.Errorf("categories %v, want [1.1 1.3]", got)
	}
	series := arr(t, o, "series")
	if len(series) != 2 || str(t, series[0], "type") != "boxplot" {
		t.Fatalf("series %v", series)
	}
	if got := get(t, series[0], "data", 0, "value"); !reflect.DeepEqual(got, []any{1.0, 1.5, 2.0, 2.5, 3.0}) {
		t.Errorf("online at 1.1: %v, want [1 1.5 2 2.5 3]", got)
	}
	if got := get(t, series[1], "data", 0, "value"); got != "-" {
		t.Errorf("average has no sample at 1.1 but draws %v", got)
	}
	if got := get(t, series[1], "data", 1, "value"); !reflect.DeepEqual(got, []any{4.0, 4.5, 5.0, 5.5, 6.0}) {
		t.Errorf("average at 1.3: %v", got)
	}
}

func TestParallelOptionNamesCategoriesAndSkipsBadRows(t *testing.T) {
	p := report.Parallel{Title: "cells",
		Axes: []report.ParallelAxis{{Name: "gamma"}, {Name: "variant", Categories: []string{"online", "average"}}, {Name: "objective", Log: true}},
		Groups: []report.ParallelGroup{
			{Name: "online", Rows: [][]float64{{1.1, 0, 10}, {1.3, 0, 100}}},
			{Name: "average", Rows: [][]float64{{1.1, 1, 5}, {1.3, 2, 5}, {1.3, 1, 0}}}, // index 2 and 0 on a log axis: skipped
		}}
	o := option(t)(ParallelOption(p))
	axes := arr(t, o, "parallelAxis")
	if len(axes) != 3 || str(t, axes[1], "type") != "category" || str(t, axes[2], "type") != "log" || str(t, axes[0], "name") != "gamma" {
		t.Fatalf("axes %v", axes)
	}
	if get(t, axes[0], "scale") != true {
		t.Errorf("the γ axis starts at zero: %v", axes[0])
	}
	series := arr(t, o, "series")
	if len(series) != 2 || str(t, series[0], "type") != "parallel" {
		t.Fatalf("series %v", series)
	}
	if got := get(t, series[0], "data", 1, "value"); !reflect.DeepEqual(got, []any{1.3, "online", 100.0}) {
		t.Errorf("second online row %v", got)
	}
	if n := len(arr(t, series[1], "data")); n != 1 {
		t.Errorf("average keeps %d rows, want 1 (two are not drawable)", n)
	}
	doc, _ := render(t, Parallel(p))
	assertChart(t, doc, "parallel", "cells")
}
