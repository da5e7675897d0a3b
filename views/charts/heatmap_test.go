package charts

import (
	"reflect"
	"testing"

	"schedlab/report"
)

func heat() report.Heatmap {
	return report.Heatmap{
		Title: "Utilisation", XLabel: "slot", YLabel: "cluster",
		X: []string{"t0", "t1", "t2"}, Y: []string{"c0", "c1"},
		Values: [][]float64{{0, 0.5, 1}, {0.25, -2, 0}},
	}
}

func TestHeatmapRendersChartElementWithKindAndTitle(t *testing.T) {
	doc, _ := render(t, Heatmap(heat()))
	assertChart(t, doc, "heatmap", "Utilisation")
}

func TestHeatmapOptionHasOneCellPerValueOnCategoryAxes(t *testing.T) {
	o := option(t)(HeatmapOption(heat()))
	if str(t, o, "xAxis", 0, "type") != "category" || str(t, o, "yAxis", 0, "type") != "category" {
		t.Errorf("axes must be category axes")
	}
	if got := strs(t, o, "xAxis", 0, "data"); !reflect.DeepEqual(got, []string{"t0", "t1", "t2"}) {
		t.Errorf("x categories %v", got)
	}
	if got := strs(t, o, "yAxis", 0, "data"); !reflect.DeepEqual(got, []string{"c0", "c1"}) {
		t.Errorf("y categories %v", got)
	}
	data := arr(t, o, "series", 0, "data")
	if str(t, o, "series", 0, "type") != "heatmap" || len(data) != 6 {
		t.Fatalf("want a heatmap series with 3×2 cells, got %d", len(data))
	}
	if got := get(t, data[4], "value"); !reflect.DeepEqual(got, []any{1.0, 1.0, -2.0}) {
		t.Errorf("cell (x1,y1) = %v, want [1 1 -2]", got)
	}
	if get(t, o, "visualMap", 0, "min") != -2.0 || get(t, o, "visualMap", 0, "max") != 1.0 {
		t.Errorf("visual map %v..%v, want -2..1", get(t, o, "visualMap", 0, "min"), get(t, o, "visualMap", 0, "max"))
	}
	if str(t, o, "tooltip", "trigger") != "item" || str(t, o, "tooltip", "formatter") == "" {
		t.Errorf("tooltip %v", get(t, o, "tooltip"))
	}
}

func TestHeatmapOptionKeepsAMaxOfZero(t *testing.T) {
	h := heat()
	h.Values = [][]float64{{-3, -1, 0}, {-2, -2, -2}}
	o := option(t)(HeatmapOption(h))
	if got := get(t, o, "visualMap", 0, "max"); got != 0.0 {
		t.Errorf("visual map max %v, want 0", got)
	}
}

func TestHeatmapHeightGrowsPerRow(t *testing.T) {
	if HeatmapHeight(2) != HeatmapMinHeight || HeatmapHeight(10) != HeatmapChromePx+280 || HeatmapHeight(500) != HeatmapMaxHeight {
		t.Errorf("heights %d %d %d", HeatmapHeight(2), HeatmapHeight(10), HeatmapHeight(500))
	}
}

// TestHeatmapNamesEveryColumnAndShowsItsUnit: nine long machine names are
// all labelled (interval 0), turned, and the colour scale carries the
// unit, standing apart from the x axis's name.
func TestHeatmapNamesEveryColumnAndShowsItsUnit(t *testing.T) {
	h := report.Heatmap{Title: "APC (W)", XLabel: "machine type", YLabel: "task type", Unit: "W",
		X: []string{"AMD A8-3870K", "AMD FX-8150", "Intel Core i3 2120", "Intel Core i5 2400S", "Intel Core i5 2500K",
			"Intel Core i7 3960X", "Intel Core i7 3960X @ 4.20GHz", "Intel Core i7 3770K", "Intel Core i7 3770K @ 4.30GHz"},
		Y: []string{"a", "b"}, Values: [][]float64{{1, 2, 3, 4, 5, 6, 7, 8, 9}, {9, 8, 7, 6, 5, 4, 3, 2, 1}}}
	o := option(t)(HeatmapOption(h))
	if got := get(t, o, "xAxis", 0, "axisLabel", "interval"); got != 0.0 {
		t.Errorf("x label interval %v, want 0 (every machine named)", got)
	}
	if got := get(t, o, "xAxis", 0, "axisLabel", "rotate"); got != 30.0 {
		t.Errorf("x labels turned by %v, want 30", got)
	}
	if got := get(t, o, "visualMap", 0, "text"); !reflect.DeepEqual(got, []any{"W", ""}) {
		t.Errorf("colour scale text %v, want the unit", got)
	}
	if got := str(t, o, "visualMap", 0, "orient"); got != "vertical" {
		t.Errorf("colour scale is %s, want vertical at the right (clear of the axis name)", got)
	}
}
