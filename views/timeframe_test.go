package views

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"

	"schedlab/report"
	"schedlab/views/charts"
)

// The run page states a report's time frame once and draws its Gantt and
// its time plots in it (hours since the first submission), not in the
// trace's absolute seconds; a report without a frame states none.
func TestReportViewStatesTheTimeFrameOnceAndDrawsInIt(t *testing.T) {
	r := &report.Report{
		Time: report.NewTimeFrame("s", 600000, "the first submission", 172800),
		Gantts: []report.Gantt{{Title: "Processors", TimeUnit: "s", Lanes: []string{"P0"},
			Bars: []report.Bar{{Lane: 0, Start: 600000, End: 772650}}}},
		Series: []report.Plot{{Title: "Processors in use", XTime: true, Lines: []report.Line{{Points: [][2]float64{{600000, 1}, {772650, 2}}}}}},
	}
	var buf bytes.Buffer
	ctx, sink := charts.WithSink(context.Background(), "/charts")
	if err := ReportView(r, "abc").Render(ctx, &buf); err != nil {
		t.Fatal(err)
	}
	doc, _ := goquery.NewDocumentFromReader(&buf)
	stated := doc.Find(`[data-testid=time-frame]`)
	if stated.Length() != 1 || strings.TrimSpace(stated.Text()) != "Times: hours since the first submission." || stated.AttrOr("data-unit", "") != "h" {
		t.Fatalf("frame stated %d times: %q (unit %q)", stated.Length(), stated.Text(), stated.AttrOr("data-unit", ""))
	}
	js := string(sink.JSON())
	if n := strings.Count(js, `"name":"time since the first submission (h)"`); n != 2 {
		t.Errorf("%d axes named after the frame, want 2 (the Gantt's and the plot's)", n)
	}
	for _, raw := range []string{"600000", "772650"} {
		if strings.Contains(js, raw) {
			t.Errorf("the page draws absolute trace time %s", raw)
		}
	}
	if !strings.Contains(js, "47.958333") { // 172,650 s after the origin, in h
		t.Errorf("the charts do not reach 47.96 h (172,650 s)")
	}
	if r.Gantts[0].Bars[0].Start != 600000 {
		t.Error("drawing the report changed it")
	}
	r.Time = nil
	r.Series[0].XTime = false
	if n := renderDoc(t, ReportView(r, "abc")).Find(`[data-testid=time-frame]`).Length(); n != 0 {
		t.Errorf("a report without a frame states %d", n)
	}
}

// A metric in a time unit gets its value for people under the number when
// the number alone is hard to read (from 2 min); others get none.
func TestMetricCardsWriteLongDurationsForPeople(t *testing.T) {
	r := &report.Report{Metrics: []report.Metric{
		{Name: "makespan", Value: 2069601, Unit: "s"},
		{Name: "wait_mean", Value: 5676, Unit: "s"},
		{Name: "short", Value: 119, Unit: "s"},
		{Name: "wall_ms", Value: 300000, Unit: "ms"},
		{Name: "start", Value: 5000, Unit: "time units"},
	}}
	doc := renderDoc(t, ReportView(r, ""))
	want := map[string]string{"makespan": "23 d 23 h", "wait_mean": "1 h 35 min", "short": "", "wall_ms": "5 min", "start": ""}
	for name, w := range want {
		got := strings.TrimSpace(doc.Find(`[data-testid=metric][data-name=` + name + `] [data-testid=metric-human]`).Text())
		if got != w {
			t.Errorf("metric %s: for people %q, want %q", name, got, w)
		}
	}
}
