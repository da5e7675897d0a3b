package cyclic

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"

	"schedlab/report"
	"schedlab/solvers"
)

// The seed's published numbers (Bulletin of SUSU CMSE 2014, 3(2): 43–62).
var (
	// Table 1 (§2.2): rows start, runtime, finish, cost (fair-share model,
	// jobs grouped by their own criterion), then CSS; columns N_A, start,
	// runtime, finish, cost.
	paperT1 = map[string][5]float64{
		CritStart:   {12.8, 171.7, 56.1, 227.8, 1281.1},
		CritRuntime: {10.6, 214.5, 39.3, 253.9, 1278.5},
		CritFinish:  {12.2, 169.6, 45, 205.5, 1283.2},
		CritCost:    {12.9, 262.6, 55.5, 318.1, 1098.3},
		"css":       {12.1, 222, 50.3, 272.3, 1248.4},
	}
	// Table 2 (§2.4): one owner's node, T = 600; price c → load time L,
	// utilization U = L/T, profit P, failures Y.
	paperT2Prices = []float64{2, 4, 6, 8, 10}
	paperT2       = [][4]float64{
		{256.6, 0.44, 527.1, 0},
		{234.9, 0.39, 939.6, 0.001},
		{185.4, 0.31, 1112.3, 0.013},
		{109.8, 0.18, 878.7, 0.024},
		{71, 0.12, 710.3, 0.025},
	}
	// Fig. 3 (§2.3): k values; the figure prints no numbers.
	fig3K = []int{1, 2, 3, 5, 6, 10, 20}
	// Our owners' local load for the seed's three load levels (§2.3:
	// «при высоком (У = 0.3), среднем (У = 0.03) и низком уровнях загрузки
	// (У < 0.0002)»), found by a scan (BenchmarkLoadScan: fair, k = 1,
	// proctime, independent cycles, 1000 cycles): 0.15 → U ≈ 0.295,
	// 0.06 → U ≈ 0.032, 0 → U = 0 (0.01 already gives 0.001 > 0.0002).
	fig3Loads = []struct {
		name  string
		load  float64
		paper string
		u     float64 // the seed's U (the low level's bound)
	}{
		{"high load", 0.15, "0.3", 0.3},
		{"medium load", 0.06, "0.03", 0.03},
		{"low load", 0, "< 0.0002", 0.0002},
	}
)

// ReproRun is one simulation of the reproduce: SimConfig on Instance, or Run
// when set (another planner). Res holds its result once it ran.
type ReproRun struct {
	Name string
	In   *Instance
	Cfg  SimConfig
	Run  func(ctx context.Context, progress func(done, total int, note string)) (*Result, error)
	Res  *Result
}

// ReproSetting is what every experiment of the reproduce starts from.
type ReproSetting struct {
	Config   ReproConfig // the reproduce parameters
	Cycles   int
	Seed     int64
	Strategy string
	Base     GenConfig // toporkov2014 with the seed
	In       *Instance // Generate(Base)
	Claims   *Claims   // the Claims rows, filled as the parts are built
}

// ReproExperiment is one part of the reproduce report: its runs (all
// experiments' runs go to one parallel pool) and Build, which appends its
// tables, plots, metrics and notes to the report once every run is done.
type ReproExperiment struct {
	Runs  []*ReproRun
	Build func(r *report.Report)
}

// ReproExperiments returns the builders of the reproduce's parts in report
// order: Table 1, Table 2 and Fig 3 (this file), then Table 3, Fig 4 and
// Figs 5–8 (flowrepro.go).
func ReproExperiments() []func(ReproSetting) (*ReproExperiment, error) {
	return []func(ReproSetting) (*ReproExperiment, error){table1, table2, fig3, table3, fig4, nodeStudy}
}

// NewReproSetting is the setting of every experiment of a reproduce with
// cfg: toporkov2014 with cfg's seed, generated.
func NewReproSetting(cfg ReproConfig) (ReproSetting, error) {
	set := ReproSetting{Config: cfg, Cycles: cfg.Cycles, Seed: int64(cfg.Seed), Strategy: cfg.Strategy, Base: Toporkov2014(), Claims: &Claims{}}
	set.Base.Seed = set.Seed
	var err error
	set.In, err = Generate(set.Base)
	return set, err
}

func reproduce(ctx context.Context, cfg ReproConfig, progress solvers.Progress) (*report.Report, error) {
	set, err := NewReproSetting(cfg)
	if err != nil {
		return nil, err
	}
	var parts []*ReproExperiment
	for _, mk := range ReproExperiments() {
		e, err := mk(set)
		if err != nil {
			return nil, err
		}
		parts = append(parts, e)
	}
	if err := RunRepro(ctx, parts, progress); err != nil {
		return nil, err
	}
	return BuildReproReport(set, parts), nil
}

// RunRepro runs every experiment's runs with solvers.ForEach; each run is
// independent and writes only its own result, so the results do not depend
// on the parallelism. Progress counts finished runs.
func RunRepro(ctx context.Context, parts []*ReproExperiment, progress solvers.Progress) error {
	var runs []*ReproRun
	for _, e := range parts {
		runs = append(runs, e.Runs...)
	}
	// Longest first (by nodes × cycles), so that no long run starts last
	// while the other workers idle.
	order := make([]int, len(runs))
	for i := range order {
		order[i] = i
	}
	work := func(r *ReproRun) int {
		if r.In == nil {
			return 0
		}
		return len(r.In.Nodes) * r.Cfg.Cycles
	}
	slices.SortStableFunc(order, func(a, b int) int { return work(runs[b]) - work(runs[a]) })
	return solvers.ForEach(ctx, len(runs), func(i int) error {
		r := runs[order[i]]
		var err error
		if r.Run != nil {
			r.Res, err = r.Run(ctx, solvers.NoProgress)
		} else {
			r.Res, err = RunConfig(ctx, r.In, r.Cfg, solvers.NoProgress)
		}
		if err != nil {
			return fmt.Errorf("%s: %w", r.Name, err)
		}
		return nil
	}, func(done int) {
		progress(done, len(runs), fmt.Sprintf("%d of %d runs", done, len(runs)))
	})
}

// BuildReproReport assembles the report from the experiments, in order,
// after the common metrics and notes.
func BuildReproReport(set ReproSetting, parts []*ReproExperiment) *report.Report {
	r := &report.Report{}
	r.Metrics = []report.Metric{{Name: "cycles", Value: float64(set.Cycles)}}
	b := set.Base
	r.Notes = []string{
		fmt.Sprintf("Setting: toporkov2014 (24 nodes, p ~ U[2,10], T = 600, 20 new jobs per cycle: the seed's, §2.1; owners' local load %g, the seed's medium load U ≈ 0.03; seed %d), %d independent cycles per run (the seed: 5000 independent cycles; parameter cycles). Table 1 and Table 2 use the VO strategy %s with the limit of eqs. (2), (4) (the seed names neither); Fig 3 and §3 minimize processor time (proctime) as the seed says.", b.LocalLoad, set.Seed, set.Cycles, set.Strategy),
		"Our choices for what the seed leaves open (see the package doc): jobs drawn from the KTH SP2 log (requested processors ≤ 24 as nodes, requested time with the log's longest request = one interval on the slowest node: mean 4.7 nodes, 12.5 time units on p = 6); price = performance × (1 + ε), ε ~ N(0, 0.15), in relative units; min performance U[2, 6]; budget = f × market cost, f ~ U[0.9, 1.6]; owners' local jobs of 20–100 time units as an alternating renewal process; times ⌈volume / performance⌉. The sensitivity of the results to these unknowns is the seed experiments sensitivity-* (see Claims).",
	}
	for _, e := range parts {
		e.Build(r)
	}
	if set.Claims != nil {
		set.Claims.sensitivity(storedSensitivity())
		set.Claims.conclusions()
		r.Tables = append([]report.Table{set.Claims.Table()}, r.Tables...)
	}
	return r
}

func runCfg(set ReproSetting, v, st string, k int) SimConfig {
	return SimConfig{Variant: v, Strategy: st, K: k, Cycles: set.Cycles, GanttCycle: 1, Independent: true}
}

func table1(set ReproSetting) (*ReproExperiment, error) {
	fair := &ReproRun{Name: "Table 1 fair", In: set.In, Cfg: runCfg(set, VariantFair, set.Strategy, 1)}
	css := &ReproRun{Name: "Table 1 css", In: set.In, Cfg: runCfg(set, VariantCSS, set.Strategy, 1)}
	return &ReproExperiment{Runs: []*ReproRun{fair, css}, Build: func(r *report.Report) {
		t1 := report.Table{Title: "Table 1", Columns: []string{"criterion", "n_alternatives", "paper_n_alternatives", "start", "paper_start", "runtime", "paper_runtime", "finish", "paper_finish", "cost", "paper_cost"}}
		row := func(name string, c *CritStats, pp [5]float64) []any {
			n := float64(c.Planned)
			return []any{name, div(float64(c.Alternatives), float64(c.Jobs)), pp[0], div(c.Start, n), pp[1], div(c.Runtime, n), pp[2], div(c.Finish, n), pp[3], div(c.Cost, n), pp[4]}
		}
		for _, c := range criteria {
			t1.Rows = append(t1.Rows, row(c, fair.Res.ByCrit[c], paperT1[c]))
		}
		t1.Rows = append(t1.Rows, row("css", &css.Res.All, paperT1["css"]))
		r.Tables = append(r.Tables, t1)
		// the paper's headline: each criterion's own value vs css, in %
		cmpNote := "Table 1, each criterion's own value against css (ours; the paper's in brackets):"
		for ci, c := range criteria {
			col := 3 + 2*ci // the criterion's own column: start, runtime, finish, cost
			ours := 100 * (t1.Rows[ci][col].(float64)/t1.Rows[4][col].(float64) - 1)
			paper := 100 * (t1.Rows[ci][col+1].(float64)/t1.Rows[4][col+1].(float64) - 1)
			cmpNote += fmt.Sprintf(" %s %+.0f %% (%+.0f %%);", c, ours, paper)
		}
		r.Notes = append(r.Notes, strings.TrimSuffix(cmpNote, ";")+".")
		set.Claims.table1(fair.Res, css.Res)
		a, b := fair.Res.All, css.Res.All
		r.Metrics = append(r.Metrics,
			report.Metric{Name: "fair_start", Value: div(a.Start, float64(a.Planned)), Unit: "time units", Better: report.Lower},
			report.Metric{Name: "css_start", Value: div(b.Start, float64(b.Planned)), Unit: "time units", Better: report.Lower},
			report.Metric{Name: "fair_cost", Value: div(a.Cost, float64(a.Planned)), Unit: "cost units", Better: report.Lower},
			report.Metric{Name: "css_cost", Value: div(b.Cost, float64(b.Planned)), Unit: "cost units", Better: report.Lower})
		r.Notes = append(r.Notes,
			"Published numbers: Table 1 and Table 2 as printed in §2.2 and §2.4 (Table 1's cost-criterion finish 318.1 is 262.6 + 55.5; Table 2's profit at c = 2, 527.1, is not 2 × 256.6 = 513.2 as the other rows' P = c × L are: we show it as printed). Fig. 3 prints no numbers: only its shape is comparable.",
			"Table 1: fair-share rows group the jobs of one fair (k = 1) run by their own criterion (uniform over the four, as in the seed); the css row is a css run on the same workload and cycles. Costs are in our relative units (1 per unit of work); the seed does not give its price unit, so compare the ratios (each criterion's row vs css), not the cost levels.",
			"N_A: alternatives are disjoint (found round after round, each taking its slots out), so N_A is bounded by the free node-time over a job's size; the seed's ≈ 12 per job with 20 jobs on 24 nodes needs smaller jobs or overlapping alternatives (the seed's §1.1 says both «не обязательно не пересекаются» and «непересекающихся»).")
	}}, nil
}

// table2Ratios are the prices Table 2 sets on its node, as multiples of
// the node's market price (the law's price for its performance, without
// the owner's markup). The seed's grid is c ∈ {2, 4, 6, 8, 10} in units
// it does not give; ours spans a quarter to twice the market price, so
// where the profit peaks is a result, not a consequence of the price unit.
var table2Ratios = []float64{0.25, 0.5, 0.75, 1, 1.25, 1.5, 1.75, 2}

// table2Node is the node Table 2 prices: the one of median performance
// (the seed's «отдельного вычислительного узла» is not specified).
func table2Node(in *Instance) int {
	idx := make([]int, len(in.Nodes))
	for i := range idx {
		idx[i] = i
	}
	slices.SortStableFunc(idx, func(a, b int) int { return cmp.Compare(in.Nodes[a].Perf, in.Nodes[b].Perf) })
	return idx[(len(idx)-1)/2]
}

func table2(set ReproSetting) (*ReproExperiment, error) {
	in := set.In
	owner := table2Node(in)
	market := set.Base.basePrice(in.Nodes[owner].Perf)
	var runs []*ReproRun
	for _, r := range table2Ratios {
		cp, _ := withOwnerPrice(in, round2(r*market))
		cfg := runCfg(set, VariantFair, set.Strategy, 1)
		cfg.TrackNode = owner + 1
		runs = append(runs, &ReproRun{Name: fmt.Sprintf("Table 2 price %g × market", r), In: cp, Cfg: cfg})
	}
	return &ReproExperiment{Runs: runs, Build: func(r *report.Report) {
		T := float64(in.Interval)
		t2 := report.Table{Title: "Table 2", Columns: []string{"price_ratio", "price", "load_time", "utilization", "profit", "failures"}}
		var st table2Cycles
		for i, ratio := range table2Ratios {
			res := runs[i].Res
			nc := float64(len(res.Cycles))
			o := ownerOf(runs[i].In, res, owner)
			c := runs[i].In.Nodes[owner].Price
			t2.Rows = append(t2.Rows, []any{ratio, c, o.load, o.load / T, o.profit, float64(res.Failures) / nc})
			var load, profit []float64
			for _, cy := range res.Cycles {
				load, profit = append(load, cy.Tracked), append(profit, c*cy.Tracked)
			}
			st.ratio = append(st.ratio, ratio)
			st.load = append(st.load, load)
			st.profit = append(st.profit, profit)
			st.fail = append(st.fail, failed(res))
		}
		pub := report.Table{Title: "Table 2 (paper)", Columns: []string{"price", "load_time", "utilization", "profit", "failures"}}
		for i, c := range paperT2Prices {
			pub.Rows = append(pub.Rows, []any{c, paperT2[i][0], paperT2[i][1], paperT2[i][2], paperT2[i][3]})
		}
		r.Tables = append(r.Tables, t2, pub)
		set.Claims.table2(st, T)
		on := in.Nodes[owner]
		r.Notes = append(r.Notes, fmt.Sprintf("Table 2: the owner's node is %s, the domain's node of median performance (%.2f; market price %.2f under the %s price law); in one fair (k = 1) run per price its price is set to price_ratio × the market price. load_time is the VO's processor time on it per cycle, utilization = load_time / T, profit = price × load_time per cycle, failures = the run's failure rate. The paper's table is shown apart: its prices are in units it does not give, so its rows cannot be paired with ours; its claims (load falls with the price, the profit peaks near the market price, failures rise) are compared in Claims.", on.ID, on.Perf, market, set.Base.PriceLaw))
	}}, nil
}

func fig3(set ReproSetting) (*ReproExperiment, error) {
	var runs []*ReproRun
	for _, l := range fig3Loads {
		g := set.Base
		g.LocalLoad = l.load
		li, err := Generate(g)
		if err != nil {
			return nil, err
		}
		for _, k := range fig3K {
			runs = append(runs, &ReproRun{Name: fmt.Sprintf("Fig 3 %s k=%d", l.name, k), In: li, Cfg: runCfg(set, VariantFair, StratProcTime, k)})
		}
	}
	return &ReproExperiment{Runs: runs, Build: func(r *report.Report) {
		fig := report.Plot{Title: "Fig 3", XLabel: "sub-batches k", YLabel: "processor time per job (time units)"}
		loads := report.Table{Title: "Fig 3 load levels", Columns: []string{"level", "local_load", "k", "failure_rate", "paper_failure_rate", "processor_time", "n_alternatives", "cost"}}
		i := 0
		for _, l := range fig3Loads {
			line := report.Line{Name: fmt.Sprintf("%s (local load %.2f)", l.name, l.load)}
			for _, k := range fig3K {
				res := runs[i].Res
				i++
				n := float64(res.All.Planned)
				pt := div(res.All.ProcTm, n)
				line.Points = append(line.Points, [2]float64{float64(k), pt})
				loads.Rows = append(loads.Rows, []any{l.name, l.load, k, float64(res.Failures) / float64(len(res.Cycles)), l.paper, pt, div(float64(res.All.Alternatives), float64(res.All.Jobs)), div(res.All.Cost, n)})
			}
			fig.Lines = append(fig.Lines, line)
		}
		r.Series = append(r.Series, fig)
		r.Tables = append(r.Tables, loads)
		shape := "Fig 3, measured: "
		for li, l := range fig.Lines {
			best := 0
			for k, pt := range l.Points {
				if pt[1] < l.Points[best][1] {
					best = k
				}
			}
			u1 := loads.Rows[li*len(fig3K)][3].(float64)
			uN := loads.Rows[(li+1)*len(fig3K)-1][3].(float64)
			shape += fmt.Sprintf("%s: least processor time at k = %d (%.1f vs %.1f at k = 1), U %.3g at k = 1 → %.3g at k = %d; ", fig3Loads[li].name, fig3K[best], l.Points[best][1], l.Points[0][1], u1, uN, fig3K[len(fig3K)-1])
		}
		r.Notes = append(r.Notes, shape+"the paper: more sub-batches help at low load, fewer at high load.")
		r.Notes = append(r.Notes, fmt.Sprintf("Fig 3: the seed sets its three load levels by the failure rate U (0.3, 0.03, < 0.0002); we set them by the owners' local load (%g, %g, %g, found by a scan at k = 1, BenchmarkLoadScan) and show the measured U per k in 'Fig 3 load levels'. Sub-batches are contiguous in priority order, sizes as equal as possible; each sub-batch's limit follows eqs. (2), (4) on its own alternatives.", fig3Loads[0].load, fig3Loads[1].load, fig3Loads[2].load))
		var lv [][]*Result
		for li := range fig3Loads {
			var ks []*Result
			for ki := range fig3K {
				ks = append(ks, runs[li*len(fig3K)+ki].Res)
			}
			lv = append(lv, ks)
		}
		set.Claims.fig3(lv)
	}}, nil
}
