package cyclic

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"schedlab/errs"
	"schedlab/solvers"
)

// Strategy is the cyclic family as a solvers.Strategy. It holds no state.
type Strategy struct{}

var _ solvers.Strategy = (*Strategy)(nil)

// New returns the cyclic strategy.
func New() *Strategy { return &Strategy{} }

// Info implements solvers.Strategy with the catalogue's entry.
func (s *Strategy) Info() solvers.Info {
	return solvers.FamilyInfo("cyclic")
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

// Variants implements solvers.Strategy; the first is the default.
func (s *Strategy) Variants() []solvers.Variant {
	return []solvers.Variant{
		{Name: VariantCSS, Doc: "Cyclic scheduling scheme (seed §1.1): round after round each job gets its next first-fit window (earliest start; the first m slots found, or the m cheapest if those exceed the job's max price), its slots taken out, until no job finds one more; then one alternative per job by dynamic programming under the VO strategy and its limit. Jobs with no alternative are carried to the next cycle. shift=on adds the shift heuristic (§1.4)."},
		{Name: VariantFair, Doc: "Fair-share model (seed §1.2): as css, but each window is AEP's best for the job's own criterion (start, runtime, finish or cost) and the batch is cut into k sub-batches planned one after the other on what is left (k = 1: css with AEP; k = n: each job alone). shift=on adds the shift heuristic."},
		{Name: VariantBackfill, Doc: "Backfilling on the same slot model (seed §1.1): the batch is a FCFS queue; at each event every job that has a window now starts (cheapest eligible nodes within its budget), the first depth waiting jobs hold reservations that later jobs may not overlap. depth 0: no reservations; 1: EASY (the queue head is protected); inf: conservative (every waiting job is). Jobs that find no window by the end of the interval are carried to the next cycle. The VO strategy, k and limit do not apply."},
		{Name: VariantCombined, Doc: "Combined method, batch slice filling (seed §3.2): the first css_share × N jobs by priority (queue order, most expensive, or most demanding) are planned by the fair-share model (AEP by each job's criterion, k sub-batches, DP choice under the VO strategy, shift), the rest are backfilled (depth) into what is left."},
		{Name: VariantBatch, Doc: "Classic batch simulation of an uploaded SWF trace (Parallel Workloads Archive) on a homogeneous machine of P processors, policy fcfs, easy or conservative; standard metrics (wait, bounded slowdown, utilization, makespan), a windowed Gantt on concrete processors, processors in use, and the per-job table in Batsim's columns (download it as CSV). Runs only on an SWF workload."},
	}
}

// Params implements solvers.Strategy: the run parameters.
func (s *Strategy) Params() []solvers.ParamSpec {
	return append([]solvers.ParamSpec{
		solvers.IntSpec("cycles", "1000", "cycles",
			"Planning cycles. Cycle 1 is the workload's; later cycles draw a fresh owners' load and a fresh batch from the workload's generator (or repeat cycle 1 without one); jobs with no alternative are carried over. Default 1000 (≈ 1–2 s); the seed averages 5000.", 1, 100_000),
		solvers.ChoiceSpec("strategy", StratRuntime,
			"VO strategy of the DP choice (seed eqs. 10–13). income: max owners' income s.t. Σ processor time ≤ T*. runtime: min Σ runtime s.t. Σ cost ≤ B*. proctime: min Σ processor time s.t. Σ cost ≤ B* (eq. 11 on processor time, the criterion of the seed's Fig. 3). cost: min Σ cost s.t. Σ processor time ≤ T*. idle: max Σ processor time s.t. Σ processor time ≤ T* (least idle time). Default runtime.",
			Strategies...),
		solvers.IntSpec("k", "1", "sub-batches",
			"Sub-batches the fair variant cuts the batch into, in priority order, sizes as equal as possible (seed §1.2, k ∈ {1,2,3,5,6,10,20} in Fig. 3). k ≥ the batch size plans each job alone. css ignores k (always 1). Default 1.", 1, 1000),
		solvers.ChoiceSpec("shift", "off",
			"Shift heuristic (seed §1.4): after the choice, windows in order of start time move to the earliest start at which all their nodes are free, keeping nodes, cost and runtime. on: the report shows the Gantt before and after. Default off.",
			"off", "on"),
		solvers.FloatSpec("limit", "0", "",
			"Limit g* of the DP choice per batch: T* (time units of processor time) for income, cost and idle; B* (cost units) for runtime and proctime. 0: the seed's eqs. (2), (4): Σ over jobs of ⌊mean over its alternatives⌋, recomputed every cycle and sub-batch. A fixed limit is split over sub-batches by their share of jobs. If no combination fits, the limit is raised to Σ of each job's least value (counted in the report).", 0, 1e12),
		solvers.ChoiceSpec("depth", "1",
			"backfill: reservations kept per pass, in queue order. 0: none (greedy: a small job may overtake the head for ever); 1: the queue head (EASY, aggressive backfilling); inf: every waiting job (conservative: no job starts later than it was promised). Default 1.",
			"0", "1", "inf"),
		solvers.FloatSpec("css_share", "0.5", "share",
			"combined: the share N_css / N of each cycle's batch planned by the fair-share model; the rest is backfilled. 0 is pure backfilling, 1 pure fair-share (the seed's Fig. 4 varies it). Default 0.5.", 0, 1),
		solvers.ChoiceSpec("priority", PriorityQueue,
			"combined: which jobs the fair-share model plans. queue: the first in batch order; expensive: the highest budgets; demanding: the largest nodes × volume. Default queue.",
			PriorityQueue, PriorityExpensive, PriorityDemanding),
		solvers.ChoiceSpec("early", "off",
			"Early completion (seed §3.1): on: every job actually runs U[early_min, 1] of its reserved time (drawn from the workload's seed and the job's id, the same draw for every method). backfill re-plans at each actual completion; css and fair keep their planned starts. The report shows planned and actual start and runtime. Default off.",
			"off", "on"),
		solvers.FloatSpec("early_min", "0.2", "share",
			"Lower bound of the early-completion fraction U[early_min, 1] of the reserved time. Default 0.2, the seed's.", 0.01, 1),
		solvers.IntSpec("gantt_cycle", "1", "cycle",
			"The cycle whose plan is drawn as a Gantt (nodes as lanes, local jobs grey, chosen windows by job, unchosen alternatives outlined; with shift, before and after). Must be ≤ cycles. Default 1.", 1, 100_000),
	}, traceParams()...)
}

// presetParams are the toporkov2014 generator's parameters.
func presetParams() []solvers.ParamSpec {
	d := Toporkov2014()
	return []solvers.ParamSpec{
		solvers.IntSpec("nodes", fmt.Sprint(d.Nodes), "nodes", "Nodes in the resource domain. Default 24, the seed's.", 1, MaxNodes),
		solvers.FloatSpec("perf_min", fmt.Sprint(d.PerfMin), "", "Lowest node performance: p ~ U[perf_min, perf_max]. Default 2, the seed's.", 0.01, 1e6),
		solvers.FloatSpec("perf_max", fmt.Sprint(d.PerfMax), "", "Highest node performance. Default 10, the seed's.", 0.01, 1e6),
		solvers.IntSpec("interval", fmt.Sprint(d.Interval), "time units", "Planning interval T of a cycle. Default 600, the seed's.", 1, MaxInterval),
		solvers.IntSpec("jobs", fmt.Sprint(d.Jobs), "jobs", "New jobs per cycle. Default 20, the seed's.", 1, MaxJobs),
		solvers.FloatSpec("local_load", fmt.Sprint(d.LocalLoad), "share", "Owners' local load: expected share of each node's interval taken by local jobs of 20–100 time units (ours; the seed sets load levels by the failure rate). Default 0.3.", 0, 0.95),
	}
}

// Presets implements solvers.Strategy.
func (s *Strategy) Presets() []solvers.Preset {
	return []solvers.Preset{{
		Name: PresetToporkov2014,
		Doc: "The seed's setting (§2.1): 24 nodes, performance U[2,10], price = performance × (1 + ε), ε ~ N(0, 0.15) (discount/markup), owners' local jobs, T = 600, 20 jobs per cycle of 1–4 nodes, volume U[100,400], " +
			"min performance U[2,6], max price = f × market cost of the job's work with f ~ U[0.9, 1.6] (richest: market + 60 %), criterion uniform over start, runtime, finish, cost. Later cycles are drawn from the same law (the generator is stored in the workload).",
		Params: presetParams(),
	}}
}

// Generate implements solvers.Strategy.
func (s *Strategy) Generate(ctx context.Context, preset string, params solvers.Params, seed int64) (*solvers.Workload, error) {
	w, err := s.generate(ctx, preset, params, seed)
	return w, errs.Wrap("cyclic.Generate", errs.Internal, err)
}

func (s *Strategy) generate(ctx context.Context, preset string, params solvers.Params, seed int64) (*solvers.Workload, error) {
	p, err := solvers.PresetParams(s.Presets(), preset, params)
	if err != nil {
		return nil, err
	}
	g := Toporkov2014()
	g.Seed = seed
	g.Nodes, g.PerfMin, g.PerfMax = p.Int("nodes"), p.Float("perf_min"), p.Float("perf_max")
	g.Interval, g.Jobs, g.LocalLoad = p.Int("interval"), p.Int("jobs"), p.Float("local_load")
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
	name := fmt.Sprintf("%s %d nodes, %d jobs, load %.2f (seed %d)", preset, g.Nodes, g.Jobs, g.LocalLoad, seed)
	return newWorkload(in, name, "preset")
}

// ParseWorkload implements solvers.Strategy: one native JSON file (field
// "file") or one SWF trace (field "swf", or a .swf/.swf.gz name).
func (s *Strategy) ParseWorkload(ctx context.Context, files []solvers.File) (*solvers.Workload, error) {
	w, err := parseWorkload(ctx, files)
	return w, errs.Wrap("cyclic.ParseWorkload", errs.Internal, err)
}

func parseWorkload(ctx context.Context, files []solvers.File) (*solvers.Workload, error) {
	if len(files) != 1 {
		return nil, errs.Invalidf("file", "want one file (native JSON or an SWF trace), got %d files", len(files))
	}
	f := files[0]
	if isSWFFile(f) {
		return traceWorkload(ctx, f)
	}
	if f.Field != "" && f.Field != "file" {
		return nil, errs.Invalidf(f.Field, "unknown upload field (known: file, swf)")
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

// configOf resolves a run's parameters.
func configOf(variant string, p solvers.Params) (Config, error) {
	cfg := Config{Variant: variant, Strategy: p.String("strategy"), K: p.Int("k"), Shift: p.String("shift") == "on",
		Limit: p.Float("limit"), Cycles: p.Int("cycles"), GanttCycle: p.Int("gantt_cycle")}
	cfg.Share, cfg.Priority = p.Float("css_share"), p.String("priority")
	if p.String("early") == "on" {
		cfg.EarlyMin = p.Float("early_min")
	}
	switch p.String("depth") {
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

// Run implements solvers.Strategy.
func (s *Strategy) Run(ctx context.Context, w *solvers.Workload, variant string, params solvers.Params, progress solvers.Progress) (*solvers.Report, error) {
	r, err := s.run(ctx, w, variant, params, progress)
	if ctx.Err() != nil && errors.Is(err, ctx.Err()) {
		return nil, err
	}
	return r, errs.Wrap("cyclic.Run", errs.Internal, err)
}

func (s *Strategy) run(ctx context.Context, w *solvers.Workload, variant string, params solvers.Params, progress solvers.Progress) (*solvers.Report, error) {
	variant, err := solvers.ResolveVariant(s, variant)
	if err != nil {
		return nil, err
	}
	if progress == nil {
		progress = solvers.NoProgress
	}
	p, err := solvers.Resolve(s.Params(), params)
	if err != nil {
		return nil, err
	}
	if variant == VariantBatch {
		return runBatch(ctx, w, p, progress)
	}
	if err := s.VariantFits(w.Format, variant); err != nil {
		return nil, err
	}
	cfg, err := configOf(variant, p)
	if err != nil && !(w.Format == FormatSWF && errs.FieldOf(err) == "gantt_cycle") {
		return nil, err
	}
	if w.Format == FormatSWF {
		return runTraceCycles(ctx, w, cfg, p, progress)
	}
	in, err := loadWorkload(w)
	if err != nil {
		return nil, err
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
	return runReport(in, cfg, res, wall), nil
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
func runBytes(in *Instance, cfg Config) int64 {
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
func RunConfig(ctx context.Context, in *Instance, cfg Config, progress func(done, total int, note string)) (*Result, error) {
	if progress == nil {
		progress = solvers.NoProgress
	}
	if cfg.Variant == VariantBackfill || cfg.Variant == VariantCombined {
		bp := &BackfillPlanner{Depth: cfg.Depth}
		if cfg.EarlyMin > 0 {
			bp.Early = cfg.earlyLaw()
		}
		if cfg.Variant == VariantBackfill {
			return Simulate(ctx, in, cfg, bp, nil, progress)
		}
		fair := cfg
		fair.Variant = VariantFair
		cp := &CombinedPlanner{Fair: NewBatchPlanner(fair, nil), Backfill: bp, Share: cfg.Share, Priority: cfg.Priority}
		return Simulate(ctx, in, cfg, cp, nil, progress)
	}
	var before []Window
	pl := NewBatchPlanner(cfg, &before)
	return Simulate(ctx, in, cfg, pl, &before, progress)
}
