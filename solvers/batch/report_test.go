package batch

import (
	"context"
	"math"
	"strings"
	"testing"
)

func TestReportMetricsGanttWindowAndUsage(t *testing.T) {
	r, _ := Simulate(context.Background(), fourJobs, 4, EASY, nil)
	rep := BuildReport(fourJobs, r, ReportOptions{GanttStart: 0, GanttSpan: 20}, 3)
	if err := rep.Validate(); err != nil {
		t.Fatal(err)
	}
	want := map[string]float64{"wait_mean": 41.0 / 4, "wait_p95": 31, "makespan": 41, "jobs": 4, "jobs_skipped": 3}
	for name, v := range want {
		if m, ok := rep.Metric(name); !ok || m.Value != v {
			t.Errorf("metric %s = %v, want %v", name, m.Value, v)
		}
	}
	// Window [0, 20): J1 (3 procs), J2 (3 procs) and J4 (1 proc, clipped to
	// 1–20); J3 starts at 31, outside.
	g := rep.Gantts[0]
	if len(g.Lanes) != 4 || len(g.Bars) != 7 {
		t.Fatalf("gantt: %d lanes, %d bars; want 4, 7", len(g.Lanes), len(g.Bars))
	}
	for _, b := range g.Bars {
		if b.Label == "4" && (b.Start != 1 || b.End != 20) {
			t.Errorf("J4 drawn %v–%v, want clipped to 1–20", b.Start, b.End)
		}
		if b.Label == "3" {
			t.Error("J3 drawn outside the window")
		}
	}
	// Usage: the time-weighted mean over all buckets is the total work over
	// the makespan: 130 processor-seconds in 41 s.
	u := rep.Series[0]
	sum := 0.0
	for _, p := range u.Lines[1].Points {
		sum += p[1]
	}
	if got := sum / float64(len(u.Lines[1].Points)); math.Abs(got-130.0/41) > 1e-9 {
		t.Errorf("mean processors in use %v, want %v", got, 130.0/41)
	}
	for _, p := range u.Lines[0].Points {
		if p[1] > 4 {
			t.Fatalf("peak %v over the machine", p[1])
		}
	}
	if tb := rep.Tables[0]; len(tb.Rows) != 4 || tb.Rows[2][10] != "0-3" {
		t.Errorf("Batsim table rows %v", tb.Rows)
	}
}

func TestReportShortensAWindowWithTooManyBars(t *testing.T) {
	r, _ := Simulate(context.Background(), fourJobs, 4, EASY, nil)
	rep := BuildReport(fourJobs, r, ReportOptions{GanttSpan: 100, MaxBars: 4}, 0)
	if n := len(rep.Gantts[0].Bars); n > 4 {
		t.Errorf("%d bars over the cap of 4", n)
	}
	found := false
	for _, n := range rep.Notes {
		found = found || strings.Contains(n, "shortened")
	}
	if !found {
		t.Errorf("no note says the window was shortened: %q", rep.Notes)
	}
}

// A batch report has one time frame, trace seconds from the first
// submission: the Gantt keeps trace seconds, the processors-in-use plot
// is on the same clock (x in trace seconds from the first submission, not
// hours), and the window note reads in the frame's unit.
func TestReportIsInOneTimeFrameFromTheFirstSubmission(t *testing.T) {
	jobs := make([]Job, len(fourJobs))
	for i, j := range fourJobs {
		j.Submit += 600000
		jobs[i] = j
	}
	r, _ := Simulate(context.Background(), jobs, 4, EASY, nil)
	rep := BuildReport(jobs, r, ReportOptions{GanttStart: 0, GanttSpan: 20}, 0)
	if err := rep.Validate(); err != nil {
		t.Fatal(err)
	}
	f := rep.Time
	if f == nil || f.Unit != "s" || f.Origin != 600000 || f.OriginName != "the first submission" || f.Shown() != "s" {
		t.Fatalf("frame %+v, want trace seconds from 600000 shown in s (a 41 s trace)", f)
	}
	if b := rep.Gantts[0].Bars[0]; b.Start < 600000 {
		t.Errorf("Gantt bar at %v: not trace seconds", b.Start)
	}
	u := rep.Series[0]
	if !u.XTime || u.Lines[2].Points[1][0] != 600041 {
		t.Errorf("usage plot: XTime %v, machine line to %v; want trace seconds to 600041", u.XTime, u.Lines[2].Points[1][0])
	}
	for _, l := range u.Lines {
		if x := l.Points[0][0]; x != 600000 {
			t.Errorf("usage plot line %q starts at x = %v, want 600000 (trace seconds)", l.Name, x)
		}
	}
	found := false
	for _, n := range rep.Notes {
		found = found || strings.Contains(n, "from 0 s to 20 s after the first submission")
	}
	if !found {
		t.Errorf("no note gives the window in the frame: %q", rep.Notes)
	}
}

// BenchmarkBuildReportFullKTH builds the report of EASY over the whole KTH
// trace (27,992 jobs: the per-job table, the usage plot, a Gantt window).
func BenchmarkBuildReportFullKTH(b *testing.B) {
	j, err := FromSWF(readTrace(b, "KTH-SP2-1996-2.1-cln.swf.gz"), SWFOptions{})
	if err != nil {
		b.Fatal(err)
	}
	r, err := Simulate(context.Background(), j.Jobs, j.Procs, EASY, nil)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		BuildReport(j.Jobs, r, ReportOptions{}, j.Skipped)
	}
}
