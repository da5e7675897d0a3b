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
	"schedlab/views"
)

// The join and ranking themselves are tested in package compare; here,
// what the handler adds (plots overlaid, Gantts stacked) and the page.

func TestJoinOverlaysPlotsByTitleAndLabelsThemByWhatDiffers(t *testing.T) {
	runs := []runtypes.Run{{ID: "a", Variant: "online"}, {ID: "b", Variant: "average"}}
	reports := []*report.Report{
		{Series: []report.Plot{{Title: "P", Lines: []report.Line{{Name: "x", Points: [][2]float64{{0, 1}}}}}}},
		{Series: []report.Plot{{Title: "P", Lines: []report.Line{{Name: "x", Points: [][2]float64{{0, 2}}}}}, {Title: "Q"}}},
	}
	p := Join(runs, reports)
	if len(p.Plots) != 2 || p.Plots[0].Title != "P" || len(p.Plots[0].Lines) != 2 {
		t.Fatalf("plots %+v, want P overlaid with 2 lines, then Q", p.Plots)
	}
	if got := p.Plots[0].Lines[0].Name + "|" + p.Plots[0].Lines[1].Name; !strings.Contains(got, "online") || !strings.Contains(got, "average") || strings.Contains(got, "a ·") {
		t.Errorf("legend %q: want the variants, never an id", got)
	}
}

// renderCompare renders the compare body of runs converted as cr.
func renderCompare(t *testing.T, runs []runtypes.Run, cr []compare.Run, reports []*report.Report) *goquery.Document {
	t.Helper()
	var buf bytes.Buffer
	if err := views.CompareBody(joinCompared(runs, cr, reports)).Render(context.Background(), &buf); err != nil {
		t.Fatal(err)
	}
	doc, err := goquery.NewDocumentFromReader(&buf)
	if err != nil {
		t.Fatal(err)
	}
	return doc
}

// TestComparePageRefusesToRankRunsWithDifferentResources: critical works
// on 40 processors beside HEFT on 4 (the WfCommons case): no
// best, a note saying processors differ with both values, the makespan
// row marked not ranked, the differing resource first in "What differs".
func TestComparePageRefusesToRankRunsWithDifferentResources(t *testing.T) {
	runs := []runtypes.Run{{ID: "r1", Kind: runtypes.KindRun, Strategy: "critical", Variant: "critical-works", WorkloadID: "w", Status: runtypes.StatusDone},
		{ID: "r2", Kind: runtypes.KindRun, Strategy: "critical", Variant: "heft", WorkloadID: "w", Status: runtypes.StatusDone}}
	cr := []compare.Run{compareRun(runs[0], "montage", false), compareRun(runs[1], "montage", false)}
	rep := func(makespan, procs float64) *report.Report {
		return &report.Report{Metrics: []report.Metric{{Name: "makespan", Value: makespan, Better: report.Lower},
			{Name: "processors", Value: procs, Kind: report.KindInfo}}}
	}
	doc := renderCompare(t, runs, cr, []*report.Report{rep(10.4, 40), rep(47.9, 4)})
	if n := doc.Find("[data-testid=best]").Length(); n != 0 {
		t.Errorf("%d cells marked best on different resources", n)
	}
	note := doc.Find("[data-testid=compare-note]").Text()
	if !strings.Contains(note, "Not ranked: processors differ (40, 4)") {
		t.Errorf("notes %q do not say which resource differs", note)
	}
	if title := doc.Find("tr[data-metric=makespan] [data-testid=not-ranked]").AttrOr("title", ""); title != "not ranked: processors differ (40, 4)" {
		t.Errorf("makespan row's not-ranked mark %q", title)
	}
	var differ []string
	doc.Find("[data-testid=compare-differs] tbody tr").Each(func(_ int, s *goquery.Selection) { differ = append(differ, s.AttrOr("data-field", "")) })
	if strings.Join(differ, ",") != "variant,processors" {
		t.Errorf("what differs: %q, want variant, processors", differ)
	}
	if got := doc.Find("[data-testid=run-label]").Map(func(_ int, s *goquery.Selection) string { return s.Text() }); strings.Join(got, "|") != "critical-works, processors=40|heft, processors=4" {
		t.Errorf("column labels %q", got)
	}
	if doc.Find("[data-testid=compare-equal] dt[data-field=workload]").Length() != 1 {
		t.Error("the shared workload is not folded among the equal fields")
	}
	if doc.Find("[data-testid=metric-bar][data-metric=makespan]:not([data-ranked]) [data-testid=bar-not-ranked]").Length() != 1 {
		t.Error("the makespan chart does not say it is not ranked")
	}
}

// TestComparePageNeverMarksAReferenceBest: EAPM's offline LP bound has the
// highest objective; it is a reference column, never best; the best
// online method is.
func TestComparePageNeverMarksAReferenceBest(t *testing.T) {
	var runs []runtypes.Run
	var cr []compare.Run
	var reports []*report.Report
	for i, v := range []struct {
		variant string
		obj     float64
	}{{"offline-lp", 9.5}, {"online", 7}, {"average", 5}} {
		r := runtypes.Run{ID: "r" + v.variant, Kind: runtypes.KindRun, Strategy: "eapm", Variant: v.variant, WorkloadID: "w", Status: runtypes.StatusDone}
		runs = append(runs, r)
		cr = append(cr, compareRun(r, "zhang", i == 0))
		reports = append(reports, &report.Report{Metrics: []report.Metric{{Name: "objective", Value: v.obj, Better: report.Higher},
			{Name: "upper_bound", Value: 9.9, Unit: "$/s"}}})
	}
	doc := renderCompare(t, runs, cr, reports)
	cells := doc.Find("tr[data-metric=objective] td")
	if cells.Eq(1).AttrOr("data-testid", "") != "reference" || cells.Eq(2).AttrOr("data-testid", "") != "best" || doc.Find("[data-testid=best]").Length() != 1 {
		t.Errorf("objective cells: %q %q %q; want reference, best (online), plain", cells.Eq(1).AttrOr("data-testid", ""), cells.Eq(2).AttrOr("data-testid", ""), cells.Eq(3).AttrOr("data-testid", ""))
	}
	if doc.Find("[data-testid=run-head][data-run=roffline-lp] [data-testid=reference-run]").Length() != 1 {
		t.Error("the offline LP column is not marked reference")
	}
	if doc.Find("tr[data-metric=upper_bound] [data-testid=metric-bound]").Length() != 1 {
		t.Error("upper_bound is not marked a reference")
	}
}

// TestComparePageChartsCostsApart: DCOP's costs (width, UTIL bytes,
// messages) get bar charts under "Costs (not ranked)", none best.
func TestComparePageChartsCostsApart(t *testing.T) {
	runs, reports := dcopRuns(t)
	p := Join(runs, reports)
	var costs []string
	for _, b := range p.Costs {
		costs = append(costs, b.Metric)
		if anySet(b.Best) || b.Ranked {
			t.Errorf("cost %s ranked", b.Metric)
		}
	}
	for _, want := range []string{"messages", "total_bytes", "message_cycles"} {
		if !strings.Contains(","+strings.Join(costs, ",")+",", ","+want+",") {
			t.Errorf("no cost chart of %s among %q", want, costs)
		}
	}
	var buf bytes.Buffer
	if err := views.CompareBody(p).Render(context.Background(), &buf); err != nil {
		t.Fatal(err)
	}
	doc, _ := goquery.NewDocumentFromReader(&buf)
	if doc.Find("[data-testid=cost-bars-title]").Text() != "Costs (not ranked)" || doc.Find("[data-testid=cost-bars] [data-testid=metric-bar]").Length() != len(p.Costs) {
		t.Error("the costs are not drawn under Costs (not ranked)")
	}
}

// Join puts reports side by side (package compare: what differs, the
// metrics ranked on equal terms, their bar charts), plots with the same
// title overlaid one line per run, Gantts with the same title stacked on
// one time axis. Workloads are known by id, no variant is a reference:
// the server's joinRuns knows more (compared).
func Join(runs []runtypes.Run, reports []*report.Report) views.CompareProps {
	cr := make([]compare.Run, len(runs))
	for i, r := range runs {
		cr[i] = compareRun(r, "", false)
	}
	return joinCompared(runs, cr, reports)
}
