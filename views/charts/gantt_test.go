package charts

import (
	"fmt"
	"math"
	"reflect"
	"strings"
	"testing"

	"schedlab/report"
)

func smallGantt() report.Gantt {
	return report.Gantt{
		Title: "Schedule", TimeUnit: "s",
		Lanes: []string{"cpu0", "cpu1", "cpu2"},
		Bars: []report.Bar{
			{Lane: 0, Start: 0, End: 4, Label: "j1", Group: "alice"},
			{Lane: 1, Start: 1, End: 3, Label: "owner", Kind: "local", Group: "alice"},
			{Lane: 2, Start: 2, End: 6, Label: "j2", Group: "bob", Kind: "alt"},
			{Lane: 2, Start: 6, End: 7.5, Label: "j1", Group: "alice", Kind: "reserved"},
		},
	}
}

func ganttMeta(t *testing.T, o map[string]any) map[string]any {
	t.Helper()
	m, ok := o[metaKey].(map[string]any)
	if !ok {
		t.Fatalf("option has no %q lookup tables", metaKey)
	}
	return m
}

func TestGanttRendersChartElementWithKindAndTitle(t *testing.T) {
	doc, _ := render(t, Gantt(smallGantt()))
	div := assertChart(t, doc, "gantt", "Schedule")
	if got, want := div.AttrOr("style", ""), fmt.Sprintf("height:%dpx", GanttHeight(3)); got != want {
		t.Errorf("style = %q, want %q", got, want)
	}
}

func TestGanttOptionHasOneCompactRowPerBar(t *testing.T) {
	g := smallGantt()
	o := option(t)(GanttOption(g))
	series := arr(t, o, "series")
	if len(series) != 1 || str(t, series[0], "type") != "custom" {
		t.Fatalf("want one custom series, got %v", series)
	}
	data := arr(t, series[0], "data")
	if len(data) != len(g.Bars) {
		t.Fatalf("data has %d rows, want %d (one per bar)", len(data), len(g.Bars))
	}
	meta := ganttMeta(t, o)
	labels := strs(t, meta, "labels")
	groups := strs(t, meta, "groups")
	for i, b := range g.Bars {
		row := data[i].([]any)
		if len(row) != ganttCols {
			t.Fatalf("row %d has %d columns, want %d", i, len(row), ganttCols)
		}
		if row[LaneCol] != float64(b.Lane) || row[StartCol] != b.Start || row[EndCol] != b.End {
			t.Errorf("row %d = %v, want lane %d [%v,%v)", i, row, b.Lane, b.Start, b.End)
		}
		if got := labels[int(row[LabelCol].(float64))]; got != b.Label {
			t.Errorf("row %d label %q, want %q", i, got, b.Label)
		}
		if got := groups[int(row[GroupCol].(float64))]; got != b.Group {
			t.Errorf("row %d group %q, want %q", i, got, b.Group)
		}
	}
	if !reflect.DeepEqual(labels, []string{"", "j1", "owner", "j2"}) {
		t.Errorf("labels are not deduplicated: %v", labels)
	}
	if got := strs(t, series[0], "dimensions"); len(got) != ganttCols {
		t.Errorf("dimensions %v", got)
	}
	if got := get(t, series[0], "encode", "x"); !reflect.DeepEqual(got, []any{1.0, 2.0}) {
		t.Errorf("encode.x = %v, want [1 2] (start, end)", got)
	}
}

func TestGanttOptionListsLanesInOrderFirstOnTop(t *testing.T) {
	o := option(t)(GanttOption(smallGantt()))
	if got := strs(t, o, "yAxis", 0, "data"); !reflect.DeepEqual(got, []string{"cpu0", "cpu1", "cpu2"}) {
		t.Errorf("y axis lanes %v", got)
	}
	if str(t, o, "yAxis", 0, "type") != "category" || get(t, o, "yAxis", 0, "inverse") != true {
		t.Errorf("y axis must be an inverse category axis (first lane on top): %v", get(t, o, "yAxis", 0))
	}
	if str(t, o, "xAxis", 0, "type") != "value" || str(t, o, "xAxis", 0, "name") != "time (s)" {
		t.Errorf("x axis %v, want value axis named time (s)", get(t, o, "xAxis", 0))
	}
	if get(t, o, "xAxis", 0, "min") != 0.0 || get(t, o, "xAxis", 0, "max") != 7.5 {
		t.Errorf("x axis range %v..%v, want 0..7.5", get(t, o, "xAxis", 0, "min"), get(t, o, "xAxis", 0, "max"))
	}
}

func TestGanttOptionRenderItemDrawsClippedRects(t *testing.T) {
	o := option(t)(GanttOption(smallGantt()))
	ri := str(t, o, "series", 0, "renderItem")
	if !strings.HasPrefix(ri, "__f__function") || !strings.HasSuffix(ri, "__f__") {
		t.Fatalf("renderItem is not a FuncOpts function: %.60s", ri)
	}
	for _, want := range []string{"echarts.graphic.clipRectByRect", `type: "rect"`, "params.coordSys", "M.colors", "M.labels"} {
		if !strings.Contains(ri, want) {
			t.Errorf("renderItem lacks %s", want)
		}
	}
	if f := str(t, o, "series", 0, "tooltip", "formatter"); !strings.Contains(f, "encodeHTML") {
		t.Errorf("tooltip formatter does not escape: %.80s", f)
	}
	if get(t, o, "series", 0, "progressive") != float64(GanttProgressive) ||
		get(t, o, "series", 0, "progressiveThreshold") != float64(GanttProgressive) {
		t.Errorf("series is not progressive: %v", get(t, o, "series", 0, "progressive"))
	}
}

func TestGanttOptionColoursLocalGreyAndGroupsStably(t *testing.T) {
	g := smallGantt()
	o := option(t)(GanttOption(g))
	colors := strs(t, ganttMeta(t, o), "colors")
	data := arr(t, o, "series", 0, "data")
	colour := func(i int) string { return colors[int(data[i].([]any)[ColourCol].(float64))] }
	kind := func(i int) float64 { return data[i].([]any)[KindCol].(float64) }
	if colour(1) != LocalGrey || kind(1) != KindCodeLocal {
		t.Errorf("local bar colour %s kind %v, want %s kind %d", colour(1), kind(1), LocalGrey, KindCodeLocal)
	}
	if colour(0) != palette[GroupColour("alice")] || colour(3) != colour(0) {
		t.Errorf("alice's bars %s and %s, want %s", colour(0), colour(3), palette[GroupColour("alice")])
	}
	if kind(2) != KindCodeAlt || kind(3) != KindCodeReserved || kind(0) != KindCodeJob {
		t.Errorf("kind codes %v %v %v", kind(0), kind(2), kind(3))
	}
	for _, c := range palette {
		if c == LocalGrey {
			t.Errorf("palette contains the local grey")
		}
	}
	// The same group gets the same colour in another Gantt.
	other := option(t)(GanttOption(report.Gantt{Lanes: []string{"x"}, Bars: []report.Bar{{Lane: 0, End: 1, Group: "alice"}}}))
	oc := strs(t, ganttMeta(t, other), "colors")[int(arr(t, other, "series", 0, "data")[0].([]any)[ColourCol].(float64))]
	if oc != colour(0) {
		t.Errorf("alice is %s in one Gantt and %s in another", colour(0), oc)
	}
}

func TestGanttGroupColourSpreadsGroups(t *testing.T) {
	seen := map[int]bool{}
	for i := 0; i < 200; i++ {
		seen[GroupColour(fmt.Sprintf("job%d", i))] = true
	}
	if len(seen) < len(palette)-2 {
		t.Errorf("200 groups use only %d of %d colours", len(seen), len(palette))
	}
	if GroupColour("") != 0 {
		t.Errorf("empty group colour %d, want 0", GroupColour(""))
	}
}

func TestGanttOptionZoomsYOnlyAbove20Lanes(t *testing.T) {
	count := func(g report.Gantt) (x, y int, yEnd any) {
		o := option(t)(GanttOption(g))
		for _, z := range arr(t, o, "dataZoom") {
			if get(t, z, "xAxisIndex") != nil {
				x++
			}
			if get(t, z, "yAxisIndex") != nil {
				y++
				yEnd = get(t, z, "end")
			}
		}
		return
	}
	g := report.Gantt{}
	for i := 0; i < 20; i++ {
		g.Lanes = append(g.Lanes, fmt.Sprint("n", i))
	}
	if x, y, _ := count(g); x != 2 || y != 0 {
		t.Errorf("20 lanes: %d x zooms, %d y zooms; want 2 (inside+slider), 0", x, y)
	}
	for i := 20; i < 100; i++ {
		g.Lanes = append(g.Lanes, fmt.Sprint("n", i))
	}
	x, y, end := count(g)
	if x != 2 || y != 1 {
		t.Errorf("100 lanes: %d x zooms, %d y zooms; want 2, 1", x, y)
	}
	visible := float64(GanttMaxHeight-GanttChromePx) / GanttLanePx
	if e, _ := end.(float64); math.Abs(e-100*math.Floor(visible)/100) > 0.01 {
		t.Errorf("y zoom end %v%%, want the %v lanes that fit", end, math.Floor(visible))
	}
}

func TestGanttHeightGrowsPerLaneAndIsCapped(t *testing.T) {
	for _, c := range []struct{ lanes, want int }{
		{0, GanttMinHeight}, {1, GanttMinHeight}, {10, GanttChromePx + 240}, {25, GanttChromePx + 600}, {1000, GanttMaxHeight},
	} {
		if got := GanttHeight(c.lanes); got != c.want {
			t.Errorf("GanttHeight(%d) = %d, want %d", c.lanes, got, c.want)
		}
	}
}

func TestGanttOptionSkipsInvalidBars(t *testing.T) {
	g := smallGantt()
	g.Bars = append(g.Bars,
		report.Bar{Lane: 3, Start: 0, End: 1},
		report.Bar{Lane: -1, Start: 0, End: 1},
		report.Bar{Lane: 0, Start: 5, End: 4},
		report.Bar{Lane: 0, Start: math.NaN(), End: 4},
	)
	o := option(t)(GanttOption(g))
	if got := len(arr(t, o, "series", 0, "data")); got != 4 {
		t.Errorf("%d rows, want the 4 valid bars", got)
	}
}

func TestGanttOptionStaysCompactFor30000Bars(t *testing.T) {
	g := bigGantt(30000, 400)
	b, err := GanttOption(g)
	if err != nil {
		t.Fatal(err)
	}
	o := parseOption(t, b, nil)
	if got := len(arr(t, o, "series", 0, "data")); got != 30000 {
		t.Fatalf("%d rows, want 30000", got)
	}
	if per := len(b) / 30000; per > 80 {
		t.Errorf("%d bytes per bar, want at most 80", per)
	}
}

func bigGantt(bars, lanes int) report.Gantt {
	g := report.Gantt{Title: "big", TimeUnit: "s"}
	for i := 0; i < lanes; i++ {
		g.Lanes = append(g.Lanes, fmt.Sprintf("node-%d", i))
	}
	for i := 0; i < bars; i++ {
		s := float64((i * 7919) % 100000)
		g.Bars = append(g.Bars, report.Bar{
			Lane: i % lanes, Start: s, End: s + float64(1+i%50),
			Label: fmt.Sprintf("job %d", i/3), Group: fmt.Sprintf("user%d", i%37),
		})
	}
	return g
}

func BenchmarkGanttOption30000Bars(b *testing.B) {
	g := bigGantt(30000, 400)
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if _, err := GanttOption(g); err != nil {
			b.Fatal(err)
		}
	}
}

func TestGanttTimeAxisLabelsAreRounded(t *testing.T) {
	g := smallGantt()
	g.Bars[0].End = 97.7815421999
	o := option(t)(GanttOption(g))
	f := str(t, o, "xAxis", 0, "axisLabel", "formatter")
	if !strings.Contains(f, "Math.round(v * 100) / 100") {
		t.Errorf("time axis label formatter %q does not round", f)
	}
}
