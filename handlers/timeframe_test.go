package handlers

import (
	"testing"

	"schedlab/report"
	"schedlab/runtypes"
)

// Two batch runs of traces that start at different trace times compare in
// one frame: each from its own first submission, in hours, the Gantt
// panels and the merged plot on that axis, the frame on the page.
func TestJoinDrawsRunsThatShareAFrameInIt(t *testing.T) {
	run := func(first float64) *report.Report {
		return &report.Report{
			Time: report.NewTimeFrame("s", first, "the first submission", 48*3600),
			Gantts: []report.Gantt{{Title: "Processors", TimeUnit: "s", Lanes: []string{"P0"},
				Bars: []report.Bar{{Lane: 0, Start: first + 3600, End: first + 7200, Group: "1"}}}},
			Series: []report.Plot{{Title: "Processors in use", XTime: true, Lines: []report.Line{{Points: [][2]float64{{first, 1}, {first + 7200, 2}}}}}},
		}
	}
	runs := []runtypes.Run{{ID: "a", Variant: "batch", Strategy: "cyclic"}, {ID: "b", Variant: "batch", Strategy: "cyclic"}}
	p := Join(runs, []*report.Report{run(600000), run(0)})
	if p.Time == nil || p.Time.Statement() != "Times: hours since the first submission" {
		t.Fatalf("compare frame %+v", p.Time)
	}
	if len(p.Gantts) != 1 || p.Gantts[0].From != 1 || p.Gantts[0].To != 2 {
		t.Fatalf("aligned Gantts %+v, want one span 1..2 h", p.Gantts)
	}
	for i, panel := range p.Gantts[0].Panels {
		if panel.TimeLabel != "time since the first submission (h)" || panel.TimeUnit != "h" {
			t.Errorf("panel %d: axis %q in %q", i, panel.TimeLabel, panel.TimeUnit)
		}
	}
	pl := p.Plots[0]
	if pl.XLabel != "time since the first submission (h)" || len(pl.Lines) != 2 || pl.Lines[0].Points[1][0] != 2 || pl.Lines[1].Points[1][0] != 2 {
		t.Errorf("merged plot %+v, want both runs' x in h from their first submission", pl)
	}
	for _, n := range p.Notes {
		if n == "These runs' times are in different frames (units or origins): their charts show the raw numbers of each run." {
			t.Errorf("a note says the frames differ: %q", n)
		}
	}
}
