package views

import (
	"strings"
	"testing"

	"schedlab/solvers"
)

// The run page states a report's time frame once and draws its Gantt and
// its time plots in it (hours since the first submission), not in the
// trace's absolute seconds; a report without a frame states none.
func TestReportViewStatesTheTimeFrameOnceAndDrawsInIt(t *testing.T) {
	r := &solvers.Report{
		Time: solvers.NewTimeFrame("s", 600000, "the first submission", 172800),
		Gantts: []solvers.Gantt{{Title: "Processors", TimeUnit: "s", Lanes: []string{"P0"},
			Bars: []solvers.Bar{{Lane: 0, Start: 600000, End: 772650}}}},
		Series: []solvers.Plot{{Title: "Processors in use", XTime: true, Lines: []solvers.Line{{Points: [][2]float64{{600000, 1}, {772650, 2}}}}}},
	}
	doc := renderDoc(t, ReportView(r, "abc"))
	stated := doc.Find(`[data-testid=time-frame]`)
	if stated.Length() != 1 || strings.TrimSpace(stated.Text()) != "Times: hours since the first submission." || stated.AttrOr("data-unit", "") != "h" {
		t.Fatalf("frame stated %d times: %q (unit %q)", stated.Length(), stated.Text(), stated.AttrOr("data-unit", ""))
	}
	js := doc.Find("script").Text()
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
