package report

import (
	"strings"
	"testing"
)

// TestValidateRefusesAnUnknownChartKind: a typo'd plot, bar or edge kind
// fails Validate naming the kind and the chart (it would otherwise be
// drawn as a plain line, job or edge); every declared kind and "" pass.
func TestValidateRefusesAnUnknownChartKind(t *testing.T) {
	plot := func(k PlotKind) *Report { return &Report{Series: []Plot{{Title: "Fig 3", Kind: k}}} }
	gantt := func(k BarKind) *Report {
		return &Report{Gantts: []Gantt{{Title: "schedule", Lanes: []string{"m0"}, Bars: []Bar{{End: 1}, {End: 2, Kind: k}}}}}
	}
	graph := func(k EdgeKind) *Report {
		return &Report{Graphs: []Graph{{Title: "pseudo-tree", Nodes: []GraphNode{{ID: "a"}, {ID: "b"}}, Edges: []GraphEdge{{Source: "a", Target: "b", Kind: k}}}}}
	}
	for _, c := range []struct {
		r    *Report
		want []string // in the error
	}{
		{plot("lnie"), []string{`plot "Fig 3"`, `"lnie"`}},
		{plot("Line"), []string{`plot "Fig 3"`, `"Line"`}},
		{gantt("moveed"), []string{`gantt "schedule" bar 1`, `"moveed"`}},
		{graph("crtical"), []string{`graph "pseudo-tree" edge a→b`, `"crtical"`}},
	} {
		err := c.r.Validate()
		if err == nil {
			t.Errorf("%v: Validate passed, want an error naming %v", c.want[1], c.want)
			continue
		}
		for _, w := range c.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("error %q does not name %s", err, w)
			}
		}
	}
	var ok []*Report
	for _, k := range []PlotKind{"", PlotLine, PlotBar, PlotScatter, PlotArea, PlotStep, PlotBox} {
		ok = append(ok, plot(k))
	}
	for _, k := range []BarKind{"", BarJob, BarLocal, BarAlt, BarReserved, BarMoved, BarCollision} {
		ok = append(ok, gantt(k))
	}
	for _, k := range []EdgeKind{"", EdgeTree, EdgeBack, EdgeDeleted, EdgeCritical} {
		ok = append(ok, graph(k))
	}
	for _, r := range ok {
		if err := r.Validate(); err != nil {
			t.Errorf("a declared kind: %v", err)
		}
	}
}
