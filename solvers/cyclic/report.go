package cyclic

import (
	"fmt"
	"math"
	"strings"

	"schedlab/report"
)

// maxCycleRows bounds the per-cycle table; longer runs are aggregated into
// buckets of consecutive cycles.
const maxCycleRows = 2000

func laneNames(in *Instance) []string {
	lanes := make([]string, len(in.Nodes))
	for i, n := range in.Nodes {
		lanes[i] = fmt.Sprintf("%s (p=%.2f, c=%.2f)", n.ID, n.Perf, n.Price)
	}
	return lanes
}

func localBars(local [][]Interval) []report.Bar {
	var bars []report.Bar
	for n, bs := range local {
		for _, b := range bs {
			bars = append(bars, report.Bar{Lane: n, Start: float64(b.Start), End: float64(b.End), Label: "local", Kind: report.BarLocal})
		}
	}
	return bars
}

func windowBars(w Window, job string, kind report.BarKind) []report.Bar {
	bars := make([]report.Bar, len(w.Nodes))
	for i, n := range w.Nodes {
		bars[i] = report.Bar{Lane: n, Start: float64(w.Start), End: float64(w.Start + w.Times[i]), Label: job, Group: job, Kind: kind}
	}
	return bars
}

// preview is a workload's report before any run: the node timeline of
// cycle 1 with the owners' local jobs, the nodes and the jobs.
func preview(in *Instance) *report.Report {
	r := &report.Report{}
	d := in.Domain()
	busy := 0
	for n := range in.Nodes {
		busy += d.BusyTime(n)
	}
	r.Metrics = []report.Metric{
		{Name: "nodes", Value: float64(len(in.Nodes))},
		{Name: "jobs", Value: float64(len(in.Jobs))},
		{Name: "interval", Value: float64(in.Interval), Unit: "time units"},
		{Name: "local_load", Value: float64(busy) / float64(len(in.Nodes)*in.Interval), Unit: "share"},
	}
	r.Gantts = []report.Gantt{{Title: "Nodes and local jobs (cycle 1)", TimeUnit: TimeUnit, Lanes: laneNames(in), Bars: localBars(d.busy)}}
	r.Time = cycleFrame()
	nt := report.Table{Title: "Nodes", Columns: []string{"node", "performance", "price", "local_jobs", "local_time"}}
	for i, n := range in.Nodes {
		nt.Rows = append(nt.Rows, []any{n.ID, n.Perf, n.Price, len(n.Busy), d.BusyTime(i)})
	}
	jt := report.Table{Title: "Jobs", Columns: []string{"job", "nodes", "volume", "min_performance", "max_price", "criterion"}}
	for _, j := range in.Jobs {
		jt.Rows = append(jt.Rows, []any{j.ID, j.Nodes, j.Volume, j.MinPerf, j.MaxPrice, j.Criterion})
	}
	r.Tables = []report.Table{jt, nt}
	if in.Generator == nil {
		r.Notes = append(r.Notes, "No generator in the workload: every cycle repeats cycle 1's local load and job batch (jobs renamed c<cycle>-<id>), plus the jobs carried over.")
	} else {
		r.Notes = append(r.Notes, fmt.Sprintf("Cycles after the first draw a fresh local load and %d new jobs from the workload's generator (seed %d).", in.Generator.Jobs, in.Generator.Seed))
	}
	return r
}

func div(a, b float64) float64 {
	if b == 0 {
		return 0
	}
	return a / b
}

// The variants a run metric is meaningful for (report.Metric.Variants).
// Alternatives are searched by the cyclic scheme (css, fair, and combined
// for its fair slice; its backfilled jobs count their one window); backfill
// starts each job in the one window it finds, so its n_alternatives is 1
// per planned job by construction. The slot model's utilization (planned
// processor time over the cycles' node time) is not batch's (Σ run × size
// over P × makespan, solvers/batch), which reports a metric of the same
// name (Config.batchLike: batch and the external variants, set in
// batchReport).
func withAlternatives() []string { return variantNames(func(v variant) bool { return v.alternatives }) }

// slotModel names the slot model's variants: every one but the trace
// simulations.
func slotModel() []string { return variantNames(func(v variant) bool { return v.plan != nil }) }

func runReport(in *Instance, cfg SimConfig, res *Result, wallMS float64) *report.Report {
	r := &report.Report{}
	a := res.All
	nc := float64(len(res.Cycles))
	capacity := float64(len(in.Nodes) * in.Interval)
	r.Metrics = []report.Metric{
		{Name: "n_alternatives", Value: div(float64(a.Alternatives), float64(a.Jobs)), Unit: "per job", Better: report.Higher, Variants: withAlternatives()},
		{Name: "start", Value: div(a.Start, float64(a.Planned)), Unit: "time units", Better: report.Lower},
		{Name: "runtime", Value: div(a.Runtime, float64(a.Planned)), Unit: "time units", Better: report.Lower},
		{Name: "finish", Value: div(a.Finish, float64(a.Planned)), Unit: "time units", Better: report.Lower},
		{Name: "cost", Value: div(a.Cost, float64(a.Planned)), Unit: "cost units", Better: report.Lower},
		{Name: "processor_time", Value: div(a.ProcTm, float64(a.Planned)), Unit: "time units", Better: report.Lower},
		{Name: "failure_rate", Value: div(float64(res.Failures), nc), Unit: "share of cycles", Better: report.Lower, Min: report.Bound(0), Max: report.Bound(1)},
		{Name: "owners_income", Value: div(res.Income, nc), Unit: "cost units per cycle", Better: report.Higher},
		{Name: "utilization", Value: div(a.ProcTm, nc*capacity), Unit: "share", Better: report.Higher, Variants: slotModel()},
		{Name: "jobs_planned", Value: float64(a.Planned), Unit: "jobs", Better: report.Higher},
		{Name: "jobs_postponed", Value: float64(a.Jobs - a.Planned), Unit: "postponements", Better: report.Lower},
		{Name: "planned_start", Value: div(a.Start, float64(a.Planned)), Unit: "time units", Better: report.Lower},
		{Name: "actual_start", Value: div(res.Actual.Start, float64(a.Planned)), Unit: "time units", Better: report.Lower},
		{Name: "planned_runtime", Value: div(a.Runtime, float64(a.Planned)), Unit: "time units", Better: report.Lower},
		{Name: "actual_runtime", Value: div(res.Actual.Runtime, float64(a.Planned)), Unit: "time units", Better: report.Lower},
		{Name: "actual_processor_time", Value: div(res.Actual.ProcTime, float64(a.Planned)), Unit: "time units", Better: report.Lower},
		{Name: "start_plus_processor_time", Value: div(a.Start+a.ProcTm, float64(a.Planned)), Unit: "time units", Better: report.Lower},
		{Name: "nodes", Value: float64(len(in.Nodes)), Kind: report.KindInfo},
		{Name: "wall_ms", Value: wallMS, Unit: "ms", Better: report.Lower, Kind: report.KindCost},
	}
	// Aggregate by criterion (the seed's Table 1 shape).
	agg := report.Table{Title: "Aggregate", Columns: []string{"criterion", "jobs", "planned", "n_alternatives", "start", "runtime", "finish", "cost", "processor_time"}}
	row := func(name string, c *CritStats) []any {
		p := float64(c.Planned)
		return []any{name, c.Jobs, c.Planned, div(float64(c.Alternatives), float64(c.Jobs)), div(c.Start, p), div(c.Runtime, p), div(c.Finish, p), div(c.Cost, p), div(c.ProcTm, p)}
	}
	for _, c := range criteria {
		agg.Rows = append(agg.Rows, row(c, res.ByCrit[c]))
	}
	agg.Rows = append(agg.Rows, row("all", &res.All))
	r.Tables = append(r.Tables, agg, cycleTable(res))

	if g := res.Gantt; g != nil {
		lanes := laneNames(in)
		title := fmt.Sprintf("Cycle %d", g.Cycle)
		if cfg.Shift {
			r.Gantts = append(r.Gantts, cycleGantt(title+" before shift", lanes, g, g.Before))
			after := cycleGantt(title+" after shift", lanes, g, nil)
			markMoved(&after, g)
			r.Gantts = append(r.Gantts, after)
		} else {
			r.Gantts = append(r.Gantts, cycleGantt(title, lanes, g, nil))
		}
		r.Time = cycleFrame()
		jt := report.Table{Title: fmt.Sprintf("Jobs of cycle %d", g.Cycle), Columns: []string{"job", "criterion", "nodes", "alternatives", "chosen", "start", "runtime", "finish", "cost", "processor_time", "on_nodes"}}
		for _, jp := range g.Plan.Jobs {
			if jp.Chosen < 0 {
				jt.Rows = append(jt.Rows, []any{jp.Job.ID, jp.Job.Criterion, jp.Job.Nodes, len(jp.Alts), "postponed", "", "", "", "", "", ""})
				continue
			}
			w := jp.Planned
			ids := make([]string, len(w.Nodes))
			for i, n := range w.Nodes {
				ids[i] = in.Nodes[n].ID
			}
			jt.Rows = append(jt.Rows, []any{jp.Job.ID, jp.Job.Criterion, jp.Job.Nodes, len(jp.Alts), jp.Chosen + 1, w.Start, w.Runtime(), w.Finish(), w.Cost, w.ProcTime(), strings.Join(ids, " ")})
		}
		r.Tables = append(r.Tables, jt)
	}
	r.Notes = runNotes(in, cfg, res)
	return r
}

func cycleTable(res *Result) report.Table {
	t := report.Table{Title: "Cycles", Columns: []string{"cycles", "batch", "carried", "planned", "postponed", "n_alternatives", "start", "runtime", "finish", "cost", "processor_time", "income", "limit"}}
	n := len(res.Cycles)
	size := max(1, int(math.Ceil(float64(n)/maxCycleRows)))
	for lo := 0; lo < n; lo += size {
		hi := min(n, lo+size)
		var s CycleStats
		for _, c := range res.Cycles[lo:hi] {
			s.Batch += c.Batch
			s.Carried += c.Carried
			s.Planned += c.Planned
			s.Postponed += c.Postponed
			s.Alternatives += c.Alternatives
			s.Start += c.Start
			s.Runtime += c.Runtime
			s.Finish += c.Finish
			s.Cost += c.Cost
			s.ProcTime += c.ProcTime
			s.Limit += c.Limit
		}
		label := fmt.Sprint(lo + 1)
		if hi-lo > 1 {
			label = fmt.Sprintf("%d–%d", lo+1, hi)
		}
		k, p := float64(hi-lo), float64(s.Planned)
		t.Rows = append(t.Rows, []any{label, float64(s.Batch) / k, float64(s.Carried) / k, float64(s.Planned) / k, float64(s.Postponed) / k,
			div(float64(s.Alternatives), float64(s.Batch)), div(s.Start, p), div(s.Runtime, p), div(s.Finish, p), div(s.Cost, p), div(s.ProcTime, p), s.Cost / k, s.Limit / k})
	}
	return t
}

// TimeUnit is the unit of slot times: the seed's abstract time units
// (a trace cut into cycles says how many seconds one is).
const TimeUnit = "time units"

// cycleFrame is the time frame of a report that draws one cycle: time
// units from the start of that cycle.
func cycleFrame() *report.TimeFrame {
	return &report.TimeFrame{Unit: TimeUnit, OriginName: "the start of the cycle"}
}

func cycleGantt(title string, lanes []string, g *GanttCycle, windows []Window) report.Gantt {
	gt := report.Gantt{Title: title, TimeUnit: TimeUnit, Lanes: lanes, Bars: localBars(g.Local)}
	for i, jp := range g.Plan.Jobs {
		for k, w := range jp.Alts {
			if k != jp.Chosen {
				gt.Bars = append(gt.Bars, windowBars(w, jp.Job.ID, report.BarAlt)...)
			}
		}
		if jp.Chosen < 0 {
			continue
		}
		w := jp.Planned
		if windows != nil {
			w = windows[i]
		}
		gt.Bars = append(gt.Bars, windowBars(w, jp.Job.ID, "")...)
	}
	return gt
}

// markMoved marks, in the after-shift Gantt of cycle g, the bars of the
// jobs whose window the shift changed (Kind "moved": the page draws them
// with a thick border and its key says so).
func markMoved(gt *report.Gantt, g *GanttCycle) {
	moved := map[string]bool{}
	for i, jp := range g.Plan.Jobs {
		if jp.Chosen < 0 || i >= len(g.Before) {
			continue
		}
		if !sameWindow(g.Before[i], jp.Planned) {
			moved[jp.Job.ID] = true
		}
	}
	for k := range gt.Bars {
		if bar := &gt.Bars[k]; bar.Kind == "" && moved[bar.Group] {
			bar.Kind = report.BarMoved
		}
	}
}

func runNotes(in *Instance, cfg SimConfig, res *Result) []string {
	v, k := variantOf(cfg.Variant), cfg.K
	if v.wholeBatch {
		k = 1
	}
	lim := "the seed's eqs. (2), (4): Σ over jobs of ⌊mean over its alternatives⌋, per cycle and sub-batch"
	if cfg.Limit > 0 {
		lim = fmt.Sprintf("fixed at %g per batch (split over sub-batches by their share of jobs)", cfg.Limit)
	}
	notes := []string{
		fmt.Sprintf("%s, strategy %s, k = %d, shift %v, %d cycles. Limit: %s.", cfg.Variant, cfg.Strategy, k, cfg.Shift, cfg.Cycles, lim),
		"start, runtime, finish, cost and processor_time are means over planned jobs (after the shift when shift is on); runtime is a window's longest slot, processor time the sum of its slot lengths, cost Σ price × time; n_alternatives is per job and cycle, postponed jobs counting 0.",
		"failure_rate is the share of cycles in which some job of the batch got no alternative (the seed's U); jobs_postponed counts postponements (a job carried twice counts twice); owners_income is Σ cost per cycle; utilization is the VO's processor time over nodes × T (owners' local jobs excluded).",
		"Times are whole time units: a job's time on a node is ⌈volume / performance⌉.",
	}
	if v.backfills && !v.alternatives {
		depth := fmt.Sprint(cfg.Depth)
		if cfg.Depth == DepthInf {
			depth = "inf (conservative)"
		} else if cfg.Depth == 1 {
			depth = "1 (EASY)"
		}
		notes[0] = fmt.Sprintf("backfill, reservation depth %s, %d cycles: FCFS order, each job on the cheapest eligible nodes free now within its budget; one window per job (n_alternatives = 1); the VO strategy, k, limit and shift do not apply.", depth, cfg.Cycles)
	}
	if v.backfills && v.alternatives {
		notes[0] = fmt.Sprintf("combined, css_share %g by priority %s: fair-share (strategy %s, k = %d, shift %v) plans that slice of each batch, backfilling (depth %d, −1 = inf) the rest; %d cycles. Limit: %s.", cfg.Share, cfg.Priority, cfg.Strategy, cfg.K, cfg.Shift, cfg.Depth, cfg.Cycles, lim)
	}
	if cfg.EarlyMin > 0 {
		how := "css and fair keep their planned starts; a job's slots end early"
		if v.backfills && !v.alternatives {
			how = "backfill re-plans at each actual completion (planned_* are the plan made at the cycle's start, which knows only reserved times; start, runtime, cost and the other means are that plan's)"
		}
		law := fmt.Sprintf("U[%g, 1] of its reserved time (seed %d and its id)", cfg.EarlyMin, cfg.Seed)
		if cfg.Early != nil {
			law = "its recorded share of its reserved time"
		}
		notes = append(notes, fmt.Sprintf("Early completion: each job runs %s; %s. actual_start and actual_runtime are the means as run.", law, how))
	} else {
		notes = append(notes, "Early completion is off: actual_start and actual_runtime equal the planned ones (early=true draws actual runtimes).")
	}
	if res.Raised > 0 {
		notes = append(notes, fmt.Sprintf("In %d sub-batch choices no combination fitted the limit; it was raised to the sum of each job's least value.", res.Raised))
	}
	if res.Dropped > 0 {
		notes = append(notes, fmt.Sprintf("%d carried jobs were dropped: the carried queue is capped at %d jobs (longest-waiting dropped first).", res.Dropped, maxCarried(len(in.Jobs))))
	}
	if v.wholeBatch && cfg.K != 1 {
		notes = append(notes, "css plans the whole batch at once: k is ignored.")
	}
	if len(res.Cycles) > maxCycleRows {
		notes = append(notes, fmt.Sprintf("The Cycles table aggregates consecutive cycles (means per cycle) to stay within %d rows.", maxCycleRows))
	}
	return notes
}
