package dcop

import (
	"context"
	"errors"
	"fmt"
	"math/rand"
	"strings"
	"time"

	"schedlab/errs"
	"schedlab/solvers"
)

// Strategy is the DCOP family as a solvers.Strategy. It holds no state: all
// of a run lives in the call, so one value serves concurrent runs.
type Strategy struct{}

var _ solvers.Strategy = (*Strategy)(nil)

// New returns the DCOP strategy.
func New() *Strategy { return &Strategy{} }

// Info implements solvers.Strategy with the catalogue's entry.
func (s *Strategy) Info() solvers.Info {
	return solvers.FamilyInfo("dcop")
}

// Variant names (a public contract).
const (
	VariantDPOP  = "dpop"
	VariantWD    = "dpop-wd"
	VariantSplit = "dpop-split"
	VariantExact = "exact"
)

// PresetNamekata2008 is the seed's generator (a public contract).
const PresetNamekata2008 = "namekata2008"

// Variants implements solvers.Strategy; the first is the default.
func (s *Strategy) Variants() []solvers.Variant {
	return []solvers.Variant{
		{Name: VariantDPOP, Doc: "Full DPOP (Petcu & Faltings 2005) on the pseudo-tree of the heuristic parameter (default the max-degree DFS tree): UTIL hypercubes over each node's separator from the leaves up, then the VALUE phase down. Optimal, but a UTIL message has Π|D| entries over the separator: on the seed's setting (separators 6–10 at 20 jobs) it exceeds the memory budget and the run fails fast with the node, its separator and the size."},
		{Name: VariantWD, Doc: "The seed's Algorithm 1: delete back edges between the node with the largest separator and an ancestor other than its parent, restricting both jobs' domains (wd_rule) so the deleted pair can never overlap, until the width is ≤ width_limit; then DPOP on the reduced tree. Not optimal: the restriction can cut off the optimum."},
		{Name: VariantSplit, Doc: "The seed's problem split (Section 3.2): DPOP on the first ⌈k/2⌉ jobs, then each later job loses the starts that would overlap an earlier job it shares a resource with, and DPOP runs on the rest. Cycles, messages and bytes are summed over both halves."},
		{Name: VariantExact, Doc: "Centralized depth-first branch and bound on the makespan (greedy list schedule as first incumbent), stopped at time_limit_s; proven optimal when it meets the lower bound (the busiest resource's total work or the longest job) or exhausts the search. Makespan objective only."},
	}
}

// Params implements solvers.Strategy.
func (s *Strategy) Params() []solvers.ParamSpec {
	return []solvers.ParamSpec{
		solvers.IntSpec("width_limit", "5", "variables",
			"Largest separator (pseudo-tree width) dpop-wd reduces to. A UTIL message over w variables of domain d has d^w entries. Default 5: the seed's limit (20^5 × 4 B ≈ 12.8 MB, its 1.2e1 MB).", 1, 30),
		solvers.ChoiceSpec("wd_rule", RuleBalanced,
			"How dpop-wd restricts the two jobs of a deleted back edge. seed: the ancestor keeps only its earliest window ({1..L_i} when unrestricted) and the descendant starts after it, as the seed writes it. balanced: the split slot W between the two jobs of the greedy list schedule that leaves the larger smaller domain, so the greedy schedule stays feasible. Default balanced: on our namekata2008 instances of 30+ jobs the seed rule empties a domain before the width reaches 5 (the run then fails on width_limit), while balanced reaches width 5 at every size tried with makespans within 1 of the lower bound.",
			RuleBalanced, RuleSeed),
		solvers.ChoiceSpec("heuristic", HeuristicMaxDegree,
			"Pseudo-tree heuristic for every DPOP run (the full problem's tree, the tree dpop-wd reduces and both split halves). max-degree: DFS from the node of highest degree, most-connected child first. min-fill: the elimination tree of the greedy min-fill order (a tree edge may join jobs that only share a constraint through the child's subtree). min-fill-dfs: a DFS guided by that order. The seed does not say how it builds its pseudo-tree. Default max-degree; min-fill gives much smaller widths on namekata2008 (mean 15 against 23 at 40 jobs, 20 against 31 at 50; split halves 5.8 against 6.4 at 40, 8.3 against 11.3 at 50), so dpop-split at 40 jobs usually fits a few hundred MB with min-fill.",
			HeuristicMaxDegree, HeuristicMinFill, HeuristicMinFillDFS),
		solvers.ChoiceSpec("objective", ObjectiveMakespan,
			"makespan: every job is scheduled and the last occupied slot is minimized (the seed's experiments). value: a job may be left unscheduled and the total value of the scheduled jobs is maximized. Default makespan, as in the seed's evaluation; the exact variant supports makespan only.",
			ObjectiveMakespan, ObjectiveValue),
		limited(solvers.IntSpec("memory_mb", "1024", "MB",
			"Budget for all UTIL hypercubes of a run (MiB, 2^20 B). The sizes are predicted from the pseudo-tree before anything is allocated; over the budget the run fails with the node, its separator and the size. Default 1024 (1 GiB): fits width 5 at d = 20 many times over and keeps a server responsive. At most the server's own --memory-mb, which also caps the default.", 1, 1<<20), solvers.LimitMemoryMiB),
		limited(solvers.FloatSpec("time_limit_s", "5", "s",
			"Time limit of the exact branch and bound, used by the exact variant and by every variant for optimal_makespan and accuracy. When it runs out the best schedule found is reported with optimal_proven = 0 (and the result may then depend on machine speed). Default 5 s: the seed-setting instances up to 50 jobs are almost always proven within it (most meet the lower bound at once). At most the server's --timeout.", 0.001, 3600), solvers.LimitTimeSeconds),
	}
}

// Presets implements solvers.Strategy.
func (s *Strategy) Presets() []solvers.Preset {
	return []solvers.Preset{{
		Name: PresetNamekata2008,
		Doc:  "The seed's experiment (Section 4.1): jobs that each need per_job distinct resources drawn uniformly, durations uniform in dur_min..dur_max, value 1, slots 1..horizon; instances are redrawn until the constraint graph is one connected component and the greedy list schedule fits the horizon.",
		Params: []solvers.ParamSpec{
			solvers.IntSpec("jobs", "20", "jobs", "Number of jobs (variables). Default 20: the seed's smallest setting (it runs 20, 30, 40, 50).", 1, 1000),
			solvers.IntSpec("resources", "15", "resources", "Number of resources (clusters). Default 15, the seed's.", 1, 1000),
			solvers.IntSpec("per_job", "2", "resources", "Distinct resources each job holds at once (co-allocation). Default 2, the seed's.", 1, 1000),
			solvers.IntSpec("dur_min", "1", "slots", "Shortest duration. Default 1: the seed's durations are 1–3 slots.", 1, 10000),
			solvers.IntSpec("dur_max", "3", "slots", "Longest duration (uniform in dur_min..dur_max). Default 3, the seed's.", 1, 10000),
			solvers.IntSpec("horizon", "20", "slots", "Time grid 1..horizon: the domain of every start. Default 20: the seed's τ = {1..20}.", 1, 10000),
		},
	}}
}

// limited marks a knob as a budget of the given kind (solvers.CheckLimits).
func limited(p solvers.ParamSpec, kind string) solvers.ParamSpec {
	p.Limit = kind
	return p
}

// Generate implements solvers.Strategy.
func (s *Strategy) Generate(ctx context.Context, preset string, params solvers.Params, seed int64) (*solvers.Workload, error) {
	w, err := s.generate(ctx, preset, params, seed)
	if ctx.Err() != nil && errors.Is(err, ctx.Err()) {
		return nil, errs.Wrap("dcop.Generate", errs.Canceled, err)
	}
	return w, errs.Wrap("dcop.Generate", errs.Internal, err)
}

func (s *Strategy) generate(ctx context.Context, preset string, params solvers.Params, seed int64) (*solvers.Workload, error) {
	p, err := solvers.PresetParams(s.Presets(), preset, params)
	if err != nil {
		return nil, err
	}
	cfg := GenConfig{Jobs: p.Int("jobs"), Resources: p.Int("resources"), PerJob: p.Int("per_job"),
		DurMin: p.Int("dur_min"), DurMax: p.Int("dur_max"), Horizon: p.Int("horizon")}
	if err := solvers.Reserve(ctx, "jobs", generateBytes(cfg), fmt.Sprintf("an instance of %d jobs on %d resources", cfg.Jobs, cfg.Resources)); err != nil {
		return nil, err
	}
	in, err := GenerateContext(ctx, cfg, rand.New(rand.NewSource(seed)))
	if err != nil {
		return nil, err
	}
	name := fmt.Sprintf("%s %d jobs, %d resources (seed %d)", preset, cfg.Jobs, cfg.Resources, seed)
	return newWorkload(in, name, "preset")
}

// ParseWorkload implements solvers.Strategy: one native JSON file.
func (s *Strategy) ParseWorkload(ctx context.Context, files []solvers.File) (*solvers.Workload, error) {
	w, err := parseWorkload(files)
	return w, errs.Wrap("dcop.ParseWorkload", errs.Internal, err)
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

// Run implements solvers.Strategy.
func (s *Strategy) Run(ctx context.Context, w *solvers.Workload, variant string, params solvers.Params, progress solvers.Progress) (*solvers.Report, error) {
	r, err := s.run(ctx, w, variant, params, progress)
	if ctx.Err() != nil && errors.Is(err, ctx.Err()) {
		return nil, err // the context's own error, as callers expect
	}
	return r, errs.Wrap("dcop.Run", errs.Internal, err)
}

// runConfig is a run's resolved parameters.
type runConfig struct {
	widthLimit int
	rule       string
	heuristic  string
	objective  string
	memory     int64
	timeLimit  time.Duration
}

func configOf(p solvers.Params) runConfig {
	return runConfig{
		widthLimit: p.Int("width_limit"),
		rule:       p.String("wd_rule"),
		heuristic:  p.String("heuristic"),
		objective:  p.String("objective"),
		memory:     int64(p.Int("memory_mb")) << 20,
		timeLimit:  time.Duration(p.Float("time_limit_s") * float64(time.Second)),
	}
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
	cfg := configOf(p)
	cfg.memory = solvers.MemoryBudget(ctx, cfg.memory) // memory_mb lowers the server's budget, never raises it
	if variant == VariantExact && cfg.objective != ObjectiveMakespan {
		return nil, errs.Invalidf("objective", "the exact variant minimizes the makespan only, got %q", cfg.objective)
	}
	in, err := loadWorkload(w)
	if err != nil {
		return nil, err
	}
	out, err := solveVariant(ctx, in, variant, cfg, progress)
	if err != nil {
		return nil, err
	}
	return runReport(in, variant, cfg, out), nil
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
	notes      []string
	widthAfter int
	maxAfter   float64 // largest UTIL entries of the run
}

func solveVariant(ctx context.Context, in *Instance, variant string, cfg runConfig, progress solvers.Progress) (*outcome, error) {
	const steps = 3
	progress(0, steps, "pseudo-tree")
	o := &outcome{fullDom: Domains(in, cfg.objective)}
	full, err := BuildPseudoTree(in.ConstraintGraph(), cfg.heuristic, nil)
	if err != nil {
		return nil, err
	}
	o.full = full
	o.tree, o.dom = full, o.fullDom
	start := time.Now()
	opt := Options{Objective: cfg.objective, MemoryBytes: cfg.memory, Heuristic: cfg.heuristic}
	progress(1, steps, variant)
	switch variant {
	case VariantDPOP, VariantWD:
		if variant == VariantWD {
			var ref Schedule
			if g := Greedy(in); Makespan(in, g) <= in.Horizon {
				ref = g
			}
			wd, err := WidthDelete(in, full, o.fullDom, cfg.widthLimit, cfg.rule, ref)
			if err != nil {
				return nil, err
			}
			o.tree, o.dom, o.deleted = wd.Tree, wd.Domains, wd.Deleted
		}
		opt.Tree, opt.Domains = o.tree, o.dom
		r, err := Solve(ctx, in, opt)
		if err != nil {
			return nil, err
		}
		if !r.Feasible {
			return nil, infeasible(variant, cfg)
		}
		o.sched, o.stats = r.Schedule, r.Stats
		o.widthAfter = o.tree.Width()
		for _, e := range r.Predicted {
			o.maxAfter = max(o.maxAfter, e)
		}
	case VariantSplit:
		sr, err := Split(ctx, in, opt)
		if err != nil {
			return nil, err
		}
		if !sr.Feasible {
			return nil, infeasible(variant, cfg)
		}
		o.split, o.sched, o.stats, o.tree = sr, sr.Schedule, sr.Stats, nil
		for _, h := range []*Result{sr.First, sr.Second} {
			if h == nil {
				continue
			}
			o.widthAfter = max(o.widthAfter, h.Tree.Width())
			for _, e := range h.Predicted {
				o.maxAfter = max(o.maxAfter, e)
			}
		}
	case VariantExact:
		o.exact, o.exactRan = Exact(ctx, in, cfg.timeLimit), true
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if o.exact.Schedule == nil {
			return nil, errs.Invalidf("horizon", "no schedule of every job fits the horizon of %d slots", in.Horizon)
		}
		o.sched = o.exact.Schedule
		o.widthAfter = full.Width()
		o.maxAfter, _ = full.MaxEntries(sizes(o.fullDom))
	}
	o.wallMS = float64(time.Since(start).Microseconds()) / 1000
	if err := Feasible(in, o.sched, cfg.objective == ObjectiveValue); err != nil {
		return nil, errs.Wrap("dcop."+variant, errs.Internal, err)
	}
	if !o.exactRan && cfg.objective == ObjectiveMakespan {
		progress(2, steps, "exact optimum")
		o.exact, o.exactRan = Exact(ctx, in, cfg.timeLimit), true
		if err := ctx.Err(); err != nil {
			return nil, err
		}
	}
	progress(steps, steps, "done")
	return o, nil
}

func infeasible(variant string, cfg runConfig) error {
	if variant == VariantWD {
		return errs.Invalidf("wd_rule", "the domains left by back-edge deletion with rule %s admit no schedule of every job; try wd_rule %s or a larger width_limit", cfg.rule, RuleBalanced)
	}
	return errs.Invalidf("horizon", "%s found no schedule of every job inside the horizon", variant)
}

func sizes(dom [][]int) []int {
	s := make([]int, len(dom))
	for i := range dom {
		s[i] = len(dom[i])
	}
	return s
}
