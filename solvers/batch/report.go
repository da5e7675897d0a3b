package batch

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"sort"
	"strconv"

	"schedlab/report"
)

// ReportOptions shape the report of a simulation.
type ReportOptions struct {
	// GanttStart and GanttSpan choose the window of the Gantt, in seconds
	// from the first submission; a span ≤ 0 means DefaultGanttSpan. Only
	// jobs that overlap the window are drawn, clipped to it, so a trace
	// of any length stays light in the browser.
	GanttStart, GanttSpan float64
	// MaxBars caps the Gantt's bars (0: DefaultMaxBars); a window with
	// more is shortened, and the report says so.
	MaxBars int
}

// Report defaults.
const (
	DefaultGanttSpan = 48 * 3600.0
	DefaultMaxBars   = 20000
	// usageBuckets is the number of points of the processors-in-use plot
	// over the whole trace.
	usageBuckets = 2000
)

// BuildReport is the common report of a batch simulation: the standard
// metrics, a Gantt of one window on concrete processors, processors in use
// over the whole trace (mean and peak per bucket), and the per-job table in
// Batsim's columns (its CSV download is the Batsim-style export).
func BuildReport(jobs []Job, r *Result, o ReportOptions, skipped int) *report.Report {
	s := Summarize(jobs, r)
	rep := &report.Report{}
	rep.Metrics = []report.Metric{
		{Name: "wait_mean", Value: s.WaitMean, Unit: "s", Better: report.Lower},
		{Name: "wait_p95", Value: s.WaitP95, Unit: "s", Better: report.Lower},
		{Name: "bsld_mean", Value: s.BSLDMean, Better: report.Lower},
		{Name: "utilization", Value: s.Utilization, Better: report.Higher, Min: report.Bound(0), Max: report.Bound(1)},
		{Name: "makespan", Value: s.Makespan, Unit: "s", Better: report.Lower},
		{Name: "jobs", Value: float64(s.Jobs), Unit: "jobs"},
		{Name: "jobs_skipped", Value: float64(skipped), Unit: "jobs"},
		{Name: "processors", Value: float64(r.P), Kind: report.KindInfo},
	}
	rep.Time = timeFrame(jobs, r)
	g, note := gantt(jobs, r, o, rep.Time)
	rep.Gantts = []report.Gantt{g}
	rep.Series = []report.Plot{usage(jobs, r, rep.Time), queue(jobs, r, rep.Time)}
	rep.Tables = []report.Table{batsimTable(jobs, r)}
	rep.Notes = append(rep.Notes,
		fmt.Sprintf("Policy %s on %d processors. Metrics over all %d simulated jobs: wait = start − submit; bsld = max(1, (wait + run) / max(run, %g s)); utilization = Σ run × size / (P × makespan); makespan = last end − first submit.", r.Policy, r.P, s.Jobs, Tau),
		note)
	if r.Capped > 0 {
		rep.Notes = append(rep.Notes, fmt.Sprintf("%d jobs ran longer than their requested time and were cut at it, as the real system would kill them.", r.Capped))
	}
	return rep
}

// timeFrame is the report's one time frame: trace seconds, shown from the
// first submission, in the unit that suits the whole trace's length.
func timeFrame(jobs []Job, r *Result) *report.TimeFrame {
	first, last := math.Inf(1), math.Inf(-1)
	for i, j := range jobs {
		first = min(first, j.Submit)
		last = max(last, r.Placements[i].End)
	}
	if len(jobs) == 0 {
		first, last = 0, 0
	}
	return report.NewTimeFrame("s", first, "the first submission", last-first)
}

// gantt draws the jobs overlapping the window, one bar per processor, in
// trace seconds; the note says the window in the frame f.
func gantt(jobs []Job, r *Result, o ReportOptions, f *report.TimeFrame) (report.Gantt, string) {
	span, maxBars := cmp.Or(max(o.GanttSpan, 0), DefaultGanttSpan), cmp.Or(max(o.MaxBars, 0), DefaultMaxBars)
	from := f.Origin + max(o.GanttStart, 0) // the first submission
	to := from + span
	// Jobs by start; shorten the window if it would hold too many bars.
	var idx []int
	bars := 0
	for i := range jobs {
		pl := r.Placements[i]
		if pl.End > from && pl.Start < to {
			idx = append(idx, i)
		}
	}
	sort.Slice(idx, func(a, b int) bool { return r.Placements[idx[a]].Start < r.Placements[idx[b]].Start })
	total := len(idx)
	cut := total
	for k, i := range idx {
		if bars+jobs[i].Size > maxBars {
			cut = k
			to = r.Placements[i].Start
			break
		}
		bars += jobs[i].Size
	}
	idx = idx[:cut]
	g := report.Gantt{Title: "Processors", TimeUnit: "s", Lanes: make([]string, r.P)}
	if bars > 0 {
		g.Bars = make([]report.Bar, 0, bars) // an empty window keeps nil bars
	}
	for c := range g.Lanes {
		g.Lanes[c] = "P" + strconv.Itoa(c)
	}
	for _, i := range idx {
		pl := r.Placements[i]
		label := strconv.Itoa(jobs[i].ID)
		for _, c := range pl.Procs {
			g.Bars = append(g.Bars, report.Bar{Lane: c, Start: max(pl.Start, from), End: min(pl.End, to),
				Label: label, Group: label})
		}
	}
	note := fmt.Sprintf("The Gantt shows the window from %s to %s after the first submission (%d jobs, one bar per processor); the run parameters gantt_start_h and gantt_span_h move it.",
		f.At(from), f.At(to), len(idx))
	if cut < total {
		note += fmt.Sprintf(" It was shortened to stay under %d bars.", maxBars)
	}
	return g, note
}

// usage is processors in use over the whole trace: the exact step function
// averaged (time-weighted) and maxed over usageBuckets equal buckets; x is
// trace seconds (the start of each bucket), drawn in the frame f.
func usage(jobs []Job, r *Result, f *report.TimeFrame) report.Plot {
	p := report.Plot{Title: "Processors in use", XLabel: f.AxisName(), XTime: true, YLabel: "processors", Kind: report.PlotStep}
	first, last := math.Inf(1), math.Inf(-1)
	n := 0 // events: a start and an end for each job that holds processors
	for i, j := range jobs {
		first = min(first, j.Submit)
		if pl := &r.Placements[i]; pl.End > pl.Start {
			last = max(last, pl.End)
			n += 2
		}
	}
	if n == 0 {
		return p
	}
	mean, peak := bucketLines(usageEvents(jobs, r, first, last, n), first, last)
	machine := report.Line{Name: fmt.Sprintf("machine (%d)", r.P), Dashed: true}
	machine.Points = [][2]float64{{first, float64(r.P)}, {last, float64(r.P)}}
	p.Lines = []report.Line{peak, mean, machine}
	return p
}

// bucketLines are the peak and the time-weighted mean, over usageBuckets
// equal buckets of [first, last] (1 s when that is empty), of the step
// function that starts at 0 and changes by evs (sorted by time); their
// names say how long a bucket is.
func bucketLines(evs []usageEvent, first, last float64) (mean, peak report.Line) {
	width := (last - first) / usageBuckets
	if width <= 0 {
		width = 1
	}
	each := report.HumanDuration(width)
	mean = report.Line{Name: "mean per bucket of " + each, Points: make([][2]float64, 0, usageBuckets)}
	peak = report.Line{Name: "peak per bucket of " + each, Points: make([][2]float64, 0, usageBuckets)}
	used, k := 0, 0
	for b := 0; b < usageBuckets; b++ {
		lo, hi := first+float64(b)*width, first+float64(b+1)*width
		area, top, t := 0.0, used, lo
		for k < len(evs) && evs[k].t < hi {
			area += float64(used) * (evs[k].t - max(t, lo))
			t = max(evs[k].t, lo)
			used += evs[k].d
			top = max(top, used)
			k++
		}
		area += float64(used) * (hi - t)
		mean.Points = append(mean.Points, [2]float64{lo, area / width})
		peak.Points = append(peak.Points, [2]float64{lo, float64(top)})
	}
	return mean, peak
}

// queue is the number of jobs waiting (submitted, not started) over the
// whole trace, in the buckets of usage: a job waits from its submission
// to its start (a start at the instant of a submission is taken first,
// so a job that never waited is never counted).
func queue(jobs []Job, r *Result, f *report.TimeFrame) report.Plot {
	p := report.Plot{Title: "Jobs waiting", XLabel: f.AxisName(), XTime: true, YLabel: "jobs in the queue", Kind: report.PlotStep}
	if len(jobs) == 0 {
		return p
	}
	first, last := math.Inf(1), math.Inf(-1)
	for i, j := range jobs {
		first = min(first, j.Submit)
		last = max(last, r.Placements[i].End)
	}
	evs := bucketSorted(2*len(jobs), first, last, func(emit func(usageEvent)) {
		for i, j := range jobs {
			emit(usageEvent{t: j.Submit, d: 1})
			emit(usageEvent{t: r.Placements[i].Start, d: -1})
		}
	})
	mean, peak := bucketLines(evs, first, last)
	p.Lines = []report.Line{peak, mean}
	return p
}

// usageEvent is a change of the processors in use: d processors taken
// (d > 0) or given back (d < 0) at t.
type usageEvent struct {
	t float64
	d int
}

// usageEvents are the n starts and ends of the jobs that hold processors
// (End > Start), in time order, ends before starts at the same time
// (usageBefore), sorted by bucketSorted.
func usageEvents(jobs []Job, r *Result, first, last float64, n int) []usageEvent {
	return bucketSorted(n, first, last, func(emit func(usageEvent)) {
		for i, j := range jobs {
			if pl := &r.Placements[i]; pl.End > pl.Start {
				emit(usageEvent{pl.Start, j.Size})
				emit(usageEvent{pl.End, -j.Size})
			}
		}
	})
}

// bucketSorted is the n events each emits (it is called twice and must
// emit the same n events both times, all within [first, last]) in
// usageBefore's order. Events equal in both fields are interchangeable:
// any sort gives the same sequence. They are sorted by buckets: the n
// events are counted into n equal buckets of [first, last] (one event a
// bucket on average), laid out bucket by bucket, and each bucket is
// sorted (insertion sort, the buckets being small). That is the order a
// comparison sort gives, in O(n) for events spread over the trace: the
// usage and queue plots' 56,000 events each of a trace of 28,000 jobs,
// whose comparison sorts cost as much as the rest of the report.
func bucketSorted(n int, first, last float64, each func(emit func(usageEvent))) []usageEvent {
	if n == 0 {
		return nil
	}
	scale := 0.0
	if last > first {
		scale = float64(n) / (last - first)
	}
	key := func(t float64) int32 { return int32(min(max(int((t-first)*scale), 0), n-1)) }
	start := make([]int32, n+1)
	each(func(e usageEvent) { start[key(e.t)+1]++ })
	for b := 1; b <= n; b++ {
		start[b] += start[b-1]
	}
	// Placing an event in bucket k advances start[k]: once all are placed,
	// start[k] is where bucket k ends, and bucket k begins at start[k-1]
	// (0 for the first).
	out := make([]usageEvent, n)
	each(func(e usageEvent) {
		k := key(e.t)
		out[start[k]] = e
		start[k]++
	})
	lo := int32(0)
	for b := range n {
		if hi := start[b]; hi-lo > 1 {
			sortUsageEvents(out[lo:hi])
		}
		lo = start[b]
	}
	return out
}

// usageBefore orders events by time, then ends (d < 0) before starts.
func usageBefore(a, b usageEvent) bool {
	return a.t < b.t || a.t == b.t && a.d < b.d
}

// sortUsageEvents sorts s by usageBefore: by insertion when s is short,
// as a bucket of usageEvents is, else by slices.SortFunc.
func sortUsageEvents(s []usageEvent) {
	if len(s) > 24 {
		slices.SortFunc(s, func(a, b usageEvent) int { return cmp.Or(cmp.Compare(a.t, b.t), cmp.Compare(a.d, b.d)) })
		return
	}
	for i := 1; i < len(s); i++ {
		for j := i; j > 0 && usageBefore(s[j], s[j-1]); j-- {
			s[j], s[j-1] = s[j-1], s[j]
		}
	}
}

// batsimTable is every job in Batsim's jobs.csv columns, a lazy table:
// its ~300,000 cells for a trace of 28,000 jobs are built only when the
// report is stored or the table written (the command line pages it out
// unless asked for it).
// Its instants (submission, start, finish: columns 1, 4 and 6) are trace
// seconds, which pages show in the report's frame (TimeCols).
func batsimTable(jobs []Job, r *Result) report.Table {
	t := report.LazyTable("Jobs (Batsim columns)", BatsimColumns(), len(jobs), func() [][]any {
		rows := make([][]any, len(jobs))
		const cols = 11
		cells := make([]any, cols*len(jobs)) // one block for every row's cells
		for i, j := range jobs {
			pl := r.Placements[i]
			exec := pl.End - pl.Start
			turn := pl.End - j.Submit
			stretch := 0.0
			if exec > 0 {
				stretch = turn / exec
			}
			row := cells[i*cols : (i+1)*cols : (i+1)*cols]
			row[0], row[1], row[2], row[3], row[4], row[5] = j.ID, j.Submit, j.Size, j.Estimate, pl.Start, exec
			row[6], row[7], row[8], row[9], row[10] = pl.End, pl.Start-j.Submit, turn, stretch, Intervals(pl.Procs)
			rows[i] = row
		}
		return rows
	})
	t.TimeCols = []int{1, 4, 6}
	return t
}
