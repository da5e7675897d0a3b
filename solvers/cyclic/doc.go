// Package cyclic is the cyclic scheduling family of the seed
// 003_1e1f6712bcbc01cc (Toporkov, Bobchenkov, Yemelyanov, Tselishchev,
// Bulletin of SUSU CMSE 2014, 3(2): 43–62), §§1.1, 1.2, 1.4, 2.1–2.4: the
// cyclic scheduling scheme (css), the fair-share model with AEP and
// sub-batches (fair), the shift heuristic, backfilling and the combined
// method, in a virtual organization whose owners keep running local jobs.
// Measurements are in bench/README.md ("solvers/cyclic").
//
// Model: integer time units, a cycle is [0, T) (seed T = 600). A node has a
// performance p and a price c per unit; owners' local jobs are busy
// intervals, the gaps are slots; a Domain holds one cycle's. A job asks m
// nodes at once, volume V, a minimum performance and a budget; its time on
// a node is ⌈V/p⌉ ≥ 1 (the seed's "rough right edge"; the seed's times are
// real). A window is m slots on distinct nodes starting together.
//
// One cycle (Simulate; BatchPlanner's doc holds the steps and ties): the
// batch in k sub-batches (css: k = 1), alternatives by css first fit or
// fair AEP (exact, searcher.find), an exact DP choice (Choose) under the
// VO strategy (eqs. 10–13, g* by eqs. (2), (4)), the shift (§1.4); jobs
// without a window are carried. pin_test.go pins 40 plans and the reduced
// reproduce against any speed change.
//
// Open points, each with its quote or "ours": the generator's open laws
// are Toporkov2014's literals; the seed's experiments are independent
// cycles («5000 отдельных циклов»), so the reproduce never carries (runs
// do, §1.1; maxCarried caps the queue); failure_rate (U) is the share of
// cycles with a job left without alternative; maxAlternatives per job. In
// the report's notes: Tables 1–2's unnamed strategy is runtime; Fig. 3's
// loads come from a scan (fig3Loads); Table 1's N_A ≈ 12 is unreachable
// with disjoint alternatives of our sizes; costs depend on the unpriced
// unit, so compare ratios; Table 2 prices the median node at table2Ratios
// × its market price, so the measured peak is not built in.
//
// backfill (§1.1, BackfillPlanner): a FCFS queue over the same slots, depth
// 0 none, 1 EASY, inf conservative, reservations renewed never later
// (checked by replay). combined (§3.2, CombinedPlanner, Slice):
// round(css_share·N) jobs by priority to fair, the rest backfilled; 0 is
// backfill and 1 fair (tested); the fair slice keeps its reserved time on
// early completion. early=true runs U[early_min, 1] of the reserved time
// (seed), drawn per job id; planned_* and actual_* are reported.
// n_alternatives is the cyclic scheme's and the two utilizations share a
// name only (report.Metric.Variants). A trace simulation's utilization is
// declared for batch and "external:*" (report.Covers): a decision
// process reports it through the same simulator, so built-in and external
// runs are ranked together wherever they ran (issue 42 item 1).
//
// Reproduce: Tables 1–3, Figs 3–8 as independent cycles through
// solvers.ForEach; Claims by solvers/claims rules on per-cycle values, a
// threshold of ours named in its row; the sensitivity rows read
// data/sensitivity.json (MeasureSensitivity, sensmeasure_test.go);
// seedexp.go holds the sweeps (table2 via owner_price). config.go holds
// Config, GenConfig and ReproConfig with their defaults' reasons and the
// variants each knob applies to. Native JSON: interval, nodes with sorted
// disjoint [start, end) busy intervals, jobs (criterion default start),
// unique ids, an optional generator. SWF traces (format "swf", plain or
// gzip): variant batch simulates them with package batch (fcfs, easy,
// conservative), the CLI straight from the file (Strategy.RunFile) with
// the stored trace's report; the slot variants cut them into cycles
// (Trace.Cycles). How procs, size, estimates and unit_s read a trace is in
// their docs (config.go), each a Note of the report; with early=true a
// trace's job runs its recorded runtime (SimConfig.Early). Generate, slot
// runs, uploads and stored traces (decodeTrace) reserve memory first.
// A Batsim JSON workload (field batsim), with an optional SimGrid
// platform (field platform), is read by package formats and stored as a
// trace (batsimworkload.go): each job's runtime from its profile, its
// walltime as the requested time, the platform's compute hosts (else
// nb_res) as the machine.
package cyclic
