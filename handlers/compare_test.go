package handlers

import (
	"strings"
	"testing"

	"schedlab/solvers"
	"schedlab/store"
)

func TestJoinMarksBestByDirectionAndOverlaysByTitle(t *testing.T) {
	runs := []store.Run{{ID: "a", Variant: "online"}, {ID: "b", Variant: "average"}, {ID: "c", Variant: "greedy"}}
	reports := []*solvers.Report{
		{Metrics: []solvers.Metric{{Name: "objective", Value: 5, Better: solvers.Higher}, {Name: "makespan", Value: 10, Better: solvers.Lower}, {Name: "revenue", Value: 3}},
			Series: []solvers.Plot{{Title: "P", Lines: []solvers.Line{{Name: "x", Points: [][2]float64{{0, 1}}}}}}},
		{Metrics: []solvers.Metric{{Name: "objective", Value: 7, Better: solvers.Higher}, {Name: "makespan", Value: 8, Better: solvers.Lower}, {Name: "revenue", Value: 9}},
			Series: []solvers.Plot{{Title: "P", Lines: []solvers.Line{{Name: "x", Points: [][2]float64{{0, 2}}}}}, {Title: "Q"}}},
		{Metrics: []solvers.Metric{{Name: "makespan", Value: 8, Better: solvers.Lower}}},
	}
	p := Join(runs, reports)
	if len(p.Metrics) != 3 || p.Metrics[0].Name != "objective" || p.Metrics[1].Name != "makespan" {
		t.Fatalf("metric rows %+v, want objective, makespan, revenue in first-seen order", p.Metrics)
	}
	want := map[string][]bool{
		"objective": {false, true, false},  // higher is better: b
		"makespan":  {false, true, true},   // lower is better: b and c tie
		"revenue":   {false, false, false}, // no direction: nothing marked
	}
	for _, m := range p.Metrics {
		for i, w := range want[m.Name] {
			if m.Best[i] != w {
				t.Errorf("%s run %d best=%v, want %v", m.Name, i, m.Best[i], w)
			}
		}
	}
	if p.Metrics[0].Values[2] != nil {
		t.Error("run c has no objective but a value is shown")
	}
	if len(p.Plots) != 2 || p.Plots[0].Title != "P" || len(p.Plots[0].Lines) != 2 {
		t.Fatalf("plots %+v, want P overlaid with 2 lines, then Q", p.Plots)
	}
}

func TestMarkBestLeavesEqualValuesUnmarked(t *testing.T) {
	one, two := 4.0, 4.0
	row := Join([]store.Run{{ID: "a"}, {ID: "b"}}, []*solvers.Report{
		{Metrics: []solvers.Metric{{Name: "x", Value: one, Better: solvers.Lower}}},
		{Metrics: []solvers.Metric{{Name: "x", Value: two, Better: solvers.Lower}}},
	}).Metrics[0]
	if row.Best[0] || row.Best[1] {
		t.Error("equal values marked as best")
	}
}

func TestShortLabelsUseTheVariantOnlyWhenUnique(t *testing.T) {
	full := []string{"a · dpop", "b · exact"}
	got := shortLabels([]store.Run{{ID: "a", Kind: store.KindRun, Variant: "dpop"}, {ID: "b", Kind: store.KindRun, Variant: "exact"}}, full)
	if got[0] != "dpop" || got[1] != "exact" {
		t.Errorf("unique variants: %q", got)
	}
	same := []store.Run{{ID: "a", Kind: store.KindRun, Variant: "dpop"}, {ID: "b", Kind: store.KindRun, Variant: "dpop"}}
	if got := shortLabels(same, full); got[0] != full[0] || got[1] != full[1] {
		t.Errorf("a shared variant must keep the run ids: %q", got)
	}
	repro := []store.Run{{ID: "a", Kind: store.KindReproduce}, {ID: "b", Kind: store.KindRun, Variant: "dpop"}}
	if got := shortLabels(repro, full); got[0] != full[0] {
		t.Errorf("a reproduction has no variant to show: %q", got)
	}
}

// TestJoinRanksOnlyResultsOfOneFamily: a method's cost (wall_ms) and an
// input's property are never ranked; runs of two families rank nothing
// and say why; runs on two workloads are flagged.
func TestJoinRanksOnlyResultsOfOneFamily(t *testing.T) {
	metrics := func(makespan, wall float64) *solvers.Report {
		return &solvers.Report{Metrics: []solvers.Metric{
			{Name: "makespan", Value: makespan, Better: solvers.Lower},
			{Name: "wall_ms", Value: wall, Better: solvers.Lower, Kind: solvers.KindCost},
			{Name: "lower_bound", Value: makespan - 1, Better: solvers.Lower, Kind: solvers.KindInfo},
		}}
	}
	same := []store.Run{{ID: "a", Strategy: "dcop", WorkloadID: "w"}, {ID: "b", Strategy: "dcop", WorkloadID: "w"}}
	p := Join(same, []*solvers.Report{metrics(10, 5), metrics(12, 1)})
	best := map[string][]bool{}
	for _, m := range p.Metrics {
		best[m.Name] = m.Best
	}
	if !p.Ranked || !best["makespan"][0] || best["wall_ms"][1] || best["lower_bound"][0] || len(p.Notes) != 0 {
		t.Errorf("one family, one workload: ranked %v, best %v, notes %q; want only makespan ranked", p.Ranked, best, p.Notes)
	}
	mixed := []store.Run{{ID: "a", Strategy: "eapm", WorkloadID: "w1"}, {ID: "b", Strategy: "dcop", WorkloadID: "w2"}}
	p = Join(mixed, []*solvers.Report{metrics(7221, 5), metrics(10, 1)})
	for _, m := range p.Metrics {
		for i, b := range m.Best {
			if b {
				t.Errorf("two families: %s of run %d marked best", m.Name, i)
			}
		}
	}
	if p.Ranked || len(p.Notes) != 1 || !strings.Contains(p.Notes[0], "different families") {
		t.Errorf("two families: ranked %v, notes %q", p.Ranked, p.Notes)
	}
	twoWorkloads := []store.Run{{ID: "a", Strategy: "dcop", WorkloadID: "w1"}, {ID: "b", Strategy: "dcop", WorkloadID: "w2"}}
	p = Join(twoWorkloads, []*solvers.Report{metrics(10, 5), metrics(12, 1)})
	if !p.Ranked || len(p.Notes) != 1 || !strings.Contains(p.Notes[0], "different workloads") {
		t.Errorf("two workloads: ranked %v, notes %q", p.Ranked, p.Notes)
	}
}

func TestJoinDrawsOneBarChartPerRankedMetric(t *testing.T) {
	rep := func(makespan, util, wall float64) *solvers.Report {
		return &solvers.Report{Metrics: []solvers.Metric{
			{Name: "makespan", Value: makespan, Unit: "s", Better: solvers.Lower},
			{Name: "utilization", Value: util, Better: solvers.Higher},
			{Name: "wall_ms", Value: wall, Better: solvers.Lower, Kind: solvers.KindCost},
			{Name: "tasks", Value: 100, Kind: solvers.KindInfo},
		}}
	}
	same := []store.Run{{ID: "a", Strategy: "critical", Variant: "heft", Kind: store.KindRun, WorkloadID: "w"},
		{ID: "b", Strategy: "critical", Variant: "list", Kind: store.KindRun, WorkloadID: "w"}}
	p := Join(same, []*solvers.Report{rep(10, 0.5, 3), rep(12, 0.7, 1)})
	if len(p.Bars) != 2 || p.Bars[0].Metric != "makespan" || p.Bars[1].Metric != "utilization" {
		t.Fatalf("bars = %+v, want makespan and utilization (the ranked results), not wall_ms or tasks", p.Bars)
	}
	b := p.Bars[0]
	if b.Unit != "s" || b.Better != solvers.Lower || len(b.Labels) != 2 || b.Labels[0] != "heft" || *b.Values[1] != 12 || !b.Best[0] || b.Best[1] {
		t.Errorf("makespan bars = %+v: want unit s, lower, labels by variant, heft best", b)
	}
	if u := p.Bars[1]; !u.Best[1] || u.Best[0] {
		t.Errorf("utilization bars best = %v, want list's (higher is better)", u.Best)
	}
	mixed := []store.Run{{ID: "a", Strategy: "eapm", WorkloadID: "w1"}, {ID: "b", Strategy: "dcop", WorkloadID: "w2"}}
	if p := Join(mixed, []*solvers.Report{rep(10, 0.5, 3), rep(12, 0.7, 1)}); len(p.Bars) != 0 {
		t.Errorf("two families: %d bar charts, want none (nothing is ranked)", len(p.Bars))
	}
}
