package critical

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand"
	"strings"
	"time"

	"schedlab/errs"
	"schedlab/report"
	"schedlab/solvers"
	"schedlab/solvers/formats"
)

// New returns the critical-works strategy (solvers.Def does the wrapping:
// variant resolution, the typed configs, progress, errors, the WfFormat
// upload). It holds no state: all of a run lives in the call.
func New() *solvers.Strategy { return family().Strategy() }

// family is the critical-works family's parts.
func family() *solvers.Def[RunConfig, *RunConfig] {
	return &solvers.Def[RunConfig, *RunConfig]{
		Name:        "critical",
		Info:        solvers.Info{Title: "Critical works method", Summary: "One parallel program (a task graph) onto processors along its critical works, with HEFT as a baseline.", Paper: "Toporkov, Tselishchev, Bobchenkov, Rychkova, metascheduler: a generator of distributed computing strategies (2007)", Seed: "002_33e7efcc416cd938.txt"},
		VariantList: solvers.VariantsOf(variants),
		Metrics:     declaredMetrics(),
		Config:      DefaultRunConfig,
		Run:         runVariant,
		Parse:       func(_ context.Context, files []solvers.File) (*solvers.Workload, error) { return parseWorkload(files) },
		PresetList: []solvers.PresetDef{solvers.NewPreset(PresetRandom,
			"A random layered DAG like the seed's generated graph models: tasks spread over layers (each ≥ 1 task), an edge between each pair of tasks in consecutive layers with probability density (every task below the first layer has ≥ 1 parent), uniform volumes and transfer times, processors with uniform performance.",
			DefaultGenConfig, generateRandom, generateSize)},
		Repro:      solvers.NewReproduce(DefaultReproConfig, reproduce),
		Seeds:      seedExperiments,
		Mutate:     Mutate,
		UploadList: uploads(),
	}
}

// Variant and preset names (a public contract).
const (
	VariantCritical         = "critical-works"
	VariantCriticalFallback = "critical-works-fallback"
	VariantHEFT             = "heft"
	VariantList             = "list"
	VariantFastestNode      = "fastest-node"
	PresetRandom            = "random"
)

// algorithm is a row of the family's variant table: the public variant and
// how it schedules, which says what its metrics mean.
type algorithm struct {
	solvers.Variant
	// plans: the critical works method runs (its counts are metrics);
	// fallback: ours, planning a work past the paper's stop.
	plans, fallback bool
	schedule        func(o *Outcome) Schedule // a baseline's schedule (nil: the planner's)
}

// paper is the seed's method as written: the planner that may stop.
func (v algorithm) paper() bool { return v.plans && !v.fallback }

// variants is the family's variant table; the first is the default.
var variants = []algorithm{
	{Variant: solvers.Variant{Name: VariantCritical, Doc: "The seed's critical works method as written: the tree of critical paths (longest path, then longest paths of the graph minus one more edge per level, bounded by tree_max_nodes, tree_max_depth and tree_max_ms), the ranked list of critical works, planning work by work inside the time frame [0, deadline] with a backward and forward pass (DP) per work under the criterion, several optimal answers combined with every variant (at most max_variants carried on), variants that hit the paper's two failure cases struck out, the run ended when no variant is left (stopped = 1, the partial plan shown as such); then bipartite collision resolution (representatives, the heavier task keeps the processor, losers to processors free over their time frame), a variant whose collisions stay unresolved struck out too. The result is the best remaining variant's a-priori plan."}, plans: true},
	{Variant: solvers.Variant{Name: VariantCriticalFallback, Doc: "Ours, not the paper's: critical-works with our fallback and realization. When every variant fails on a work, the work is planned as early as possible without its time windows instead of stopping; after collision resolution each variant is realized (tasks by planned start, each when its processor is free and its data has arrived; tasks left in collision go where they finish first), so a schedule always results."}, plans: true, fallback: true},
	{Variant: solvers.Variant{Name: VariantHEFT, Doc: "Heterogeneous Earliest Finish Time (Topcuoglu, Hariri, Wu, IEEE TPDS 2002): tasks by decreasing upward rank (mean time over processors + max over successors of transfer + rank), each on the processor giving the earliest finish, with insertion into idle gaps."}, schedule: func(o *Outcome) Schedule { return o.HEFT }},
	{Variant: solvers.Variant{Name: VariantList, Doc: "Plain list scheduling: tasks by decreasing upward rank, each on the processor that becomes free first (no insertion, no look at speed), started when its data has arrived."}, schedule: func(o *Outcome) Schedule { return List(o.D) }},
	{Variant: solvers.Variant{Name: VariantFastestNode, Doc: "Ours, a baseline, not the paper's: FastestNode, as in PISA (Coleman and Krishnamachari, IPDPS 2025) and its SAGA library: every task on the fastest processor (least total time over the tasks), in topological order, back to back; no transfers, all being on one processor. The bound a parallel schedule should beat; HEFT can be worse than it when transfers dominate."}, schedule: func(o *Outcome) Schedule { return FastestNode(o.D) }},
}

// uploads is the Strategy.Uploads file set: a WfFormat workflow besides the
// native JSON ("file", which also accepts WfFormat, recognized by its
// schemaVersion).
func uploads() []solvers.Upload {
	return []solvers.Upload{{Field: "wfformat", Label: "WfFormat workflow (JSON, WfCommons 1.4–1.6)", Accept: ".json,application/json",
		Doc: "A WfCommons workflow instance (WfFormat 1.4, 1.5 or 1.6): runtimes become volumes, parents/children become edges, shared file sizes become bytes transferred at the bandwidth parameter; scheduled on the processors of the run parameter wf_processors (default performances 1, 1, 2, 4)."}}
}

// generateRandom is preset random.
func generateRandom(ctx context.Context, c GenConfig, seed int64) (*solvers.Workload, error) {
	// At most MaxEdges edges: the graph, its times and its JSON and preview.
	est := solvers.SatAdd(solvers.SatMul(int64(c.Tasks), int64(c.Processors), 8), solvers.SatMul(int64(c.Tasks), 256), solvers.SatMul(MaxEdges, 128))
	if err := solvers.Reserve(ctx, "tasks", est, fmt.Sprintf("a graph of %d tasks on %d processors", c.Tasks, c.Processors)); err != nil {
		return nil, err
	}
	g, err := Generate(c, rand.New(rand.NewSource(seed)))
	if err != nil {
		return nil, err
	}
	g.Name = fmt.Sprintf("random %d tasks, %d layers, %d processors (seed %d)", c.Tasks, c.Layers, c.Processors, seed)
	return newWorkload(g, g.Name, "preset")
}

// isWfFormat tells a WfFormat document from the native JSON by its
// top-level keys (schemaVersion or workflow; the native JSON has neither).
func isWfFormat(data []byte) bool {
	var top map[string]json.RawMessage
	if json.Unmarshal(data, &top) != nil {
		return false
	}
	_, v := top["schemaVersion"]
	_, w := top["workflow"]
	return v || w
}

// parseWorkload reads an upload (solvers.Strategy.ParseWorkload): one
// file, native JSON or WfFormat (field "wfformat", or "file" with a
// schemaVersion key).
func parseWorkload(files []solvers.File) (*solvers.Workload, error) {
	if len(files) != 1 {
		return nil, errs.Invalidf("file", "want one file (native JSON or WfFormat), got %d files", len(files))
	}
	f := files[0]
	name := strings.TrimSuffix(f.Name, ".json")
	if name == "" {
		name = "upload"
	}
	if f.Field == "wfformat" || isWfFormat(f.Data) {
		fname := f.Name
		if fname == "" {
			fname = f.Field
		}
		wf, err := formats.ReadWfFormat(fname, f.Data)
		if err != nil {
			return nil, err
		}
		g, err := FromWorkflow(wf, name)
		if err != nil {
			// A value the reader accepts but the model cannot hold (a
			// runtime over 1e15 s): name the file and the task.
			var e *errs.Error
			if errors.As(err, &e) {
				return nil, &errs.Error{Kind: e.Kind, Field: fname + " (as task graph) " + e.Field, Err: e.Err}
			}
			return nil, err
		}
		return newWorkload(g, name, "wfformat")
	}
	g, err := ParseJSON(f.Data)
	if err != nil {
		return nil, errs.InFile(err, f.Name)
	}
	if g.Name == "" {
		g.Name = name
	}
	return newWorkload(g, name, "json")
}

func newWorkload(g *Graph, name, format string) (*solvers.Workload, error) {
	data, err := g.MarshalJSON()
	if err != nil {
		return nil, err
	}
	return &solvers.Workload{Name: name, Format: format, Summary: g.summary(), Data: data, Preview: preview(g)}, nil
}

func loadWorkload(w *solvers.Workload) (*Graph, error) {
	if w == nil || len(w.Data) == 0 {
		return nil, errs.Invalidf("workload", "no workload data")
	}
	return ParseJSON(w.Data)
}

// reserveRun checks a run's memory before it starts: the schedulers'
// tables (tasks × processors, a few of them), the graph's edges, and the
// tree of critical paths, each of whose tree_max_nodes nodes keeps a path
// (at most the graph's longest chain of tasks) and the removed edges on
// the way to it (at most tree_max_depth).
func reserveRun(ctx context.Context, g *Graph, cfg RunConfig) error {
	T, P, E := int64(len(g.Tasks)), int64(len(g.Processors)), int64(len(g.Edges))
	tables := solvers.SatAdd(solvers.SatMul(T, P, 8, 6), solvers.SatMul(E, 96), solvers.SatMul(T, 512))
	if err := solvers.Reserve(ctx, "workload", tables, fmt.Sprintf("%d tasks on %d processors", T, P)); err != nil {
		return err
	}
	chain := int64(longestChain(len(g.Tasks), g.Edges))
	perNode := solvers.SatAdd(solvers.SatMul(chain, 8), solvers.SatMul(int64(max(cfg.TreeMaxDepth, 0)), 24), 128)
	return solvers.Reserve(ctx, "tree_max_nodes", solvers.SatAdd(tables, solvers.SatMul(int64(max(cfg.TreeMaxNodes, 0)), perNode)),
		fmt.Sprintf("a tree of up to %d critical paths of up to %d tasks", cfg.TreeMaxNodes, chain))
}

// longestChain is the number of tasks on the longest path of the DAG (n
// for a cyclic graph, which Validate refuses anyway).
func longestChain(n int, edges []Edge) int {
	order, bad := topoOrder(n, edges)
	if bad >= 0 || len(order) < n {
		return n
	}
	pred := make([][]int, n)
	for _, e := range edges {
		pred[e.To] = append(pred[e.To], e.From)
	}
	depth := make([]int, n)
	best := 0
	for _, v := range order {
		d := 1
		for _, u := range pred[v] {
			d = max(d, depth[u]+1)
		}
		depth[v] = d
		best = max(best, d)
	}
	return best
}

// runVariant schedules w with a variant and a run config.
func runVariant(ctx context.Context, w *solvers.Workload, variant string, cfg RunConfig, progress solvers.Progress) (*report.Report, error) {
	g, err := loadWorkload(w)
	if err != nil {
		return nil, err
	}
	if g, err = withPlatform(g, cfg); err != nil {
		return nil, err
	}
	if err := reserveRun(ctx, g, cfg); err != nil {
		return nil, err
	}
	out, err := Solve(ctx, g, variant, cfg, progress)
	if err != nil {
		return nil, err
	}
	return runReport(out), nil
}

// Outcome is everything one run produced.
type Outcome struct {
	D       *DAG
	Variant string
	Config  RunConfig
	Bounds  Bounds
	Tree    *Tree
	Works   []Work
	Plan    *PlanResult // critical-works variants only
	// Sched is the schedule when Complete; else (the paper's stop) the
	// partial plan, processor −1 for tasks not planned.
	Sched    Schedule
	Complete bool
	HEFT     Schedule // the baseline the deadline is derived from
	Deadline float64  // the job's time frame [0, Deadline]
	WallMS   float64
	// Platform is the number of the platform's processors; D.M is the
	// configuration the run used, larger only under scale-out
	// (collision_processors new). Bounds are over D's processors.
	Platform int
}

// treeMemoryBudget bounds the memory of the tree's paths.
const treeMemoryBudget = 1 << 30

// Solve runs one variant on a graph.
func Solve(ctx context.Context, g *Graph, variant string, cfg RunConfig, progress solvers.Progress) (*Outcome, error) {
	if progress == nil {
		progress = solvers.NoProgress
	}
	v := solvers.LookupVariant(variants, variant)
	if v.Name == "" {
		return nil, errs.Invalidf("variant", "unknown variant %q", variant)
	}
	start := time.Now()
	d := Prepare(g, cfg.Bandwidth)
	depth := 0
	for _, l := range d.Level {
		depth = max(depth, l+1)
	}
	if est := float64(cfg.TreeMaxNodes) * float64(depth) * 16; est > treeMemoryBudget {
		return nil, errs.New(errs.TooLarge, "tree_max_nodes", "%d nodes × paths of up to %d tasks need about %.0f MB, over the %d MB budget: lower tree_max_nodes", cfg.TreeMaxNodes, depth, est/1e6, treeMemoryBudget>>20)
	}
	o := &Outcome{D: d, Variant: variant, Config: cfg, Bounds: d.ComputeBounds(), Platform: d.M}
	progress(0, 3, "tree of critical paths")
	tree, err := BuildTree(ctx, d, cfg.Tree())
	if err != nil {
		return nil, err
	}
	o.Tree = tree
	if o.Works, err = RankWorks(d, tree); err != nil {
		return nil, err
	}
	progress(1, 3, variant)
	o.HEFT = HEFT(d)
	o.Deadline = cfg.Deadline
	if o.Deadline <= 0 {
		o.Deadline = cfg.DeadlineFactor * o.HEFT.Makespan()
	}
	if v.plans {
		opt := PlanOptions{Criterion: cfg.Criterion, Deadline: o.Deadline, Fallback: v.fallback,
			MaxVariants: cfg.MaxVariants, Collision: cfg.CollisionProcessors}
		pr, err := PlanCriticalWorks(ctx, d, o.Works, opt, func(done, total int, note string) {
			progress(1, 3, note)
		})
		if err != nil {
			return nil, err
		}
		o.Plan = pr
		if pr.D != d {
			// Scale-out added processors: the configuration the run used is
			// the platform's plus the copies, and the lower bound is over it
			// (a schedule on more processors can end before the platform's).
			o.D, o.Bounds = pr.D, pr.D.ComputeBounds()
		}
		if pr.Complete {
			o.Sched, o.Complete = pr.Schedule, true
		} else {
			o.Sched = pr.Partial
		}
	} else {
		o.Sched, o.Complete = v.schedule(o), true
	}
	o.WallMS = float64(time.Since(start).Microseconds()) / 1000
	if o.Complete {
		if err := CheckSchedule(o.D, o.Sched); err != nil {
			return nil, errs.Wrap(errs.Internal, err)
		}
	}
	progress(3, 3, "done")
	return o, nil
}
