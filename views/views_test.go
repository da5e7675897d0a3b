package views

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"
	"github.com/a-h/templ"

	"schedlab/report"
	"schedlab/solvers"
)

func renderDoc(t *testing.T, c templ.Component) *goquery.Document {
	t.Helper()
	var buf bytes.Buffer
	if err := c.Render(context.Background(), &buf); err != nil {
		t.Fatal(err)
	}
	doc, err := goquery.NewDocumentFromReader(&buf)
	if err != nil {
		t.Fatal(err)
	}
	return doc
}

func sampleReport() *report.Report {
	return &report.Report{
		Notes:   []string{"γ ≤ 1: no schedule can make a profit"},
		Metrics: []report.Metric{{Name: "objective", Value: 12.5, Better: report.Higher}, {Name: "makespan", Value: 300, Unit: "s", Better: report.Lower}},
		Tables: []report.Table{{Title: "Allocation", Columns: []string{"user", "tasks"},
			Rows: [][]any{{"<script>alert(1)</script>", 3.0}, {"b", 1234567.0}}}},
		Series: []report.Plot{{Title: "Objective after each arrival", Lines: []report.Line{{Name: "online", Points: [][2]float64{{1, 2}}}}}},
		Gantts: []report.Gantt{{Title: "Machine types", Lanes: []string{"m0"}, Bars: []report.Bar{{Lane: 0, Start: 0, End: 5}}}},
	}
}

func TestReportViewDrawsEveryPart(t *testing.T) {
	doc := renderDoc(t, ReportView(sampleReport(), "abc"))
	if n := doc.Find("[data-testid=metric]").Length(); n != 2 {
		t.Errorf("%d metric cards, want 2", n)
	}
	if got := doc.Find(`[data-name=makespan] .value`).Text(); got != "300s" {
		t.Errorf("makespan card reads %q, want 300s", got)
	}
	if doc.Find("[data-testid=report-notes] [data-testid=report-note]").Length() != 1 {
		t.Error("the note is not in the notes panel")
	}
	if doc.Find("[data-testid=report-notes]").Is("[open]") {
		t.Error("the notes panel is open: results come first")
	}
	if doc.Find("[data-testid=metrics] ~ [data-testid=report-notes]").Length() != 1 {
		t.Error("the notes panel is not after the metric cards")
	}
	rows := doc.Find(`[data-testid=report-table][data-title=Allocation] tbody tr`)
	if rows.Length() != 2 {
		t.Fatalf("%d table rows, want 2", rows.Length())
	}
	if got := rows.Eq(1).Find("td").Eq(1).Text(); got != "1,234,567" {
		t.Errorf("number cell %q, want 1,234,567", got)
	}
	if doc.Find("script:contains('alert(1)')").Length() != 0 {
		t.Error("a table cell was rendered as a script")
	}
	if href, _ := doc.Find("[data-testid=table-csv]").Attr("href"); href != "/runs/abc/tables/0.csv" {
		t.Errorf("CSV link %q", href)
	}
	if doc.Find("[data-kind=gantt]").Length() != 1 || doc.Find("[data-kind=plot]").Length() != 1 {
		t.Error("Gantt or plot missing")
	}
}

func TestReportViewWithoutRunHasNoCSVLinks(t *testing.T) {
	doc := renderDoc(t, ReportView(sampleReport(), ""))
	if doc.Find("[data-testid=table-csv]").Length() != 0 {
		t.Error("a preview links CSV downloads of a run that does not exist")
	}
}

func TestHomeShowsEveryFamilyWithItsLinks(t *testing.T) {
	var cards []FamilyCard
	for _, name := range []string{"eapm", "gossip"} {
		cards = append(cards, FamilyCard{Family: solvers.Info{Name: name, Title: "Family " + name}})
	}
	doc := renderDoc(t, Home(HomeProps{Families: cards}))
	if n := doc.Find("[data-testid=families] .card").Length(); n != len(cards) {
		t.Fatalf("%d family cards, want one per family (%d)", n, len(cards))
	}
	if got := doc.Find("[data-testid=family-gossip] h3").Text(); got != "Family gossip" {
		t.Errorf("gossip's card is titled %q", got)
	}
	if doc.Find(`[data-testid=family-gossip] a[href="/workloads?strategy=gossip"]`).Length() != 1 {
		t.Error("gossip's card does not link its workloads")
	}
	if doc.Find(`a[href="/reproduce"]`).Length() == 0 {
		t.Error("no link to /reproduce")
	}
}

func TestRunPageShowsProgressOnlyWhileActive(t *testing.T) {
	running := renderDoc(t, RunPage(RunProps{Run: Run{ID: "r1", Status: "running", ProgressNote: "user 5 of 30"}, Progress: 40}))
	if running.Find("[data-testid=progress]").Length() != 1 || running.Find("[data-testid=cancel]").Length() != 1 {
		t.Error("a running run lacks its progress bar or cancel button")
	}
	if style, _ := running.Find(".progress > div").Attr("style"); !strings.Contains(style, "width:40%") {
		t.Errorf("progress bar style %q", style)
	}
	failed := renderDoc(t, RunPage(RunProps{Run: Run{ID: "r2", Status: "failed", Error: "must be positive", ErrorField: "gamma"}}))
	if failed.Find("[data-testid=progress]").Length() != 0 {
		t.Error("a failed run shows a progress bar")
	}
	if msg := failed.Find("[data-testid=run-error]").Text(); !strings.Contains(msg, "gamma") || !strings.Contains(msg, "must be positive") {
		t.Errorf("error shown as %q", msg)
	}
}

func TestNumFormatsForPeople(t *testing.T) {
	cases := map[float64]string{0: "0", 12: "12", 12345: "12,345", -1234567: "-1,234,567", 3.14159: "3.142", 297.6675: "297.7", 0.012345: "0.01235", 2.5e-7: "2.5e-07", 1.5e9: "1,500,000,000", 12345678.9: "12,345,679", 0.002: "0.002", 1234.5: "1235", 2e15: "2e+15"}
	for v, want := range cases {
		if got := Num(v); got != want {
			t.Errorf("Num(%v) = %q, want %q", v, got, want)
		}
	}
}

func TestLargeTablesAreCutOnThePage(t *testing.T) {
	rows := make([][]any, MaxTableRows+100)
	for i := range rows {
		rows[i] = []any{float64(i)}
	}
	doc := renderDoc(t, ReportView(&report.Report{Tables: []report.Table{{Title: "big", Columns: []string{"i"}, Rows: rows}}}, "r"))
	if n := doc.Find("[data-testid=report-table] tbody tr").Length(); n != MaxTableRows {
		t.Errorf("%d rows on the page, want %d", n, MaxTableRows)
	}
	if !strings.Contains(doc.Find("[data-testid=table-cut]").Text(), Num(float64(MaxTableRows+100))) {
		t.Error("no note saying the table was cut and how long it is")
	}
}

func TestFirstSentenceSummarisesANote(t *testing.T) {
	for in, want := range map[string]string{
		"STOPPED: no variant is left after work w7. The partial plan is shown.": "STOPPED: no variant is left after work w7.",
		"Short. Then more.":                  "Short. Then more.", // a stop before 20 characters is not a sentence end
		strings.Repeat("x", 200):             strings.Repeat("x", 139) + "…",
		"The bound is the LP relaxation; it": "The bound is the LP relaxation;",
	} {
		if got := firstSentence(in); got != want {
			t.Errorf("firstSentence(%.30q…) = %q, want %q", in, got, want)
		}
	}
}

// TestClaimsTableComesBeforeTheCharts: a reproduction's verdicts (its
// "Claims" table) are drawn right after the metric cards, before every
// chart and the other tables, and once.
func TestClaimsTableComesBeforeTheCharts(t *testing.T) {
	rep := &report.Report{
		Metrics: []report.Metric{{Name: "holds", Value: 3}},
		Tables: []report.Table{
			{Title: "Fig 5", Columns: []string{"x"}, Rows: [][]any{{1.0}}},
			{Title: "Claims", Columns: []string{"claim", "verdict"}, Rows: [][]any{{"a", "holds"}}},
		},
		Series: []report.Plot{{Title: "objective", XLabel: "x", YLabel: "y", Lines: []report.Line{{Name: "a", Points: [][2]float64{{0, 1}, {1, 2}}}}}},
	}
	var buf bytes.Buffer
	if err := ReportView(rep, "").Render(context.Background(), &buf); err != nil {
		t.Fatal(err)
	}
	page := buf.String()
	claims, chart, fig := strings.Index(page, `data-title="Claims"`), strings.Index(page, `data-testid="chart"`), strings.Index(page, `data-title="Fig 5"`)
	if claims < 0 || chart < 0 || fig < 0 || claims > chart || claims > fig {
		t.Errorf("Claims at %d, the first chart at %d, the other table at %d: Claims must come first", claims, chart, fig)
	}
	if n := strings.Count(page, `data-title="Claims"`); n != 1 {
		t.Errorf("the Claims table is drawn %d times", n)
	}
}
