package compare

import (
	"slices"
	"strings"
	"testing"

	"schedlab/report"
)

// rep is a report of the metrics given.
func rep(ms ...report.Metric) *report.Report { return &report.Report{Metrics: ms} }

func result(name string, v float64, better report.Direction) report.Metric {
	return report.Metric{Name: name, Value: v, Better: better}
}

func info(name string, v float64) report.Metric {
	return report.Metric{Name: name, Value: v, Kind: report.KindInfo}
}

func cost(name string, v float64) report.Metric {
	return report.Metric{Name: name, Value: v, Better: report.Lower, Kind: report.KindCost}
}

// row is the result's row of a metric.
func row(t *testing.T, r Result, name string) Row {
	t.Helper()
	for _, m := range r.Metrics {
		if m.Name == name {
			return m
		}
	}
	t.Fatalf("no row %s in %+v", name, r.Metrics)
	return Row{}
}

// batchRun is a run of the batch simulation of one trace with a policy.
func batchRun(id, policy string) Run {
	return Run{ID: id, Strategy: "cyclic", WorkloadID: "w1", WorkloadName: "KTH", Variant: "batch",
		Params: map[string]string{"policy": policy, "estimates": "user"}}
}

func TestLabelsNameWhatDiffers(t *testing.T) {
	for _, c := range []struct {
		name    string
		runs    []Run
		reports []*report.Report
		want    []string
		differ  []string // the differing fields, in order
	}{
		{
			name: "one parameter",
			runs: []Run{batchRun("a", "fcfs"), batchRun("b", "easy"), batchRun("c", "conservative")},
			want: []string{"policy=fcfs", "policy=easy", "policy=conservative"}, differ: []string{"policy"},
		},
		{
			name: "the variant alone reads as itself",
			runs: []Run{{ID: "a", Strategy: "critical", Variant: "heft", WorkloadID: "w"}, {ID: "b", Strategy: "critical", Variant: "list", WorkloadID: "w"}},
			want: []string{"heft", "list"}, differ: []string{"variant"},
		},
		{
			name: "variant, parameter and resource, in field order",
			runs: []Run{
				{ID: "a", Strategy: "critical", Variant: "heft", WorkloadID: "w", Params: map[string]string{"criterion": "time"}},
				{ID: "b", Strategy: "critical", Variant: "critical-works", WorkloadID: "w", Params: map[string]string{"criterion": "cost"}},
			},
			reports: []*report.Report{rep(info("processors", 4)), rep(info("processors", 40))},
			want:    []string{"heft, criterion=time, processors=4", "critical-works, criterion=cost, processors=40"},
			differ:  []string{"variant", "criterion", "processors"},
		},
		{
			name: "a parameter one run lacks",
			runs: []Run{{ID: "a", Strategy: "s", Variant: "v", Params: map[string]string{"k": "2"}}, {ID: "b", Strategy: "s", Variant: "v"}},
			want: []string{"k=2", "k=—"}, differ: []string{"k"},
		},
		{
			name: "nothing differs: by place, or the user's name",
			runs: []Run{batchRun("a", "easy"), func() Run { r := batchRun("b", "easy"); r.Name = "again"; return r }()},
			want: []string{"run 1", "again"},
		},
		{
			name: "two runs alike beside a third",
			runs: []Run{batchRun("a", "easy"), batchRun("b", "easy"), batchRun("c", "fcfs")},
			want: []string{"policy=easy #1", "policy=easy #2", "policy=fcfs"}, differ: []string{"policy"},
		},
		{
			name: "workloads of one name are told apart by id",
			runs: []Run{{ID: "a", Strategy: "s", Variant: "v", WorkloadID: "w1", WorkloadName: "trace"}, {ID: "b", Strategy: "s", Variant: "v", WorkloadID: "w2", WorkloadName: "trace"}},
			want: []string{"workload=trace w1", "workload=trace w2"}, differ: []string{"workload"},
		},
		{
			name: "seeds",
			runs: []Run{{ID: "a", Strategy: "s", Variant: "v", Seed: 1}, {ID: "b", Strategy: "s", Variant: "v", Seed: 2}},
			want: []string{"seed=1", "seed=2"}, differ: []string{"seed"},
		},
		{
			name: "a reproduction beside a run",
			runs: []Run{{ID: "a", Strategy: "dcop", Reproduce: true}, {ID: "b", Strategy: "dcop", Variant: "dpop", WorkloadID: "w", WorkloadName: "gen"}},
			want: []string{"workload=—, reproduce", "workload=gen, dpop"}, differ: []string{"workload", "variant"},
		},
	} {
		t.Run(c.name, func(t *testing.T) {
			fields := Fields(c.runs, c.reports)
			got := Labels(c.runs, fields)
			if !slices.Equal(got, c.want) {
				t.Errorf("labels %q, want %q", got, c.want)
			}
			var differ []string
			for i, f := range fields {
				if f.Differs {
					differ = append(differ, f.Name)
					if i > 0 && !fields[i-1].Differs {
						t.Errorf("differing field %s after an equal one", f.Name)
					}
				}
			}
			if !slices.Equal(differ, c.differ) {
				t.Errorf("differing fields %q, want %q", differ, c.differ)
			}
		})
	}
}

func TestFieldsFoldTheEqualOnesAfter(t *testing.T) {
	runs := []Run{batchRun("a", "fcfs"), batchRun("b", "easy")}
	fields := Fields(runs, []*report.Report{rep(info("processors", 100)), rep(info("processors", 100))})
	var names []string
	for _, f := range fields {
		names = append(names, f.Name+"="+strings.Join(f.Values, "|"))
	}
	want := []string{"policy=fcfs|easy", "family=cyclic|cyclic", "workload=KTH|KTH", "variant=batch|batch", "estimates=user|user", "processors=100|100"}
	if !slices.Equal(names, want) {
		t.Errorf("fields %q, want %q", names, want)
	}
}

func TestJoinMarksBestByDirectionAndKeepsFirstSeenOrder(t *testing.T) {
	runs := []Run{{ID: "a", Variant: "online"}, {ID: "b", Variant: "average"}, {ID: "c", Variant: "greedy"}}
	p := Join(runs, []*report.Report{
		rep(result("objective", 5, report.Higher), result("makespan", 10, report.Lower), result("revenue", 3, "")),
		rep(result("objective", 7, report.Higher), result("makespan", 8, report.Lower), result("revenue", 9, "")),
		rep(result("makespan", 8, report.Lower)),
	})
	if len(p.Metrics) != 3 || p.Metrics[0].Name != "objective" || p.Metrics[1].Name != "makespan" || p.Metrics[2].Name != "revenue" {
		t.Fatalf("metric rows %+v, want objective, makespan, revenue in first-seen order", p.Metrics)
	}
	for name, want := range map[string][]bool{
		"objective": {false, true, false},  // higher is better: b
		"makespan":  {false, true, true},   // lower is better: b and c tie
		"revenue":   {false, false, false}, // no direction: nothing marked
	} {
		if got := row(t, p, name).Best; !slices.Equal(got, want) {
			t.Errorf("%s best %v, want %v", name, got, want)
		}
	}
	if p.Metrics[0].Values[2] != nil {
		t.Error("run c has no objective but a value is shown")
	}
}

func TestMarkBest(t *testing.T) {
	f := func(v float64) *float64 { return &v }
	for _, c := range []struct {
		name      string
		better    report.Direction
		values    []*float64
		na, apart []bool
		reference []bool
		want      []bool
	}{
		{"lower", report.Lower, []*float64{f(3), f(2), f(5)}, nil, nil, nil, []bool{false, true, false}},
		{"higher", report.Higher, []*float64{f(3), f(2), f(5)}, nil, nil, nil, []bool{false, false, true}},
		{"ties all best", report.Lower, []*float64{f(2), f(2), f(5)}, nil, nil, nil, []bool{true, true, false}},
		{"all equal: none", report.Lower, []*float64{f(4), f(4)}, nil, nil, nil, []bool{false, false}},
		{"one value: none", report.Lower, []*float64{f(4), nil}, nil, nil, nil, []bool{false, false}},
		{"no direction: none", "", []*float64{f(1), f(2)}, nil, nil, nil, []bool{false, false}},
		{"n/a takes no part", report.Lower, []*float64{f(0), f(2), f(3)}, []bool{true, false, false}, nil, nil, []bool{false, true, false}},
		{"apart takes no part", report.Lower, []*float64{f(0), f(2), f(3)}, nil, []bool{true, false, false}, nil, []bool{false, true, false}},
		{"a reference is never best", report.Lower, []*float64{f(1), f(2), f(3)}, nil, nil, []bool{true, false, false}, []bool{false, true, false}},
		{"a reference is no second value", report.Lower, []*float64{f(1), f(2)}, nil, nil, []bool{true, false}, []bool{false, false}},
	} {
		t.Run(c.name, func(t *testing.T) {
			n := len(c.values)
			pad := func(b []bool) []bool {
				if b == nil {
					return make([]bool, n)
				}
				return b
			}
			m := Row{Better: c.better, Values: c.values, Best: make([]bool, n), NA: pad(c.na), Apart: pad(c.apart)}
			markBest(&m, pad(c.reference))
			if !slices.Equal(m.Best, c.want) {
				t.Errorf("best %v, want %v", m.Best, c.want)
			}
		})
	}
}

// TestJoinRanksOnlyResultsOfOneFamily: a method's cost (wall_ms) and an
// input's property are never ranked; runs of two families rank nothing
// and say why.
func TestJoinRanksOnlyResultsOfOneFamily(t *testing.T) {
	metrics := func(makespan, wall float64) *report.Report {
		return rep(result("makespan", makespan, report.Lower), cost("wall_ms", wall),
			report.Metric{Name: "tasks", Value: makespan - 1, Better: report.Lower, Kind: report.KindInfo})
	}
	same := []Run{{ID: "a", Strategy: "dcop", WorkloadID: "w"}, {ID: "b", Strategy: "dcop", WorkloadID: "w"}}
	p := Join(same, []*report.Report{metrics(10, 5), metrics(12, 1)})
	if !p.Ranked || !row(t, p, "makespan").Best[0] || row(t, p, "wall_ms").Best[1] || row(t, p, "tasks").Best[0] || len(p.Notes) != 0 {
		t.Errorf("one family, one workload: ranked %v, notes %q; want only makespan ranked", p.Ranked, p.Notes)
	}
	mixed := []Run{{ID: "a", Strategy: "eapm", WorkloadID: "w1"}, {ID: "b", Strategy: "dcop", WorkloadID: "w2"}}
	p = Join(mixed, []*report.Report{metrics(7221, 5), metrics(10, 1)})
	for _, m := range p.Metrics {
		if slices.Contains(m.Best, true) {
			t.Errorf("two families: %s marked best", m.Name)
		}
	}
	if p.Ranked || len(p.Notes) != 1 || !strings.Contains(p.Notes[0], "different families") || len(p.Bars)+len(p.Costs) != 0 {
		t.Errorf("two families: ranked %v, notes %q, %d charts", p.Ranked, p.Notes, len(p.Bars)+len(p.Costs))
	}
}

// TestJoinRefusesToRankRunsOnUnequalTerms: different resources or
// workloads rank nothing, and the note and each result row say which
// resource differs, with the values.
func TestJoinRefusesToRankRunsOnUnequalTerms(t *testing.T) {
	crit := func(id, variant, workload string) Run {
		return Run{ID: id, Strategy: "critical", Variant: variant, WorkloadID: workload, WorkloadName: workload}
	}
	for _, c := range []struct {
		name    string
		runs    []Run
		reports []*report.Report
		why     string // "" ranked
	}{
		{"processors differ", []Run{crit("a", "critical-works", "montage"), crit("b", "heft", "montage")},
			[]*report.Report{rep(result("makespan", 10.4, report.Lower), info("processors", 40)), rep(result("makespan", 47.9, report.Lower), info("processors", 4))},
			"processors differ (40, 4)"},
		{"two resources differ", []Run{crit("a", "heft", "montage"), crit("b", "heft", "montage")},
			[]*report.Report{rep(result("makespan", 10, report.Lower), info("processors", 4), info("deadline", 100)),
				rep(result("makespan", 9, report.Lower), info("processors", 8), info("deadline", 50))},
			"processors differ (4, 8); deadline differ (100, 50)"},
		{"workloads differ", []Run{crit("a", "heft", "montage"), crit("b", "list", "epigenomics")},
			[]*report.Report{rep(result("makespan", 10, report.Lower)), rep(result("makespan", 9, report.Lower))},
			"the workloads differ (montage, epigenomics)"},
		{"equal resources rank", []Run{crit("a", "heft", "montage"), crit("b", "list", "montage")},
			[]*report.Report{rep(result("makespan", 10, report.Lower), info("processors", 4)), rep(result("makespan", 9, report.Lower), info("processors", 4))},
			""},
		{"a result named as a resource is not a resource", []Run{crit("a", "heft", "montage"), crit("b", "list", "montage")},
			[]*report.Report{rep(result("makespan", 10, report.Lower), result("processors_used", 4, "")), rep(result("makespan", 9, report.Lower), result("processors_used", 1, ""))},
			""},
		{"a resource one run does not report is no conflict", []Run{crit("a", "heft", "montage"), crit("b", "list", "montage")},
			[]*report.Report{rep(result("makespan", 10, report.Lower), info("processors", 4)), rep(result("makespan", 9, report.Lower))},
			""},
		{"a failed run's workload does not count", []Run{crit("a", "heft", "montage"), crit("b", "list", "montage"), crit("c", "list", "other")},
			[]*report.Report{rep(result("makespan", 10, report.Lower)), rep(result("makespan", 9, report.Lower)), {}},
			""},
	} {
		t.Run(c.name, func(t *testing.T) {
			p := Join(c.runs, c.reports)
			m := row(t, p, "makespan")
			if c.why == "" {
				if !p.Ranked || !m.Ranked || !slices.Contains(m.Best, true) || m.Unranked != "" {
					t.Errorf("equal terms: ranked %v, row %+v, notes %q", p.Ranked, m, p.Notes)
				}
				return
			}
			if p.Ranked || m.Ranked || slices.Contains(m.Best, true) {
				t.Errorf("ranked on unequal terms: %+v", m)
			}
			if m.Unranked != c.why {
				t.Errorf("row says %q, want %q", m.Unranked, c.why)
			}
			if len(p.Notes) != 1 || !strings.HasPrefix(p.Notes[0], "Not ranked: "+c.why+".") {
				t.Errorf("notes %q, want one saying %q", p.Notes, c.why)
			}
			if len(p.Bars) != 1 || slices.Contains(p.Bars[0].Best, true) || p.Bars[0].Ranked {
				t.Errorf("bars %+v: want makespan side by side, no best", p.Bars)
			}
		})
	}
}

// TestJoinNeverMarksAReferenceOrABoundBest: EAPM's offline LP bound beside
// the online methods, and a lower bound beside a makespan.
func TestJoinNeverMarksAReferenceOrABoundBest(t *testing.T) {
	eapm := func(id, variant string, ref bool) Run {
		return Run{ID: id, Strategy: "eapm", Variant: variant, WorkloadID: "w", Reference: ref}
	}
	runs := []Run{eapm("a", "offline-lp", true), eapm("b", "online", false), eapm("c", "average", false)}
	p := Join(runs, []*report.Report{
		rep(result("objective", 9, report.Higher), report.Metric{Name: "upper_bound", Value: 9.5, Better: report.Higher}),
		rep(result("objective", 7, report.Higher), report.Metric{Name: "upper_bound", Value: 9.5, Better: report.Higher}),
		rep(result("objective", 5, report.Higher), report.Metric{Name: "upper_bound", Value: 9.5, Better: report.Higher}),
	})
	if got := row(t, p, "objective").Best; !slices.Equal(got, []bool{false, true, false}) {
		t.Errorf("objective best %v: want online's, never the offline bound's", got)
	}
	ub := row(t, p, "upper_bound")
	if ub.Ranked || slices.Contains(ub.Best, true) || !ub.Bound {
		t.Errorf("upper_bound %+v: a bound is a reference, never ranked", ub)
	}
	if !slices.Equal(p.Reference, []bool{true, false, false}) || !slices.Equal(p.Bars[0].Reference, p.Reference) {
		t.Errorf("reference runs %v, bars %v", p.Reference, p.Bars[0].Reference)
	}
	if len(p.Bars) != 1 {
		t.Errorf("%d result charts, want objective only (a bound is not charted as a result)", len(p.Bars))
	}
	if !slices.ContainsFunc(p.Notes, func(n string) bool { return strings.Contains(n, "reference") }) {
		t.Errorf("notes %q do not say what a reference is", p.Notes)
	}
	// A reference and one method: nothing to rank.
	p = Join(runs[:2], []*report.Report{rep(result("objective", 9, report.Higher)), rep(result("objective", 7, report.Higher))})
	if m := row(t, p, "objective"); m.Ranked || slices.Contains(m.Best, true) {
		t.Errorf("a method beside a reference is ranked: %+v", m)
	}
	// A reference on other resources does not stop the methods' ranking.
	p = Join(runs, []*report.Report{
		rep(result("objective", 9, report.Higher), info("machines", 9)),
		rep(result("objective", 7, report.Higher), info("machines", 3)),
		rep(result("objective", 5, report.Higher), info("machines", 3)),
	})
	if !p.Ranked || !row(t, p, "objective").Best[1] {
		t.Errorf("the methods on equal terms are not ranked: %q", p.Notes)
	}
}

func TestIsBoundMetric(t *testing.T) {
	for name, want := range map[string]bool{"lower_bound": true, "upper_bound": true, "optimal_makespan": true,
		"lp_upper_bound": true, "lower_bound_jobs": true, "makespan": false, "makespan_over_bound": false, "bounded_slowdown": false, "optimal_proven": true} {
		if IsBoundMetric(name) != want {
			t.Errorf("IsBoundMetric(%q) = %v", name, !want)
		}
	}
}

// TestJoinChartsResultsAndCosts: every result and every cost of one
// family has a bar chart; costs and unranked results have no best; n/a
// runs are omitted; info metrics are not charted.
func TestJoinChartsResultsAndCosts(t *testing.T) {
	dcop := func(id, variant string) Run { return Run{ID: id, Strategy: "dcop", Variant: variant, WorkloadID: "w"} }
	r := func(makespan, width, msgs float64) *report.Report {
		return rep(result("makespan", makespan, report.Lower), info("processors", 3),
			report.Metric{Name: "width", Value: width, Kind: report.KindCost},
			report.Metric{Name: "messages", Value: msgs, Better: report.Lower, Kind: report.KindCost, Variants: []string{"dpop", "dpop-wd"}})
	}
	p := Join([]Run{dcop("a", "dpop"), dcop("b", "dpop-wd"), dcop("c", "exact")}, []*report.Report{r(10, 8, 100), r(12, 4, 60), r(9, 0, 0)})
	var results, costs []string
	for _, b := range p.Bars {
		results = append(results, b.Metric)
	}
	for _, b := range p.Costs {
		costs = append(costs, b.Metric)
		if slices.Contains(b.Best, true) || b.Ranked {
			t.Errorf("cost %s ranked: %+v", b.Metric, b)
		}
	}
	if !slices.Equal(results, []string{"makespan"}) || !slices.Equal(costs, []string{"width", "messages"}) {
		t.Errorf("results %q, costs %q", results, costs)
	}
	if b := p.Bars[0]; !b.Best[2] || !b.Ranked || !slices.Equal(b.Labels, []string{"dpop", "dpop-wd", "exact"}) {
		t.Errorf("makespan bars %+v", b)
	}
	if m := p.Costs[1]; !slices.Equal(m.Omit, []bool{false, false, true}) {
		t.Errorf("messages omit %v: exact sends none by construction", m.Omit)
	}
}

// TestMarkApartRanksTheLargestComparableGroup: gossip's rumor counts the
// messages of one rumor; beside two gossip runs it is apart.
func TestMarkApartRanksTheLargestComparableGroup(t *testing.T) {
	g := func(id, variant string) Run {
		return Run{ID: id, Strategy: "gossip", Variant: variant, WorkloadID: "w"}
	}
	msgs := func(v float64, vs ...string) *report.Report {
		return rep(report.Metric{Name: "messages", Value: v, Better: report.Lower, Variants: vs})
	}
	p := Join([]Run{g("a", "gossip"), g("b", "rumor"), g("c", "gossip")},
		[]*report.Report{msgs(100, "gossip", "central"), msgs(5, "rumor"), msgs(80, "gossip", "central")})
	m := row(t, p, "messages")
	if !slices.Equal(m.Apart, []bool{false, true, false}) || !slices.Equal(m.Best, []bool{false, false, true}) {
		t.Errorf("apart %v best %v", m.Apart, m.Best)
	}
}
