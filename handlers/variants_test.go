package handlers

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"

	"schedlab/compare"
	"schedlab/report"
	"schedlab/runtypes"
	"schedlab/solvers"
	"schedlab/solvers/registry"
	"schedlab/views"
)

// dcopRuns runs DCOP's dpop, exact and dpop-wd on one small generated
// instance, as "run every variant" would, and returns the runs and reports.
func dcopRuns(t *testing.T) ([]runtypes.Run, []*report.Report) {
	t.Helper()
	st, ok := registry.Lookup("dcop")
	if !ok {
		t.Fatal("no dcop family")
	}
	ctx := context.Background()
	w, err := st.Generate(ctx, "namekata2008", solvers.Params{"jobs": "8"}, 1)
	if err != nil {
		t.Fatal(err)
	}
	var runs []runtypes.Run
	var reports []*report.Report
	for _, v := range []string{"dpop", "exact", "dpop-wd"} {
		rep, err := st.Run(ctx, w, v, solvers.Params{"time_limit_s": "1"}, nil)
		if err != nil {
			t.Fatalf("%s: %v", v, err)
		}
		runs = append(runs, runtypes.Run{ID: "r-" + v, Kind: runtypes.KindRun, Strategy: "dcop", Variant: v, WorkloadID: "w", Status: runtypes.StatusDone})
		reports = append(reports, rep)
	}
	return runs, reports
}

func rowOf(t *testing.T, p views.CompareProps, name string) compare.Row {
	t.Helper()
	for _, m := range p.Metrics {
		if m.Name == name {
			return m
		}
	}
	t.Fatalf("no row %s", name)
	return compare.Row{}
}

// TestJoinShowsDCOPExactMessagesAsNotMeaningful: in DCOP's all-variants
// compare, exact (centralized, no messages) is n/a on messages, bytes and
// cycles and never best there; the DPOP variants keep their numbers;
// the makespan, meaningful for all, is ranked over all three.
func TestJoinShowsDCOPExactMessagesAsNotMeaningful(t *testing.T) {
	runs, reports := dcopRuns(t)
	p := Join(runs, reports)
	for _, name := range []string{"messages", "total_bytes", "message_cycles", "width_after", "max_util_bytes_after"} {
		m := rowOf(t, p, name)
		if m.Values[1] == nil || !m.NA[1] || m.Best[1] {
			t.Errorf("%s: exact's value %v, n/a %v, best %v; want its value kept, n/a, not best", name, m.Values[1], m.NA[1], m.Best[1])
		}
		if m.NA[0] || m.NA[2] {
			t.Errorf("%s: n/a %v, want dpop and dpop-wd meaningful", name, m.NA)
		}
	}
	if m := rowOf(t, p, "messages"); *m.Values[1] != 0 {
		t.Errorf("exact reports %v messages: the n/a hides a 0 by construction, not a measurement", *m.Values[1])
	}
	if m := rowOf(t, p, "back_edges_deleted"); !m.NA[0] || !m.NA[1] || m.NA[2] {
		t.Errorf("back_edges_deleted n/a %v, want dpop and exact n/a, dpop-wd not", m.NA)
	}
	ms := rowOf(t, p, "makespan")
	if !ms.Ranked || anySet(ms.NA) {
		t.Errorf("makespan: ranked %v, n/a %v; want ranked over all three", ms.Ranked, ms.NA)
	}
	for _, b := range p.Bars {
		if b.Metric == "makespan" && anySet(b.Omit) {
			t.Errorf("makespan bars omit %v", b.Omit)
		}
		if b.Metric == "messages" {
			t.Error("messages (a cost) has a bar chart")
		}
	}

	// The page: n/a with its reason, and no best among the n/a cells.
	var buf bytes.Buffer
	if err := views.CompareBody(p).Render(context.Background(), &buf); err != nil {
		t.Fatal(err)
	}
	doc, err := goquery.NewDocumentFromReader(&buf)
	if err != nil {
		t.Fatal(err)
	}
	cells := doc.Find(`tr[data-metric=messages] td`)
	if cells.Length() != 4 {
		t.Fatalf("messages row has %d cells, want name + 3 runs", cells.Length())
	}
	na := cells.Eq(2)
	if title, _ := na.Attr("title"); strings.TrimSpace(na.Text()) != "n/a" || na.AttrOr("data-testid", "") != "na" || !strings.Contains(title, "not meaningful for exact") {
		t.Errorf("exact's messages cell %q (title %q), want n/a not meaningful for exact", na.Text(), title)
	}
	if strings.TrimSpace(cells.Eq(1).Text()) == "n/a" || strings.TrimSpace(cells.Eq(3).Text()) == "n/a" {
		t.Error("a DPOP variant's messages show n/a")
	}
	if doc.Find(`[data-testid=na-legend]`).Length() != 1 {
		t.Error("the page does not say what n/a means")
	}
	if doc.Find(`tr[data-metric=makespan][data-ranked]`).Length() != 1 || doc.Find(`tr[data-metric=messages][data-ranked]`).Length() != 0 {
		t.Error("data-ranked: want makespan ranked, messages not")
	}
}

// anySet reports whether any flag is set.
func anySet(flags []bool) bool {
	for _, f := range flags {
		if f {
			return true
		}
	}
	return false
}

// TestJoinRanksAResultOnlyWhereItIsMeaningful: a result metric declared
// for some variants is ranked among those runs only; a run of another
// variant, even with the best number, is n/a and left out of the bars.
func TestJoinRanksAResultOnlyWhereItIsMeaningful(t *testing.T) {
	alts := []string{"css", "fair"}
	runs := []runtypes.Run{{ID: "a", Strategy: "cyclic", Variant: "css", WorkloadID: "w"},
		{ID: "b", Strategy: "cyclic", Variant: "backfill", WorkloadID: "w"},
		{ID: "c", Strategy: "cyclic", Variant: "fair", WorkloadID: "w"}}
	rep := func(n, cost float64) *report.Report {
		return &report.Report{Metrics: []report.Metric{
			{Name: "n_alternatives", Value: n, Better: report.Higher, Variants: alts},
			{Name: "cost", Value: cost, Better: report.Lower},
		}}
	}
	p := Join(runs, []*report.Report{rep(3, 10), rep(9, 12), rep(5, 11)})
	m := rowOf(t, p, "n_alternatives")
	if !m.NA[1] || m.NA[0] || m.NA[2] {
		t.Errorf("n/a %v, want backfill's alone", m.NA)
	}
	if m.Best[1] || !m.Best[2] || m.Best[0] {
		t.Errorf("best %v, want fair (5 of css and fair), never backfill's 9", m.Best)
	}
	var bars []string
	for _, b := range p.Bars {
		bars = append(bars, b.Metric)
		if b.Metric == "n_alternatives" {
			if got := b.Shown(); len(got) != 2 || got[0] != "css" || got[1] != "fair" {
				t.Errorf("n_alternatives bars show %q, want css and fair", got)
			}
			if got := b.Omitted(); len(got) != 1 || !strings.Contains(got[0], "backfill") {
				t.Errorf("n_alternatives bars leave out %q, want backfill", got)
			}
		}
	}
	if strings.Join(bars, ",") != "n_alternatives,cost" {
		t.Errorf("bars %q, want n_alternatives and cost", bars)
	}
	if c := rowOf(t, p, "cost"); !c.Best[0] || anySet(c.NA) {
		t.Errorf("cost: best %v n/a %v, want css best and nothing n/a", c.Best, c.NA)
	}

	// Only one run left where it is meaningful: nothing to rank, no chart.
	p = Join(runs[:2], []*report.Report{rep(3, 10), rep(9, 12)})
	if m := rowOf(t, p, "n_alternatives"); m.Ranked || anySet(m.Best) {
		t.Errorf("one meaningful run: ranked %v best %v, want neither", m.Ranked, m.Best)
	}
	for _, b := range p.Bars {
		if b.Metric == "n_alternatives" {
			t.Error("a bar chart of one meaningful run")
		}
	}
}

// TestJoinDoesNotRankOneNameMeasuredDifferently: gossip's rumor and its
// simulation report messages under one name for different things; each
// declares its own variants, so the rumor run is set apart and only the
// comparable runs (gossip, central) are ranked.
func TestJoinDoesNotRankOneNameMeasuredDifferently(t *testing.T) {
	runs := []runtypes.Run{{ID: "a", Strategy: "gossip", Variant: "rumor", WorkloadID: "w"},
		{ID: "b", Strategy: "gossip", Variant: "gossip", WorkloadID: "w"},
		{ID: "c", Strategy: "gossip", Variant: "central", WorkloadID: "w"}}
	msgs := func(v float64, variants ...string) *report.Report {
		return &report.Report{Metrics: []report.Metric{{Name: "messages_per_node_per_period", Value: v, Better: report.Lower, Variants: variants}}}
	}
	p := Join(runs, []*report.Report{msgs(1, "rumor"), msgs(4, "gossip", "central"), msgs(3, "gossip", "central")})
	m := rowOf(t, p, "messages_per_node_per_period")
	if anySet(m.NA) {
		t.Errorf("n/a %v: each run's own metric is meaningful for it", m.NA)
	}
	if !m.Apart[0] || m.Apart[1] || m.Apart[2] {
		t.Errorf("apart %v, want the rumor run alone", m.Apart)
	}
	if m.Best[0] || m.Best[1] || !m.Best[2] {
		t.Errorf("best %v, want central's 3 (not the rumor's 1)", m.Best)
	}
	// Two runs measured differently: nothing is ranked.
	p = Join(runs[:2], []*report.Report{msgs(1, "rumor"), msgs(4, "gossip", "central")})
	if m := rowOf(t, p, "messages_per_node_per_period"); m.Ranked || anySet(m.Best) || len(p.Bars) != 0 {
		t.Errorf("rumor beside gossip: ranked %v best %v bars %d, want nothing ranked", m.Ranked, m.Best, len(p.Bars))
	}
	// A stored report from before Metric.Variants (none declared) is
	// comparable with a run that declares its variant.
	p = Join(runs[1:], []*report.Report{msgs(4), msgs(3, "gossip", "central")})
	if m := rowOf(t, p, "messages_per_node_per_period"); !m.Ranked || anySet(m.Apart) || !m.Best[1] {
		t.Errorf("an older gossip report beside central: ranked %v apart %v best %v", m.Ranked, m.Apart, m.Best)
	}
	// Comparability goes both ways: a gossip run that declares its
	// rounds_to_converge gossip's alone is not ranked against an older
	// central report that declares nothing (its 1 is by construction).
	rounds := func(v float64, variants ...string) *report.Report {
		return &report.Report{Metrics: []report.Metric{{Name: "rounds_to_converge", Value: v, Better: report.Lower, Variants: variants}}}
	}
	p = Join(runs[1:], []*report.Report{rounds(7, "gossip"), rounds(1)})
	if m := rowOf(t, p, "rounds_to_converge"); m.Ranked || anySet(m.Best) || !m.Apart[1] {
		t.Errorf("gossip's own rounds beside an older central's: ranked %v best %v apart %v, want central apart, nothing ranked", m.Ranked, m.Best, m.Apart)
	}
}

// TestJoinAcrossFamiliesStillShowsNA: runs of two families rank nothing,
// but a metric not meaningful for a run's variant is still n/a.
func TestJoinAcrossFamiliesStillShowsNA(t *testing.T) {
	runs := []runtypes.Run{{ID: "a", Strategy: "dcop", Variant: "exact", WorkloadID: "w1"}, {ID: "b", Strategy: "gossip", Variant: "gossip", WorkloadID: "w2"}}
	p := Join(runs, []*report.Report{
		{Metrics: []report.Metric{{Name: "messages", Value: 0, Better: report.Lower, Variants: []string{"dpop"}}}},
		{Metrics: []report.Metric{{Name: "messages", Value: 5, Better: report.Lower}}},
	})
	if m := rowOf(t, p, "messages"); !m.NA[0] || m.NA[1] || anySet(m.Best) || anySet(m.Apart) {
		t.Errorf("across families: n/a %v best %v apart %v", m.NA, m.Best, m.Apart)
	}
}
