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
// One cycle (BatchPlanner, Simulate): the batch is the carried jobs
// (longest-waiting first) then the new ones; it is cut into k contiguous
// sub-batches, larger first (css: k = 1); alternatives search (round after
// round one more disjoint window per job: css first fit — the earliest
// start, slots in scan order (slot start, then node index), the m cheapest
// if over budget; fair: AEP by the job's own criterion); the choice is an
// exact DP under the VO strategy (income eq. 10, runtime eq. 11, proctime
// = eq. 11 on processor time as in Fig. 3, cost eq. 12, idle eq. 13) with
// g* from eqs. (2), (4), per sub-batch; a fixed limit is split by job
// share; if nothing fits g* it is raised to Σ each job's least g
// (counted); DP ties go to the earlier alternative; shift (§1.4) moves
// chosen windows earlier in start order; jobs without a window are
// carried. AEP (search.go) is exact: trying the starts of slots suffices
// (a window moves to its latest slot start without getting worse); ties
// to the earliest start, then the pick rule; tests compare it with
// enumeration and a plain scan, and pin_test.go pins 40 plans and the
// reduced reproduce against any speed change.
//
// The seed's stated settings, and the generator's choices where it says
// nothing (price law c = p(1 + ε), job law kth from the KTH SP2 log with a
// 1080 s unit, budgets, minimum performance, local load set to meet the
// seed's failure rates), each with its quote or "ours", are the literals
// of Toporkov2014 (generate.go); every cycle draws from its own stream
// (cycleRNG). Other open points decided: the seed's experiments are
// independent cycles («5000 отдельных циклов»), so the reproduce never
// carries (runs carry by default, §1.1); the carried queue is capped at
// max(100, 5 × jobs per cycle), oldest dropped (counted); failure_rate
// (U) is the share of cycles with a job left without alternative; at most
// 30 000 alternatives per job; Tables 1–2's unnamed strategy is runtime
// (said in the report); Fig. 3's loads are found by a scan (0.43, 0.25,
// 0.05); Table 1's N_A ≈ 12 is unreachable with disjoint alternatives of
// our sizes; costs depend on the unpriced unit, so compare ratios; Table
// 2 prices the median node at 0.25 … 2 × its market price, so the measured
// peak is not built in.
//
// backfill (§1.1): a FCFS queue over the same slots, one pass per event;
// the first depth waiting jobs hold reservations (0 none, 1 EASY, inf
// conservative), renewed never later (checked by replay). combined (§3.2):
// round(css_share·N) jobs by priority (queue, expensive, demanding) go to
// fair, the rest are backfilled; 0 is backfill and 1 fair (tested); the
// fair slice keeps its reserved time on early completion (the VO sold
// it). early=true runs U[early_min, 1] of the reserved time (seed), drawn
// per job id; planned_* and actual_* are reported. n_alternatives is the
// cyclic scheme's and the two utilizations share a name only
// (solvers.Metric.Variants).
//
// Reproduce: Tables 1–3, Figs 3–8 as independent cycles through
// solvers.ForEach; Claims by solvers/claims rules on per-cycle values, a
// threshold of ours named in its row; the sensitivity rows read
// data/sensitivity.json (MeasureSensitivity, sensmeasure_test.go);
// seedexp.go holds the sweeps (table2 via owner_price). config.go holds
// Config, GenConfig and ReproConfig with their defaults' reasons and the
// variants each knob applies to. Native JSON: interval, nodes with sorted
// disjoint [start, end) busy intervals, jobs (criterion default start),
// unique ids, an optional generator.
//
// SWF traces (format "swf", plain or gzip): variant batch simulates them
// with package batch (fcfs, easy, conservative); the slot variants cut
// them into cycles (Trace.Cycles: nodes of performance 1 and price 1).
// How procs, size, estimates and unit_s read a trace — fallbacks, jobs cut
// at their request, records skipped and counted — is in their docs
// (config.go), each also a Note of the report; with early=true a trace's
// job runs its recorded runtime out of its request. The CLI runs batch straight
// from the file (solvers.FileRunner), with the stored trace's report.
// Memory: Generate, slot runs, uploads and stored traces (decodeTrace)
// reserve their estimates first.
package cyclic
