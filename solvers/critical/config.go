package critical

import (
	"time"

	"schedlab/solvers"
)

// RunConfig is a run's parameters. Every variant builds the tree of
// critical paths (its size is in every report), so the tree bounds and the
// bandwidth apply to all; only critical-works reads the criterion.
type RunConfig struct {
	// Criterion is what the critical-works planner optimizes: CriterionLoad,
	// CriterionMakespan or CriterionCost.
	Criterion string
	// Bandwidth turns an edge's bytes into transfer time, MB/s.
	Bandwidth float64
	// TreeMaxNodes bounds the nodes of the tree of critical paths.
	TreeMaxNodes int
	// TreeMaxDepth bounds the tree's depth (edges removed on the way from
	// the root), levels.
	TreeMaxDepth int
	// TreeMaxMS bounds the time spent building the tree, ms (wall clock).
	TreeMaxMS float64
	// DeadlineFactor sets the job's time frame [0, D] when Deadline is 0:
	// D = DeadlineFactor × HEFT's makespan on the same graph.
	DeadlineFactor float64
	// Deadline is the job's time frame in time units; 0 derives it from
	// DeadlineFactor.
	Deadline float64
	// MaxVariants caps the variants carried from one work to the next.
	MaxVariants int
	// CollisionProcessors is the reading of the collision steps
	// (CollisionReadings; doc.go): CollisionReserve (default), the
	// literal CollisionIdle, CollisionShift, CollisionDelay,
	// CollisionPerWork, CollisionReplan, or CollisionNew (scale out:
	// ours, a separate setting).
	CollisionProcessors string
	// WfProcessors is the performances of the processors a WfFormat
	// workflow is scheduled on, comma-separated (performance 1 = one core
	// of the recording machine).
	WfProcessors string
}

// DefaultRunConfig is the run parameters' defaults.
func DefaultRunConfig() RunConfig {
	return RunConfig{
		Criterion:    CriterionLoad, // the seed's criterion
		Bandwidth:    10,            // MB/s: the shared Pegasus workflows' transfers then range from ms to 1.3 s, beside runtimes of 0.05–126 s
		TreeMaxNodes: 2000,          // nodes: the shared workflows' complete trees have 1–832; a 1,000-task random DAG is cut near 2,000 in well under a second
		TreeMaxDepth: 100,           // levels: the shared workflows' trees are complete; on large graphs the node bound is the one that matters
		TreeMaxMS:    1000,          // ms: a wall-clock guard; the report says when it cut
		// The paper gives the time frame as an input and no value: 1.5 ×
		// HEFT's makespan is the middle of the sweep {1, 1.25, 1.5, 2} the
		// reproduce runs (an unknown; see doc.go).
		DeadlineFactor: 1.5,
		Deadline:       0,                  // time units: 0 = DeadlineFactor × HEFT makespan
		MaxVariants:    DefaultMaxVariants, // variants: ours, the paper keeps all m × n, which grows exponentially
		// The reading closest to the text that produces schedules (doc.go,
		// bench/README.md): the paper's steps, with a task's «запас
		// времени» used to move it in time. Copies of a processor beyond
		// the platform (new) are ours, a separate setting.
		CollisionProcessors: CollisionReserve,
		WfProcessors:        "1,1,2,4", // performances: a small heterogeneous platform (the traces record none; see doc.go)
	}
}

// Declare binds the run parameters (a public contract: names, units,
// limits and docs).
func (c *RunConfig) Declare(ps *solvers.ParamSet) {
	ps.Choice(&c.Criterion, "criterion", []string{CriterionLoad, CriterionMakespan, CriterionCost},
		"What the critical-works planner optimizes per work and when choosing the final variant. load (the seed's: the mean load of the base processors): give each task the slowest processor that still fits its window inside the time frame [0, deadline]; makespan (ours): earliest finish; cost (ours): least Σ time × price. heft and list ignore it.").
		For(planners...)
	ps.Float(&c.DeadlineFactor, "deadline_factor", "× HEFT makespan", 0.01, 1000,
		"The job's time frame [0, D] when deadline is 0: D = deadline_factor × HEFT's makespan on the same graph. The paper takes the frame as given («все время оптимизации, заданное для … задания») and states no value; 1.5 is the middle of the sweep {1, 1.25, 1.5, 2} of the reproduce. Every variant reports meets_deadline against it.")
	ps.Float(&c.Deadline, "deadline", "time units", 0, 1e15,
		"The job's time frame [0, deadline] in time units; 0 (default) derives it from deadline_factor.")
	ps.Int(&c.MaxVariants, "max_variants", "variants", 1, 1000,
		"Cap on the variants carried from one work to the next, the best by the partial criterion (ours: the paper keeps all m × n, which grows exponentially with the works; the pruned ones are counted apart from the dropped ones). Default 8.").
		For(planners...)
	ps.Choice(&c.CollisionProcessors, "collision_processors", CollisionReadings,
		"The reading of the collision steps (the seed's steps 1–3: representatives, the heavier task keeps the processor, the others to «процессоров, не задействованных в вычислениях»). reserve (default): a task in collision moves to the processor and earliest time inside its time frame (after its planned predecessors' data, before its planned successors less the transfer), what stays in collision goes where it finishes first and the tasks after it shift later inside the works' reserve («запас времени»), the variant struck out if the job then ends after the deadline; the only reading that schedules the repository's workflows (bench/README.md). idle (the literal reading): another platform processor free at the task's planned times, nothing moves in time; it stops on nearly every instance. shift: reserve's moves without the shift of later tasks. delay: the same from the planned start on (processors not engaged at the planned time, the task delayed). per-work: shift's moves as each work is assigned («коллизий, возникающих при последовательном назначении … для задач каждой критической работы»). replan: per-work, and a work left in collision planned again on the processors' free times before its variant is struck out. The time readings bound a task's frame by every planned successor, as planning bounds it by every planned predecessor. new (scale-out, ours, not the paper's): a new copy of the fastest platform processor that fits the task joins the configuration, so the run uses more processors than the platform has (processors_used says how many; load, cost and lower_bound are over them) and is not comparable with HEFT and list on the platform.").
		For(planners...)
	ps.String(&c.WfProcessors, "wf_processors", "performances",
		"The processors a WfFormat (WfCommons) workflow is scheduled on, as comma-separated performances relative to one core of the machine that recorded the runtimes (a task's time on p = runtime / performance). Default 1,1,2,4. Native JSON and preset graphs keep their own processors.").
		WithCheck(func(v string) error { _, err := ParsePerformances(v); return err })
	ps.Float(&c.Bandwidth, "bandwidth", "MB/s", 0.001, 1e6,
		"Link speed that turns an edge's bytes (WfFormat file sizes) into transfer time: bytes / (bandwidth × 10^6) time units (s). Edges given as transfer times are not affected. Default 10 MB/s: transfers on the shared Pegasus workflows then range from milliseconds to 1.3 s, visible beside runtimes of 0.05–126 s.")
	ps.Int(&c.TreeMaxNodes, "tree_max_nodes", "nodes", 1, 1_000_000,
		"Bound on the nodes of the tree of critical paths. A node costs one longest-path pass (O(tasks + edges)) and its path's memory. Default 2000: the shared workflows' complete trees have 1–832 nodes (built in ≤ 3 ms), while a 1,000-task random DAG is cut at about 2,000 nodes in well under a second.")
	ps.Int(&c.TreeMaxDepth, "tree_max_depth", "levels", 0, 10_000,
		"Bound on the depth of the tree (edges removed from the graph on the way from the root). Default 100: deep enough that the shared workflows' trees are complete (the node bound is the one that matters on large graphs); lower it to see a cut.")
	ps.Float(&c.TreeMaxMS, "tree_max_ms", "ms", 1, 600_000,
		"Time bound on building the tree (wall clock, so a cut by it may depend on machine speed; the report says which bound cut). Default 1000 ms.")
}

// Readings of the collision steps (run parameter collision_processors;
// doc.go quotes the sentence each rests on).
const (
	CollisionIdle    = "idle"     // literal: another platform processor free at the task's planned times
	CollisionShift   = "shift"    // the processor and earliest time inside the task's time frame (reserve)
	CollisionDelay   = "delay"    // processors not engaged at the planned time, the task delayed inside its frame
	CollisionPerWork = "per-work" // resolved as each work is assigned, with shift's moves
	CollisionReplan  = "replan"   // per-work, and a work left in collision re-planned on the processors' free times before the variant is struck out
	CollisionReserve = "reserve"  // shift's moves, then what stays in collision placed where it finishes first, the tasks after it shifted inside the works' reserve (the variant stands if all ends by the deadline)
	CollisionNew     = "new"      // scale out (ours): a new processor joins the configuration
)

// CollisionReadings is the values of collision_processors.
var CollisionReadings = []string{CollisionIdle, CollisionShift, CollisionDelay, CollisionPerWork, CollisionReplan, CollisionReserve, CollisionNew}

// Tree is the bounds of the tree of critical paths.
func (c RunConfig) Tree() TreeBounds {
	return TreeBounds{MaxNodes: c.TreeMaxNodes, MaxDepth: c.TreeMaxDepth,
		MaxTime: time.Duration(c.TreeMaxMS * float64(time.Millisecond))}
}

// Declare binds the parameters of preset random to the generator's config
// (DefaultGenConfig has their defaults and reasons).
func (c *GenConfig) Declare(ps *solvers.ParamSet) {
	ps.Int(&c.Tasks, "tasks", "tasks", 1, MaxTasks, "Number of tasks. Default 30.")
	ps.Int(&c.Layers, "layers", "layers", 1, MaxTasks, "Number of layers (depth); width ≈ tasks / layers. Default 6.")
	ps.Float(&c.Density, "density", "", 0, 1, "Probability of an edge between two tasks of consecutive layers. Default 0.3.")
	ps.Float(&c.VolMin, "vol_min", "work units", 0, 1e9, "Smallest task volume. Default 10.")
	ps.Float(&c.VolMax, "vol_max", "work units", 0, 1e9, "Largest task volume. Default 100.")
	ps.Float(&c.TransferMin, "transfer_min", "time units", 0, 1e9, "Smallest edge transfer time. Default 5.")
	ps.Float(&c.TransferMax, "transfer_max", "time units", 0, 1e9, "Largest edge transfer time. Default 50 (communication-to-computation ratio ≈ 0.5).")
	ps.Int(&c.Processors, "processors", "processors", 1, MaxProcessors, "Number of processors. Default 4.")
	ps.Float(&c.PerfMin, "perf_min", "work units/time unit", 0.001, 1e9, "Slowest processor performance. Default 1.")
	ps.Float(&c.PerfMax, "perf_max", "work units/time unit", 0.001, 1e9, "Fastest processor performance. Default 4.")
}

// ReproConfig is the parameters of our experiment (Reproduce).
type ReproConfig struct {
	// Instances is the number of random DAGs per size.
	Instances int
	// Bandwidth is the workflows' link speed, MB/s.
	Bandwidth float64
}

// DefaultReproConfig is the experiment's defaults.
func DefaultReproConfig() ReproConfig {
	return ReproConfig{
		Instances: 30, // DAGs per size: the run took 45 s on 2 shared cores; the seed gives no count
		Bandwidth: 10, // MB/s: as the run parameter
	}
}

// Declare binds the experiment's parameters.
func (c *ReproConfig) Declare(ps *solvers.ParamSet) {
	ps.Int(&c.Instances, "instances", "instances", 1, 200,
		"Random DAGs per size (30, 100, 300, 1000 tasks; layers = tasks / 5, density 0.3, the random preset's other defaults; the deadline comparison on 30 and 100), seeds 1000·tasks + i, plus as many 6-task DAGs for the exact optimum and 10 × as many random collision graphs. Default 30 took 45 s on 2 shared cores; the seed gives no instance count (it reports no numbers), so scale up freely (200 takes minutes).")
	ps.Float(&c.Bandwidth, "bandwidth", "MB/s", 0.001, 1e6, "Bandwidth for the workflows' file transfers. Default 10, as the run parameter.")
}
