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
// WfFormat 1.5 (WfCommons) is read by formats.ReadWfFormat (a file with a
// top-level schemaVersion or workflow key, or the upload field "wfformat")
// and mapped so: volume = runtimeInSeconds, i.e. performance 1 is one core
// of the machine that recorded the run (the five shared instances ran on
// 48-core Chameleon nodes and carry no per-task core count, so each task is
// one core); an edge per parent/child pair with bytes = the total size of
// the files the parent outputs and the child inputs (0 bytes: pure
// precedence); the processors are four of performance 1, 1, 2, 4
// (WorkflowPlatform()). The trace describes no heterogeneous platform, and
// 48 identical cores would make every schedule trivial (the widest level
// fits), so we fix a small heterogeneous one, the same for every
// workflow, and say so in the upload's documentation. Runtimes then read in
// seconds on a reference core.
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
//     A variant holds a-priori processor and times for the planned tasks.
//     For one work (a path), the backward pass computes for every unplanned
//     task and processor its latest finish, from the next task of the work
//     (planned: its start; unplanned: its latest start on the best
//     processor) and from the planning interval H; the forward pass places
//     the tasks in path order, each at its earliest start on each processor
//     (after all its planned predecessors' data and the previous task of the
//     work), keeping per (position, processor) the best criterion value
//     among the feasible (finish ≤ latest finish) transitions. The optimal
//     states at the end are the answers (at most MaxAnswers = 2, the ties);
//     each answer is combined with its variant (m variants × n answers),
//     and at most MaxVariants = 8 variants, the best by the partial
//     criterion, go on (the rest are "pruned", listed). Processor occupancy
//     is not looked at here: the paper's planner assigns time estimates and
//     leaves conflicts to step 4. For the same reason every transfer
//     counts while planning, even between tasks the estimates put on one
//     processor ("the planner outputs a vector of a-priori time estimates;
//     these are then used to assign the processor"): zeroing co-located
//     transfers there let the first work shrink below its a-priori length
//     and starved every later work's window (on the reproduce set, works
//     planned without windows fell from 24,813 to 1,680 and the load
//     criterion's makespan over bound on random DAGs from ≈ 2.15 to ≈ 1.9).
//     The realization (step 5) gains from co-location as usual.
//     Criteria: load (the seed's, "average load of the base processors"):
//     maximize Σ planned busy time, i.e. give tasks the slowest processor
//     that still fits their window, with H = max(critical path, total work /
//     total speed) as the planning interval ("the whole time of
//     optimization"); makespan: earliest finish; cost: least Σ time × price.
//     Ties go to the earlier finish, then the lower processor.
//     The seed's special cases fall out of the same pass: one unplanned task
//     takes the window its planned neighbours on the work leave; a work of
//     planned tasks only is a check of its transfers; an isolated task gets
//     the interval [0, H] (load) or its earliest slot.
//     Failure cases, each drops the variant and is counted: case 1, two
//     planned neighbours on the work break precedence plus transfer
//     (planned independently by earlier works); case 2, no feasible
//     placement (too little slack between planned ends, or past H). Latest
//     finishes come only from the work itself (the paper's windows), while
//     earliest starts use every planned predecessor, so case 1 arises
//     exactly as the paper describes it. Decision where the paper stops
//     ("the algorithm ends when no variant is left"): if every variant
//     fails on a work, all of them go on with that work planned without
//     windows, as early as possible; this is counted ("works planned
//     without windows") and noted, so a schedule always results.
//  4. Collision resolution (Representatives, resolveCollisions) on every
//     kept variant. A collision is a pair of tasks planned on one processor
//     at overlapping times; X = the later-planned task, Y = the earlier.
//     Step 1: Y vertices of degree 1, by increasing weight (planned time),
//     represent their X neighbour; the X vertices left, by increasing number
//     of free Y neighbours, take their lightest free one (the seed's
//     heuristic; its Fig. 2 situation is a test). Step 2: in each pair the
//     heavier task keeps the processor; if that is x, y must fit on another
//     processor (idle over y's planned interval), else nothing moves. Step
//     3: the tasks not kept go, fewest options first, to the processor idle
//     over their interval with the least time (least time × price under the
//     cost criterion). Decision where the paper is silent: a collision that
//     no move resolves (no idle processor, or no representative) is left to
//     the realization, where the later-planned task goes to the processor on
//     which it finishes first.
//  5. Realization (our step; the paper stops at a-priori estimates): tasks
//     in order of planned start, each started when its processor is free and
//     its data has arrived. This makes every schedule valid by construction
//     (checked on every run). The kept variant with the best criterion on
//     the realized schedule (load: mean load; makespan; cost; ties by
//     makespan or cost) is the result; the table "Variants" lists every
//     variant kept, dropped (with the case) or pruned.
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
// makespan; critical_path_length; lower_bound; makespan_over_bound;
// processor_load_mean = Σ busy / (makespan × processors); cost = Σ time ×
// price; variants_kept, variants_dropped (the two failure cases; pruned ones
// are not counted there), collisions (pairs found in the chosen variant),
// tree_nodes, tree_cut (1/0), wall_ms (the whole Solve, tree included).
// heft and list report 0 variants and collisions.
//
// # Deviations from the paper
//
//   - The paper's search-tree DP of [2] (Toporkov 2006) is not given in
//     the seed; ours is the backward/forward pass over one path above.
//   - Completion works for uncovered edges, skipping of paths with no new
//     edge, the relaxation when every variant fails, the realization step
//     and re-placing unresolved collisions are ours (reasons above).
//   - The variants are capped (MaxVariants = 8, MaxAnswers = 2): the paper
//     keeps all m × n, which grows exponentially with the works.
//
// # Reproduce
//
// The seed publishes no numbers (it reports an implementation and its
// failure cases), so Reproduce is our documented experiment: critical-works
// (load and makespan criteria), heft and list on the five shared Pegasus
// workflows and on random DAGs of 30–1,000 tasks (makespan over lower bound
// and mean load), and on 6-task DAGs against the exact optimum
// (ExactMakespan: every assignment × every topological order, the spec's
// "gap to optimum" check), with the paper's qualitative claims in Notes.
// Parameter instances (default 30, under 10 s on 2 cores) scales it up.
//
// # Parameters
//
// Each parameter list is a typed config whose Declare method binds its
// fields to the public names, units, limits and docs (config.go):
// RunConfig (the run: criterion, which only critical-works reads, so it is
// declared For that variant; bandwidth and the tree bounds, which every
// variant uses since each builds the tree), GenConfig (preset random) and
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
