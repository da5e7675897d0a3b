package gossip

import (
	"fmt"
	"math"
	"time"

	"schedlab/report"
	"schedlab/solvers"
)

func wallMS(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// preview shows the grid and the job stream before any run.
func preview(in *Instance) *report.Report {
	nt := in.Grid.Build()
	r := &report.Report{}
	sites := make([]int, in.Grid.Sites)
	nat := make([]int, in.Grid.Sites)
	for i := 0; i < nt.n; i++ {
		sites[nt.site[i]]++
		if nt.nat[i] {
			nat[nt.site[i]]++
		}
	}
	t := report.Table{Title: "Sites", Columns: []string{"site", "nodes", "nat_nodes", "x", "y"}}
	for k := range sites {
		if k >= 200 {
			break
		}
		t.Rows = append(t.Rows, []any{k, sites[k], nat[k], math.Round(nt.sx[k]*1000) / 1000, math.Round(nt.sy[k]*1000) / 1000})
	}
	r.Tables = append(r.Tables, t)
	var work, maxLat float64
	for _, j := range in.Jobs {
		work += j.Run
	}
	for i := 0; i < min(nt.n, 300); i++ {
		for j := 0; j < min(nt.n, 300); j++ {
			maxLat = max(maxLat, nt.lat(i, j))
		}
	}
	load := work / (float64(in.Grid.Nodes) * in.DurationS)
	r.Metrics = []report.Metric{
		{Name: "nodes", Value: float64(in.Grid.Nodes)},
		{Name: "jobs", Value: float64(len(in.Jobs))},
		{Name: "offered_load", Value: load},
		{Name: "max_latency_ms_sampled", Value: maxLat * 1000, Unit: "ms"},
	}
	// arrivals per hour
	nb := max(1, min(200, int(math.Ceil(in.DurationS/3600))))
	w := in.DurationS / float64(nb)
	cnt := make([]float64, nb)
	for _, j := range in.Jobs {
		b := min(int(j.Submit/w), nb-1)
		cnt[b] += j.Run
	}
	r.Time = simFrame(in.DurationS)
	l := report.Line{Name: "offered load"}
	for b, c := range cnt {
		l.Points = append(l.Points, [2]float64{(float64(b) + 0.5) * w, c / (float64(in.Grid.Nodes) * w)})
	}
	r.Series = append(r.Series, report.Plot{Title: "Offered load over time", XLabel: r.Time.AxisName(), XTime: true, YLabel: "submitted work / capacity", Lines: []report.Line{l}})
	r.Notes = append(r.Notes, "The offered load is the submitted run time per bin over n × bin length; max_latency_ms_sampled is over the first 300 nodes.")
	if in.Trace != nil {
		tr := in.Trace
		r.Notes = append(r.Notes, fmt.Sprintf("SWF %s (%s): %d jobs used, %d skipped; the trace's load on its %d processors is %.3f; submit times ×%.4g to keep it on %d nodes.",
			tr.Name, tr.Computer, tr.Jobs, tr.Skipped, tr.Procs, tr.Load, tr.Scale, in.Grid.Nodes))
	}
	return r
}

// simFrame is the time frame of a simulation of durationS seconds: its
// seconds, from its start, in the unit that suits its length.
func simFrame(durationS float64) *report.TimeFrame {
	return report.NewTimeFrame("s", 0, "the start of the simulation", durationS)
}

// inSeconds is a series whose x is in hours (the simulator's series) with
// x in seconds, the report's time unit.
func inSeconds(hours [][2]float64) [][2]float64 {
	out := make([][2]float64, len(hours))
	for i, p := range hours {
		out[i] = [2]float64{p[0] * 3600, p[1]}
	}
	return out
}

// The variants a run metric is meaningful for (report.Metric.Variants).
// The rumor and the scheduling simulation share four metric names for
// different things: the rumor's rounds, informed fraction, messages and
// bytes are of one message spread in synchronous rounds, the
// simulation's of the resource tables (gossip) or the manager's
// collections (central), per period; each declares its own variants, so
// that a compare never ranks one against the other. central's
// rounds_to_converge and final_informed are 1 and 1 by construction (one
// hop), so they are gossip's alone; its messages, bytes and staleness are
// its collections' and are compared with gossip's.
var (
	rumorOnly  = solvers.VariantNames(variants, func(v variant) bool { return !v.simulates })
	gossipOnly = solvers.VariantNames(variants, func(v variant) bool { return v.gossips })
	simulated  = solvers.VariantNames(variants, func(v variant) bool { return v.simulates })
)

func rumorReport(in *Instance, rc RumorConfig, res *RumorResult, wall time.Duration) *report.Report {
	n := in.Grid.Nodes
	r := &report.Report{}
	rounds := max(res.Rounds, 1)
	r.Metrics = []report.Metric{
		{Name: "rounds_to_converge", Value: float64(res.RoundsToConverge), Unit: "rounds", Better: report.Lower, Variants: rumorOnly},
		{Name: "final_informed", Value: res.Final, Better: report.Higher, Variants: rumorOnly, Min: report.Bound(0), Max: report.Bound(1)},
		{Name: "nodes", Value: float64(n), Kind: report.KindInfo},
		{Name: "messages_per_node_per_period", Value: res.Messages / float64(n) / float64(rounds), Unit: "msgs", Better: report.Lower, Variants: rumorOnly},
		{Name: "bytes_per_node_per_period", Value: res.Bytes / float64(n) / float64(rounds), Unit: "B", Better: report.Lower, Variants: rumorOnly},
		{Name: "wall_ms", Value: wallMS(wall), Unit: "ms", Better: report.Lower, Kind: report.KindCost},
	}
	ours := report.Line{Name: fmt.Sprintf("%s n=%d, fanout %d, k %d", rc.Mode, n, rc.Fanout, rc.K)}
	for i, x := range res.Informed {
		ours.Points = append(ours.Points, [2]float64{float64(i), x})
	}
	th := report.Line{Name: fmt.Sprintf("epidemic theory (%s, k=∞)", rc.Mode), Dashed: true}
	for i, x := range Theory(rc.Mode, n, rc.Fanout, max(res.Rounds, 60)) {
		th.Points = append(th.Points, [2]float64{float64(i), x})
	}
	r.Series = append(r.Series, report.Plot{Title: "Fraction informed vs round", XLabel: "round", YLabel: "fraction informed", Lines: []report.Line{ours, th}})
	ref := PushRounds(n)
	if rc.Mode == ModePushPull {
		ref = PushPullRounds(n)
	}
	r.Tables = append(r.Tables, report.Table{Title: "Rumor", Columns: []string{"nodes", "nat_nodes", "mode", "fanout", "k", "rounds_run", "rounds_to_converge", "final_informed", "theory_rounds", "refused_attempts"},
		Rows: [][]any{{n, n - len(in.Grid.Build().reach), rc.Mode, rc.Fanout, rc.K, res.Rounds, res.RoundsToConverge, res.Final, math.Round(ref*100) / 100, res.Failed}}})
	r.Notes = append(r.Notes,
		"Rounds are synchronous; the origin is a random node. rounds_to_converge is the round in which the last node ever informed got the rumor; final_informed the fraction at the end (all informed, no sender left, or max_rounds).",
		"The dashed curve is the mean-field epidemic for the same n and fanout with k = ∞ (no sender ever stops); theory_rounds is log₂ n + ln n (push) or log₃ n + ln ln n (push-pull).",
		"Senders draw among all other nodes and do not know who is behind NAT: an attempt to a NAT node is refused (refused_attempts, one header each) and never informs it; in push mode a NAT node is therefore informed only as the origin, in push-pull over a connection it opened (a node that stopped pushing still answers pulls).")
	return r
}

func simReport(in *Instance, cfg SimConfig, res *Result, wall time.Duration) *report.Report {
	r := &report.Report{}
	r.Metrics = []report.Metric{
		{Name: "utilization", Value: res.Utilization, Better: report.Higher},
		{Name: "throughput_per_h", Value: res.ThroughputPerH, Unit: "jobs/h", Better: report.Higher},
		{Name: "wait_mean", Value: res.WaitMean, Unit: "s", Better: report.Lower},
		{Name: "wait_p95", Value: res.WaitP95, Unit: "s", Better: report.Lower},
		{Name: "rejects_per_job", Value: res.RejectsPerJob, Better: report.Lower},
		{Name: "messages_per_node_per_period", Value: res.MsgsPerNode, Unit: "msgs", Better: report.Lower, Variants: simulated},
		{Name: "bytes_per_node_per_period", Value: res.BytesPerNode, Unit: "B", Better: report.Lower, Variants: simulated},
		{Name: "rounds_to_converge", Value: res.Rounds, Unit: "periods", Better: report.Lower, Variants: gossipOnly},
		{Name: "final_informed", Value: res.FinalInformed, Better: report.Higher, Variants: gossipOnly, Min: report.Bound(0), Max: report.Bound(1)},
		{Name: "staleness_mean_s", Value: res.StalenessMean, Unit: "s", Better: report.Lower},
		{Name: "nodes", Value: float64(in.Grid.Nodes), Kind: report.KindInfo},
		{Name: "wall_ms", Value: wallMS(wall), Unit: "ms", Better: report.Lower, Kind: report.KindCost},
	}
	ideal := in.Load
	if in.Load == 0 {
		var work float64
		for _, j := range in.Jobs {
			work += j.Run
		}
		ideal = work / (float64(in.Grid.Nodes) * in.DurationS)
	}
	ideal = min(ideal, 1)
	// One time frame for the page: the Gantt's seconds and the plots'
	// times, from the start of the simulation.
	r.Time = simFrame(res.DurationS)
	tx := r.Time.AxisName()
	r.Series = append(r.Series,
		report.Plot{Title: "Utilization over time", XLabel: tx, XTime: true, YLabel: "utilization m/n", Lines: []report.Line{
			{Name: cfg.Variant, Points: inSeconds(res.UtilSeries)},
			{Name: "ideal min(load, 1)", Points: [][2]float64{{0, ideal}, {res.DurationS, ideal}}, Dashed: true},
			{Name: "warm-up end", Points: [][2]float64{{res.WarmupS, 0}, {res.WarmupS, 1}}, Dashed: true},
		}},
		report.Plot{Title: "Messages per node per period", XLabel: tx, XTime: true, YLabel: "messages", Lines: []report.Line{{Name: cfg.Variant, Points: inSeconds(res.MsgSeries)}}},
		report.Plot{Title: "Bytes per node per period", XLabel: tx, XTime: true, YLabel: "bytes", Lines: []report.Line{{Name: cfg.Variant, Points: inSeconds(res.ByteSeries)}}},
		report.Plot{Title: "Staleness of records", XLabel: tx, XTime: true, YLabel: "mean record age (s)", Lines: []report.Line{{Name: staleName(cfg), Points: inSeconds(res.StaleSeries)}}},
	)
	if cfg.gossips() {
		r.Series = append(r.Series, report.Plot{Title: "Table coverage", XLabel: tx, XTime: true, YLabel: "mean fraction of records held", Lines: []report.Line{{Name: "gossip", Points: inSeconds(res.CoverageSeries)}}})
	}
	r.Gantts = append(r.Gantts, report.Gantt{Title: "Jobs on nodes", TimeUnit: "s", Lanes: res.Lanes, Bars: res.Bars})
	r.Tables = append(r.Tables, report.Table{Title: "Run", Columns: []string{"variant", "nodes", "schedulers", "jobs", "started", "matches", "rejects", "period_s", "ttl_s", "warmup_h"},
		Rows: [][]any{{cfg.Variant, res.Nodes, len(res.Schedulers), res.Jobs, res.Started, res.Matches, res.Rejects, cfg.PeriodS, cfg.TTLS, res.WarmupS / 3600}}})
	r.Notes = append(r.Notes,
		fmt.Sprintf("utilization is the time-weighted mean of m/n after %s (warm-up); the ideal is min(offered load, 1) = %.3f.", r.Time.Duration(res.WarmupS), ideal),
		"wait is start − submit over the jobs started before the end; jobs still queued at the end are not in it.",
		fmt.Sprintf("Messages count every exchange, request, answer and poll (%d-byte header, record_bytes %d per record carried); per node per period = total / (n × duration / period_s).", headerBytes, cfg.RecordBytes),
		"staleness_mean_s is the mean age of the records used for matching at the moment of the match.",
		ganttNote(cfg, len(res.Lanes)))
	if !cfg.gossips() {
		r.Notes = append(r.Notes, fmt.Sprintf("central: collection %s; cost %.3g ms per record, %.3g µs per record scanned per match (× n = %.3g s per match); rounds_to_converge = 1 and final_informed = 1 by construction (one hop).",
			map[bool]string{true: "exact (oracle)", false: "every period_s"}[cfg.Exact], cfg.RecordCostS*1000, cfg.MatchCostS*1e6, cfg.MatchCostS*float64(res.Nodes)))
	} else {
		r.Notes = append(r.Notes, fmt.Sprintf("gossip: rounds_to_converge is the first period at which tables hold on average 99 %% of the records (-1: never), final_informed the mean fraction held at the end; match cost %.3g s per match.", cfg.MatchCostS*float64(res.Nodes)))
	}
	return r
}

func staleName(cfg SimConfig) string {
	if !cfg.gossips() {
		return "central: age of the snapshot"
	}
	return "gossip: scheduler's table"
}

func ganttNote(cfg SimConfig, lanes int) string {
	const reserved = "\"reserved\" bars are the round trip between the accept and the job's start; at most 20,000 bars are drawn."
	if cfg.GanttLanes == nil {
		return fmt.Sprintf("The Gantt shows nodes 0..%d (gantt_nodes; node ids are spread over random sites, so this is a uniform sample); choose other lanes with gantt_lanes (ids, ranges or random). %s", lanes-1, reserved)
	}
	return fmt.Sprintf("The Gantt shows the %d nodes chosen by gantt_lanes. %s", lanes, reserved)
}
