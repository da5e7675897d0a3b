package charts

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"schedlab/report"
)

// TestKeysNameTheKindsAChartHas: a Gantt's key lists each bar kind it has
// with its count, a graph's each edge kind; a chart of one plain kind has
// no key.
func TestKeysNameTheKindsAChartHas(t *testing.T) {
	var b bytes.Buffer
	g := report.Gantt{Bars: []report.Bar{{Kind: ""}, {Kind: "moved"}, {Kind: "moved"}, {Kind: "alt"}, {Kind: "local"}}}
	if err := GanttKey(g).Render(context.Background(), &b); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, want := range []string{`data-kind="job"`, `data-kind="moved"`, `moved by the shift`, `· 2`, `data-kind="alt"`, `data-kind="local"`} {
		if !strings.Contains(out, want) {
			t.Errorf("Gantt key lacks %s:\n%s", want, out)
		}
	}
	if strings.Contains(out, `data-kind="collision"`) {
		t.Error("Gantt key names a kind the chart does not have")
	}
	b.Reset()
	GanttKey(report.Gantt{Bars: []report.Bar{{}, {}}}).Render(context.Background(), &b)
	if b.Len() != 0 {
		t.Errorf("plain bars got a key: %s", b.String())
	}
	b.Reset()
	EdgeKey(report.Graph{Edges: []report.GraphEdge{{Kind: "tree"}, {Kind: "tree"}, {Kind: "back"}, {Kind: "deleted"}}}).Render(context.Background(), &b)
	out = b.String()
	for _, want := range []string{`data-kind="tree"`, `tree edge`, `data-kind="back"`, `back edge`, `data-kind="deleted"`, `stroke-dasharray`} {
		if !strings.Contains(out, want) {
			t.Errorf("edge key lacks %s:\n%s", want, out)
		}
	}
}

// TestLaneLabelsFitTheLongestName: lane names get room for the longest
// one (two machine types that differ only at the end stay apart), within
// bounds.
func TestLaneLabelsFitTheLongestName(t *testing.T) {
	if w := LaneLabelWidth([]string{"Intel Core i7 3960X ×1", "Intel Core i7 3960X ×12"}); w < 7*23 {
		t.Errorf("width %d cuts a 23-character name", w)
	}
	if w := LaneLabelWidth([]string{"P1"}); w != 60 {
		t.Errorf("short names: width %d, want the minimum 60", w)
	}
	if w := LaneLabelWidth([]string{strings.Repeat("x", 200)}); w != 320 {
		t.Errorf("a very long name: width %d, want the cap 320", w)
	}
}

// TestManyBarsWriteTheirValuesUpTheBars: beyond four bars a metric chart
// writes each value up its own bar (turned 90°), so six values never
// print over each other; up to four, above them.
func TestManyBarsWriteTheirValuesUpTheBars(t *testing.T) {
	for n, want := range map[int]bool{4: false, 6: true} {
		m := MetricBars{Metric: "makespan"}
		for i := range n {
			v := float64(i + 1)
			m.Labels = append(m.Labels, "run "+strings.Repeat("x", i))
			m.Values = append(m.Values, &v)
		}
		b, err := BarsOption(m)
		if err != nil {
			t.Fatal(err)
		}
		if got := strings.Contains(string(b), `"rotate":90`); got != want {
			t.Errorf("%d bars: values turned %v, want %v", n, got, want)
		}
	}
}

// TestBarPlotNamesItsIndices: a bar plot with XNames labels its bars by
// name (EAPM's per-machine load by machine type), not by index.
func TestBarPlotNamesItsIndices(t *testing.T) {
	p := report.Plot{Title: "load", Kind: report.PlotBar, XNames: []string{"Intel Core i7 3960X", "AMD A8-3870K"},
		Lines: []report.Line{{Name: "online", Points: [][2]float64{{0, 5}, {1, 7}}}}}
	b, err := PlotOption(p)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), `"Intel Core i7 3960X","AMD A8-3870K"`) {
		t.Errorf("the bars are not named by XNames: %.400s", b)
	}
}
