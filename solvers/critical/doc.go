// Package critical is the critical works strategy family: application-level
// scheduling of one parallel program, given as a weighted task graph, onto
// processors of different performance, after Toporkov, Tselishchev,
// Bobchenkov and Rychkova, "Metascheduler — a generator of distributed
// computing strategies" (Russian, 2007; seed 002_33e7efcc416cd938.txt),
// with HEFT (Topcuoglu, Hariri and Wu, IEEE TPDS 13(3), 2002) and a plain
// list scheduler as baselines. It is pure Go: no HTTP, SQL or templ.
//
// # Model and units
//
// A DAG G = (V, U): task i has a volume w_i (work units); an edge u → v has
// a transfer time c_uv (time units) and/or a data size in bytes, the time
// being c_uv + bytes / (bandwidth × 10^6) at the run parameter bandwidth
// (MB/s). Processor p has a performance s_p (work units per time unit) and
// a price (cost per busy time unit, default 1). Task i takes
// T[i][p] = w_i / s_p on p, unless the graph carries an explicit time matrix
// (native JSON "times", tasks × processors), which replaces volume /
// performance: that is how Topcuoglu's example with its per-processor costs
// is written. A transfer costs nothing when both tasks run on the same
// processor (as in HEFT); one link speed for all pairs.
//
// Native JSON (canonical form of every workload; unknown fields rejected):
//
//	{"name": "...",
//	 "tasks": [{"id": "t1", "volume": 14}, ...],            // volume optional with "times"
//	 "edges": [{"from": "t1", "to": "t2", "transfer": 18}, // and/or "bytes": 1.5e6
//	           ...],
//	 "processors": [{"id": "P1", "performance": 2, "price": 1}, ...],
//	 "times": [[14, 16, 9], ...]}                            // optional
//
// Bad input (cycle, self-loop, duplicate edge or id, unknown task in an
// edge, negative or non-finite weight, performance ≤ 0, a times matrix of
// the wrong shape) is errs.Invalid naming the file and field, e.g.
// "g.json edges[3].to"; nothing is stored.
//
// WfFormat 1.4, 1.5 and 1.6 (WfCommons; 1.6 only adds optional metrics,
// 1.4 is translated as the official 1.4 → 1.5 migration does) are
// read by formats.ReadWfFormat (a file with a top-level schemaVersion or
// workflow key, or the upload field "wfformat") and mapped so: volume =
// runtimeInSeconds, i.e. performance 1 is one core of the machine that
// recorded the run (the five shared instances ran on 48-core Chameleon
// nodes and carry no per-task core count, so each task is one core); an
// edge per parent/child pair with bytes = the total size of the files the
// parent outputs and the child inputs (0 bytes: pure precedence). The
// trace describes no platform to schedule on, so the run parameter
// wf_processors gives the processors' performances (default 1, 1, 2, 4, a
// small heterogeneous platform: 48 identical cores would make every
// schedule trivial); it replaces the stored processors of a WfFormat
// graph at run time and is ignored for native and preset graphs.
//
// # Reference lengths
//
//   - critical_path_length: the longest path with every task at its fastest
//     time plus every transfer time, the paper's a-priori duration of a
//     critical work.
//   - lower_bound = max(longest path of fastest task times without
//     transfers, total work / total speed). Transfers are left out of the
//     path bound because co-located tasks transfer nothing, so only this
//     bound holds for every schedule (a makespan below it is a bug; tested).
//     With a times matrix the work bound is Σ_i min_p T[i][p] / m.
//
// # Steps of critical-works
//
//  1. Tree of critical paths (BuildTree; the paper's hybrid of Ford's
//     longest path and Yen's k paths). D0 = the longest path of G (DAG
//     dynamic programming in topological order; ties to the earlier task and
//     in-arc). A node's children are the longest paths of its graph minus
//     one edge of its path each; a node's graph lacks every edge removed on
//     the way from the root. A node is a leaf when its path has one edge (or
//     none) or repeats a path already in the tree ("duplicate"). Built level
//     by level. Bounds: tree_max_nodes (a node is expanded only if all its
//     children fit), tree_max_depth, tree_max_ms (wall clock); the nodes a
//     bound leaves unexpanded are marked "cut by bound" and the report says
//     which bound cut (tree_cut = 1).
//  2. Ranked critical works (RankWorks): the heaviest tree path not yet
//     taken, while some edge is uncovered. Decisions: a path that adds no
//     new edge is skipped (its edges were all checked by earlier works, so
//     it would change nothing); when the tree is exhausted (it can be, even
//     unbounded, because duplicates stop branches) or cut, each edge still
//     uncovered gets the longest path through it ("completion" works), so
//     the list always covers every edge; all works are then ranked by
//     length (stable), and tasks in no edge become works of their own,
//     ranked last by their fastest time.
//  3. Planning, work by work, for every current variant (PlanCriticalWorks).
//     The job's time frame is [0, D], an input in the paper («все время
//     оптимизации, заданное для … задания»): run parameter deadline, or
//     deadline_factor × HEFT's makespan (default 1.5, an unknown: the
//     paper gives no value; the reproduce sweeps 1, 1.25, 1.5, 2). A
//     variant holds a-priori processor and times for the planned tasks.
//     For one work (a path), the backward pass computes for every
//     unplanned task and processor its latest finish, from the next task
//     of the work (planned: its start; unplanned: its latest start on the
//     best processor) and from D; the forward pass places the tasks in
//     path order, each at its earliest start on each processor (after all
//     its planned predecessors' data and the previous task of the work),
//     keeping per (position, processor) the best criterion value among
//     the feasible transitions. The optimal states at the end are the
//     answers (at most MaxAnswers = 2, the ties; ours); each answer is
//     combined with its variant (m variants × n answers) and at most
//     max_variants (default 8, ours; the paper keeps all), the best by
//     the partial criterion, go on (the rest are "pruned", counted apart
//     from the dropped). Processor occupancy is not looked at here: the
//     planner assigns time estimates and leaves conflicts to step 4, and
//     every transfer counts, even between tasks put on one processor.
//     Criteria: load (the seed's, "average load of the base processors"):
//     maximize Σ planned busy time inside [0, D], i.e. give tasks the
//     slowest processor that still fits their window; makespan (ours):
//     earliest finish; cost (ours): least Σ time × price. Ties go to the
//     earlier finish, then the lower processor. The seed's special cases
//     fall out of the same pass: one unplanned task takes the window its
//     planned neighbours leave; a work of planned tasks only is a check
//     of its transfers; an isolated task gets [0, D].
//     Failure cases, each strikes the variant out: case 1, two planned
//     neighbours on the work break precedence plus transfer (planned
//     independently by earlier works); case 2, no feasible placement (too
//     little slack between planned ends, or past D). When no variant is
//     left the algorithm ends (the paper's stop, «либо не осталось
//     вариантов распределения … алгоритм завершает свою работу»): the run
//     reports stopped = 1, no schedule metrics, and the best variant's
//     plan before that work as a partial plan. Every edge is checked
//     when its first covering work is planned, so a surviving plan keeps
//     precedence with all transfers.
//  4. Collision resolution (Representatives, resolveCollisions) on every
//     variant left. A collision is a pair of tasks planned on one
//     processor at overlapping times; X = the later-planned task, Y = the
//     earlier. Step 1: Y vertices of degree 1, by increasing weight
//     (planned time), represent their X neighbour; the X vertices left, by
//     increasing number of free Y neighbours, take their lightest free
//     one (the seed's heuristic; its Fig. 2 situation is a test and a
//     Claims row). Step 2: in each pair the heavier task keeps the
//     processor; if that is x, y must have another processor it can run
//     on, else nothing moves. Step 3: the tasks not chosen (and X vertices
//     without a representative) go, fewest options first, to the
//     processor that takes them inside their time frame (start fixed,
//     finish ≤ each successor's planned start less the transfer, and ≤ D)
//     with the least time (time × price under cost). The paper's step 3
//     takes Y = «множество незадействованных процессоров», the given
//     processors not engaged in the computation; run parameter
//     collision_processors: idle (default, the paper's): a platform
//     processor free over the task's frame; new (scale-out, ours, a
//     separate non-default setting): else a new copy of the fastest
//     platform processor that fits joins the configuration. The paper
//     chooses a configuration among given resources; it creates none. The
//     procedure is repeated on the pairs left while some task moves (the
//     paper applies its procedure iteratively; at most 10 rounds). A
//     variant with a collision left is struck out too (the paper's
//     "exceptional situation"); when none is left the run stops the same
//     way. On the platform (idle) the method rarely keeps a variant (the
//     reproduce's Deadline comparison counts the stops); under new the
//     configuration grows to about 8–40 processors, so the reproduce runs
//     HEFT and list on the processors that run used.
//     The paper's variant's result is the best remaining variant's
//     a-priori plan (criterion, then makespan or cost); it ends inside
//     [0, D] by construction.
//  5. critical-works-fallback (ours, a separate variant): when every
//     variant fails on a work, the work is planned as early as possible
//     without its windows (counted: works_fallback) instead of stopping,
//     and every variant is realized after collision resolution: tasks in
//     order of planned start, each started when its processor is free and
//     its data has arrived; a task left in collision goes where it
//     finishes first. Valid by construction (checked on every run).
//
// heft and list build the tree and works too, to colour the Gantt by
// critical work; their schedules do not depend on them.
//
// # Baselines
//
//   - heft: rank_u(i) = mean_p T[i][p] + max over successors (c_ij +
//     rank_u(j)); tasks by decreasing rank_u (ranks rounded to 1e-9 so equal
//     ranks tie, then topological order); each on the processor of earliest
//     finish with insertion into idle gaps; ties to the lower processor.
//     On the 2002 paper's 10-task example it gives their makespan 80 and
//     task order (tested).
//   - list: the same priority; each task on the processor that becomes free
//     first (ties to the lower index), no insertion, no look at speed.
//
// # Metrics
//
// Every run: deadline, meets_deadline (1/0; 0 for a stopped run),
// processors (the platform's count), processors_used (the configuration
// the run scheduled on: the platform's processors plus the copies
// collision_processors new added; load, cost and lower_bound are over
// them, so makespan_over_bound ≥ 1 on every run, tested on the workflows
// and 300 random DAGs), critical_path_length, lower_bound, stopped (1/0: the paper's stop),
// variants_generated (the first variant and every branch) =
// variants_kept + variants_dropped (failure cases 1, 2 and unresolved
// collisions) + variants_pruned (over max_variants), works, works_planned,
// works_fallback, collisions, collisions_unresolved, tree_nodes, tree_cut,
// dfs_paths (CountPaths: the source-to-sink paths a depth-first
// enumeration visits), wall_ms. A run with a schedule adds makespan,
// makespan_over_bound, processor_load_mean = Σ busy / (makespan ×
// processors), processor_load_deadline = Σ busy / (D × processors) (the
// paper's load over the frame) and cost = Σ time × price. The table
// "Critical works" says for each work how it was planned (planned_by: DP
// in its time frame, our fallback, or not planned after the stop) and the
// variants before, dropped and after. heft and list report 0 variants.
//
// The planner's counts (variants_*, works_planned, collisions,
// collisions_unresolved) and the tree's size (tree_nodes, tree_cut, works)
// are meaningful for critical-works and critical-works-fallback only
// (solvers.Metric.Variants): heft and list report 0 variants and build the
// tree only to colour their Gantt. stopped is critical-works' alone (the
// fallback never stops) and works_fallback the fallback's alone. A compare
// shows them "n/a" for the other variants.
//
// # Deviations from the paper
//
//   - The paper's search-tree DP of [2] (Toporkov 2006) is not given in
//     the seed; ours is the backward/forward pass over one path above.
//   - Completion works for uncovered edges (the paper's step-2 loop would
//     not end when the tree's paths leave an edge uncovered) and skipping
//     paths with no new edge are ours.
//   - The variant cap (max_variants) and MaxAnswers are ours.
//   - collision_processors new (scale-out) is ours: it adds processors
//     to the configuration; the reproduce compares it only with HEFT and
//     list on the processors it used.
//   - critical-works-fallback (relaxation and realization) is ours.
//
// # Reproduce
//
// The seed publishes no numbers, so Reproduce measures its mechanisms and
// claims on its own terms, the Claims table first. Its rows are judged
// only by the shared rules of solvers/claims on per-instance numbers
// (claims.go says which rule each row uses): the Fig. 1 construction on
// every complete tree (Share; cut trees counted apart); the enumeration
// claim as a Direction paired per graph, tree nodes against the DFS paths
// of CountPaths, on complete trees only, cut trees counted apart; Fig. 2
// and 10 × instances random collision graphs as a Direction paired per
// graph against the lightest-neighbour choice; the failure cases and the
// stop as Occurs over the paper's method's runs on the platform whose
// deadline is at least the critical-work length (below it the paper's own
// estimate says no plan fits: those runs are counted apart); the load
// criterion as a Direction against HEFT on the same processors, per graph
// at each deadline factor, failures counted. "Deadline comparison"
// (factors 1, 1.25, 1.5, 2 × HEFT's makespan; the workflows and random
// DAGs of 30 and 100 tasks) also states each deadline × the critical-work
// length; every group of rows is on the same processors (the platform, or
// scale-out's configuration for HEFT and list beside scale-out). Trees are
// bounded by nodes only there (a wall-clock cut would make the tables
// depend on the machine). Parameter instances (default 30) scales it.
//
// # Parameters
//
// Each parameter list is a typed config whose Declare method binds its
// fields to the public names, units, limits and docs (config.go):
// RunConfig (the run: criterion, max_variants and collision_processors,
// which only the critical-works variants read, so they are declared For
// them; bandwidth, the tree bounds, deadline, deadline_factor and
// wf_processors, which every variant uses), GenConfig (preset random) and
// ReproConfig (the experiment). Their defaults are DefaultRunConfig,
// DefaultGenConfig and DefaultReproConfig, whose literals carry each
// default's reason and unit in a comment. solvers.Def (New) decodes and
// checks them before the family's code, which reads fields.
//
// # Memory budget
//
// Generate reserves the graph (tasks × processors times, at most MaxEdges
// edges, the preview) on "tasks"; Run reserves the schedulers' tables (tasks
// × processors) on "workload" and the tree of critical paths on
// "tree_max_nodes": each of its nodes may keep a path as long as the graph's
// longest chain (longestChain) and up to tree_max_depth removed edges. Both
// use solvers.Reserve against the memory budget in the context.
package critical
