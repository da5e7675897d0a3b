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
// processor is free (as in HEFT); one link speed. Native JSON: ParseJSON.
// WfFormat 1.4–1.6 (WfCommons; 1.4 migrated as the official
// migration does; formats.ReadWfFormat): volume = runtimeInSeconds (one
// core of the recording machine), bytes = files the parent outputs and
// the child inputs; the trace has no platform, so wf_processors (default
// 1, 1, 2, 4: 48 identical cores would make every schedule trivial)
// replaces its processors. critical_path_length is the paper's a-priori
// duration (fastest times plus transfers); lower_bound = max(path of
// fastest times without transfers, work/speed) is the only bound every
// schedule keeps (co-located tasks transfer nothing; tested).
//
// Steps (each function's doc holds its ties, bounds and what is ours):
// (1) BuildTree, the tree of critical paths; (2) RankWorks, the works
// heaviest first, with our completion; (3) PlanCriticalWorks over [0, D]
// (D an input in the paper: run parameter deadline, else deadline_factor
// × HEFT's makespan, default 1.5, unknown, swept by the reproduce) by
// criterion load (the seed's), makespan or cost (ours), with the paper's
// failure cases and stop; (4) collision resolution, Representatives (the
// seed's heuristic; its Fig. 2 is a test and a Claims row), under one of
// the readings of collision_processors below; (5) critical-works-fallback
// (ours).
//
// Readings of the collision steps (collision_processors; issue 38): the
// plan gives a-priori times only, and the seed's steps 1–3 say which task
// keeps a processor, not when the others run. Each rests on a sentence:
//   - idle (literal): «Y – множество незадействованных процессоров», the
//     platform's processors free at the planned times; nothing moves in
//     time (it schedules no workflow of the repository: bench/README.md).
//   - shift: «при оценке запаса времени»: a task goes to the processor
//     and earliest time inside its reserve (after its planned
//     predecessors' data, before its planned successors' start).
//   - delay: «процессоров, не задействованных в вычислениях» as not
//     engaged at the planned time: shift from the planned start on.
//   - per-work: «коллизий, возникающих при последовательном назначении
//     вычислительных ресурсов для задач каждой критической работы»:
//     shift's moves as each work is assigned, a variant with a collision
//     left struck out at that work.
//   - replan: per-work, and «текущий рассматриваемый вариант …
//     вычеркивается» only after the work was planned again on the
//     processors' free times.
//   - reserve (default): shift's moves, then what stays in collision goes
//     where it finishes first and later tasks shift inside the works'
//     reserve: «запаса времени … может быть недостаточно» strikes a
//     variant only when the job then ends after the deadline. The
//     closest to the text that schedules the repository's workflows.
//   - new: scale-out, ours (copies of platform processors join the
//     configuration; not comparable with HEFT on the platform).
//
// The time readings also bound a task's frame in planning by every
// planned successor («новые временные границы, заданные уже
// распределенными задачами»), as the forward pass waits for every
// planned predecessor's data; under idle only the path's next task
// does, so failure case 1 occurs only there. Measured (go run
// ./bench/critical-readings; bench/README.md): reserve schedules 82 % of
// the instances at deadline factor ≥ 1.5; what stops the rest is
// planning, the seed's failure case 2 («запаса времени … может быть
// недостаточно для их исполнения даже на самом производительном
// процессоре»), as the load criterion stretches each work's tasks to
// fill their windows (max_variants 64 changes nothing).
//
// Baselines: heft (HEFT), list (List: the same priority, the first free
// processor, no insertion) and fastest-node (ours: every task on the
// fastest processor, back to back, as PISA and SAGA's FastestNode,
// Coleman and Krishnamachari, IPDPS 2025); all build the tree only to
// colour the Gantt. CheckSchedule (valid schedule, makespan ≥ the lower
// bound over the processors used) checks every complete run. Metrics are
// over processors_used (the platform plus scale-out's copies), so
// makespan_over_bound ≥ 1 (tested); processor_load_deadline is the
// paper's load over [0, D]; the planner's counts are the critical-works
// variants' alone (report.Metric.Variants).
//
// Reproduce: the seed publishes no numbers, so Claims judge its mechanisms
// with solvers/claims rules on per-instance numbers (claims.go, each
// row's reading in its judge's doc); trees there are bounded by nodes
// only, so tables do not depend on the machine. config.go holds the
// configs with their defaults' reasons. Generate and Run reserve the
// graph, the tables and the tree (tree_max_nodes × the longest chain)
// before they allocate.
package critical
