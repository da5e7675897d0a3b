package dcop

import (
	"context"
	"fmt"
	"math/rand"
	"slices"
	"strings"
	"time"

	"schedlab/errs"
	"schedlab/report"
	"schedlab/solvers"
)

// New returns the DCOP strategy. It holds no state: all of a run lives in
// the call, so one value serves concurrent runs.
func New() *solvers.Strategy { return family().Strategy() }

// family is the DCOP family's parts (solvers.Def).
func family() *solvers.Def[Config, *Config] {
	return &solvers.Def[Config, *Config]{
		Name:        "dcop",
		Info:        solvers.Info{Title: "DCOP co-allocation", Summary: "Jobs that need several clusters at once on a time grid: DPOP on a pseudo-tree with back-edge deletion and problem splitting.", Paper: "Namekata, Matsui et al., co-allocation scheduling using distributed constraint optimization (2008)", Seed: "000_bc3ba4e6fc26b50c.txt"},
		VariantList: solvers.VariantsOf(variants),
		Config:      DefaultConfig,
		Run:         run,
		Parse:       func(_ context.Context, files []solvers.File) (*solvers.Workload, error) { return parseWorkload(files) },
		PresetList: []solvers.PresetDef{solvers.NewPreset(PresetNamekata2008,
			"The seed's experiment (Section 4.1): jobs that each need per_job distinct resources drawn uniformly, durations uniform in dur_min..dur_max, value 1, slots 1..horizon; instances are redrawn until the constraint graph is one connected component (the seed's only stated filter; greedy_fit adds the former fit-in-the-horizon filter).",
			DefaultNamekata2008, generate, generateSize)},
		Repro:      solvers.NewReproduce(DefaultReproConfig, reproduce),
		ExportList: exports(),
		Seeds:      seedExperiments,
		Mutate:     mutate,
		Export:     exportData,
	}
}

// Variant names (a public contract).
const (
	VariantDPOP  = "dpop"
	VariantWD    = "dpop-wd"
	VariantSplit = "dpop-split"
	// VariantSplitWD (ours) is the split with WD inside each half wider
	// than width_limit.
	VariantSplitWD = "dpop-split-wd"
	VariantExact   = "exact"
)

// PresetNamekata2008 is the seed's generator (a public contract).
const PresetNamekata2008 = "namekata2008"

// variant is a row of the family's variant table: the public variant,
// how it solves, and what it is, which says what its metrics mean.
type variant struct {
	solvers.Variant
	solve func(o *outcome, ctx context.Context, in *Instance, v variant, cfg runConfig, opt Options) error
	// wd: back edges are deleted (wd_rule, width_limit); split: the
	// problem is cut in two halves; distributed: DPOP runs, sending
	// messages (exact is a centralized search); optimal: the schedule is
	// optimal by construction (full DPOP).
	wd, split, distributed, optimal bool
}

// variants is the family's variant table; the first is the default.
var variants = []variant{
	{Variant: solvers.Variant{Name: VariantDPOP, Doc: "Full DPOP (Petcu & Faltings 2005) on the pseudo-tree of the heuristic parameter (default the max-degree DFS tree): UTIL hypercubes over each node's separator from the leaves up, then the VALUE phase down. Optimal, but a UTIL message has Π|D| entries over the separator: on the seed's setting (max-degree widths 4–8 at 20 jobs, 11–18 at 30) it soon exceeds the memory budget and the run fails fast with the node, its separator and the size."}, solve: (*outcome).solveDPOP, distributed: true, optimal: true},
	{Variant: solvers.Variant{Name: VariantWD, Doc: "The seed's Algorithm 1: delete back edges between the node with the largest separator and an ancestor other than its parent, restricting both jobs' domains (wd_rule) so the deleted pair can never overlap, until the width is ≤ width_limit; then DPOP on the reduced tree. Not optimal: the restriction can cut off the optimum."}, solve: (*outcome).solveDPOP, wd: true, distributed: true},
	{Variant: solvers.Variant{Name: VariantSplit, Doc: "The seed's problem split (Section 3.2): DPOP on the first ⌈k/2⌉ jobs, then each later job loses the starts that would overlap an earlier job it shares a resource with, and DPOP runs on the rest. Cycles, messages and bytes are summed over both halves."}, solve: (*outcome).solveSplit, split: true, distributed: true},
	{Variant: solvers.Variant{Name: VariantSplitWD, Doc: "Ours, not the seed's: the problem split with back-edge deletion (wd_rule, width_limit) inside each half whose pseudo-tree is wider than width_limit, so halves too wide for plain DPOP are solved. back_edges_deleted counts the deletions in both halves."}, solve: (*outcome).solveSplit, wd: true, split: true, distributed: true},
	{Variant: solvers.Variant{Name: VariantExact, Reference: true, Doc: "Centralized depth-first branch and bound on the makespan (greedy list schedule as first incumbent), stopped at time_limit_s; proven optimal when it meets the lower bound (the busiest resource's total work or the longest job) or exhausts the search. Makespan objective only."}, solve: (*outcome).solveExact},
}

// generate draws a namekata2008 instance.
func generate(ctx context.Context, cfg GenConfig, seed int64) (*solvers.Workload, error) {
	if err := solvers.Reserve(ctx, "jobs", generateBytes(cfg), fmt.Sprintf("an instance of %d jobs on %d resources", cfg.Jobs, cfg.Resources)); err != nil {
		return nil, err
	}
	in, err := GenerateContext(ctx, cfg, rand.New(rand.NewSource(seed)))
	if err != nil {
		return nil, err
	}
	name := fmt.Sprintf("%s %d jobs, %d resources (seed %d)", PresetNamekata2008, cfg.Jobs, cfg.Resources, seed)
	return newWorkload(in, name, "preset")
}

func parseWorkload(files []solvers.File) (*solvers.Workload, error) {
	if len(files) != 1 {
		return nil, errs.Invalidf("file", "want one native JSON file, got %d files", len(files))
	}
	f := files[0]
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
	return fmt.Sprintf("%d jobs, %d resources, horizon %d", len(in.Jobs), len(in.Resources), in.Horizon)
}

func loadWorkload(w *solvers.Workload) (*Instance, error) {
	if w == nil || len(w.Data) == 0 {
		return nil, errs.Invalidf("workload", "no workload data")
	}
	return ParseJSON(w.Data)
}

// runConfig is a run's config with its budgets resolved.
type runConfig struct {
	Config
	memory    int64         // UTIL budget, B: memory_mb, never above the server's
	timeLimit time.Duration // time_limit_s
}

func run(ctx context.Context, w *solvers.Workload, name string, c Config, progress solvers.Progress) (*report.Report, error) {
	cfg := runConfig{Config: c, timeLimit: c.timeLimit()}
	cfg.memory = solvers.MemoryBudget(ctx, c.memoryBytes()) // memory_mb lowers the server's budget, never raises it
	v := solvers.LookupVariant(variants, name)
	if !v.distributed && cfg.Objective != ObjectiveMakespan {
		return nil, errs.Invalidf("objective", "the exact variant minimizes the makespan only, got %q", cfg.Objective)
	}
	in, err := loadWorkload(w)
	if err != nil {
		return nil, err
	}
	out, err := solveVariant(ctx, in, v, cfg, progress)
	if err != nil {
		return nil, err
	}
	return runReport(in, v, cfg, out), nil
}

// outcome is what one variant produced, with the full problem's tree for
// the "before" sizes and the exact optimum for accuracy.
type outcome struct {
	sched      Schedule
	full       *PseudoTree // the heuristic's tree of the whole constraint graph
	fullDom    [][]int
	tree       *PseudoTree // the tree DPOP ran on (whole instance, WD-reduced) or nil (split, exact)
	dom        [][]int     // its domains
	deleted    [][2]int
	split      *SplitResult
	stats      Stats
	exact      ExactResult
	exactRan   bool
	wallMS     float64
	widthAfter int
	maxAfter   float64 // largest UTIL entries of the run
	// deletedInHalves counts dpop-split-wd's back-edge deletions.
	deletedInHalves int
}

func solveVariant(ctx context.Context, in *Instance, v variant, cfg runConfig, progress solvers.Progress) (*outcome, error) {
	const steps = 3
	progress(0, steps, "pseudo-tree")
	o := &outcome{fullDom: Domains(in, cfg.Objective, cfg.Domain)}
	full, err := BuildPseudoTree(in.ConstraintGraph(), cfg.Heuristic, nil)
	if err != nil {
		return nil, err
	}
	o.full = full
	o.tree, o.dom = full, o.fullDom
	start := time.Now()
	opt := Options{Objective: cfg.Objective, Domain: cfg.Domain, MemoryBytes: cfg.memory, Heuristic: cfg.Heuristic}
	progress(1, steps, v.Name)
	if err := v.solve(o, ctx, in, v, cfg, opt); err != nil {
		return nil, err
	}
	o.wallMS = float64(time.Since(start).Microseconds()) / 1000
	if err := Feasible(in, o.sched, cfg.Objective == ObjectiveValue, cfg.Domain); err != nil {
		return nil, errs.Wrap(errs.Internal, err)
	}
	if !o.exactRan && cfg.Objective == ObjectiveMakespan {
		progress(2, steps, "exact optimum")
		o.exact, o.exactRan = Exact(ctx, in, cfg.Domain, cfg.timeLimit), true
		if err := ctx.Err(); err != nil {
			return nil, err
		}
	}
	progress(steps, steps, "done")
	return o, nil
}

// solveDPOP runs DPOP on the full tree (dpop) or on the tree back-edge
// deletion reduces (dpop-wd).
func (o *outcome) solveDPOP(ctx context.Context, in *Instance, v variant, cfg runConfig, opt Options) error {
	if v.wd {
		wd, err := WidthDelete(in, o.full, o.fullDom, cfg.WidthLimit, cfg.WDRule, greedyRef(in, cfg.Domain))
		if err != nil {
			return err
		}
		o.tree, o.dom, o.deleted = wd.Tree, wd.Domains, wd.Deleted
	}
	opt.Tree, opt.Domains = o.tree, o.dom
	r, err := Solve(ctx, in, opt)
	if err != nil {
		return err
	}
	if !r.Feasible {
		return infeasible(v, cfg)
	}
	if err := Feasible(in, r.Schedule, cfg.Objective == ObjectiveValue, cfg.Domain); err != nil && v.wd {
		return errs.Invalidf("wd_rule", "rule %s deleted back edges whose jobs can still overlap (start sets {1..L_i} and {L_i+1..T} do not keep a job of L_i ≥ 2 slots apart): %v", cfg.WDRule, err)
	}
	o.sched, o.stats = r.Schedule, r.Stats
	o.widthAfter, o.maxAfter = o.tree.Width(), slices.Max(r.Predicted)
	return nil
}

// solveSplit runs DPOP on the two halves (dpop-split).
func (o *outcome) solveSplit(ctx context.Context, in *Instance, v variant, cfg runConfig, opt Options) error {
	var hw *HalfWD
	if v.wd {
		hw = &HalfWD{Limit: cfg.WidthLimit, Rule: cfg.WDRule}
	}
	sr, err := SplitWD(ctx, in, opt, hw)
	if err != nil {
		return err
	}
	if !sr.Feasible {
		return infeasible(v, cfg)
	}
	o.deletedInHalves = sr.Deleted
	o.split, o.sched, o.stats, o.tree = sr, sr.Schedule, sr.Stats, nil
	for _, h := range []*Result{sr.First, sr.Second} {
		if h == nil {
			continue
		}
		o.widthAfter = max(o.widthAfter, h.Tree.Width())
		o.maxAfter = max(o.maxAfter, slices.Max(h.Predicted))
	}
	return nil
}

// solveExact runs the branch and bound (exact); sizes are the full tree's.
func (o *outcome) solveExact(ctx context.Context, in *Instance, _ variant, cfg runConfig, _ Options) error {
	o.exact, o.exactRan = Exact(ctx, in, cfg.Domain, cfg.timeLimit), true
	if err := ctx.Err(); err != nil {
		return err
	}
	if o.exact.Schedule == nil {
		return errs.Invalidf("horizon", "no schedule of every job fits the horizon of %d slots", in.Horizon)
	}
	o.sched = o.exact.Schedule
	o.widthAfter = o.full.Width()
	o.maxAfter, _ = o.full.MaxEntries(sizes(o.fullDom))
	return nil
}

// greedyRef is the greedy list schedule when it lies inside the domains
// (the reference of RuleGreedyGuided), else nil.
func greedyRef(in *Instance, domain string) Schedule {
	return GreedyIn(in, Domains(in, ObjectiveMakespan, domain))
}

func infeasible(v variant, cfg runConfig) error {
	if v.wd {
		return errs.Invalidf("wd_rule", "the domains left by back-edge deletion with rule %s admit no schedule of every job; try wd_rule %s or a larger width_limit", cfg.WDRule, RuleGreedyGuided)
	}
	return errs.Invalidf("horizon", "%s found no schedule of every job inside the horizon", v.Name)
}

func sizes(dom [][]int) []int {
	s := make([]int, len(dom))
	for i := range dom {
		s[i] = len(dom[i])
	}
	return s
}
