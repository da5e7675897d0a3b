package batch

import (
	"bytes"
	"cmp"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"schedlab/report"
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
	tb := rep.Tables[0]
	if rows, err := tb.AllRows(); err != nil || tb.NumRows() != 4 || len(rows) != 4 || rows[2][10] != "0-3" {
		t.Errorf("Batsim table: %d rows %v (%v)", tb.NumRows(), rows, err)
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

// easyKTH is EASY over the whole KTH trace: its jobs and the schedule.
func easyKTH(tb testing.TB) (*SWFJobs, *Result) {
	tb.Helper()
	j, err := FromSWF(readTrace(tb, "KTH-SP2-1996-2.1-cln.swf.gz"), SWFOptions{})
	if err != nil {
		tb.Fatal(err)
	}
	r, err := Simulate(context.Background(), j.Jobs, j.Procs, EASY, nil)
	if err != nil {
		tb.Fatal(err)
	}
	return j, r
}

// BenchmarkBuildReportFullKTH builds the report of EASY over the whole KTH
// trace (27,992 jobs: the per-job table, the usage plot, a Gantt window).
func BenchmarkBuildReportFullKTH(b *testing.B) {
	j, r := easyKTH(b)
	b.ReportAllocs()
	for b.Loop() {
		BuildReport(j.Jobs, r, ReportOptions{}, j.Skipped)
	}
}

// TestReportEncodingIsPinned pins the stored form of a batch report: the
// bytes report.EncodeReport gives for EASY over the whole KTH trace
// (what the runner and the workers store, and page out). The digest is
// that of the report built with its per-job table filled whole, before
// the table was made lazy; the encoding of the lazy table must give the
// same bytes as that of the table with its rows in hand. Issue 30 added
// the info metric processors and utilization's bounds [0, 1]: without
// them the report gives the earlier digest 311454c0… (checked). Issue 33
// added the job table's time_columns [1, 4, 6], the "Jobs waiting" plot
// and the bucket length in the usage lines' names ("peak per bucket of
// 4 h"): without those three the report gives the earlier digest
// 34c83c57… (checked).
func TestReportEncodingIsPinned(t *testing.T) {
	j, r := easyKTH(t)
	rep := BuildReport(j.Jobs, r, ReportOptions{}, j.Skipped)
	got, err := report.EncodeReport(rep)
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(got)
	if d := hex.EncodeToString(sum[:]); d != "8269162330ea5b7b45e23af96049eac4b4251846b6b4a270b9e6403796145aae" {
		t.Errorf("the encoded report's digest is %s", d)
	}
	// The same report with the table's rows in hand: the same bytes, by
	// WriteJSON and by encoding/json.
	lazy := rep.Tables[0]
	rows, err := lazy.AllRows()
	if err != nil || len(rows) != len(j.Jobs) || lazy.NumRows() != len(j.Jobs) {
		t.Fatalf("the lazy table: %d rows of %d (%v)", len(rows), len(j.Jobs), err)
	}
	eager := *rep
	eager.Tables = []report.Table{{Title: lazy.Title, Columns: lazy.Columns, Rows: rows, TimeCols: lazy.TimeCols}}
	want, err := report.EncodeReport(&eager)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Error("the report with the lazy table encodes other bytes than with its rows in hand")
	}
	if m, err := json.Marshal(BuildReport(j.Jobs, r, ReportOptions{}, j.Skipped)); err != nil || !bytes.Equal(m, want) {
		t.Errorf("json.Marshal of the report with the lazy table differs (%v)", err)
	}
}

// TestUsageEventsAreSorted checks the bucket sort of the usage and queue
// plots' events against a comparison sort of the same events, on random
// placements with many equal times (ties of ends and starts), jobs that
// hold no processors, and times at both ends of the trace.
func TestUsageEventsAreSorted(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for trial := range 300 {
		jobs := make([]Job, rng.IntN(200))
		r := &Result{Placements: make([]Placement, len(jobs))}
		first, last, n := math.Inf(1), math.Inf(-1), 0
		var want []usageEvent
		for i := range jobs {
			jobs[i] = Job{Submit: float64(rng.IntN(40)) * 1.5, Size: 1 + rng.IntN(7)}
			start := jobs[i].Submit + float64(rng.IntN(30))*1.5
			end := start + float64(rng.IntN(4))*1.5 // some hold nothing
			r.Placements[i] = Placement{Start: start, End: end}
			first = min(first, jobs[i].Submit)
			if end > start {
				last = max(last, end)
				n += 2
				want = append(want, usageEvent{start, jobs[i].Size}, usageEvent{end, -jobs[i].Size})
			}
		}
		if n == 0 {
			continue
		}
		slices.SortFunc(want, func(a, b usageEvent) int {
			if c := cmp.Compare(a.t, b.t); c != 0 {
				return c
			}
			return a.d - b.d
		})
		if got := usageEvents(jobs, r, first, last, n); !slices.Equal(got, want) {
			t.Fatalf("trial %d (%d jobs): %v, want %v", trial, len(jobs), got, want)
		}
		// The queue plot's events: submissions (+1) and starts (−1), a
		// start before a submission at the same time.
		var queue []usageEvent
		for i, j := range jobs {
			queue = append(queue, usageEvent{j.Submit, 1}, usageEvent{r.Placements[i].Start, -1})
			last = max(last, r.Placements[i].End)
		}
		got := bucketSorted(len(queue), first, last, func(emit func(usageEvent)) {
			for _, e := range queue {
				emit(e)
			}
		})
		slices.SortFunc(queue, func(a, b usageEvent) int {
			if c := cmp.Compare(a.t, b.t); c != 0 {
				return c
			}
			return a.d - b.d
		})
		if !slices.Equal(got, queue) {
			t.Fatalf("trial %d (%d jobs): queue events %v, want %v", trial, len(jobs), got, queue)
		}
	}
}

// BenchmarkEncodeReportFullKTH encodes the report of EASY over the whole
// KTH trace as the command line writes it (the per-job table paged out):
// the Gantt window's bars and the usage plot's points.
func BenchmarkEncodeReportFullKTH(b *testing.B) {
	j, r := easyKTH(b)
	rep := BuildReport(j.Jobs, r, ReportOptions{}, j.Skipped)
	rep.Tables = nil
	b.ReportAllocs()
	for b.Loop() {
		if err := rep.WriteJSON(io.Discard, false); err != nil {
			b.Fatal(err)
		}
	}
}
