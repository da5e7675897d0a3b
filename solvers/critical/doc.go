// Package critical is the critical works family: one parallel program, a
// weighted task graph, scheduled onto processors of different performance,
// after Toporkov, Tselishchev, Bobchenkov and Rychkova, "Metascheduler — a
// generator of distributed computing strategies" (2007; seed
// 002_33e7efcc416cd938.txt), with HEFT (Topcuoglu, Hariri and Wu, IEEE
// TPDS 13(3), 2002) and a list scheduler as baselines.
//
// Model: task i has volume w_i; an edge u → v a transfer time c_uv and/or
// bytes (time c_uv + bytes/(bandwidth·10^6)); processor p a performance
// s_p and a price (default 1). T[i][p] = w_i/s_p unless the graph carries a
// "times" matrix (Topcuoglu's example). A transfer between tasks on one
// processor is free (as in HEFT); one link speed. Native JSON (tasks,
// edges, processors, optional times; unknown fields rejected); a cycle,
// self-loop, duplicate, bad weight or shape is errs.Invalid naming file
// and field. WfFormat 1.4–1.6 (WfCommons; 1.4 migrated as the official
// migration does; formats.ReadWfFormat): volume = runtimeInSeconds (one
// core of the recording machine), bytes = files the parent outputs and
// the child inputs; the trace has no platform, so wf_processors (default
// 1, 1, 2, 4: 48 identical cores would make every schedule trivial)
// replaces its processors. critical_path_length is the paper's a-priori
// duration (fastest times plus transfers); lower_bound = max(path of
// fastest times without transfers, work/speed) is the only bound every
// schedule keeps (co-located tasks transfer nothing; tested).
//
// Steps: (1) BuildTree, the paper's hybrid of Ford's longest path and
// Yen's k paths: D0 the longest path (ties to the earlier task and arc);
// children are the longest paths without one edge of the parent's path; a
// one-edge or repeated path is a leaf; bounds tree_max_nodes,
// tree_max_depth, tree_max_ms mark nodes "cut by bound" (tree_cut). (2)
// RankWorks: heaviest path first while an edge is uncovered; a path adding
// no edge is skipped and each edge still uncovered gets its longest path
// ("completion", ours: the paper's loop would not end); isolated tasks
// last. (3) PlanCriticalWorks over [0, D] (an input in the paper: run
// parameter deadline, else deadline_factor × HEFT's makespan, default 1.5,
// unknown, swept by the reproduce): per work a backward pass of latest
// finishes and a forward DP of earliest starts by criterion — load (the
// seed's: maximize busy time inside [0, D], the slowest processor that
// fits), makespan or cost (ours); ties to the earlier finish, then the
// lower processor; at most MaxAnswers = 2 answers and max_variants = 8
// variants (ours; the paper keeps all; the rest "pruned"). Occupancy is
// left to step 4 and every transfer counts. Failure case 1 (planned
// neighbours break precedence) or 2 (no placement) strikes a variant; none
// left is the paper's stop: stopped = 1, no schedule, the partial plan
// shown. The search-tree DP of [2] is not in the seed; ours is this pass.
// (4) Collision resolution (Representatives): X later-planned, Y earlier;
// degree-1 Y by increasing weight represent their X, the rest take their
// lightest free Y (the seed's heuristic; its Fig. 2 is a test and a Claims
// row); the heavier task keeps the processor; the others go, fewest
// options first, to the processor fitting their frame with least time
// (× price under cost). collision_processors=idle (default: the paper's
// «незадействованных процессоров», given processors only) or new
// (scale-out, ours: a copy of the fastest processor joins); at most 10
// rounds; a collision left strikes the variant (the paper's "exceptional
// situation"). The result is the best variant's a-priori plan, inside
// [0, D] by construction. (5) critical-works-fallback (ours): a failing
// work is planned as early as possible (works_fallback) and variants are
// realized in start order; valid by construction, checked every run.
//
// Baselines: heft (rank_u with mean times, ranks rounded to 1e-9 then
// topological order, earliest finish with insertion, ties to the lower
// processor; the 2002 paper's example gives its makespan 80, tested) and
// list (the same priority, the first free processor, no insertion); both
// build the tree only to colour the Gantt. Metrics are over
// processors_used (the platform plus scale-out's copies), so
// makespan_over_bound ≥ 1 (tested); processor_load_deadline is the
// paper's load over [0, D]; the planner's counts are the critical-works
// variants' and stopped critical-works' alone (solvers.Metric.Variants).
//
// Reproduce: the seed publishes no numbers, so Claims judge its mechanisms
// with solvers/claims rules on per-instance numbers (claims.go): Fig. 1 on
// complete trees (cut ones counted apart), enumeration against CountPaths
// DFS paths, Fig. 2 and random collision graphs against the lightest
// neighbour, failures and the stop as Occurs on runs whose deadline is at
// least the critical-work length, load against HEFT on the same
// processors (scale-out's configuration for HEFT and list beside it).
// Trees are bounded by nodes only there, so tables do not depend on the
// machine. config.go holds RunConfig, GenConfig and ReproConfig with their
// defaults' reasons. Generate and Run reserve the graph, the tables and
// the tree (tree_max_nodes × the longest chain) before they allocate.
package critical
