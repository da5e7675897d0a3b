package charts

import (
	"math"
	"reflect"
	"strings"
	"testing"

	"schedlab/report"
)

func twoLines() report.Plot {
	return report.Plot{
		Title: "Objective vs width", XLabel: "width", YLabel: "cost",
		Lines: []report.Line{
			{Name: "dpop", Points: [][2]float64{{1, 10}, {2, 8}, {3, 7}}},
			{Name: "bound", Points: [][2]float64{{1, 9}, {3, 6}}, Dashed: true},
		},
	}
}

func TestPlotRendersChartElementWithKindAndTitle(t *testing.T) {
	doc, _ := render(t, Plot(twoLines()))
	div := assertChart(t, doc, "plot", "Objective vs width")
	if got := div.AttrOr("style", ""); got != "height:360px" {
		t.Errorf("style = %q", got)
	}
}

func TestPlotOptionHasOneLineSeriesPerLineWithAllPoints(t *testing.T) {
	o := option(t)(PlotOption(twoLines()))
	series := arr(t, o, "series")
	if len(series) != 2 {
		t.Fatalf("series = %d, want 2", len(series))
	}
	for i, want := range []struct {
		name   string
		points int
	}{{"dpop", 3}, {"bound", 2}} {
		if got := str(t, series[i], "type"); got != "line" {
			t.Errorf("series %d type %q, want line", i, got)
		}
		if got := str(t, series[i], "name"); got != want.name {
			t.Errorf("series %d name %q, want %q", i, got, want.name)
		}
		if got := len(arr(t, series[i], "data")); got != want.points {
			t.Errorf("series %d has %d points, want %d", i, got, want.points)
		}
	}
	if got := get(t, series[0], "data", 1, "value"); !reflect.DeepEqual(got, []any{2.0, 8.0}) {
		t.Errorf("second point = %v, want [2 8]", got)
	}
	if got := str(t, o, "xAxis", 0, "type"); got != "value" {
		t.Errorf("x axis type %q, want value (numeric x)", got)
	}
	if got := str(t, o, "xAxis", 0, "name"); got != "width" {
		t.Errorf("x axis name %q", got)
	}
	if got := str(t, o, "yAxis", 0, "name"); got != "cost" {
		t.Errorf("y axis name %q", got)
	}
	if got := get(t, o, "legend", "show"); got != true {
		t.Errorf("legend show = %v", got)
	}
	if got := str(t, o, "tooltip", "trigger"); got != "axis" {
		t.Errorf("tooltip trigger %q, want axis", got)
	}
}

func TestPlotOptionDrawsDashedLinesDashed(t *testing.T) {
	o := option(t)(PlotOption(twoLines()))
	if got := get(t, o, "series", 1, "lineStyle", "type"); got != "dashed" {
		t.Errorf("dashed line style = %v, want dashed", got)
	}
	if got := get(t, o, "series", 0, "lineStyle", "type"); got != nil {
		t.Errorf("solid line style = %v, want none", got)
	}
}

func TestPlotOptionUsesLogAxesAndDropsNonPositivePoints(t *testing.T) {
	p := twoLines()
	p.YLog = true
	p.Lines[0].Points = append(p.Lines[0].Points, [2]float64{4, 0}, [2]float64{5, -1})
	o := option(t)(PlotOption(p))
	if got := str(t, o, "yAxis", 0, "type"); got != "log" {
		t.Errorf("y axis type %q, want log", got)
	}
	if got := str(t, o, "xAxis", 0, "type"); got != "value" {
		t.Errorf("x axis type %q, want value", got)
	}
	if got := len(arr(t, o, "series", 0, "data")); got != 3 {
		t.Errorf("log y kept %d points, want 3 (y ≤ 0 dropped)", got)
	}

	p = twoLines()
	p.XLog = true
	o = option(t)(PlotOption(p))
	if got := str(t, o, "xAxis", 0, "type"); got != "log" {
		t.Errorf("x axis type %q, want log", got)
	}
	if got := str(t, o, "yAxis", 0, "type"); got != "value" {
		t.Errorf("y axis type %q, want value", got)
	}
}

func TestPlotOptionBarsUseSortedCategoriesWithGaps(t *testing.T) {
	p := report.Plot{Title: "t", Kind: "bar", Lines: []report.Line{
		{Name: "a", Points: [][2]float64{{20, 1}, {10, 2}}},
		{Name: "b", Points: [][2]float64{{30, 3}}, Dashed: true},
	}}
	o := option(t)(PlotOption(p))
	if got := str(t, o, "xAxis", 0, "type"); got != "category" {
		t.Fatalf("x axis type %q, want category", got)
	}
	if got := strs(t, o, "xAxis", 0, "data"); !reflect.DeepEqual(got, []string{"10", "20", "30"}) {
		t.Errorf("categories %v", got)
	}
	var a []any
	for _, d := range arr(t, o, "series", 0, "data") {
		a = append(a, get(t, d, "value"))
	}
	if !reflect.DeepEqual(a, []any{2.0, 1.0, "-"}) {
		t.Errorf("bar values %v, want [2 1 -]", a)
	}
	if str(t, o, "series", 1, "type") != "bar" || get(t, o, "series", 1, "itemStyle", "opacity") == nil {
		t.Errorf("dashed bar series should be a translucent bar: %v", get(t, o, "series", 1))
	}
}

func TestPlotOptionScatterHasNumericX(t *testing.T) {
	p := twoLines()
	p.Kind = "scatter"
	o := option(t)(PlotOption(p))
	if str(t, o, "series", 0, "type") != "scatter" || len(arr(t, o, "series", 0, "data")) != 3 {
		t.Errorf("scatter series wrong: %v", get(t, o, "series", 0))
	}
	if got := str(t, o, "xAxis", 0, "type"); got != "value" {
		t.Errorf("x axis type %q, want value", got)
	}
}

func TestPlotOptionToolboxSavesPNGAndZooms(t *testing.T) {
	o := option(t)(PlotOption(twoLines()))
	if got := str(t, o, "toolbox", "feature", "saveAsImage", "type"); got != "png" {
		t.Errorf("saveAsImage type %q, want png", got)
	}
	if got := str(t, o, "toolbox", "feature", "saveAsImage", "name"); got != "Objective_vs_width" {
		t.Errorf("saveAsImage name %q", got)
	}
	if get(t, o, "toolbox", "feature", "dataZoom", "show") != true {
		t.Errorf("toolbox has no dataZoom")
	}
	if get(t, o, "toolbox", "feature", "dataZoom", "icon", "zoom") == nil {
		t.Errorf("toolbox dataZoom has no icons (null hides the buttons)")
	}
}

func TestPlotOptionSkipsNonFinitePoints(t *testing.T) {
	p := twoLines()
	p.Lines[0].Points = append(p.Lines[0].Points, [2]float64{math.NaN(), 1}, [2]float64{5, math.Inf(1)})
	o := option(t)(PlotOption(p))
	if got := len(arr(t, o, "series", 0, "data")); got != 3 {
		t.Errorf("kept %d points, want 3", got)
	}
}

func TestPlotOptionSamplesLongLines(t *testing.T) {
	p := report.Plot{Title: "long", Lines: []report.Line{{Name: "a"}, {Name: "b", Points: [][2]float64{{1, 1}}}}}
	for i := 0; i < samplingFrom; i++ {
		p.Lines[0].Points = append(p.Lines[0].Points, [2]float64{float64(i), float64(i % 7)})
	}
	o := option(t)(PlotOption(p))
	if got := get(t, o, "series", 0, "sampling"); got != "lttb" {
		t.Errorf("long line sampling = %v, want lttb", got)
	}
	if got := get(t, o, "series", 1, "sampling"); got != nil {
		t.Errorf("short line sampling = %v, want none", got)
	}
}

func TestPlotYLabelStartsAtTheAxis(t *testing.T) {
	for _, kind := range []report.PlotKind{report.PlotLine, report.PlotBar, report.PlotScatter} {
		b, err := PlotOption(report.Plot{Title: "t", YLabel: "a long y label ($/s)", Kind: kind,
			Lines: []report.Line{{Name: "l", Points: [][2]float64{{1, 2}}}}})
		opt := parseOption(t, b, err)
		if got := str(t, opt, "yAxis", 0, "nameTextStyle", "align"); got != "left" {
			t.Errorf("%s: y label align %q, want left", kind, got)
		}
		if got := str(t, opt, "yAxis", 0, "name"); got != "a long y label ($/s)" {
			t.Errorf("%s: y label %q", kind, got)
		}
	}
}

func TestPlotOptionStepIsFilledAndNeverSampled(t *testing.T) {
	p := report.Plot{Title: "in use", Kind: report.PlotStep, Lines: []report.Line{{Name: "processors"}}}
	for i := 0; i < samplingFrom; i++ {
		p.Lines[0].Points = append(p.Lines[0].Points, [2]float64{float64(i), float64(i % 7)})
	}
	o := option(t)(PlotOption(p))
	if got := get(t, o, "series", 0, "step"); got != "end" {
		t.Errorf("step = %v, want end", got)
	}
	if got := get(t, o, "series", 0, "sampling"); got != nil {
		t.Errorf("a step function is sampled (%v): LTTB would cut its corners", got)
	}
	if get(t, o, "series", 0, "areaStyle") == nil {
		t.Error("step plot not filled")
	}
	area := option(t)(PlotOption(report.Plot{Title: "a", Kind: report.PlotArea, Lines: []report.Line{{Name: "x", Points: [][2]float64{{0, 1}, {1, 2}}}}}))
	if get(t, area, "series", 0, "areaStyle") == nil || get(t, area, "series", 0, "step") != nil {
		t.Error("area plot: want filled, not stepped")
	}
}

// TestScatterDrawsDashedLinesAsReferenceLines: the diagonal of an A
// against B plot is a dashed line over the points, not two more points.
func TestScatterDrawsDashedLinesAsReferenceLines(t *testing.T) {
	p := report.Plot{Title: "b against a", Kind: "scatter", Lines: []report.Line{
		{Name: "pairs", Points: [][2]float64{{1, 2}, {3, 1}, {2, 2}}},
		{Name: "equal", Dashed: true, Points: [][2]float64{{1, 1}, {3, 3}}},
	}}
	series := arr(t, option(t)(PlotOption(p)), "series")
	if len(series) != 2 || str(t, series[0], "type") != "scatter" || str(t, series[1], "type") != "line" {
		t.Fatalf("series %v: want the pairs as points and the diagonal as a line", series)
	}
	if got := str(t, series[1], "lineStyle", "type"); got != "dashed" {
		t.Errorf("the diagonal is %q, want dashed", got)
	}
}

// TestLineBandIsACustomSeriesInTheLinesColour: a line with a band gets a
// custom series after the lines, [x, low, high] per point, in the line's
// colour and under its name, and the tooltip that reads it.
func TestLineBandIsACustomSeriesInTheLinesColour(t *testing.T) {
	p := report.Plot{Title: "objective vs gamma", Lines: []report.Line{
		{Name: "online", Points: [][2]float64{{1.1, 5}, {1.3, 6}}, Band: [][2]float64{{4, 6.5}, {5, 7}}},
		{Name: "paper", Dashed: true, Points: [][2]float64{{1.1, 5.5}}},
	}}
	o := option(t)(PlotOption(p))
	series := arr(t, o, "series")
	if len(series) != 3 {
		t.Fatalf("%d series, want 2 lines and the band", len(series))
	}
	band := series[2]
	if str(t, band, "type") != "custom" || str(t, band, "name") != "online" || str(t, band, "id") != "band:0" {
		t.Errorf("band series %v: want online's custom series band:0", band)
	}
	if got := get(t, band, "data", 1, "value"); !reflect.DeepEqual(got, []any{1.3, 5.0, 7.0}) {
		t.Errorf("second band item %v, want [1.3 5 7]", got)
	}
	if str(t, band, "itemStyle", "color") != str(t, series[0], "lineStyle", "color") {
		t.Errorf("the band's colour %q differs from its line's %q", str(t, band, "itemStyle", "color"), str(t, series[0], "lineStyle", "color"))
	}
	if str(t, series[0], "id") != "line:0" {
		t.Error("the line has no id for the tooltip to match its band")
	}
	if s := str(t, o, "tooltip", "formatter"); !strings.Contains(s, "band:") {
		t.Errorf("tooltip formatter %q does not read the bands", s)
	}
}

func TestPlotOptionDrawsRegionsAsASilentMarkAreaOnTheFirstSeries(t *testing.T) {
	p := twoLines()
	p.Regions = []report.Region{{Name: "paper: 1.0–1.1", X0: 1, X1: 3, Y0: 1, Y1: 1.1}, {Name: "other", X0: 2, X1: 2.5, Y0: 0, Y1: 5}}
	o := option(t)(PlotOption(p))
	series := arr(t, o, "series")
	if len(series) != 2 {
		t.Fatalf("a band became a series: %d series", len(series))
	}
	data := arr(t, series[0], "markArea", "data")
	if len(data) != 2 {
		t.Fatalf("markArea has %d areas, want 2", len(data))
	}
	if got := str(t, data[0], 0, "name"); got != "paper: 1.0–1.1" {
		t.Errorf("area name %q", got)
	}
	if lo, hi := arr(t, data[0], 0, "coord"), arr(t, data[0], 1, "coord"); lo[0] != 1.0 || lo[1] != 1.0 || hi[0] != 3.0 || hi[1] != 1.1 {
		t.Errorf("area corners %v %v", lo, hi)
	}
	if get(t, series[0], "markArea", "silent") != true {
		t.Error("markArea is not silent")
	}
	if get(t, series[1], "markArea") != nil {
		t.Error("the second series carries the regions too")
	}
	if get(t, arr(t, option(t)(PlotOption(twoLines())), "series")[0], "markArea") != nil {
		t.Error("a plot without bands has a markArea")
	}
}
