package cyclic

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"schedlab/errs"
	"schedlab/report"
	"schedlab/solvers"
	"schedlab/solvers/batsim"
)

// New returns the cyclic strategy. It holds no state: all of a run lives in
// the call, so one value serves concurrent runs.
func New() *solvers.Strategy { return family(nil).Strategy() }

// WithSchedulers is the cyclic family with every registered decision
// process as a variant "external:NAME" of the batch simulation (package
// batsim): the operator's registrations, never a request's.
func WithSchedulers(scheds []batsim.Scheduler) *solvers.Strategy { return family(scheds).Strategy() }

// family is the cyclic family's parts (solvers.Def), with the registered
// decision processes as external variants.
func family(scheds []batsim.Scheduler) *solvers.Def[Config, *Config] {
	table := append(variants(), externalVariants(scheds)...)
	return &solvers.Def[Config, *Config]{
		Name:        "cyclic",
		Info:        solvers.Info{Title: "Cyclic scheduling, fair-share, backfilling", Summary: "Batches of parallel jobs onto priced, non-dedicated slots: alternatives, DP choice, shift, backfilling.", Paper: "Toporkov, Bobchenkov, Emelyanov, Tselishchev, scheduling methods and heuristics with non-dedicated resources (2014)", Seed: "003_1e1f6712bcbc01cc.txt"},
		VariantList: solvers.VariantsOf(table),
		Config: func() Config {
			c := DefaultConfig()
			for _, s := range scheds {
				c.external = append(c.external, s.Variant())
			}
			return c
		},
		Run: func(ctx context.Context, w *solvers.Workload, variant string, c Config, progress solvers.Progress) (*report.Report, error) {
			return solvers.LookupVariant(table, variant).run(ctx, w, variant, c, progress) // the adapter resolved it
		},
		Parse: parseWorkload,
		PresetList: []solvers.PresetDef{solvers.NewPreset(PresetToporkov2014,
			"The seed's setting (§2.1): 24 nodes, performance U[2,10], price = performance × (1 + ε), ε ~ N(0, 0.15) (discount/markup), owners' local jobs, T = 600, 20 jobs per cycle of 1–4 nodes, volume U[100,400], "+
				"min performance U[2,6], max price = f × market cost of the job's work with f ~ U[0.9, 1.6] (richest: market + 60 %), criterion uniform over start, runtime, finish, cost. Later cycles are drawn from the same law (the generator is stored in the workload).",
			Toporkov2014, generate, generateSize)},
		Repro:      solvers.NewReproduce(DefaultReproConfig, reproduce),
		UploadList: uploads(),
		Fits: func(format, variant string) error {
			if v := solvers.LookupVariant(table, variant); v.fits != nil {
				return v.fits(format, variant)
			}
			return nil
		},
		Prefers: func(format string) string {
			if format == FormatSWF {
				return VariantBatch // what a trace is uploaded for; css, fair … cut it into cycles
			}
			return ""
		},
		FileRuns: runsFile,
		FileRun:  runFile,
		Seeds:    seedExperiments,
		Mutate:   mutate,
	}
}

// Variant names (a public contract).
const (
	VariantCSS  = "css"
	VariantFair = "fair"
	// VariantBackfill is FCFS backfilling on the slot model (backfill.go).
	VariantBackfill = "backfill"
)

// PresetToporkov2014 is the seed's generator (a public contract).
const PresetToporkov2014 = "toporkov2014"

// variant is a row of the family's variant table: the public variant,
// how it runs and what it is, which says what its metrics and parameters
// mean.
type variant struct {
	solvers.Variant
	run func(ctx context.Context, w *solvers.Workload, variant string, c Config, progress solvers.Progress) (*report.Report, error)
	// fits says why a workload of format does not suit it (nil: every
	// workload does; Strategy.VariantFits).
	fits func(format, variant string) error
	// plan is a slot variant's planner and where it leaves the windows
	// before the shift (nil: a trace simulation, batch or external).
	plan func(cfg SimConfig) (Planner, *[]Window)
	// wholeBatch: the batch is planned at once (css: k is 1); aep: each
	// window is AEP's best for the job's own criterion (fair);
	// alternatives: jobs get alternatives, one chosen by DP (css, fair,
	// combined); backfills: jobs are backfilled (backfill, combined);
	// streams: runs straight from an SWF file (Strategy.RunFile).
	wholeBatch, aep, alternatives, backfills, streams bool
}

// variantOf is the row of a variant of the package (the zero row else).
func variantOf(name string) variant { return solvers.LookupVariant(variants(), name) }

// variantNames names the package's variants for which keep holds.
func variantNames(keep func(variant) bool) []string { return solvers.VariantNames(variants(), keep) }

// variants is the family's variant table; the first is the default. A
// function, not a variable: its rows' planners look rows up.
func variants() []variant {
	return []variant{
		{Variant: solvers.Variant{Name: VariantCSS, Doc: "Cyclic scheduling scheme (seed §1.1): round after round each job gets its next first-fit window (earliest start; the first m slots found, or the m cheapest if those exceed the job's max price), its slots taken out, until no job finds one more; then one alternative per job by dynamic programming under the VO strategy and its limit. Jobs with no alternative are carried to the next cycle. shift=true adds the shift heuristic (§1.4)."}, run: run, plan: batchPlanner, wholeBatch: true, alternatives: true},
		{Variant: solvers.Variant{Name: VariantFair, Doc: "Fair-share model (seed §1.2): as css, but each window is AEP's best for the job's own criterion (start, runtime, finish or cost) and the batch is cut into k sub-batches planned one after the other on what is left (k = 1: css with AEP; k = n: each job alone). shift=true adds the shift heuristic."}, run: run, plan: batchPlanner, aep: true, alternatives: true},
		{Variant: solvers.Variant{Name: VariantBackfill, Doc: "Backfilling on the same slot model (seed §1.1): the batch is a FCFS queue; at each event every job that has a window now starts (cheapest eligible nodes within its budget), the first depth waiting jobs hold reservations that later jobs may not overlap. depth 0: no reservations; 1: EASY (the queue head is protected); inf: conservative (every waiting job is). Jobs that find no window by the end of the interval are carried to the next cycle. The VO strategy, k and limit do not apply."}, run: run, plan: backfillPlanner, backfills: true},
		{Variant: solvers.Variant{Name: VariantCombined, Doc: "Combined method, batch slice filling (seed §3.2): the first css_share × N jobs by priority (queue order, most expensive, or most demanding) are planned by the fair-share model (AEP by each job's criterion, k sub-batches, DP choice under the VO strategy, shift), the rest are backfilled (depth) into what is left."}, run: run, plan: combinedPlanner, alternatives: true, backfills: true},
		{Variant: solvers.Variant{Name: VariantBatch, Doc: "Classic batch simulation of an uploaded SWF trace (Parallel Workloads Archive) on a homogeneous machine of P processors, policy fcfs, easy or conservative; standard metrics (wait, bounded slowdown, utilization, makespan), a windowed Gantt on concrete processors, processors in use, and the per-job table in Batsim's columns (download it as CSV). Runs only on an SWF workload."}, run: runBatch, fits: batchFits, streams: true},
	}
}

// generate draws a toporkov2014 workload from g with the run's seed.
func generate(ctx context.Context, g GenConfig, seed int64) (*solvers.Workload, error) {
	g.Seed = seed
	if g.PerfMax < g.PerfMin {
		return nil, errs.Invalidf("perf_max", "must be ≥ perf_min (%v), got %v", g.PerfMin, g.PerfMax)
	}
	if err := solvers.Reserve(ctx, "nodes", instanceBytes(g, g.Nodes, g.Jobs), "the domain's owners' load and the batch"); err != nil {
		return nil, err
	}
	in, err := Generate(g)
	if err != nil {
		return nil, err
	}
	name := fmt.Sprintf("%s %d nodes, %d jobs, load %.2f (seed %d)", PresetToporkov2014, g.Nodes, g.Jobs, g.LocalLoad, seed)
	return newWorkload(in, name, "preset")
}

// parseWorkload reads one native JSON file (field "file") or one SWF trace
// (field "swf", or a .swf/.swf.gz name).
func parseWorkload(ctx context.Context, files []solvers.File) (*solvers.Workload, error) {
	if w, ok, err := batsimUpload(ctx, files); ok {
		return w, err
	}
	if len(files) != 1 {
		return nil, errs.Invalidf("file", "want one file (native JSON, an SWF trace, or a Batsim workload with its platform), got %d files", len(files))
	}
	f := files[0]
	if isSWFFile(f) {
		return traceWorkload(ctx, f)
	}
	if f.Field != "" && f.Field != "file" {
		return nil, errs.Invalidf(f.Field, "unknown upload field (known: file, swf, batsim, platform)")
	}
	in, err := ParseJSON(f.Data)
	if err != nil {
		return nil, errs.InFile(err, f.Name)
	}
	name := strings.TrimSuffix(f.Name, ".json")
	if name == "" {
		name = "upload"
	}
	return newWorkload(in, name, "json")
}

func newWorkload(in *Instance, name, format string) (*solvers.Workload, error) {
	data, err := in.MarshalJSON()
	if err != nil {
		return nil, err
	}
	return &solvers.Workload{Name: name, Format: format, Summary: summary(in), Data: data, Preview: preview(in)}, nil
}

func summary(in *Instance) string {
	gen := "cycles repeat cycle 1"
	if in.Generator != nil {
		gen = "later cycles drawn by the generator"
	}
	return fmt.Sprintf("%d nodes, %d jobs, interval %d (%s)", len(in.Nodes), len(in.Jobs), in.Interval, gen)
}

func loadWorkload(w *solvers.Workload) (*Instance, error) {
	if w == nil || len(w.Data) == 0 {
		return nil, errs.Invalidf("workload", "no workload data")
	}
	return ParseJSON(w.Data)
}

func configOf(variant string, c Config) (SimConfig, error) {
	cfg := SimConfig{Variant: variant, Strategy: c.Strategy, K: c.K, Shift: c.Shift,
		Limit: c.Limit, Cycles: c.Cycles, GanttCycle: c.GanttCycle}
	cfg.Share, cfg.Priority = c.CSSShare, c.Priority
	cfg.Independent = !c.Carry
	if c.Early {
		cfg.EarlyMin = c.EarlyMin
	}
	switch c.Depth {
	case "inf":
		cfg.Depth = DepthInf
	case "0":
		cfg.Depth = 0
	default:
		cfg.Depth = 1
	}
	if cfg.GanttCycle > cfg.Cycles {
		return cfg, errs.Invalidf("gantt_cycle", "must be ≤ cycles (%d), got %d", cfg.Cycles, cfg.GanttCycle)
	}
	return cfg, nil
}

// run runs a slot variant with c on a slot domain or on a trace cut into
// cycles.
func run(ctx context.Context, w *solvers.Workload, variant string, c Config, progress solvers.Progress) (*report.Report, error) {
	cfg, err := configOf(variant, c)
	if err != nil && !(w.Format == FormatSWF && errs.FieldOf(err) == "gantt_cycle") {
		return nil, err
	}
	if w.Format == FormatSWF {
		if c.OwnerPrice > 0 {
			return nil, errs.Invalidf("owner_price", "applies to a slot workload (toporkov2014 or the native JSON), not a trace")
		}
		return runTraceCycles(ctx, w, cfg, c, progress)
	}
	in, err := loadWorkload(w)
	if err != nil {
		return nil, err
	}
	owner := -1
	if c.OwnerPrice > 0 {
		in, owner = withOwnerPrice(in, c.OwnerPrice)
	}
	cfg.Seed = 1
	if in.Generator != nil {
		cfg.Seed = in.Generator.Seed
	}
	if err := solvers.Reserve(ctx, "cycles", runBytes(in, cfg), fmt.Sprintf("%d cycles on %d nodes with %d jobs", cfg.Cycles, len(in.Nodes), len(in.Jobs))); err != nil {
		return nil, err
	}
	start := time.Now()
	res, err := RunConfig(ctx, in, cfg, progress)
	if err != nil {
		return nil, err
	}
	wall := float64(time.Since(start).Microseconds()) / 1000
	rep := runReport(in, cfg, res, wall)
	if owner >= 0 {
		o := ownerOf(in, res, owner)
		rep.Metrics = append(rep.Metrics,
			report.Metric{Name: "owner_price", Value: in.Nodes[owner].Price, Unit: "cost units"},
			report.Metric{Name: "owner_load_time", Value: o.load, Unit: "time units per cycle", Better: report.Higher},
			report.Metric{Name: "owner_utilization", Value: o.load / float64(in.Interval), Unit: "share", Better: report.Higher},
			report.Metric{Name: "owner_profit", Value: o.profit, Unit: "cost units per cycle", Better: report.Higher})
		if in.Generator != nil {
			rep.Metrics = append(rep.Metrics, report.Metric{Name: "owner_market_price", Value: in.Generator.basePrice(in.Nodes[owner].Perf), Unit: "cost units"})
		}
		rep.Notes = append(rep.Notes, fmt.Sprintf("Table 2 (owner_price): the owner's node is %s, the node of median performance (%.2f), priced %g per time unit in every cycle; owner_load_time is the VO's processor time on it per cycle, owner_profit its price × that time.", in.Nodes[owner].ID, in.Nodes[owner].Perf, in.Nodes[owner].Price))
	}
	return rep, nil
}

// withOwnerPrice is in with Table 2's owner's node (table2Node: median
// performance) priced at price; in is not changed.
func withOwnerPrice(in *Instance, price float64) (*Instance, int) {
	owner := table2Node(in)
	cp := *in
	cp.Nodes = slices.Clone(in.Nodes)
	cp.Nodes[owner].Price = price
	return &cp, owner
}

// ownerStats are Table 2's numbers of one node: per cycle, the VO's
// processor time on it and its income.
type ownerStats struct{ load, profit float64 }

func ownerOf(in *Instance, res *Result, owner int) ownerStats {
	nc := float64(len(res.Cycles))
	return ownerStats{div(res.NodeLoad[owner], nc), div(res.NodeIncom[owner], nc)}
}

// instanceBytes estimates one cycle's domain drawn by g (or held by a
// workload) on nodes nodes with jobs jobs: each node's owners' busy
// intervals (about interval·local_load / mean local job, plus one) as
// slices and JSON, and the jobs.
func instanceBytes(g GenConfig, nodes, jobs int) int64 {
	busy := 1.0
	if mean := float64(g.LocalMin+g.LocalMax) / 2; mean > 0 {
		busy += float64(g.Interval) * g.LocalLoad / mean
	}
	return solvers.SatAdd(solvers.SatMul(int64(nodes), int64(min(busy, 1e12)), 64), solvers.SatMul(int64(jobs), 256))
}

// runBytes estimates a slot-model run: a cycle's domain, its slots split by
// the jobs' windows (nodes × (busy + 2·jobs + 1)), the alternatives (at
// most one window a node per job per round: jobs × nodes), and the per-cycle
// statistics kept for the report.
func runBytes(in *Instance, cfg SimConfig) int64 {
	busy := 0
	for _, n := range in.Nodes {
		busy += len(n.Busy)
	}
	if in.Generator != nil {
		busy = max(busy, int(min(float64(instanceBytes(*in.Generator, len(in.Nodes), 0))/64, 1e15)))
	}
	N, J := int64(len(in.Nodes)), int64(len(in.Jobs))
	return solvers.SatAdd(
		solvers.SatMul(int64(busy), 64),
		solvers.SatMul(N, 2*J+1, 64),
		solvers.SatMul(J, N, 96),
		solvers.SatMul(int64(cfg.Cycles), 512))
}

// RunConfig simulates cfg on in with the CSS/fair planner, or the
// backfilling one.
func RunConfig(ctx context.Context, in *Instance, cfg SimConfig, progress func(done, total int, note string)) (*Result, error) {
	if progress == nil {
		progress = solvers.NoProgress
	}
	pl, before := plannerOf(cfg)
	return Simulate(ctx, in, cfg, pl, before, progress)
}

// plannerOf is cfg's planner and, for css and fair, where it leaves the
// windows before the shift (Simulate's before).
func plannerOf(cfg SimConfig) (Planner, *[]Window) {
	if plan := variantOf(cfg.Variant).plan; plan != nil {
		return plan(cfg)
	}
	return batchPlanner(cfg)
}

func batchPlanner(cfg SimConfig) (Planner, *[]Window) {
	var before []Window
	return NewBatchPlanner(cfg, &before), &before
}

func backfillPlanner(cfg SimConfig) (Planner, *[]Window) { return newBackfill(cfg), nil }

func newBackfill(cfg SimConfig) *BackfillPlanner {
	bp := &BackfillPlanner{Depth: cfg.Depth}
	if cfg.EarlyMin > 0 {
		bp.Early = cfg.earlyLaw()
	}
	return bp
}

// combinedPlanner is combined's: fair plans a slice, backfill the rest.
func combinedPlanner(cfg SimConfig) (Planner, *[]Window) {
	fair := cfg
	fair.Variant = VariantFair
	return &CombinedPlanner{Fair: NewBatchPlanner(fair, nil), Backfill: newBackfill(cfg), Share: cfg.Share, Priority: cfg.Priority}, nil
}
