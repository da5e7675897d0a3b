package gossip

import (
	"context"
	"fmt"
	"math"
	"math/rand"
	"runtime"
	"slices"
	"strconv"
	"strings"

	"schedlab/errs"
	"schedlab/report"
	"schedlab/solvers"
	"schedlab/solvers/claims"
)

// The seed's experiment settings and its published numbers.
var (
	fig6Nodes   = []int{100, 1000, 10000}
	fig7NAT     = []float64{0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9}
	fig8Nodes   = []int{10, 30, 100, 300, 1000, 3000}
	fig9Loads   = []float64{0.1, 0.5, 1, 2}
	table1Sched = []int{1, 2, 4, 8}
	// Table 1 (表 1): utilization with 1, 2, 4, 8 scheduling nodes, 1000 nodes, 100 % load.
	paperTable1 = []float64{0.939, 0.941, 0.967, 0.970}
)

func parseNodeList(v string) ([]int, error) {
	var out []int
	for _, f := range strings.Split(v, ",") {
		f = strings.TrimSpace(f)
		if f == "" {
			continue
		}
		n, err := strconv.Atoi(f)
		if err != nil || n < 2 || n > 100000 {
			return nil, errs.Invalidf("fig9_nodes", "want a comma list of node counts 2..100000, got %q", f)
		}
		out = append(out, n)
	}
	if len(out) == 0 {
		return nil, errs.Invalidf("fig9_nodes", "empty list")
	}
	return out, nil
}

type simTask struct {
	variant    string
	nodes      int
	load       float64
	schedulers int
	rep        int
	util       float64
	rejects    float64
	msgs       float64 // messages per node per period
	thru       float64 // jobs finished per hour after the warm-up
}

type rumorTask struct {
	mode  string
	nodes int
	nat   float64
	rep   int
	fig7  bool
	res   *RumorResult
}

// reproTasks are the runs of the seed experiment.
type reproTasks struct {
	rumor []*rumorTask
	sim   []*simTask
	f8    []int // node counts of Fig. 8 (up to max_nodes)
	f9    []int // node counts of Fig. 9
}

func planRepro(c ReproConfig) (*reproTasks, error) {
	f9, err := parseNodeList(c.Fig9Nodes)
	if err != nil {
		return nil, err
	}
	pl := &reproTasks{f9: f9}
	for _, n := range fig6Nodes {
		for i := 0; i < c.RumorReps; i++ {
			pl.rumor = append(pl.rumor, &rumorTask{mode: ModePush, nodes: n, rep: i})
		}
	}
	for _, f := range fig7NAT {
		for _, m := range []string{ModePushPull, ModePush} {
			for i := 0; i < c.RumorReps; i++ {
				pl.rumor = append(pl.rumor, &rumorTask{mode: m, nodes: 1000, nat: f, rep: i, fig7: true})
			}
		}
	}
	add := func(v string, n int, load float64, sch int) {
		for i := 0; i < c.Reps; i++ {
			pl.sim = append(pl.sim, &simTask{variant: v, nodes: n, load: load, schedulers: sch, rep: i})
		}
	}
	for _, n := range fig8Nodes {
		if n <= c.MaxNodes {
			pl.f8 = append(pl.f8, n)
			add(VariantGossip, n, 1, 1)
			add(VariantCentral, n, 1, 1)
		}
	}
	for _, n := range f9 {
		for _, l := range fig9Loads {
			add(VariantGossip, n, l, 1)
			add(VariantCentral, n, l, 1)
		}
	}
	for _, k := range table1Sched {
		add(VariantGossip, 1000, 1, k)
	}
	return pl, nil
}

// reproduce runs the seed experiment (see the package doc).
func reproduce(ctx context.Context, c ReproConfig, progress solvers.Progress) (*report.Report, error) {
	pl, err := planRepro(c)
	if err != nil {
		return nil, err
	}
	seed := int64(c.Seed)
	dur := c.DurationH * 3600
	// One list of jobs, the largest scheduling runs first so the cores
	// finish together; each writes only its own task's result, so the
	// report is the same at any parallelism (solvers.ForEach).
	var jobs []func() error
	for i := len(pl.sim) - 1; i >= 0; i-- {
		t := pl.sim[i]
		jobs = append(jobs, func() error {
			res, err := oneSim(ctx, t, dur, seed, c)
			if err == nil {
				t.util, t.rejects, t.msgs, t.thru = res.Utilization, res.RejectsPerJob, res.MsgsPerNode, res.ThroughputPerH
			}
			return err
		})
	}
	for _, t := range pl.rumor {
		jobs = append(jobs, func() error {
			g := DefaultGrid(t.nodes, min(20, t.nodes), t.nat, seed+int64(t.rep))
			res, err := Rumor(ctx, g.Build(), RumorConfig{Mode: t.mode, Fanout: 1, K: 1, MaxRounds: 1000, RecordBytes: 256, Seed: seed*7919 + int64(t.rep)}, nil)
			t.res = res
			return err
		})
	}
	if err := reserveRepro(ctx, pl.sim, dur, c.MaxNodes); err != nil {
		return nil, err
	}
	total := len(jobs)
	progress(0, total, "start")
	err = solvers.ForEach(ctx, total, func(i int) error { return jobs[i]() }, func(done int) {
		progress(done, total, fmt.Sprintf("%d of %d runs (%d scheduling, %d rumor)", done, total, len(pl.sim), len(pl.rumor)))
	})
	if err != nil {
		return nil, err
	}
	return reproReport(c, pl), nil
}

// reserveRepro checks, before any run, that the largest scheduling run
// fits the budget once per core that may hold one at the same time (the
// runs' own check is against the whole budget; solvers.ForEach runs up to
// GOMAXPROCS at once). Its field is the parameter that sized it.
func reserveRepro(ctx context.Context, sts []*simTask, durS float64, maxNodes int) error {
	var big *simTask
	for _, t := range sts {
		if big == nil || t.nodes > big.nodes || (t.nodes == big.nodes && t.load > big.load) {
			big = t
		}
	}
	if big == nil {
		return nil
	}
	jobs := expectedJobs(GenConfig{Grid: Grid{Nodes: big.nodes}, Load: 2, JobMinS: 1800, JobMaxS: 3600, DurationS: durS})
	est := estimateBytes(big.nodes, 8, durS, 60, int(min(jobs, MaxJobs)), true, true)
	field := "fig9_nodes"
	if big.nodes <= maxNodes && slices.Contains(fig8Nodes, big.nodes) {
		field = "max_nodes"
	}
	at := int64(max(1, min(runtime.GOMAXPROCS(0), len(sts))))
	return solvers.Reserve(ctx, field, solvers.SatMul(est, at), fmt.Sprintf("%d runs at once of %d nodes (tables and records)", at, big.nodes))
}

// oneSim is one scheduling run of the reproduce: the run's defaults but
// for the experiment's costs and warm-up, no Gantt.
func oneSim(ctx context.Context, t *simTask, dur float64, seed int64, c ReproConfig) (*Result, error) {
	sd := seed + int64(t.rep)
	gen := GenConfig{Grid: DefaultGrid(t.nodes, min(20, t.nodes), 0, sd), Load: t.load, JobMinS: 1800, JobMaxS: 3600, DurationS: dur}
	in, err := Generate(gen, rand.New(rand.NewSource(sd)))
	if err != nil {
		return nil, err
	}
	rc := DefaultConfig()
	rc.Schedulers, rc.RecordCostMS, rc.MatchCostUS, rc.WarmupH, rc.GanttNodes, rc.Collect = t.schedulers, c.RecordCostMS, c.MatchCostUS, c.WarmupH, 0, c.Collect
	rc.GossipK = c.GossipK
	return Simulate(ctx, in, rc.simConfig(t.variant, sd), nil)
}

// simMean is a setting's mean over its seeds.
type simMean struct {
	thru    float64 // jobs finished per hour after the warm-up
	util    float64 // utilization
	rejects float64 // rejects per job
	msgs    float64 // messages per node per period
}

// meanSim averages utilization, rejects per job and messages per node per
// period over the seeds of one setting.
func meanSim(sts []*simTask, v string, n int, load float64, sch int) simMean {
	var m simMean
	k := 0
	for _, t := range sts {
		if t.variant == v && t.nodes == n && t.load == load && t.schedulers == sch {
			m.util += t.util
			m.rejects += t.rejects
			m.msgs += t.msgs
			m.thru += t.thru
			k++
		}
	}
	if k == 0 {
		return simMean{}
	}
	f := float64(k)
	return simMean{thru: m.thru / f, util: m.util / f, rejects: m.rejects / f, msgs: m.msgs / f}
}

func r3(x float64) float64 { return math.Round(x*1000) / 1000 }

// figure is one figure or table of the seed: its table and its plots.
type figure struct {
	table report.Table
	plots []report.Plot
}

// table1Result is Table 1 with how ours compares with the seed's.
type table1Result struct {
	figure
	util   []float64 // ours, by table1Sched
	rising bool      // ours rises with the number of schedulers
	gap    float64   // mean of the seed's utilization − ours
}

func reproReport(c ReproConfig, pl *reproTasks) *report.Report {
	f6, f7 := fig6(pl.rumor), fig7(pl.rumor)
	f8 := fig8(pl.sim, pl.f8)
	f9 := fig9(pl.sim, pl.f9)
	t1 := table1(pl.sim)
	r := &report.Report{}
	r.Tables = []report.Table{reproClaims(c, pl), f6.table, f7.table, f8.table, f9.table, t1.table, seedSetting(c, pl.f8)}
	for _, f := range []figure{f6, f7, f8, f9, t1.figure} {
		r.Series = append(r.Series, f.plots...)
	}
	r.Notes = reproNotes(c, t1)
	return r
}

// table1Causes summarises the measured causes of Table 1's gap (doc.go,
// "Why Table 1 comes out low": seed experiments sens-table1 and
// sens-table1-run, sens-period, 1000 nodes).
const table1Causes = "Causes measured (seed experiments /experiments/new?seed=gossip/sens-table1, /experiments/new?seed=gossip/sens-table1-run, /experiments/new?seed=gossip/sens-period; the package documentation, solvers/gossip/doc.go): the exchange's feedback counter (gossip_k 1) lowers it by ≤ 0.004; matching cost 0–500 µs, warm-up 1–3 h, 6 or 24 h, Poisson or regular arrivals, load 1 or 1.1 move it by ≤ 0.002; only the gossip period moves the level (1 scheduler: 0.955 at 30 s, 0.914 at the seed's 60 s)."

// fig6 is the push rumor at n = 100, 1000, 10000 beside the k = ∞ theory.
func fig6(rts []*rumorTask) figure {
	t6 := report.Table{Title: "Fig 6", Columns: []string{"nodes", "rounds_to_converge", "final_informed", "theory_rounds_k_inf"}}
	p6 := report.Plot{Title: "Fig 6", XLabel: "round", YLabel: "fraction informed"}
	for _, n := range fig6Nodes {
		var sel []*RumorResult
		for _, t := range rts {
			if !t.fig7 && t.nodes == n && t.res != nil {
				sel = append(sel, t.res)
			}
		}
		avg := avgRumor(sel)
		t6.Rows = append(t6.Rows, []any{n, r3(avg.rounds), r3(avg.final), r3(PushRounds(n))})
		l := report.Line{Name: fmt.Sprintf("n=%d (push, fanout 1, k 1)", n)}
		for i, x := range avg.curve {
			l.Points = append(l.Points, [2]float64{float64(i), x})
		}
		th := report.Line{Name: fmt.Sprintf("theory n=%d (push, k=∞)", n), Dashed: true}
		for i, x := range Theory(ModePush, n, 1, 60) {
			th.Points = append(th.Points, [2]float64{float64(i), x})
		}
		p6.Lines = append(p6.Lines, l, th)
	}
	return figure{t6, []report.Plot{p6}}
}

// fig7 is the push-pull exchange and pure push at 1000 nodes, NAT 0–90 %.
func fig7(rts []*rumorTask) figure {
	t7 := report.Table{Title: "Fig 7", Columns: []string{"nat_fraction", "rounds_to_converge", "final_informed", "push_rounds_to_converge", "push_final_informed", "paper_claim"}}
	p7 := report.Plot{Title: "Fig 7", XLabel: "fraction of nodes behind NAT", YLabel: "final fraction informed"}
	p7r := report.Plot{Title: "Fig 7 rounds", XLabel: "fraction of nodes behind NAT", YLabel: "rounds to converge"}
	lppr, lpr := report.Line{Name: "push-pull exchange (k 1)"}, report.Line{Name: "push (k 1)"}
	lpp, lp := report.Line{Name: "push-pull exchange (k 1)"}, report.Line{Name: "push (k 1)"}
	for _, f := range fig7NAT {
		var a, b []*RumorResult
		for _, t := range rts {
			if isFig7(t) && t.nat == f && t.res != nil {
				if t.mode == ModePushPull {
					a = append(a, t.res)
				} else {
					b = append(b, t.res)
				}
			}
		}
		pp, push := avgRumor(a), avgRumor(b)
		t7.Rows = append(t7.Rows, []any{f, r3(pp.rounds), r3(pp.final), r3(push.rounds), r3(push.final), "rounds rise with the fraction; final drops only a little"})
		lpp.Points = append(lpp.Points, [2]float64{f, pp.final})
		lp.Points = append(lp.Points, [2]float64{f, push.final})
		lppr.Points = append(lppr.Points, [2]float64{f, pp.rounds})
		lpr.Points = append(lpr.Points, [2]float64{f, push.rounds})
	}
	p7.Lines = []report.Line{lpp, lp}
	p7r.Lines = []report.Line{lppr, lpr}
	return figure{t7, []report.Plot{p7, p7r}}
}

// fig8 is gossip and central utilization by node count at 100 % load:
// utilization and the gossip/central ratio on separate plots, the seed's
// claims as shaded regions of the ratio plot.
func fig8(sts []*simTask, f8 []int) figure {
	t8 := report.Table{Title: "Fig 8", Columns: []string{"nodes", "gossip_utilization", "central_utilization", "ratio", "gossip_throughput_per_h", "central_throughput_per_h", "throughput_ratio", "paper_claim"}}
	p8 := report.Plot{Title: "Fig 8", XLabel: "nodes", YLabel: "utilization m/n after warm-up", XLog: true}
	pr := report.Plot{Title: "Fig 8 ratio", XLabel: "nodes", YLabel: "utilization gossip / central", XLog: true}
	lg, lc, lr := report.Line{Name: "gossip"}, report.Line{Name: "central"}, report.Line{Name: "gossip / central"}
	lo := 1 - aheadMargin
	for _, n := range f8 {
		g, c := meanSim(sts, VariantGossip, n, 1, 1), meanSim(sts, VariantCentral, n, 1, 1)
		ratio := safeDiv(g.util, c.util)
		claim := "central clearly better (10–100 nodes)"
		if n >= 1000 {
			claim = "gossip about equal or up to 10 % better (≥ 1000 nodes)"
		} else if n > 100 {
			claim = "(not stated: between the two regimes)"
		}
		t8.Rows = append(t8.Rows, []any{n, r3(g.util), r3(c.util), r3(ratio), r3(g.thru), r3(c.thru), r3(safeDiv(g.thru, c.thru)), claim})
		lg.Points = append(lg.Points, [2]float64{float64(n), g.util})
		lc.Points = append(lc.Points, [2]float64{float64(n), c.util})
		lr.Points = append(lr.Points, [2]float64{float64(n), ratio})
		lo = min(lo, ratio)
	}
	p8.Lines = []report.Line{lg, lc}
	pr.Lines = []report.Line{lr, {Name: "parity", Points: [][2]float64{{float64(f8[0]), 1}, {float64(f8[len(f8)-1]), 1}}, Dashed: true}}
	if f8[0] <= 100 {
		pr.Regions = append(pr.Regions, report.Region{Name: "paper: central far ahead (shaded below 0.97; Claims: central − gossip > 0.03 of utilization, ours)", X0: float64(f8[0]), X1: min(100, float64(f8[len(f8)-1])), Y0: math.Floor((lo-0.01)*100) / 100, Y1: 1 - aheadMargin})
	}
	if last := f8[len(f8)-1]; last >= 1000 {
		pr.Regions = append(pr.Regions, report.Region{Name: "paper: gossip ≈ central … +10 % (≥ 1000 nodes)", X0: 1000, X1: float64(last), Y0: parityLo, Y1: parityHi})
	}
	return figure{t8, []report.Plot{p8, pr}}
}

// fig9 is the gossip / central utilization ratio by node count, one line
// per offered load (the seed's «計算ノード数の変化による性能比»), and the
// utilizations on a separate plot.
func fig9(sts []*simTask, f9 []int) figure {
	t9 := report.Table{Title: "Fig 9", Columns: []string{"nodes", "load", "gossip_utilization", "central_utilization", "ratio", "paper_claim"}}
	p9 := report.Plot{Title: "Fig 9", XLabel: "nodes", YLabel: "utilization gossip / central", XLog: true}
	pu := report.Plot{Title: "Fig 9 utilization", XLabel: "nodes", YLabel: "utilization m/n after warm-up", XLog: true}
	for _, ld := range fig9Loads {
		lr := report.Line{Name: fmt.Sprintf("load %g %%", ld*100)}
		lg, lc := report.Line{Name: fmt.Sprintf("gossip, load %g %%", ld*100)}, report.Line{Name: fmt.Sprintf("central, load %g %%", ld*100)}
		for _, n := range f9 {
			g := meanSim(sts, VariantGossip, n, ld, 1).util
			c := meanSim(sts, VariantCentral, n, ld, 1).util
			claim := "few nodes: the ratio falls as the load rises"
			if n >= 1000 {
				claim = "many nodes: gossip ahead (ratio > 1)"
			}
			t9.Rows = append(t9.Rows, []any{n, ld, r3(g), r3(c), r3(safeDiv(g, c)), claim})
			lr.Points = append(lr.Points, [2]float64{float64(n), safeDiv(g, c)})
			lg.Points = append(lg.Points, [2]float64{float64(n), g})
			lc.Points = append(lc.Points, [2]float64{float64(n), c})
		}
		p9.Lines = append(p9.Lines, lr)
		pu.Lines = append(pu.Lines, lg, lc)
	}
	p9.Lines = append(p9.Lines, report.Line{Name: "parity", Points: [][2]float64{{float64(f9[0]), 1}, {float64(f9[len(f9)-1]), 1}}, Dashed: true})
	if last := f9[len(f9)-1]; last >= 1000 {
		p9.Regions = []report.Region{{Name: "paper: gossip ahead (many nodes)", X0: float64(max(1000, f9[0])), X1: float64(last), Y0: 1, Y1: parityHi}}
	}
	return figure{t9, []report.Plot{p9, pu}}
}

// table1 is utilization with 1, 2, 4, 8 schedulers beside the seed's.
func table1(sts []*simTask) table1Result {
	t1 := report.Table{Title: "Table 1", Columns: []string{"schedulers", "utilization", "paper_utilization", "difference", "rejects_per_job", "messages_per_node_per_period"}}
	pt := report.Plot{Title: "Table 1", XLabel: "scheduling nodes", YLabel: "utilization"}
	lo, lpub := report.Line{Name: "ours"}, report.Line{Name: "paper", Dashed: true}
	var util []float64
	for i, k := range table1Sched {
		m := meanSim(sts, VariantGossip, 1000, 1, k)
		t1.Rows = append(t1.Rows, []any{k, r3(m.util), paperTable1[i], r3(m.util - paperTable1[i]), r3(m.rejects), r3(m.msgs)})
		lo.Points = append(lo.Points, [2]float64{float64(k), m.util})
		util = append(util, m.util)
		lpub.Points = append(lpub.Points, [2]float64{float64(k), paperTable1[i]})
	}
	pt.Lines = []report.Line{lo, lpub}
	// does ours rise with the schedulers as the seed's does?
	res := table1Result{figure: figure{t1, []report.Plot{pt}}, util: util, rising: true}
	for i := 1; i < len(lo.Points); i++ {
		res.rising = res.rising && lo.Points[i][1] >= lo.Points[i-1][1]
	}
	for i, pt := range lo.Points {
		res.gap += paperTable1[i] - pt[1]
	}
	res.gap /= float64(max(1, len(lo.Points)))
	return res
}

// seedSetting lists the seed's other numbers of §5 beside ours.
func seedSetting(c ReproConfig, f8 []int) report.Table {
	return report.Table{Title: "Seed setting", Columns: []string{"quantity", "ours", "paper_value"}, Rows: [][]any{
		{"gossip period (s)", 60, "60 (\"once a minute\", \"1 分に 1 回\", §5.2)"},
		{"max inter-node latency (ms)", 200, "≈ 200, GridG topology (§5.2)"},
		{"job run time (min)", "30–60 uniform", "30–60 on the reference machine (§5.2.1)"},
		{"rumor fanout / k (Figs. 6, 7)", "1 / 1", "1 / 1 (§5.1.1)"},
		{"Fig 7 nodes", 1000, "1000 (§5.1.2)"},
		{"Fig 8 nodes", fmt.Sprint(f8), "10 … ≥ 1000 (§5.2.1)"},
		{"Fig 9 loads (%)", "10, 50, 100, 200", "10, 50, 100, 200 (§5.2.2)"},
		{"Table 1", "1000 nodes, 100 % load, 1/2/4/8 schedulers", "1000 nodes, 100 % load, 1/2/4/8 → 0.939/0.941/0.967/0.970 (§5.2.3)"},
		{"simulated duration (h)", num(c.DurationH), "not stated"},
		{"central collection", c.Collect + ", ads on change + every 300 s, negotiator every 60 s", "Condor-like, one hop, periodic ads (§2.1.1, §5.2.1); periods not stated"},
		{"record_cost_ms / match_cost_us", num(c.RecordCostMS) + " / " + num(c.MatchCostUS), "measured Java matchmaking time, not printed (§5.2)"},
	}}
}

// num writes a parameter's value as its default is written.
func num(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }

func reproNotes(c ReproConfig, t1 table1Result) []string {
	published := fmt.Sprintf("Published numbers: the seed prints only Table 1 (0.939 / 0.941 / 0.967 / 0.970); Figs. 6–9 are images without values. Claims judges every row by the shared rules of solvers/claims on the per-seed values of the runs; where the seed's words fix no number («大きく», «ほぼ同程度», «比較的小さく») the threshold is ours, named in the row, and caps the verdict at partly; Fig 6, whose words fix none, is unverifiable and shown beside Demers et al.'s (1987) k = 1 residue (%.3f uninformed).", RumorResidue(1))
	if c.Reps < claims.MinValues {
		published += " With reps 1 each scheduling setting has one seed: no interval rests on one value, so the rows that need one are inconclusive; the default reps 5 gives real intervals."
	}
	notes := []string{
		published,
		fmt.Sprintf("Scheduling runs: umeda2006 grids (20 sites, no NAT), Poisson jobs of 30–60 min, %s h each with %s h warm-up, %d seed(s) per setting; gossip: period 60 s (the seed's), fanout 1, ttl 1800 s, records refreshed at each node's tick (§4.5); central: HTCondor's collector and negotiator (central_collect %s, ads at every state change and every 300 s = UPDATE_INTERVAL, negotiation cycle every 60 s = NEGOTIATOR_INTERVAL); record_cost_ms %s and match_cost_us %s are assumptions (the seed measured its Java matchmaking and prints no value).",
			num(c.DurationH), num(c.WarmupH), c.Reps, c.Collect, num(c.RecordCostMS), num(c.MatchCostUS)),
		"Fig 8 (the seed's headline) does not come out: central stays ahead at every size and gossip falls further behind as the nodes grow, because gossip's delay grows like log n while HTCondor's documented collection (an ad at each state change) is one hop at any size. Measured (sens-length, 6 h, Poisson, 3 seeds): gossip/central 0.99 / 0.96 / 0.92 at 10 / 100 / 1000 nodes. At 10 nodes both are limited by the job stream (queue often empty), so no information model separates them much (ratio 0.987–1.015 in every sensitivity sweep).",
		"What moves Fig 8 (sensitivity experiments sens-*): only a collection whose cost grows with the nodes at one host. central_collect=serial (the manager fetches each record in turn, one round trip each: the seed's direct collection in one hop («1 ホップで直接回収») serialized, its concentration of communication («通信の集中»)) with record_cost_ms 200 gives ratios 0.97 / 0.98 / 1.08 at 100 / 1000 / 3000 nodes (sens-collect, 3 seeds) — gossip ahead at 3000 nodes, but central only 3 % ahead at 100 and not at all at 10–30. A push collector with a per-ad cost instead collapses once saturated (200 ms: central 0.99 at 1000, 0.20 at 3000 nodes): a cliff, not the seed's gradual crossover. Ads only every 300 s (central_ads=periodic, sens-ads) make central lose at 10–100 nodes (ratio 1.02 / 1.00) and stay ahead at 1000 (0.97): the opposite of the seed's shape. The shared matching cost moves both alike. Run length (6 vs 24 h) and the arrival process (Poisson vs regular) change the ratio by ≤ 0.01 at 100–1000 nodes.",
		"Fig 6 uses the seed's counter protocol (fanout 1, k = 1), which stops before everyone is informed; the dashed theory curves are the k = ∞ epidemic (log₂ n + ln n rounds).",
		"Fig 7 is shown for both readings: push as in Fig 6 (NAT nodes can be informed only as origin: the final rate falls about one for one with the NAT share, more than \"a little\") and push-pull as the resource-record exchange (a NAT node pulls over connections it opens; the final rate stays at 1.0, no drop at all). Claims judges the seed's \"rounds rise, final drops a little\" on each.",
		"Fig 8 and Fig 9 show utilization (m/n after warm-up, the seed's 稼働率) and the ratio on separate plots; the seed calls Fig. 8's measure throughput (スループット): the Fig 8 table gives jobs finished per hour after warm-up too, whose ratio differs from the utilization ratio by ≤ 0.01 from 100 nodes on (by up to 0.02 at 10–30 nodes, where a few jobs decide it).",
	}
	return append(notes, fmt.Sprintf("Table 1: ours %s with the number of scheduling nodes (the seed: 0.939 → 0.970, rising) and lies on average %.3f %s the seed's; more schedulers hold more, fresher copies of the records, as the seed explains (§6.2), but also collide on the same free nodes (rejects_per_job).",
		map[bool]string{true: "rises", false: "does not rise monotonically"}[t1.rising], math.Abs(t1.gap), map[bool]string{true: "below", false: "above"}[t1.gap >= 0]))
}

func isFig7(t *rumorTask) bool { return t.fig7 }

func safeDiv(a, b float64) float64 {
	if b == 0 {
		return 0
	}
	return a / b
}

// rumorMean is the mean of a rumor setting's runs.
type rumorMean struct {
	rounds float64   // rounds to converge
	final  float64   // final fraction informed
	curve  []float64 // fraction informed by round, each run padded with its last value
}

// avgRumor averages rounds, final and the curve (padded with its last value).
func avgRumor(rs []*RumorResult) rumorMean {
	if len(rs) == 0 {
		return rumorMean{}
	}
	var rounds, final float64
	L := 0
	for _, r := range rs {
		rounds += float64(r.RoundsToConverge)
		final += r.Final
		L = max(L, len(r.Informed))
	}
	curve := make([]float64, L)
	for _, r := range rs {
		for i := range curve {
			curve[i] += r.Informed[min(i, len(r.Informed)-1)]
		}
	}
	for i := range curve {
		curve[i] /= float64(len(rs))
	}
	return rumorMean{rounds / float64(len(rs)), final / float64(len(rs)), curve}
}
