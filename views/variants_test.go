package views

import (
	"strings"
	"testing"

	"schedlab/report"
)

// TestRunReportDimsTheMetricsNotMeaningfulForItsVariant: on an exact DCOP
// run's page, messages (the DPOP variants') is dimmed and says why; a
// dpop run's page and a report without a variant (a preview) dim nothing.
func TestRunReportDimsTheMetricsNotMeaningfulForItsVariant(t *testing.T) {
	r := &report.Report{Metrics: []report.Metric{
		{Name: "makespan", Value: 10, Unit: "slots", Better: report.Lower},
		{Name: "messages", Value: 0, Better: report.Lower, Kind: report.KindCost, Variants: []string{"dpop", "dpop-wd"}},
	}}
	doc := renderDoc(t, RunReportView(r, "abc", "exact"))
	card := doc.Find(`[data-testid=metric][data-name=messages]`)
	if _, na := card.Attr("data-na"); !na || !card.HasClass("na") || !strings.Contains(card.Find(`[data-testid=metric-na]`).Text(), "not meaningful for exact") {
		t.Errorf("exact's messages card is not dimmed with its reason: %q", card.Text())
	}
	if strings.TrimSpace(card.Find(".value").Text()) != "0" {
		t.Errorf("the dimmed card hides its number: %q", card.Find(".value").Text())
	}
	if _, na := doc.Find(`[data-testid=metric][data-name=makespan]`).Attr("data-na"); na {
		t.Error("makespan, every variant's, is dimmed")
	}
	if n := renderDoc(t, RunReportView(r, "abc", "dpop")).Find(`[data-na]`).Length(); n != 0 {
		t.Errorf("a dpop run dims %d metrics, want none", n)
	}
	if n := renderDoc(t, ReportView(r, "")).Find(`[data-na]`).Length(); n != 0 {
		t.Errorf("a report of no variant dims %d metrics, want none", n)
	}
}
